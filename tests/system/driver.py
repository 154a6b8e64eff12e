"""Clients for the system harness: scorekeepers that play real games with the simulator from
`scoring` over HTTP, against a running stack, with a share of bad turns, and keep a ledger of
every answer so the tests can account for each turn afterwards.

A scorekeeper behaves as the phone page does: every turn carries a fresh Idempotency-Key and
its turn number; an answer that is lost (connection error, timeout) or a 503 is retried with the
same key until it gets a real answer, so a turn is never applied twice."""

from __future__ import annotations

import asyncio
import copy
import json
import random
import time
import uuid
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import aiohttp

import scoring
from scoring import simulate

JSON = dict[str, Any]
RETRY_STATUSES = {502, 503, 504}
# The ways a scorekeeper gets a turn wrong, and the answers each may get. Every one is a 4xx.
BAD_TURNS = {
    "wrong_points": {422},
    "wrong_player": {422},
    "impossible_dice": {400, 422},
    "stale_turn_number": {409},
    "wrong_key": {403},
    "malformed_json": {400},
}


@dataclass
class MatchRecord:
    """What the clients know of one match: the turns the server accepted, in order."""

    id: int
    game: str
    players: list[int]
    score_key: str
    local: scoring.Game
    accepted: list[JSON] = field(default_factory=list)
    finished: bool = False


@dataclass
class Ledger:
    """Every answer the clients got, for the accounting afterwards."""

    matches: dict[int, MatchRecord] = field(default_factory=dict)
    statuses: Counter[int] = field(default_factory=Counter)
    bad_turns: Counter[str] = field(default_factory=Counter)
    replays: int = 0
    retries: int = 0
    failures: list[str] = field(default_factory=list)
    latencies: list[float] = field(default_factory=list)
    # Set from another thread to end a run early: each client stops after its current turn.
    stop: bool = False

    @property
    def accepted(self) -> int:
        return sum(len(record.accepted) for record in self.matches.values())

    def fail(self, message: str) -> None:
        self.failures.append(message)


class Api:
    """One client's HTTP connection to the stack (aiohttp, keep-alive where the server
    allows), with the organizer's token for organizing."""

    def __init__(self, session: aiohttp.ClientSession, base_url: str, token: str) -> None:
        self.session = session
        self.base_url = base_url
        self.token = token

    async def call(
        self,
        method: str,
        path: str,
        body: Any = None,
        *,
        headers: dict[str, str] | None = None,
        raw: bytes | None = None,
        organizer: bool = True,
    ) -> tuple[int, Any, float]:
        """(status, parsed JSON or None, seconds). A lost answer is status 0."""
        sent = dict(headers or {})
        if organizer:
            sent["Authorization"] = f"Token {self.token}"
        data = raw if raw is not None else (json.dumps(body).encode() if body is not None else None)
        if data is not None:
            sent["Content-Type"] = "application/json"
        started = time.perf_counter()
        try:
            async with self.session.request(
                method, self.base_url + path, data=data, headers=sent
            ) as answer:
                text = await answer.read()
                elapsed = time.perf_counter() - started
                try:
                    parsed = json.loads(text) if text else None
                except ValueError:
                    parsed = None
                return answer.status, parsed, elapsed
        except (TimeoutError, aiohttp.ClientError, ConnectionError):
            return 0, None, time.perf_counter() - started


async def login(session: aiohttp.ClientSession, base_url: str, user: str, password: str) -> str:
    async with session.post(
        base_url + "/api/v1/auth/token/", json={"username": user, "password": password}
    ) as answer:
        assert answer.status == 200, await answer.text()
        return str((await answer.json())["token"])


async def organize(api: Api, *, players: int, tag: str) -> dict[str, Any]:
    """Two leagues (one per game), an event in each and `players` players on both leagues'
    rosters: what the scorekeepers seat their matches from."""
    events, slugs = {}, []
    for game in ("yardzee", "yardkle"):
        status, league, _ = await api.call(
            "POST",
            "/api/v1/leagues/",
            {"name": f"{tag} {game}", "slug": f"{tag}-{game}", "game": game},
        )
        assert status == 201, league
        slugs.append(league["slug"])
        status, event, _ = await api.call(
            "POST",
            "/api/v1/events/",
            {"league": league["slug"], "name": "League night", "date": "2026-11-22"},
        )
        assert status == 201, event
        events[game] = event["id"]
    player_ids = []
    for number in range(players):
        status, body, _ = await api.call(
            "POST",
            "/api/v1/players/",
            {"display_name": f"Player {number}", "handle": f"{tag}-{number}", "league": slugs[0]},
        )
        assert status == 201, body
        player_ids.append(body["id"])
        status, body, _ = await api.call(
            "POST", f"/api/v1/leagues/{slugs[1]}/players/", {"player": body["id"]}
        )
        assert status == 200, body
    return {"players": player_ids, "events": events}


async def seat(
    api: Api, ledger: Ledger, setup: dict[str, Any], rng: random.Random
) -> MatchRecord | None:
    game = rng.choice(["yardzee", "yardkle"])
    players = rng.sample(setup["players"], rng.choice([2, 2, 3, 4]))
    body = {"event": setup["events"][game], "game": game, "players": players, "rules": {}}
    for _ in range(30):
        status, answer, _ = await api.call("POST", "/api/v1/matches/", body)
        ledger.statuses[status] += 1
        if status == 201:
            record = MatchRecord(
                id=answer["id"],
                game=game,
                players=players,
                score_key=answer["score_key"],
                local=scoring.new_game(game, len(players), answer["rules"]),
            )
            ledger.matches[record.id] = record
            return record
        if status not in (0, *RETRY_STATUSES):
            ledger.fail(f"seating a match answered {status}: {answer}")
            return None
        await asyncio.sleep(0.5)
    ledger.fail("seating a match: no answer after 30 tries")
    return None


