"""Several web processes sharing nothing but PostgreSQL and Redis (issue 41, "Past one machine";
docs/operations.md, "More than one machine").

Three gunicorn processes (two workers each; each its own process group on its own port, each
worker with its own in-process copies of rendered pages and tables) on the same DATABASE_URL,
broker and cache, behind nginx configured by deploy/nginx/yardleague.conf with the three as its
upstream: nginx round-robins across them as it does across compose's `web` replicas. The
Celery workers take the queues docker-compose.yml gives its worker services (one job process
each here); no beat (every job here is enqueued by the request that needs it). Then:

- whole matches played through nginx, one client, so its round robin sends each turn of a match
  to another process than the turn before (checked by the test's copy of the configuration,
  which names the process that answered): every acknowledged turn stored once, the results
  those of the rulebook;
- a match played straight at the three processes in turn while each of them serves the event
  and league pages: no process serves a page from before a write made on another one;
- a turn retried with its Idempotency-Key on the two other processes, one after the other and
  all at once, gets the first answer back and is stored once;
- once the jobs ran (each on a worker of its queue), every process and nginx serve the same
  standings, ratings and pages, equal to a recompute from scratch.

`DATABASE_URL=... CELERY_BROKER_URL=... .venv/bin/python -m pytest
tests/system/test_web_replicas.py`; its time is in docs/benchmarks.md, "Web replicas system
test"."""

from __future__ import annotations

import asyncio
import http.client
import json
import random
import re
import threading
import uuid
from collections import defaultdict
from collections.abc import Callable, Iterator, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

import aiohttp
import pytest
import yaml

import scoring
from scoring import simulate
from tests.system.accounting import account
from tests.system.conftest import needs_machine
from tests.system.driver import Api, Ledger, MatchRecord, login, organize
from tests.system.proxy import NGINX, UPSTREAM_HEADER, Proxy, running_nginx
from tests.system.stack import LOGS, ORGANIZER, ROOT, Stack, free_port

pytestmark = [
    *needs_machine,
    pytest.mark.skipif(
        not Path(NGINX).exists(), reason="needs Debian's nginx (apt-get install nginx)"
    ),
]

WEB_PROCESSES = 3
WEB_WORKERS = 2
TAG = "replicas"


def compose_workers() -> dict[str, str]:
    """docker-compose.yml's Celery worker services and the queues each takes (its `-Q`)."""
    services = yaml.safe_load((ROOT / "docker-compose.yml").read_text())["services"]
    workers = {}
    for name, service in services.items():
        command = service.get("command") or []
        if command[:4] == ["celery", "-A", "config", "worker"]:
            workers[name] = command[command.index("-Q") + 1]
    return workers


@dataclass(frozen=True)
class Answer:
    status: int
    headers: Mapping[str, str]  # names in lower case
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body)

    @property
    def text(self) -> str:
        return self.body.decode()


def call(
    port: int,
    method: str,
    path: str,
    body: Any = None,
    headers: Mapping[str, str] | None = None,
) -> Answer:
    """One request on a connection of its own (so nginx picks an upstream for each)."""
    sent = dict(headers or {})
    data = None
    if body is not None:
        data = json.dumps(body).encode()
        sent["Content-Type"] = "application/json"
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        connection.request(method, path, body=data, headers=sent)
        response = connection.getresponse()
        return Answer(
            response.status,
            {name.lower(): value for name, value in response.getheaders()},
            response.read(),
        )
    finally:
        connection.close()


