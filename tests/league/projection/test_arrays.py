"""The array simulator (`league/projection/tables.py`, `brackets.py`) against the run-by-run
one of `simulate.py`, the reference: every run ranked exactly as `rank_standings` ranks the
same results, and the figures of both within a stated tolerance (docs/analysis.md, "Speed")."""

import itertools
import math
import random

import numpy as np
import pytest

from league.draw import SlotResult, advance_bracket, double_elimination, single_elimination
from league.projection import (
    Pending,
    Qualifying,
    StageSetup,
    project_stage,
    standard_error,
)
from league.projection.simulate import _Outcomes, _Run
from league.projection.tables import TableStage, Unsupported
from league.rating import DEFAULT_SETTINGS, Rating
from league.standings import (
    DEFAULT_TIEBREAK_ORDER,
    METRICS,
    Bye,
    MatchResult,
    SeatResult,
    TotalMetric,
    register,
)

RUNS = 2100
# Two independent estimates of one chance differ by a standard error of at most
# sqrt(2) * standard_error(RUNS); four of those: a correct simulator fails one in 16,000 times.
TOLERANCE = 4 * math.sqrt(2) * standard_error(RUNS)


def _ratings(players, seed=7):
    rng = random.Random(seed)
    return {p: Rating(25 + rng.gauss(0, 4), rng.uniform(1.5, 4.0)) for p in players}


def _pair(rng, match_id, a, b, round_=1, scores=True):
    score = rng.sample(range(150, 320), 2) if scores else [None, None]
    won = rng.random() < 0.5
    return MatchResult(
        match_id,
        (SeatResult(a, 1 if won else 2, score[0]), SeatResult(b, 2 if won else 1, score[1])),
        round=round_,
    )


def _swiss(players=9, played=2, rounds=5, tiebreak=DEFAULT_TIEBREAK_ORDER, seed=1):
    """A Swiss stage of pairs, `played` rounds played at random (an odd field: byes)."""
    rng = random.Random(seed)
    everyone = list(range(1, players + 1))
    results: list[MatchResult] = []
    byes: list[Bye] = []
    for round_ in range(1, played + 1):
        rng.shuffle(everyone)
        for a, b in zip(everyone[::2], everyone[1::2], strict=False):
            results.append(_pair(rng, len(results) + 1, a, b, round_))
        if players % 2:
            byes.append(Bye(everyone[-1], round_, 2))
    return StageSetup(
        format="swiss",
        game="yardzee",
        players=tuple(range(1, players + 1)),
        tiebreak=tiebreak,
        results=tuple(results),
        byes=tuple(byes),
        rounds=rounds,
        qualifying=Qualifying(top=4),
    )


def _groups(withdrawn=frozenset({3}), tiebreak=DEFAULT_TIEBREAK_ORDER, seed=2):
    """Two round-robin groups of 5, a third of the matches played, few scores (ties)."""
    rng = random.Random(seed)
    groups = {p: 1 + p % 2 for p in range(1, 11)}
    results, pending = [], []
    for group in (1, 2):
        pairs = list(itertools.combinations([p for p in groups if groups[p] == group], 2))
        for i, (a, b) in enumerate(pairs):
            match_id = 100 * group + i
            if i % 3 == 0:
                results.append(_pair(rng, match_id, a, b, scores=False))
            else:
                pending.append(Pending(match_id, (a, b)))
    return StageSetup(
        format="round_robin",
        game="yardzee",
        players=tuple(range(1, 11)),
        tiebreak=tiebreak,
        results=tuple(results),
        pending=tuple(pending),
        groups=groups,
        withdrawn=withdrawn,
        qualifying=Qualifying(per_group=2, best_rest=1),
    )


def _tables_of_three():
    """A round robin of 6 at tables of 3, nothing played yet."""
    tables = [(1, 2, 3), (4, 5, 6), (1, 4, 5), (2, 3, 6), (1, 2, 6), (3, 4, 5)]
    return StageSetup(
        format="round_robin",
        game="yardzee",
        players=tuple(range(1, 7)),
        tiebreak=("points", "head_to_head", "median_buchholz", "wins"),
        table_size=3,
        pending=tuple(Pending(i + 1, table) for i, table in enumerate(tables)),
        qualifying=Qualifying(top=2),
    )


SETUPS = {
    "swiss with byes": _swiss(),
    "swiss, median Buchholz first": _swiss(tiebreak=("points", "median_buchholz", "wins")),
    "groups with a withdrawal": _groups(),
    "groups, head-to-head only": _groups(tiebreak=("points", "head_to_head"), seed=3),
    "tables of three": _tables_of_three(),
}


