"""Faults during load, on the real processes: a Celery worker killed (-9) in the middle of a
standings job, Redis stopped, PostgreSQL restarted. Requests during an outage may get a clear
503 (the clients retry with the same Idempotency-Key), but no turn that got a 201 is lost or
stored twice, nothing answers 500, and within 60 s of recovery every standings table and rating
equals a from-scratch computation (the beat sweep picks up what was missed)."""

import asyncio
import os
import re
import subprocess
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import aiohttp
import pytest
from django.db import connections

from tests.system.accounting import account
from tests.system.conftest import FULL, needs_machine, organizer_token
from tests.system.driver import Api, Ledger, organize, play
from tests.system.stack import Stack

pytestmark = needs_machine

CLIENTS = 8
REDIS_OUTAGE = 30.0
CONVERGE = 60.0
# A standings job of the seeded event takes long enough to be killed in its middle.
SEEDED_PLAYERS, SEEDED_MATCHES = (1_000, 20_000) if FULL else (500, 10_000)


@pytest.fixture(scope="module")
def setup(stack: Stack) -> dict[str, object]:
    token = organizer_token(stack)

    async def organized() -> dict[str, object]:
        async with aiohttp.ClientSession() as session:
            return await organize(Api(session, stack.base_url, token), players=24, tag="faults")

    organized_setup = asyncio.run(organized())
    events = organized_setup["events"]
    assert isinstance(events, dict)
    stack.manage(
        "shell",
        "-c",
        "from benchmarks import seed; from league.models import Event; "
        f"seed.finished_matches(Event.objects.get(pk={events['yardzee']}), "
        f"players={SEEDED_PLAYERS}, matches={SEEDED_MATCHES})",
    )
    return {"token": token, **organized_setup}


class Load:
    """Scorekeepers playing in a background thread until stopped."""

    def __init__(self, stack: Stack, setup: dict[str, object]) -> None:
        self.ledger = Ledger()
        self.after_match = int(stack.sql("SELECT coalesce(max(id), 0) FROM games_match")[0][0])
        self.errors: list[BaseException] = []
        self.thread = threading.Thread(target=self._run, args=(stack, setup), daemon=True)
        self.thread.start()

    def _run(self, stack: Stack, setup: dict[str, object]) -> None:
        try:
            asyncio.run(
                play(
                    stack.base_url,
                    str(setup["token"]),
                    setup,
                    clients=CLIENTS,
                    target=10**9,
                    bad_share=0.1,
                    seed=os.getpid(),
                    ledger=self.ledger,
                )
            )
        except BaseException as error:  # reported by the test, not lost in the thread
            self.errors.append(error)

    def wait_for_turns(self, count: int, timeout: float = 90) -> None:
        started = time.monotonic()
        goal = self.ledger.accepted + count
        while self.ledger.accepted < goal:
            assert time.monotonic() - started < timeout, f"stalled at {self.ledger.accepted} turns"
            assert not self.ledger.failures, self.ledger.failures
            assert not self.errors, self.errors
            time.sleep(0.1)

    def stop(self) -> Ledger:
        self.ledger.stop = True
        self.thread.join(timeout=120)
        assert not self.thread.is_alive(), "the clients did not stop"
        assert not self.errors, self.errors
        return self.ledger


@pytest.fixture
def load(stack: Stack, setup: dict[str, object]) -> Iterator[Load]:
    started = Load(stack, setup)
    started.wait_for_turns(50)
    yield started
    started.ledger.stop = True
    started.thread.join(timeout=120)


def _converged(stack: Stack, load: Load, recovered_at: float) -> float:
    """The accounting, then convergence: seconds from recovery until every table and rating
    equals a from-scratch computation."""
    ledger = load.stop()
    assert 500 not in ledger.statuses, ledger.statuses
    assert account(stack, ledger, after_match=load.after_match) == []
    deadline = recovered_at + CONVERGE
    while True:
        if stack.stale_tables() == 0 and stack.differences_from_scratch() == "":
            return time.monotonic() - recovered_at
        assert time.monotonic() < deadline, (
            f"not converged {CONVERGE:.0f} s after recovery:\n{stack.differences_from_scratch()}"
        )
        time.sleep(1)


