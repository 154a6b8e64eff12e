"""Speed of the draw at 256 players (issue 20: "the stage start stays within its time budget at
256 players"; docs/draw.md, "Speed"): every format drawn within 2 s on one core, and a Swiss
round at tables of 4 drawn from the standings after three rounds within 2 s (its CP-SAT limit
is 0.5 s of deterministic time in each of two phases, spent only when the descent's seating is
not provably best; the rounds where the exact searches run are allowed CP_SAT_ROUND_SECONDS).
On the database, the stage start itself (draw, seat the first round's matches, store) for a
Swiss at tables of 4 and a double elimination of 256.

Run with `.venv/bin/pytest benchmarks/test_draw.py --benchmark-only` (or `make bench`), on
DATABASE_URL's PostgreSQL or the embedded one."""

import importlib
import itertools
import random
import time
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest

from league import draw
from league.draw import constructions
from league.models import Event, League, Player
from league.services import stages

PLAYERS = 256
TARGET_SECONDS = 2.0
# A round that runs the exact searches (issue 40: "within a time the stage start can afford,
# say 5 s on 2 cores"): the search for the fewest repeats and the exact cover (steps), the
# re-seating of three tables at a time (sets of tables), CP-SAT (2 s on the clock at most).
CP_SAT_ROUND_SECONDS = 5.0
# The module, not the function `league.draw.round_robin` that shadows its name.
round_robin_module = importlib.import_module("league.draw.round_robin")


def swiss_standings(
    table_size: int, rounds: int, seed: int = 20, count: int = PLAYERS
) -> list[draw.SwissStanding]:
    """The standings of `count` players after `rounds` Swiss rounds drawn by the draw itself
    and played at random (table points: n - 1 for first down to 0)."""
    rng = random.Random(seed)
    players = list(range(1, count + 1))
    points: Counter[int] = Counter()
    met: dict[int, list[int]] = {p: [] for p in players}
    byes: Counter[int] = Counter()
    for number in range(1, rounds + 1):
        standings = _standings(players, points, met, byes)
        round_ = draw.swiss_round(standings, number=number, table_size=table_size)
        for table in round_.tables:
            order = list(table.players)
            rng.shuffle(order)
            for place, player in enumerate(order):
                points[player] += len(order) - 1 - place
                met[player] += [q for q in order if q != player]
        for player in round_.byes:
            points[player] += 1
            byes[player] += 1
    return _standings(players, points, met, byes)


def _standings(
    players: list[int], points: Counter[int], met: dict[int, list[int]], byes: Counter[int]
) -> list[draw.SwissStanding]:
    order = sorted(players, key=lambda p: (-points[p], p))
    return [draw.SwissStanding(p, points[p], tuple(met[p]), byes[p]) for p in order]


def fresh_round_robin(count: int, table_size: int) -> tuple[draw.Round, ...]:
    # The schedule of a field is cached per process; a stage start may be the first to ask.
    round_robin_module._table_schedule.cache_clear()
    constructions.construction.cache_clear()
    return draw.round_robin(list(range(1, count + 1)), table_size=table_size)


DRAWS: dict[str, Callable[[], Any]] = {
    "round robin, pairs": lambda: fresh_round_robin(PLAYERS, 2),
    "round robin, tables of 4 (a design)": lambda: fresh_round_robin(PLAYERS, 4),
    "round robin, 250 at tables of 4 (searched)": lambda: fresh_round_robin(250, 4),
    "swiss round 1, pairs": lambda: draw.swiss_round(
        [draw.SwissStanding(p) for p in range(1, PLAYERS + 1)], number=1
    ),
    "swiss round 1, tables of 4": lambda: draw.swiss_round(
        [draw.SwissStanding(p) for p in range(1, PLAYERS + 1)], number=1, table_size=4
    ),
    "single elimination, pairs": lambda: draw.single_elimination(list(range(1, PLAYERS + 1))),
    "single elimination, tables of 4": lambda: draw.single_elimination(
        list(range(1, PLAYERS + 1)), table_size=4, advance=2
    ),
    "double elimination": lambda: draw.double_elimination(list(range(1, PLAYERS + 1))),
}


@pytest.mark.benchmark(group="draw at 256 players")
@pytest.mark.parametrize("name", list(DRAWS))
def test_every_format_draws_256_players_within_the_budget(benchmark, name):
    benchmark.pedantic(DRAWS[name], rounds=5, iterations=1)
    assert benchmark.stats.stats.median < TARGET_SECONDS


# Issue 40: every round robin up to 64 players, pairs and tables of 3 to 5, drawn as the stage
# start draws it (nothing cached), none above 5 s; each checked to seat everyone once a round
# and to meet every pair. The slowest goes in docs/benchmarks.md.
ROUND_ROBIN_FIELDS = [(count, size) for size in (2, 3, 4, 5) for count in range(2, 65)]
ROUND_ROBIN_SECONDS = 5.0