def _reference_order(setup, runs, run, stage):
    """The run-by-run simulator's ranking of run `run`'s results: its tally counted from the
    results and ranked by `rank_standings`."""
    shared = _Run(setup, _Outcomes({}, DEFAULT_SETTINGS, setup.withdrawn), {})
    tally = shared.tally()
    players = setup.players
    for t in range(runs.seats.shape[1]):  # the simulated tables
        seats = [
            (players[i], int(place))
            for i, place in zip(runs.seats[run, t], runs.places[run, t], strict=True)
            if i < len(players)
        ]
        tally.add_result(
            MatchResult(
                -1 - t,
                tuple(
                    SeatResult(p, place, None, forfeited=p in setup.withdrawn) for p, place in seats
                ),
            )
        )
    for i, count in enumerate(runs.byes[run].tolist()):
        for k in range(count):
            tally.add_bye(Bye(players[i], 1000 + k, setup.table_size, setup.stage_id))
    assert [tally.records[p].points_units * stage.scale for p in players] == [
        units * tally.scale for units in runs.units[run].tolist()
    ]
    return shared.ranked(tally)


@pytest.mark.parametrize("by_matrix", [False, True], ids=["over-the-tables", "by-the-matrix"])
@pytest.mark.parametrize("name", list(SETUPS))
def test_every_run_is_ranked_as_rank_standings_ranks_its_results(name, by_matrix):
    """Head-to-head both ways: over every table, and the tables played from the matrix of who
    scored what against whom (what a league's long season takes)."""
    setup = SETUPS[name]
    outcomes = _Outcomes(_ratings(setup.players), DEFAULT_SETTINGS, setup.withdrawn)
    stage = TableStage(setup, outcomes.table, outcomes.win_chances, {})
    stage.pairs_method = by_matrix
    runs = stage.simulate(np.random.default_rng(5), 150)
    overall, groups = stage.rank(runs)
    players = np.array(setup.players)
    for run in range(150):
        expected_overall, expected_groups = _reference_order(setup, runs, run, stage)
        assert players[overall[run]].tolist() == list(expected_overall)
        if groups is None:
            assert expected_groups is None
        else:
            assert [players[g[run]].tolist() for g in groups] == expected_groups


def _brackets():
    ratings = _ratings(range(1, 13))
    single = single_elimination(list(range(1, 13)), third_place=True)
    state = advance_bracket(single, {})
    first = state.ready[0]
    decided = {
        first: SlotResult(placements={p: i for i, p in enumerate(state.slots[first].players, 1)})
    }
    return ratings, {
        "single elimination of 12, a third-place match": StageSetup(
            format="single_elimination",
            game="yardzee",
            players=tuple(range(1, 13)),
            tiebreak=DEFAULT_TIEBREAK_ORDER,
            bracket=single,
            slot_results=decided,
            withdrawn=frozenset({5}),
            qualifying=Qualifying(top=4),
        ),
        "double elimination of 8 with a reset": StageSetup(
            format="double_elimination",
            game="yardzee",
            players=tuple(range(1, 9)),
            tiebreak=DEFAULT_TIEBREAK_ORDER,
            bracket=double_elimination(list(range(1, 9))),
            qualifying=Qualifying(top=3),
        ),
        "tables of four, two go on": StageSetup(
            format="single_elimination",
            game="yardzee",
            players=tuple(range(1, 13)),
            tiebreak=DEFAULT_TIEBREAK_ORDER,
            table_size=4,
            bracket=single_elimination(list(range(1, 13)), table_size=4, advance=2),
            qualifying=Qualifying(top=2),
        ),
    }


@pytest.mark.parametrize(
    "name", [*SETUPS, *_brackets()[1]], ids=lambda name: name.replace(" ", "-")
)
def test_the_array_figures_agree_with_the_run_by_run_ones(name):
    ratings, brackets = _brackets()
    setup = SETUPS.get(name) or brackets[name]
    if name in SETUPS:
        ratings = _ratings(setup.players)
    fast = project_stage(setup, ratings, runs=RUNS, seed=11)
    slow = project_stage(setup, ratings, runs=RUNS, seed=11, arrays=False)
    if setup.format == "round_robin":
        # The same random stream (each run's matches in a row of uniforms): the same figures.
        assert fast == slow
        return
    assert fast != slow  # another random stream: the check compares two estimates
    for a, b in zip(fast.players, slow.players, strict=True):
        assert a.win == pytest.approx(b.win, abs=TOLERANCE)
        assert a.qualify == pytest.approx(b.qualify, abs=TOLERANCE)
        assert a.places == pytest.approx(b.places, abs=TOLERANCE)
    assert sum(c.win for c in fast.players) == pytest.approx(1.0)
    assert sum(c.qualify for c in fast.players) == pytest.approx(
        sum(c.qualify for c in slow.players)
    )


def test_a_metric_the_arrays_do_not_know_takes_the_run_by_run_way():
    class Matches(TotalMetric):
        key = "test_matches_played"
        label = "Matches"
        total = "matches"  # a simulated match moves it: not one of the unmoved totals

    register(Matches)
    try:
        setup = _swiss(tiebreak=("points", "test_matches_played"))
        outcomes = _Outcomes({}, DEFAULT_SETTINGS, setup.withdrawn)
        with pytest.raises(Unsupported):
            TableStage(setup, outcomes.table, outcomes.win_chances, {})
        assert project_stage(setup, {}, runs=50, seed=3) == project_stage(
            setup, {}, runs=50, seed=3, arrays=False
        )
    finally:
        del METRICS["test_matches_played"]