@dataclass
class Site:
    stack: Stack
    ports: list[int]
    proxy: Proxy
    token: str
    players: list[int]
    events: dict[str, int]
    ledger: Ledger = field(default_factory=Ledger)

    @property
    def front(self) -> int:
        return self.proxy.port

    def league(self, game: str) -> str:
        return f"{TAG}-{game}"

    def seat(self, game: str, players: int, port: int | None = None) -> MatchRecord:
        """A match seated by the organizer through nginx (or on `port`), kept in the ledger."""
        seated = random.Random(len(self.ledger.matches)).sample(self.players, players)
        body = {"event": self.events[game], "game": game, "players": seated, "rules": {}}
        answer = call(
            port or self.front,
            "POST",
            "/api/v1/matches/",
            body,
            {"Authorization": f"Token {self.token}"},
        )
        assert answer.status == 201, answer.text
        match = answer.json()
        record = MatchRecord(
            id=match["id"],
            game=game,
            players=seated,
            score_key=match["score_key"],
            local=scoring.new_game(game, players, match["rules"]),
        )
        self.ledger.matches[record.id] = record
        return record

    def turn(
        self, port: int, record: MatchRecord, rng: random.Random, key: str | None = None
    ) -> tuple[dict[str, Any], str, Answer]:
        """The match's next turn, simulated, sent to `port`; the body, its key and the answer.
        A 201 is played on the client's own game and kept in the ledger."""
        turn = simulate.next_turn(record.local, rng)
        seat = record.local.current_player
        assert seat is not None, "the match is over"
        body = {"player": record.players[seat], **turn, "turn_number": len(record.accepted) + 1}
        key = key or str(uuid.uuid4())
        answer = self.send(port, record, body, key)
        if answer.status == 201:
            self.accept(record, turn, answer)
        return body, key, answer

    def send(self, port: int, record: MatchRecord, body: dict[str, Any], key: str) -> Answer:
        headers = {"X-Score-Key": record.score_key, "Idempotency-Key": key}
        return call(port, "POST", f"/api/v1/matches/{record.id}/turns/", body, headers)

    @staticmethod
    def accept(record: MatchRecord, turn: dict[str, Any], answer: Answer) -> None:
        result = record.local.play({k: v for k, v in turn.items() if k != "player"})
        record.accepted.append(turn)
        assert answer.json()["turn"]["points"] == result.points, (answer.text, result)
        record.finished = record.local.is_over

    def last_match(self) -> int:
        return int(self.stack.sql("SELECT coalesce(max(id), 0) FROM games_match")[0][0])

    def account(self, after_match: int) -> list[str]:
        """`accounting.account` of the matches seated after `after_match`."""
        ledger = Ledger(
            matches={key: match for key, match in self.ledger.matches.items() if key > after_match}
        )
        return account(self.stack, ledger, after_match=after_match)


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    stack = Stack(name="web_replicas", web_workers=WEB_WORKERS)
    ports = [stack.port] + [free_port() for _ in range(WEB_PROCESSES - 1)]
    for old in LOGS.glob(f"{stack.name}-*.log"):
        old.unlink()  # the workers' logs are read for the jobs each ran
    stack.prepare()
    try:
        # Everything starts side by side, then each is waited for.
        for number, port in enumerate(ports, 1):
            stack.spawn_web(f"web{number}", port)
        ready = [
            stack.spawn_worker(name, queues=queues) for name, queues in compose_workers().items()
        ]
        for port in ports:
            stack.wait_until(
                lambda port=port: stack.get_status("/healthz", f"http://127.0.0.1:{port}") == 200,
                f"gunicorn on {port} to answer /healthz",
            )
        for worker in ready:
            stack.wait_until(worker, "the workers to be ready")
        prefix = tmp_path_factory.mktemp("nginx")
        with running_nginx(
            name=stack.name, prefix=prefix, upstreams=ports, name_upstream=True
        ) as proxy:

            async def organized() -> tuple[str, dict[str, Any]]:
                async with aiohttp.ClientSession() as session:
                    token = await login(session, proxy.base_url, *ORGANIZER)
                    setup = await organize(Api(session, proxy.base_url, token), players=8, tag=TAG)
                    return token, setup

            token, setup = asyncio.run(organized())
            yield Site(stack, ports, proxy, token, setup["players"], setup["events"])
    finally:
        stack.stop()


# --- Whole matches through nginx ------------------------------------------------------------


def test_whole_matches_through_nginx_each_turn_on_another_process_are_stored_once(site: Site):
    """Two matches, a turn of each in turn, through nginx from one client: its round
    robin sends each match's turns to the three processes in turn (never twice in a row to the
    same one). Every turn acknowledged is stored once, as sent; every match finishes with the
    rulebook's totals and placements."""
    after = site.last_match()
    rng = random.Random(41)
    served: dict[int, list[str]] = defaultdict(list)
    records = [site.seat("yardzee", 3), site.seat("yardkle", 2)]
    while not all(record.local.is_over for record in records):
        for record in records:
            if record.local.is_over:
                continue
            _, _, answer = site.turn(site.front, record, rng)
            assert answer.status == 201, answer.text
            served[record.id].append(answer.headers[UPSTREAM_HEADER.lower()])
    upstreams = {f"127.0.0.1:{port}" for port in site.ports}
    for match_id, processes in served.items():
        assert set(processes) == upstreams, (match_id, processes)
        repeats = [n for n in range(1, len(processes)) if processes[n] == processes[n - 1]]
        assert repeats == [], f"match {match_id}: turns {repeats} on the process of the one before"
    assert all(site.ledger.matches[match_id].finished for match_id in served)
    assert site.account(after) == []