@pytest.mark.benchmark(group="round robin, every field up to 64")
def test_every_round_robin_up_to_64_players_is_drawn_within_5_s(benchmark):
    def draw_all() -> dict[tuple[int, int], tuple[float, tuple[draw.Round, ...]]]:
        drawn = {}
        for count, size in ROUND_ROBIN_FIELDS:
            started = time.perf_counter()
            rounds = fresh_round_robin(count, size)
            drawn[count, size] = (time.perf_counter() - started, rounds)
        return drawn

    drawn = benchmark.pedantic(draw_all, rounds=1, iterations=1)
    for (count, size), (_, rounds) in drawn.items():
        players = list(range(1, count + 1))
        for round_ in rounds:
            assert sorted(round_.players) == players, (count, size)
            sizes = sorted((len(t.players) for t in round_.tables), reverse=True)
            if size > 2:
                assert sizes == list(draw.table_sizes(count, size)), (count, size)
        met = {
            frozenset(pair)
            for round_ in rounds
            for table in round_.tables
            for pair in itertools.combinations(table.players, 2)
        }
        assert len(met) == count * (count - 1) // 2, (count, size)
    slowest = sorted(drawn, key=lambda field: drawn[field][0])[-5:]
    print("slowest:", ", ".join(f"{n}/{k} {drawn[n, k][0]:.2f} s" for n, k in slowest))
    assert drawn[slowest[-1]][0] < ROUND_ROBIN_SECONDS


@pytest.mark.benchmark(group="swiss round 4 at 256 players")
@pytest.mark.parametrize("table_size", [2, 4])
def test_a_later_swiss_round_of_256_players_within_the_budget(benchmark, table_size):
    standings = swiss_standings(table_size, rounds=3)
    round_ = benchmark.pedantic(
        draw.swiss_round,
        args=(standings,),
        kwargs={"number": 4, "table_size": table_size},
        rounds=5,
        iterations=1,
    )
    met = {frozenset((s.player, q)) for s in standings for q in s.opponents}
    seated = [
        frozenset((a, b)) for t in round_.tables for a in t.players for b in t.players if a < b
    ]
    assert not [pair for pair in seated if pair in met], "no repeat at 256 players"
    assert benchmark.stats.stats.median < TARGET_SECONDS


@pytest.mark.benchmark(group="swiss at tables where the exact searches run")
@pytest.mark.parametrize(
    ("count", "table_size", "played"),
    [
        (64, 4, 3),
        (24, 4, 6),
        (16, 4, 6),
        (28, 5, 4),
        (38, 4, 5),
        (64, 4, 6),
        (64, 5, 4),
        (64, 3, 5),
    ],
)
def test_a_swiss_round_that_needs_cp_sat_stays_within_its_limit(
    benchmark, count, table_size, played
):
    # Repeats cannot be avoided any more after 6 rounds: 16 players are seated by the
    # exhaustive search (to the end), 24 by CP-SAT to its limit (0.5 s of deterministic time
    # a phase, two phases; more wall time on a busy machine, never past its wall-clock cap of
    # 1 s a phase); 64 after 3 rounds shows a larger field. Issue 40: 28 at tables of 5 in
    # round 5 (the first repeats: the exact cover by tables), 38 at tables of 4 in round 6 (no
    # repeat, the spread cut three tables at a time), 64 at tables of 3 to 5 later on.
    # The budget holds on the processor time of the round (CP-SAT's thread included): on a
    # machine shared by other jobs the wall time the benchmark reports can be several times
    # longer (docs/benchmarks.md).
    standings = swiss_standings(table_size, rounds=played, count=count)
    used = []

    def timed() -> draw.Round:
        started = time.process_time()
        round_ = draw.swiss_round(standings, number=played + 1, table_size=table_size)
        used.append(time.process_time() - started)
        return round_

    benchmark.pedantic(timed, rounds=3, iterations=1)
    benchmark.extra_info["processor_seconds"] = sorted(used)[1]
    assert sorted(used)[1] < CP_SAT_ROUND_SECONDS


@pytest.fixture
def big_field(db: None) -> tuple[Event, list[int]]:
    league = League.objects.create(name="Big", slug="big-draw", game="yardzee")
    event = Event.objects.create(league=league, name="Open", date="2026-09-01")
    players = Player.objects.bulk_create(
        Player(display_name=f"P{i}", handle=f"draw-{i}") for i in range(PLAYERS)
    )
    league.players.add(*players)
    return event, [p.pk for p in players]


@pytest.mark.django_db
@pytest.mark.benchmark(group="stage start at 256 players")
@pytest.mark.parametrize(
    ("fmt", "table_size"), [("swiss", 4), ("swiss", 2), ("double_elimination", 2)]
)
def test_a_stage_of_256_players_starts_within_the_budget(benchmark, big_field, fmt, table_size):
    event, players = big_field
    created: list[int] = []

    def new_stage() -> tuple[tuple[()], dict[str, int]]:
        stage = stages.stage_create(
            event_id=event.pk,
            name=f"{fmt} {len(created)}",
            format=fmt,
            player_ids=players,
            table_size=table_size,
            advance=1,
        )
        created.append(stage.pk)
        return (), {"stage_id": stage.pk}

    benchmark.pedantic(stages.stage_start, setup=new_stage, rounds=3, iterations=1)
    assert benchmark.stats.stats.median < TARGET_SECONDS
