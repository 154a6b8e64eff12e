"""Every format, in pairs and at tables of four, for 5, 8, 13 and 16 participants: the draw is
valid and playing every match at random runs the stage to its end (one champion, or complete
final standings); and stages chain, the top of one seeding the next."""

import itertools
import random
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from league.draw import (
    Bracket,
    BracketName,
    BracketState,
    double_elimination,
    group_qualifiers,
    group_round_robin,
    qualifiers,
    round_robin,
    single_elimination,
    snake_groups,
    swiss_rounds,
)

from .playing import final_order, play_bracket, play_swiss, table_points

ROOT = Path(__file__).resolve().parents[3]
COUNTS = [5, 8, 13, 16]
TABLES = [2, 4]


def players_of(count: int) -> list[int]:
    return [1000 + 7 * i for i in range(count)]


def assert_bracket_played_validly(bracket: Bracket, states: list[BracketState]) -> None:
    final = states[-1]
    names: tuple[BracketName, ...] = ("winners", "losers", "grand_final", "third_place")
    for name in names:
        for column in bracket.rounds(name):
            seated = [p for slot in column for p in final.slots[slot.key].players]
            assert len(seated) == len(set(seated)), "nobody twice in a round"
    assert final.finished
    assert final.champion is not None
    assert final.ranking[0] == (final.champion,)
    ranked = [p for tier in final.ranking for p in tier]
    assert sorted(ranked) == sorted(bracket.participants), "everyone ranked once"


@pytest.mark.parametrize("count", COUNTS)
@pytest.mark.parametrize("table_size", TABLES)
def test_round_robin_stage_plays_to_complete_standings(count, table_size):
    players = players_of(count)
    rng = random.Random(count)
    rounds = round_robin(players, table_size=table_size)
    points: Counter[int] = Counter()
    for round_ in rounds:
        points.update(table_points(round_, rng))
    met = {
        frozenset(p) for r in rounds for t in r.tables for p in itertools.combinations(t.players, 2)
    }
    assert len(met) == count * (count - 1) // 2
    assert sorted(final_order(points, players)) == players


@pytest.mark.parametrize("count", COUNTS)
@pytest.mark.parametrize("table_size", TABLES)
def test_group_stage_plays_to_complete_group_standings(count, table_size):
    players = players_of(count)
    rng = random.Random(count)
    groups = snake_groups(players, 2)
    standings = []
    for group, rounds in zip(groups, group_round_robin(groups, table_size=table_size), strict=True):
        points: Counter[int] = Counter()
        for round_ in rounds:
            assert sorted(round_.players) == sorted(group)
            points.update(table_points(round_, rng))
        standings.append(final_order(points, list(group)))
    assert sorted(p for group in standings for p in group) == players
    assert len(group_qualifiers(standings, 2)) == 4


@pytest.mark.parametrize("count", COUNTS)
@pytest.mark.parametrize("table_size", TABLES)
def test_swiss_stage_plays_to_complete_standings(count, table_size):
    players = players_of(count)
    rounds, standings, _ = play_swiss(
        players, swiss_rounds(count, table_size), table_size, random.Random(count)
    )
    assert len(rounds) == swiss_rounds(count, table_size)
    assert sorted(standings) == players


@pytest.mark.parametrize("count", COUNTS)
@pytest.mark.parametrize(("table_size", "advance"), [(2, 1), (4, 1), (4, 2)])
def test_single_elimination_plays_to_one_champion(count, table_size, advance):
    bracket = single_elimination(
        players_of(count), table_size=table_size, advance=advance, third_place=table_size == 2
    )
    results, states = play_bracket(bracket, random.Random(count))
    assert_bracket_played_validly(bracket, states)
    if table_size == 2:
        # Every match knocks out one player, and the third-place match is played besides.
        assert len(results) == (count - 1) + 1
        assert [len(tier) for tier in states[-1].ranking[:4]] == [1, 1, 1, 1]


@pytest.mark.parametrize("count", COUNTS)
@pytest.mark.parametrize("reset", [True, False])
def test_double_elimination_plays_to_one_champion(count, reset):
    bracket = double_elimination(players_of(count), grand_final_reset=reset)
    _, states = play_bracket(bracket, random.Random(count))
    assert_bracket_played_validly(bracket, states)


def test_double_elimination_of_eight_plays_fourteen_matches_or_fifteen_with_the_reset():
    counts = set()
    for seed in range(40):
        bracket = double_elimination(list(range(8)))
        results, states = play_bracket(bracket, random.Random(seed))
        reset_played = states[-1].slots["GF-2"].status == "played"
        assert len(results) == 14 + reset_played
        counts.add(len(results))
    assert counts == {14, 15}


def test_the_top_eight_of_a_swiss_stage_seed_a_single_elimination_stage():
    players = players_of(16)
    _, standings, _ = play_swiss(players, swiss_rounds(16), 2, random.Random(3))
    seeds = qualifiers(standings, 8)
    bracket = single_elimination(seeds)
    assert bracket.participants == tuple(standings[:8])
    assert [s.seed for s in bracket.slot("W1-1").sources] == [1, 8]
    _, states = play_bracket(bracket, random.Random(4))
    assert states[-1].champion in seeds


def test_the_draw_imports_nothing_of_django_or_the_layers_above_nor_or_tools_until_used():
    # scoring is the pure bottom layer: draw errors derive from its DomainError (issue 15).
    # OR-Tools (and the pandas it loads) is imported only by the searches that use CP-SAT.
    code = (
        "import sys, league.draw; "
        "bad = [m for m in sys.modules if m.split('.')[0] in "
        "{'django', 'celery', 'rest_framework', 'games', 'api', 'config', 'ortools', 'pandas'}]; "
        "assert not bad, bad"
    )
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT)
