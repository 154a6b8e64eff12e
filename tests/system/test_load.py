"""Load and races through the real processes: scorekeepers playing simulated games with a
share of bad turns, then an accounting of every answer against the database, and standings and
ratings against a from-scratch computation."""

import asyncio
import json
import random
import uuid

import aiohttp

import scoring
from scoring import simulate
from tests.system.accounting import account
from tests.system.conftest import FULL, needs_machine, organizer_token
from tests.system.driver import Api, Ledger, organize, play
from tests.system.stack import Stack

pytestmark = needs_machine

CLIENTS = 32 if FULL else 16
TURNS = 10_000 if FULL else 1_500


def test_load_every_accepted_turn_is_stored_once_and_standings_equal_a_recompute(stack: Stack):
    token = organizer_token(stack)

    async def run() -> Ledger:
        async with aiohttp.ClientSession() as session:
            setup = await organize(Api(session, stack.base_url, token), players=40, tag="load")
        return await play(
            stack.base_url, token, setup, clients=CLIENTS, target=TURNS, bad_share=0.1, seed=1
        )

    ledger = asyncio.run(run())

    assert ledger.accepted >= TURNS
    assert not [status for status in ledger.statuses if status >= 500 or status == 0], (
        ledger.statuses
    )
    assert sum(ledger.bad_turns.values()) > TURNS * 0.05  # the share of bad turns was sent
    assert account(stack, ledger) == []
    finished = sum(record.finished for record in ledger.matches.values())
    assert finished > 10
    stack.wait_until(lambda: stack.stale_tables() == 0, "standings and ratings to catch up")
    assert stack.differences_from_scratch() == ""


async def _race(stack: Stack, token: str, *, same_key: bool) -> tuple[list[int], int, list[int]]:
    """64 clients send one match's next turn at the same moment, five turns in a row; the
    statuses of each volley, and the turns stored."""
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as session:
        api = Api(session, stack.base_url, token)
        setup = await organize(api, players=2, tag=f"race-{same_key}")
        status, match, _ = await api.call(
            "POST",
            "/api/v1/matches/",
            {"event": setup["events"]["yardzee"], "game": "yardzee", "players": setup["players"]},
        )
        assert status == 201, match
        game = scoring.new_game("yardzee", 2, match["rules"])
        rng = random.Random(7)
        created: list[int] = []
        others: list[int] = []
        for number in range(1, 6):
            turn = simulate.next_turn(game, rng)
            body = json.dumps(
                {"player": setup["players"][(number - 1) % 2], **turn, "turn_number": number}
            ).encode()
            shared = str(uuid.uuid4())
            start = asyncio.Event()

            async def client(start=start, body=body, shared=shared) -> int:
                await start.wait()
                status, _, _ = await api.call(
                    "POST",
                    f"/api/v1/matches/{match['id']}/turns/",
                    raw=body,
                    headers={
                        "X-Score-Key": match["score_key"],
                        "Idempotency-Key": shared if same_key else str(uuid.uuid4()),
                    },
                    organizer=False,
                )
                return status

            tasks = [asyncio.create_task(client()) for _ in range(64)]
            await asyncio.sleep(0.05)
            start.set()
            statuses = await asyncio.gather(*tasks)
            created.append(statuses.count(201))
            others.extend(s for s in statuses if s != 201)
            game.play(turn)
    stored = stack.sql("SELECT count(*) FROM games_turn WHERE match_id = %s", (match["id"],))
    return created, int(stored[0][0]), others


def test_race_64_clients_sending_the_same_next_turn_get_exactly_one_201(stack: Stack):
    created, stored, others = asyncio.run(_race(stack, organizer_token(stack), same_key=False))
    assert created == [1, 1, 1, 1, 1]
    assert stored == 5
    assert set(others) == {409}  # turn_number_mismatch: the turn was already played


def test_race_64_retries_with_one_idempotency_key_apply_the_turn_once(stack: Stack):
    created, stored, others = asyncio.run(_race(stack, organizer_token(stack), same_key=True))
    assert created == [64] * 5  # every retry gets the first answer back
    assert stored == 5
    assert others == []
