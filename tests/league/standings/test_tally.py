"""The tally: duplicates, stored state plus one result, malformed input
(docs/standings.md, "The tally")."""

import base64
import json

import numpy as np
import pytest

from league.standings import (
    Bye,
    LeaguePoints,
    MatchResult,
    StandingsError,
    Tally,
    compute_standings,
    effective_placements,
    rank_standings,
)
from tests.league.standings.results import A, B, C, D, E, result, seat, table

ORDER = ["points", "head_to_head", "buchholz", "median_buchholz", "average_score"]

RESULTS = [
    table(1, A, B, C),
    table(2, D, A),
    result(3, seat(B, 1, 250), seat(C, 1, 250), seat(D, 3, 120), seat(E, 4, 80)),
    result(4, seat(E, 1, 300, forfeited=True), seat(A, 2, 200)),
    table(5, C, E, B, A),
]


def test_a_match_given_twice_is_counted_once():
    tally = Tally(game="yardzee")
    assert tally.add_result(RESULTS[0]) is True
    assert tally.add_result(RESULTS[0]) is False
    assert tally.records[A].matches == 1
    twice = compute_standings(RESULTS + RESULTS[:2], game="yardzee", tiebreak_order=ORDER)
    assert twice == compute_standings(RESULTS, game="yardzee", tiebreak_order=ORDER)


def test_a_stored_tally_plus_one_more_result_equals_the_table_from_scratch():
    tally = Tally(game="yardzee", points=LeaguePoints(placement={4: (5, 3, 1, 0)}))
    tally.add_results(RESULTS[:-1])
    tally.add_bye(Bye(D, round=5, table_size=4, stage=1))
    stored = json.loads(json.dumps(tally.to_json()))

    later = Tally.from_json(stored)
    later.add_result(RESULTS[-1])

    scratch = compute_standings(
        RESULTS,
        byes=[Bye(D, round=5, table_size=4, stage=1)],
        game="yardzee",
        tiebreak_order=ORDER,
        points=LeaguePoints(placement={4: (5, 3, 1, 0)}),
    )
    assert rank_standings(later, ORDER) == scratch


def test_a_stored_tally_still_ignores_a_match_it_has_counted():
    tally = Tally(game="yardkle")
    tally.add_results(RESULTS)
    later = Tally.from_json(tally.to_json())
    assert later.add_result(RESULTS[0]) is False
    assert later.add_bye(Bye(A, round=1, table_size=2)) is True
    assert later.add_bye(Bye(A, round=1, table_size=2)) is False


def test_the_tiebreak_order_can_change_without_recounting():
    tally = Tally(game="yardzee")
    tally.add_results(RESULTS)
    for order in (["points"], ["total_score", "points"], ["head_to_head"]):
        assert rank_standings(tally, order) == compute_standings(
            RESULTS, game="yardzee", tiebreak_order=order
        )


def _stored_tally(**changes: object) -> dict[str, object]:
    """A valid stored tally of two tables, with `changes` made to it."""
    tally = Tally(game="yardzee")
    tally.add_results([table(1, A, B), table(2, B, C, A)])
    return {**tally.to_json(), **changes}


def _column(values: list[int], dtype: str = "<i4") -> dict[str, str]:
    return {"dtype": dtype, "data": base64.b64encode(np.array(values, dtype).tobytes()).decode()}


def _with_tables(**columns: object) -> dict[str, object]:
    stored = _stored_tally()
    return {**stored, "tables": {**stored["tables"], **columns}}  # type: ignore[dict-item]


def test_a_stored_tally_reads_back_as_it_was():
    stored = json.loads(json.dumps(_stored_tally()))
    assert Tally.from_json(stored).to_json() == stored
    assert stored["tables"]["players"]["dtype"] == "|i1"  # stored as narrow as the ids allow


@pytest.mark.parametrize(
    "stored",
    [
        {},
        [],
        {"version": 99},
        {"version": 1, "game": "yardzee", "points": {}, "scale": 1, "tables": [], "byes": []},
        _stored_tally(game="chess"),
        _stored_tally(points={"win": "x"}),
        _with_tables(players=_column([7, 8, 2, 3, 1])),  # players with no totals
        _with_tables(places=_column([1, 2, 1])),  # fewer places than seats
        _with_tables(places=_column([1, 2, 1, 2, 4])),  # 4th place at a table of 3
        _with_tables(sizes=_column([1, 4])),  # a table of one
        _with_tables(match_ids=_column([1, 1])),  # one match twice
        _with_tables(players={"dtype": "<f8", "data": ""}),
        _with_tables(players={"dtype": "<i4", "data": "not base64!"}),
        _stored_tally(players={"player": [A], "matches": []}),
    ],
)
def test_a_stored_tally_that_cannot_be_read_back_is_an_invalid_tally(stored):
    with pytest.raises(StandingsError) as error:
        Tally.from_json(stored)
    assert error.value.code == "invalid_tally"


@pytest.mark.parametrize(
    "broken",
    [
        MatchResult(match_id=1, seats=(seat(A, 1),)),
        MatchResult(match_id=1, seats=(seat(A, 1), seat(A, 2))),
        MatchResult(match_id=1, seats=(seat(A, 0), seat(B, 1))),
        MatchResult(match_id=1, seats=(seat(A, 1), seat(B, 3))),
    ],
)
def test_a_result_that_is_not_a_finished_match_is_refused(broken):
    with pytest.raises(StandingsError) as error:
        Tally(game="yardzee").add_result(broken)
    assert error.value.code == "invalid_result"


def test_a_known_placement_pattern_still_refuses_a_player_seated_twice():
    tally = Tally(game="yardzee")
    tally.add_result(table(1, A, B))
    with pytest.raises(StandingsError):
        tally.add_result(MatchResult(match_id=2, seats=(seat(C, 1), seat(C, 2))))


def test_standings_are_kept_for_the_two_games_only():
    with pytest.raises(StandingsError) as error:
        Tally(game="farkle")
    assert error.value.code == "unknown_game"


def test_only_the_order_of_placements_counts_and_forfeits_go_last():
    match = result(1, seat(A, 2), seat(B, 2), seat(C, 4, forfeited=True), seat(D, 4), seat(E, 1))
    assert effective_placements(match) == (2, 2, 5, 4, 1)
    assert effective_placements(table(2, A, B, C)) == (1, 2, 3)


def test_a_walkover_or_a_forfeit_counts_as_a_match_but_not_in_the_game_scores():
    """docs/standings.md, "Forfeits in the table": a seat without a game (score None) is a
    match, a win or a loss, and leaves the total, average and best score as they were."""
    played = result(1, seat(A, 1, 300), seat(B, 2, 200))
    walkover = result(2, seat(A, 1, None), seat(C, 2, None, forfeited=True))
    rows = {
        row.player: row
        for row in compute_standings([played, walkover], game="yardzee", tiebreak_order=ORDER)
    }
    assert (rows[A].matches, rows[A].wins, rows[A].forfeits) == (2, 2, 0)
    assert (rows[A].total_score, rows[A].average_score, rows[A].best_score) == (300, 300.0, 300)
    assert rows[A].metrics["average_score"] == 300.0
    assert (rows[C].matches, rows[C].forfeits, rows[C].wins) == (1, 1, 0)
    assert (rows[C].total_score, rows[C].average_score, rows[C].best_score) == (0, 0.0, None)
    tally = Tally(game="yardzee")
    tally.add_results([played, walkover])
    stored = Tally.from_json(json.loads(json.dumps(tally.to_json())))
    assert (stored.records[A].scored, stored.records[A].average_score) == (1, 300.0)
