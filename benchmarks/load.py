"""Closed-loop HTTP load for the end-to-end benchmarks (`benchmarks/test_system_perf.py`).

`clients` clients run at once, each sending its next request as soon as the answer to its
previous one has come back (aiohttp, loopback only). A phase stops after `count` requests in
all or at `deadline` seconds, whichever comes first, so a run is bounded in count and time.
Every request is prepared before the phase starts (bodies already encoded), so the clients
spend their time waiting for the server, not building requests.

A call marked `revalidate` is sent as a browser refreshes a page it holds: with the ETag its
client got last for that path as `If-None-Match`; 304 then counts as expected.

`run_open_loop` sends at a fixed mean rate instead (Poisson arrivals, whatever the answers'
pace), each request on an idle client queue picked at random, and times it from when it was
due."""

from __future__ import annotations

import asyncio
import math
import random
import time
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field

import aiohttp


@dataclass(frozen=True, slots=True)
class Call:
    """One prepared request and the status it must get."""

    method: str
    path: str
    body: bytes | None = None
    headers: Mapping[str, str] = field(default_factory=dict)
    expect: int = 200
    revalidate: bool = False
    # Latencies of calls with a kind are also kept apart (Figures.by_kind): a match's last turn.
    kind: str = ""


@dataclass
class Figures:
    """What one phase measured: every latency (seconds) and status, and the wall time."""

    name: str
    clients: int
    seconds: float = 0.0
    latencies: list[float] = field(default_factory=list)
    statuses: Counter[int] = field(default_factory=Counter)
    failures: list[str] = field(default_factory=list)
    response_bytes: int = 0
    by_kind: dict[str, list[float]] = field(default_factory=dict)

    @property
    def requests(self) -> int:
        return len(self.latencies)

    @property
    def per_second(self) -> float:
        return self.requests / self.seconds if self.seconds else 0.0

    def quantile(self, q: float) -> float:
        """Nearest-rank quantile of the latencies, in seconds."""
        ordered = sorted(self.latencies)
        return ordered[max(0, math.ceil(q * len(ordered)) - 1)]

    @property
    def p50(self) -> float:
        return self.quantile(0.50)

    @property
    def p99(self) -> float:
        return self.quantile(0.99)

    def share(self, status: int) -> float:
        """The share of the answers with `status` (0 to 1)."""
        return self.statuses[status] / self.requests if self.requests else 0.0

    @property
    def mean(self) -> float:
        return sum(self.latencies) / len(self.latencies)

    def merge(self, other: Figures) -> None:
        """Add another phase of the same endpoint (interleaved rounds)."""
        self.seconds += other.seconds
        self.latencies += other.latencies
        self.statuses += other.statuses
        self.failures += other.failures
        self.response_bytes += other.response_bytes
        for kind, latencies in other.by_kind.items():
            self.by_kind.setdefault(kind, []).extend(latencies)

    def summary(self) -> dict[str, float | int | str]:
        return {
            "name": self.name,
            "clients": self.clients,
            "requests": self.requests,
            "seconds": round(self.seconds, 2),
            "per_second": round(self.per_second, 1),
            "p50_ms": round(self.p50 * 1000, 1),
            "p99_ms": round(self.p99 * 1000, 1),
            "mean_ms": round(self.mean * 1000, 1),
            "bytes_per_response": self.response_bytes // max(1, self.requests),
        }


async def _send(
    session: aiohttp.ClientSession,
    base_url: str,
    call: Call,
    figures: Figures,
    etags: dict[str, str],
    started: float,
) -> None:
    """Send one call; its latency counts from `started` (perf_counter)."""
    headers = dict(call.headers)
    if call.revalidate and call.path in etags:
        headers["If-None-Match"] = etags[call.path]
    try:
        async with session.request(
            call.method, base_url + call.path, data=call.body, headers=headers
        ) as answer:
            text = await answer.read()
            status = answer.status
            if call.revalidate and "ETag" in answer.headers:
                etags[call.path] = answer.headers["ETag"]
    except (TimeoutError, aiohttp.ClientError, ConnectionError) as error:
        text, status = str(error).encode(), 0
    latency = time.perf_counter() - started
    figures.latencies.append(latency)
    if call.kind:
        figures.by_kind.setdefault(call.kind, []).append(latency)
    figures.statuses[status] += 1
    figures.response_bytes += len(text)
    expected = status == call.expect or (call.revalidate and status == 304)
    if not expected and len(figures.failures) < 20:
        figures.failures.append(f"{call.method} {call.path}: {status} {text[:300]!r}")


