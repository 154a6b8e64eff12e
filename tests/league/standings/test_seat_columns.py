"""Counting many matches at once from seat columns (`Tally.add_seat_columns`): the same tally,
to the last total, as adding each match with `add_result` (docs/standings.md, "The tally")."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from league.standings import MatchResult, StandingsError, Tally, rank_standings
from tests.league.standings.results import A, B, C, D, result, seat, table
from tests.league.standings.strategies import ORDERS, PROPERTIES, League, leagues


def _columns(results: list[MatchResult]) -> list[list[int]]:
    """The seat columns of `results` (no forfeits), by match id."""
    columns: list[list[int]] = [[] for _ in range(7)]
    for match in sorted(results, key=lambda r: r.match_id):
        for s in match.seats:
            assert s.score is not None
            assert not s.forfeited
            values = (match.match_id, s.player, s.placement, s.score, s.yardzees)
            for column, value in zip(columns, (*values, s.upper_bonus, s.yardkles), strict=True):
                column.append(value)
    return columns


def _plain(results: list[MatchResult]) -> list[MatchResult]:
    """`results` without the matches that have a forfeit."""
    return [r for r in results if not any(s.forfeited for s in r.seats)]


def _state(tally: Tally) -> dict[str, object]:
    data = tally.to_json()
    return {key: data[key] for key in ("scale", "tables", "players", "byes")}


@PROPERTIES
@given(league=leagues(max_matches=30), order=ORDERS, split=st.integers(0, 30))
def test_seat_columns_count_as_adding_each_result(league: League, order: list[str], split: int):
    one_by_one = Tally(game=league.game, points=league.points)
    one_by_one.add_results(league.results)
    at_once = Tally(game=league.game, points=league.points)
    plain = _plain(league.results)
    # Part of the plain matches one by one first, then all of them as columns: those counted
    # already are ignored; the forfeits go through add_result.
    at_once.add_results(plain[:split])
    assert at_once.add_seat_columns(*_columns(plain)) == len(plain[split:])
    at_once.add_results(r for r in league.results if r not in plain)
    for bye in league.byes:
        one_by_one.add_bye(bye)
        at_once.add_bye(bye)
    assert _state(at_once) == _state(one_by_one)
    assert rank_standings(at_once, order) == rank_standings(one_by_one, order)


def test_a_finer_points_scale_met_midway_counts_every_match_in_it():
    from league.standings import LeaguePoints

    points = LeaguePoints(win=1, draw=0.5, placement={3: (1, 0.25, 0), 4: (1, 0.3, 0.1, 0)})
    results = [
        table(1, A, B),
        result(2, seat(A, 1), seat(B, 1)),
        table(3, A, B, C),
        table(4, A, B, C, D),
        result(5, seat(A, 1), seat(B, 1), seat(C, 3)),
    ]
    expected = Tally(game="yardzee", points=points)
    expected.add_results(results)
    tally = Tally(game="yardzee", points=points)
    tally.add_seat_columns(*_columns(results))
    assert tally.scale == expected.scale == 40
    assert _state(tally) == _state(expected)
    assert tally.league_points(A) == 1 + 0.5 + 1 + 1 + 1 / 2 * (1 + 0.25)


@pytest.mark.parametrize(
    ("columns", "message"),
    [
        ([[1], [A], [1], [0], [0], [0], [0]], "has 1 seat(s)"),
        ([[1, 1], [A, A], [1, 2], [0, 0], [0, 0], [0, 0], [0, 0]], "seats a player twice"),
        ([[1, 1], [A, B], [1, 3], [0, 0], [0, 0], [0, 0], [0, 0]], "placement 3 of player"),
        ([[1, 2, 1], [A, B, C], [1, 1, 2], [0] * 3, [0] * 3, [0] * 3, [0] * 3], "side by side"),
        ([[1, 1], [A], [1, 2], [0, 0], [0, 0], [0, 0], [0, 0]], "do not line up"),
    ],
)
def test_malformed_seat_columns_are_refused_and_count_nothing(columns, message):
    tally = Tally(game="yardzee")
    with pytest.raises(StandingsError, match=message.replace("(", r"\(").replace(")", r"\)")):
        tally.add_seat_columns(*columns)
    assert tally.records == {}
    assert tally.match_ids == frozenset()