def _bad_variant(
    kind: str, record: MatchRecord, body: JSON, rng: random.Random
) -> tuple[JSON | bytes, dict[str, str]]:
    """A broken copy of a good turn submission, and the headers to send it with."""
    headers = {"X-Score-Key": record.score_key, "Idempotency-Key": str(uuid.uuid4())}
    bad = copy.deepcopy(body)
    if kind == "wrong_points":
        points = (
            copy.deepcopy(record.local)
            .play({k: v for k, v in body.items() if k not in ("player", "turn_number")})
            .points
        )
        bad["points"] = points + rng.choice([-50, 1, 50])
    elif kind == "wrong_player":
        bad["player"] = next(p for p in record.players if p != body["player"])
    elif kind == "impossible_dice":
        first = bad["rolls"][0] if "rolls" in bad else bad["throws"][0]
        first["dice"][0] = 7
    elif kind == "stale_turn_number":
        bad["turn_number"] = body["turn_number"] - 1
    elif kind == "wrong_key":
        headers["X-Score-Key"] = "not-the-key"
    elif kind == "malformed_json":
        return json.dumps(body).encode()[:-7], headers
    return bad, headers


async def submit(
    api: Api, ledger: Ledger, record: MatchRecord, body: JSON, key: str
) -> tuple[int, Any]:
    """Send one good turn until a real answer comes back: a lost answer or a 503 is retried
    with the same Idempotency-Key, as the phone page does."""
    headers = {"X-Score-Key": record.score_key, "Idempotency-Key": key}
    for attempt in range(120):
        status, answer, elapsed = await api.call(
            "POST", f"/api/v1/matches/{record.id}/turns/", body, headers=headers, organizer=False
        )
        ledger.statuses[status] += 1
        if status not in (0, *RETRY_STATUSES):
            ledger.latencies.append(elapsed)
            return status, answer
        if status >= 500 and (answer is None or answer.get("code") != "service_unavailable"):
            ledger.fail(
                f"match {record.id}: {status} without the service_unavailable shape: {answer}"
            )
        ledger.retries += 1
        await asyncio.sleep(min(0.1 * 2**attempt, 1.0))
    return 0, None


async def scorekeeper(
    api: Api,
    ledger: Ledger,
    setup: dict[str, Any],
    rng: random.Random,
    *,
    target: int,
    bad_share: float,
    replay_share: float = 0.03,
) -> None:
    """Seat matches and play them turn by turn until the clients together have `target`
    accepted turns."""
    while ledger.accepted < target and not ledger.failures and not ledger.stop:
        record = await seat(api, ledger, setup, rng)
        if record is None:
            return
        current = record.players[0]
        while not record.local.is_over and ledger.accepted < target and not ledger.stop:
            turn = simulate.next_turn(record.local, rng)
            body = {"player": current, **turn, "turn_number": len(record.accepted) + 1}
            if rng.random() < bad_share:
                kind = rng.choice(sorted(BAD_TURNS))
                if kind == "stale_turn_number" and not record.accepted:
                    kind = "wrong_points"
                bad, headers = _bad_variant(kind, record, body, rng)
                status, answer, _ = await api.call(
                    "POST",
                    f"/api/v1/matches/{record.id}/turns/",
                    raw=bad if isinstance(bad, bytes) else json.dumps(bad).encode(),
                    headers=headers,
                    organizer=False,
                )
                ledger.statuses[status] += 1
                ledger.bad_turns[kind] += 1
                if status not in BAD_TURNS[kind] and status not in (0, *RETRY_STATUSES):
                    ledger.fail(f"match {record.id}: bad turn {kind} answered {status}: {answer}")
                    return
            key = str(uuid.uuid4())
            status, answer = await submit(api, ledger, record, body, key)
            if status != 201:
                ledger.fail(f"match {record.id}: good turn {body} answered {status}: {answer}")
                return
            result = record.local.play(turn)
            record.accepted.append(turn)
            if answer["turn"]["points"] != result.points:
                ledger.fail(f"match {record.id}: server scored {answer['turn']} for {result}")
            if rng.random() < replay_share:  # the answer was "lost": the same request again
                again, replay = await submit(api, ledger, record, body, key)
                ledger.replays += 1
                if again != 201 or replay != answer:
                    ledger.fail(f"match {record.id}: a replay answered {again}: {replay}")
            current = answer["match"]["next_player"]
        record.finished = record.local.is_over


async def play(
    base_url: str,
    token: str,
    setup: dict[str, Any],
    *,
    clients: int,
    target: int,
    bad_share: float,
    seed: int = 0,
    ledger: Ledger | None = None,
) -> Ledger:
    """`clients` scorekeepers at once until `target` turns are accepted (or `ledger.stop`)."""
    ledger = ledger or Ledger()
    connector = aiohttp.TCPConnector(limit=0)
    timeout = aiohttp.ClientTimeout(total=30)
    async with aiohttp.ClientSession(connector=connector, timeout=timeout) as session:
        api = Api(session, base_url, token)
        await asyncio.gather(
            *(
                scorekeeper(
                    api,
                    ledger,
                    setup,
                    random.Random(seed * 1000 + n),
                    target=target,
                    bad_share=bad_share,
                )
                for n in range(clients)
            )
        )
    return ledger