async def _client(
    session: aiohttp.ClientSession,
    base_url: str,
    calls: Iterator[Call],
    figures: Figures,
    budget: list[int],
    deadline: float,
) -> None:
    # The budget is checked before a call is taken, so a phase that ends leaves the rest of
    # a client's queue (the next turns of its match) in order for the next phase.
    etags: dict[str, str] = {}
    while budget[0] > 0 and time.monotonic() < deadline:
        call = next(calls, None)
        if call is None:
            return
        budget[0] -= 1
        await _send(session, base_url, call, figures, etags, time.perf_counter())


def _session() -> aiohttp.ClientSession:
    """A session with no limit on its connections, each request given 30 seconds."""
    return aiohttp.ClientSession(
        connector=aiohttp.TCPConnector(limit=0), timeout=aiohttp.ClientTimeout(total=30)
    )


async def _phase(
    base_url: str, name: str, queues: Sequence[Iterator[Call]], count: int, seconds: float
) -> Figures:
    figures = Figures(name=name, clients=len(queues))
    async with _session() as session:
        budget = [count]
        started = time.perf_counter()
        deadline = time.monotonic() + seconds
        await asyncio.gather(
            *(_client(session, base_url, queue, figures, budget, deadline) for queue in queues)
        )
        figures.seconds = time.perf_counter() - started
    return figures


def run_phase(
    base_url: str, name: str, queues: Sequence[Iterator[Call]], *, count: int, seconds: float
) -> Figures:
    """One client per queue, all at once, until `count` requests or `seconds` have passed."""
    return asyncio.run(_phase(base_url, name, queues, count, seconds))


def run_open_loop(
    base_url: str,
    name: str,
    queues: Sequence[Iterator[Call]],
    *,
    rate: float,
    count: int,
    seconds: float,
    seed: int = 0,
) -> Figures:
    """`count` requests (or as many as are due within `seconds`) at `rate` a second on
    average, with exponential gaps; each is sent on an idle queue of `queues` picked at
    random and timed from when it was due, so time spent waiting for a free client counts."""

    async def open_loop() -> Figures:
        figures = Figures(name=name, clients=len(queues))
        rng = random.Random(seed)
        pick = random.Random(seed + 1)
        # A client queue keeps its match's turns in order; an arrival goes to an idle queue
        # picked at random, as turns come from independent tables. (Taken in turn, the queues
        # kept their matches in step, so every match's last turn arrived in one burst.)
        idle: list[tuple[Iterator[Call], dict[str, str]]] = [(queue, {}) for queue in queues]
        free = asyncio.Semaphore(len(idle))
        async with _session() as session:

            async def arrival(due: float) -> None:
                await free.acquire()
                queue, etags = idle.pop(pick.randrange(len(idle)))
                try:
                    call = next(queue, None)
                    if call is not None:
                        await _send(session, base_url, call, figures, etags, due)
                finally:
                    idle.append((queue, etags))
                    free.release()

            started = time.perf_counter()
            due = started
            tasks = []
            for _ in range(count):
                due += rng.expovariate(rate)
                if due - started > seconds:
                    break
                await asyncio.sleep(max(0.0, due - time.perf_counter()))
                tasks.append(asyncio.create_task(arrival(due)))
            await asyncio.gather(*tasks)
            figures.seconds = time.perf_counter() - started
        return figures

    return asyncio.run(open_loop())