def test_a_worker_killed_in_the_middle_of_a_standings_job(
    stack: Stack, setup: dict[str, object], load: Load
):
    log_start = len(stack.log("worker1"))
    events = setup["events"]
    assert isinstance(events, dict)
    refreshing = re.compile(rf"Refreshing standings table (\d+) \(event {events['yardzee']}\)")
    stack.wait_until(
        lambda: refreshing.search(stack.log("worker1")[log_start:]) is not None,
        "a standings job of the seeded event to start",
        poll=0.01,
    )
    stack.kill("worker1")  # within milliseconds of its start: the job takes a third of a second
    killed_log = stack.log("worker1")[log_start:]
    started = refreshing.search(killed_log)
    assert started is not None
    done = f"Refreshed standings table {started.group(1)}:"
    assert done not in killed_log[started.start() :], "killed too late"
    assert stack.stale_tables() > 0
    load.wait_for_turns(50)  # scoring goes on with no worker at all
    stack.start_worker("worker1")
    recovered_at = time.monotonic()
    load.wait_for_turns(50)
    seconds = _converged(stack, load, recovered_at)
    print(f"worker killed mid-job: converged {seconds:.1f} s after a worker was back")


def test_redis_stopped_for_30_seconds(stack: Stack, load: Load):
    parts = urlsplit(stack.broker_url)
    host, port = parts.hostname or "127.0.0.1", parts.port or 6379
    subprocess.run(["redis-cli", "-h", host, "-p", str(port), "shutdown", "nosave"], timeout=30)
    try:
        down_since = time.monotonic()
        accepted_before = load.ledger.accepted
        while time.monotonic() - down_since < REDIS_OUTAGE:
            assert stack.redis("PING") != "PONG"
            assert stack.get_status("/healthz") == 503  # says the broker is unreachable
            time.sleep(2)
        accepted_during = load.ledger.accepted - accepted_before
    finally:  # the machine's Redis, started as DESIGN.md says (it keeps nothing on disk)
        subprocess.run(
            [
                *("redis-server", "--daemonize", "yes", "--bind", "127.0.0.1", "-::1"),
                *("--port", str(port), "--save", "", "--appendonly", "no"),
                *("--dir", "/var/lib/redis", "--logfile", "/var/log/redis/ci.log"),
            ],
            check=True,
            timeout=30,
        )
    stack.wait_until(lambda: stack.redis("PING") == "PONG", "Redis to answer")
    recovered_at = time.monotonic()
    assert accepted_during > 100  # turns are scored while Redis is down
    load.wait_for_turns(50)
    seconds = _converged(stack, load, recovered_at)
    print(
        f"Redis down {REDIS_OUTAGE:.0f} s: {accepted_during} turns accepted meanwhile; "
        f"converged {seconds:.1f} s after it was back"
    )


def _local_cluster() -> tuple[str, str] | None:
    """The machine's PostgreSQL cluster (version, name) when DATABASE_URL is on it."""
    host = urlsplit(os.environ.get("DATABASE_URL", "")).hostname
    versions = (
        sorted(Path("/etc/postgresql").glob("*/main")) if Path("/etc/postgresql").is_dir() else []
    )
    if host not in ("127.0.0.1", "localhost") or not versions:
        return None
    return versions[-1].parent.name, "main"


@pytest.mark.skipif(_local_cluster() is None, reason="restarts the machine's PostgreSQL")
def test_postgresql_restarted(stack: Stack, load: Load):
    version, name = _local_cluster() or ("", "")
    restarted = subprocess.run(
        ["pg_ctlcluster", "--skip-systemctl-redirect", version, name, "restart"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    connections.close_all()  # this process's own connections died with the server
    assert restarted.returncode == 0, restarted.stderr
    stack.wait_until(lambda: stack.get_status("/healthz") == 200, "the service to be healthy")
    recovered_at = time.monotonic()
    load.wait_for_turns(100)
    seconds = _converged(stack, load, recovered_at)
    ledger = load.ledger
    print(
        f"PostgreSQL restarted: {ledger.statuses[503]} answers of 503, "
        f"{ledger.retries} retries; converged {seconds:.1f} s after it was back"
    )