# --- No stale page after a write on another process -------------------------------------------


def _results(page: str, match_id: int) -> list[tuple[int, int]]:
    """The totals and places the event page's line of a finished match shows, seat by seat."""
    line = re.search(
        rf'<li class="match-line[^"]*">\s*<a href="/matches/{match_id}/">.*?</li>', page, re.S
    )
    assert line is not None, f"no line of match {match_id}"
    return [
        (int(total.replace(",", "")), int(place))
        for total, place in re.findall(
            r'<span class="seat[^"]*">[^<]*? (-?[\d,]+) \((\d+)[a-z]{2}\)', line[0]
        )
    ]


def _everywhere(site: Site, path: str, seen: set[str]) -> list[Answer]:
    """`path` from every process, twice each: plain, and naming every ETag in `seen` (a copy
    kept from then would answer 304). Every answer is a 200 with an ETag not in `seen`."""
    answers = []
    for port in site.ports:
        for conditional in (False, True):
            headers = {"If-None-Match": ", ".join(sorted(seen))} if conditional and seen else {}
            page = call(port, "GET", path, headers=headers)
            assert page.status == 200, (path, port, page.status)
            assert page.headers["etag"] not in seen, f"{port} served {path} as it was before"
            answers.append(page)
    return answers


def test_no_process_serves_a_page_from_before_a_write_made_on_another(site: Site):
    """Every process keeps the event and league pages (rendered once per version, in its own
    memory and in Redis). A match seated on one process is on every process's event page at
    once; played on the three in turn and finished on one of them, every process's event page
    shows its result and its league page is no longer the one kept from before."""
    event = f"/events/{site.events['yardzee']}/"
    league = f"/leagues/{site.league('yardzee')}/"
    seen_event = {page.headers["etag"] for page in _everywhere(site, event, set())}
    seen_league = {page.headers["etag"] for page in _everywhere(site, league, set())}

    record = site.seat("yardzee", 2, port=site.ports[0])
    pages = _everywhere(site, event, seen_event)
    assert all(f'<a href="/matches/{record.id}/">' in page.text for page in pages)
    seen_event |= {page.headers["etag"] for page in pages}

    rng = random.Random(7)
    number = 0
    while not record.local.is_over:
        _, _, answer = site.turn(site.ports[number % WEB_PROCESSES], record, rng)
        assert answer.status == 201, answer.text
        number += 1
    local = record.local
    expected = [(local.total(seat), place) for seat, place in enumerate(local.placements())]
    for page in _everywhere(site, event, seen_event):
        assert _results(page.text, record.id) == expected
    _everywhere(site, league, seen_league)


# --- Idempotency across processes -----------------------------------------------------------


def _at_once(requests: list[Callable[[], Answer]]) -> list[Answer]:
    """Every request sent at the same moment, each from a thread of its own."""
    start = threading.Barrier(len(requests))

    def send(request: Callable[[], Answer]) -> Answer:
        start.wait(timeout=30)
        return request()

    with ThreadPoolExecutor(max_workers=len(requests)) as pool:
        return list(pool.map(send, requests))


def test_a_turn_retried_on_the_other_processes_with_its_key_gets_the_first_answer(site: Site):
    """A turn answered by one process, sent again with its Idempotency-Key to each of the two
    others, gets the same answer and is stored once; the key with another body is refused
    there. The next turn sent with one key eight times to each process at once: 24 times the
    same 201, one turn stored. The one after with 24 keys at once: one 201, the rest 409."""
    after = site.last_match()
    record = site.seat("yardkle", 2)
    rng = random.Random(5)
    first_port, *others = site.ports
    body, key, first = site.turn(first_port, record, rng)
    assert first.status == 201, first.text
    for port in others:
        again = site.send(port, record, body, key)
        assert (again.status, again.json()) == (201, first.json()), port
    reused = site.send(others[-1], record, {**body, "turn_number": 2}, key)
    assert reused.status == 422, reused.text
    assert reused.json()["code"] == "idempotency_key_reused"

    for shared in (True, False):
        turn = simulate.next_turn(record.local, rng)
        seat = record.local.current_player
        assert seat is not None
        body = {"player": record.players[seat], **turn, "turn_number": len(record.accepted) + 1}
        one_key = str(uuid.uuid4())
        answers = _at_once(
            [
                partial(site.send, port, record, body, one_key if shared else str(uuid.uuid4()))
                for port in site.ports
                for _ in range(8)
            ]
        )
        created = [answer for answer in answers if answer.status == 201]
        if shared:
            assert len(created) == len(answers)
            # The same answer, the receipt's as the first (its keys in PostgreSQL's order).
            assert all(answer.json() == created[0].json() for answer in created)
        else:
            assert len(created) == 1
            assert {answer.status for answer in answers if answer.status != 201} == {409}
        site.accept(record, turn, created[0])
        stored = site.stack.sql("SELECT count(*) FROM games_turn WHERE match_id = %s", (record.id,))
        assert stored[0][0] == len(record.accepted)

    number = 0
    while not record.local.is_over:
        _, _, answer = site.turn(site.ports[number % WEB_PROCESSES], record, rng)
        assert answer.status == 201, answer.text
        number += 1
    assert site.account(after) == []


# --- After the jobs: one site ---------------------------------------------------------------


def _jobs_done(stack: Stack, queues: list[str]) -> bool:
    """No table or rating marked stale, and no job waiting in a queue or held by a worker."""
    if stack.stale_tables():
        return False
    waiting = sum(int(stack.redis("LLEN", queue) or 0) for queue in queues)
    return waiting == 0 and int(stack.redis("HLEN", "unacked") or 0) == 0


def test_after_the_jobs_every_process_serves_the_same_standings_and_pages(site: Site):
    """Once the jobs ran, the standings and ratings equal a recompute from scratch, and every
    process and nginx answer each table (API) and public page with the same body. Each worker
    ran only jobs of the queues it takes (as docker-compose.yml splits them)."""
    from config.celery import app

    workers = compose_workers()
    queues = sorted({queue for taken in workers.values() for queue in taken.split(",")})
    waited = site.stack.wait_until(
        lambda: _jobs_done(site.stack, queues), "the jobs to be done", 60
    )
    print(f"the jobs were done {waited:.1f} s after the last turn")
    assert site.stack.differences_from_scratch() == ""

    paths = []
    for game in ("yardzee", "yardkle"):
        league, event = site.league(game), site.events[game]
        paths += [
            f"/api/v1/leagues/{league}/standings/",
            f"/api/v1/leagues/{league}/ratings/",
            f"/api/v1/events/{event}/standings/",
            f"/leagues/{league}/",
            f"/events/{event}/",
        ]
    for path in paths:
        answers = [call(port, "GET", path) for port in site.ports for _ in range(2)]
        answers.append(call(site.front, "GET", path))
        assert {answer.status for answer in answers} == {200}, path
        assert len({answer.body for answer in answers}) == 1, f"{path} differs between processes"
        assert "Newer results are still being counted" not in answers[0].text, path
        if path.startswith("/api/"):
            assert answers[0].json()["pending"] is False, path

    # Each finished match counted once for each of its players in its event's table.
    for game in ("yardzee", "yardkle"):
        table = call(site.front, "GET", f"/api/v1/events/{site.events[game]}/standings/").json()
        seats = sum(
            len(record.players)
            for record in site.ledger.matches.values()
            if record.game == game and record.finished
        )
        assert sum(row["matches"] for row in table["rows"]) == seats, game

    router = app.amqp.router
    for name, taken in workers.items():
        ran = set(re.findall(r"Task ([\w.]+)\[[0-9a-f-]+\] received", site.stack.log(name)))
        assert {router.route({}, task)["queue"].name for task in ran} <= set(taken.split(",")), (
            name,
            ran,
        )
    turns_worker = next(name for name, taken in workers.items() if "standings" in taken)
    assert "league.standings_refresh" in site.stack.log(turns_worker)
    ratings_worker = next(name for name, taken in workers.items() if "ratings" in taken)
    assert "league.ratings_refresh" in site.stack.log(ratings_worker)
