"""Ranking by a tiebreak order that is data (docs/standings.md, "Ranking and ties")."""

import pytest

from league.standings import (
    DEFAULT_TIEBREAK_ORDER,
    METRICS,
    Standing,
    StandingsError,
    Tally,
    compute_standings,
    rank_for_cut,
    rank_standings,
    validate_tiebreak_order,
)
from tests.league.standings.results import A, B, C, D, E, F, draw, result, seat, table


def order_of(standings: tuple[Standing, ...]) -> list[tuple[int, int]]:
    return [(standing.player, standing.rank) for standing in standings]


def test_the_tiebreak_order_is_data_and_changes_who_leads():
    # Tables of four, 3/2/1/0: B is second three times (6 points, no win); C, D and A win once
    # each (5, 4 and 3 points).
    results = [table(1, A, B, C, D), table(2, C, B, D, A), table(3, D, B, C, A)]
    by_points = compute_standings(results, game="yardzee", tiebreak_order=["points", "wins"])
    by_wins = compute_standings(results, game="yardzee", tiebreak_order=["wins", "points"])
    assert [s.player for s in by_points] == [B, C, D, A]
    assert [s.player for s in by_wins] == [C, D, A, B]


def test_players_equal_on_every_metric_share_the_place_and_the_next_place_is_skipped():
    results = [draw(1, A, B), table(2, C, D)]
    standings = compute_standings(results, game="yardzee", tiebreak_order=["points", "total_score"])
    assert order_of(standings) == [(C, 1), (A, 2), (B, 2), (D, 4)]


def test_a_three_way_head_to_head_cycle_stays_tied_and_the_next_metric_decides():
    # A beat B, B beat C, C beat A: 3 points and 1 head-to-head point each.
    results = [
        result(1, seat(A, 1, 200), seat(B, 2, 100)),
        result(2, seat(B, 1, 300), seat(C, 2, 100)),
        result(3, seat(C, 1, 250), seat(A, 2, 100)),
    ]
    standings = compute_standings(
        results, game="yardzee", tiebreak_order=["points", "head_to_head", "total_score"]
    )
    # Totals: B 400, C 350, A 300.
    assert order_of(standings) == [(B, 1), (C, 2), (A, 3)]
    assert all(standing.metrics["head_to_head"] == 1 for standing in standings)


def test_a_three_way_head_to_head_cycle_with_nothing_after_shares_the_place():
    results = [table(1, A, B), table(2, B, C), table(3, C, A)]
    standings = compute_standings(
        results, game="yardzee", tiebreak_order=["points", "head_to_head"]
    )
    assert order_of(standings) == [(A, 1), (B, 1), (C, 1)]


def test_head_to_head_is_applied_again_among_exactly_the_players_still_tied():
    # A, B, C and D end on 9 points each (E lost to all but A and pads the others' points).
    # Among the four: A beat B, C, D (3); D beat B twice (2); B beat C (1); C beat D (1).
    # B and C are still tied at 1, so head-to-head is taken again between just them: B beat C.
    # Best game alone would put C (300) ahead of B.
    results = [
        table(1, A, B),
        table(2, A, C),
        table(3, A, D),
        table(4, B, C),
        result(5, seat(C, 1, 300), seat(D, 2, 100)),
        table(6, D, B),
        table(7, D, B),
        table(8, B, E),
        table(9, B, E),
        table(10, C, E),
        table(11, C, E),
        table(12, D, E),
    ]
    standings = compute_standings(
        results, game="yardzee", tiebreak_order=["points", "head_to_head", "best_score"]
    )
    assert {s.points for s in standings if s.player != E} == {9}
    assert order_of(standings) == [(A, 1), (D, 2), (B, 3), (C, 4), (E, 5)]
    # The value shown is the one among all four tied players.
    assert {s.player: s.metrics["head_to_head"] for s in standings} == {
        A: 3,
        D: 2,
        B: 1,
        C: 1,
        E: None,
    }


def test_a_buchholz_tie_goes_to_the_next_metric():
    # Pairs: A beat C, B beat D, C beat E, D beat F. A, B, C and D have 3 points each, and a
    # Buchholz of 3 each (A: C's 3; B: D's 3; C: A's 3 + E's 0; D: B's 3 + F's 0).
    results = [
        result(1, seat(A, 1, 280), seat(C, 2, 100)),
        result(2, seat(B, 1, 200), seat(D, 2, 100)),
        result(3, seat(C, 1, 150), seat(E, 2, 100)),
        result(4, seat(D, 1, 150), seat(F, 2, 100)),
    ]
    standings = compute_standings(
        results, game="yardzee", tiebreak_order=["points", "buchholz", "best_score"]
    )
    assert {s.player: s.metrics["buchholz"] for s in standings} == {
        A: 3,
        B: 3,
        C: 3,
        D: 3,
        E: 3,
        F: 3,
    }
    assert order_of(standings) == [(A, 1), (B, 2), (C, 3), (D, 3), (E, 5), (F, 5)]
    without_best = compute_standings(results, game="yardzee", tiebreak_order=["points", "buchholz"])
    assert order_of(without_best) == [(A, 1), (B, 1), (C, 1), (D, 1), (E, 5), (F, 5)]


X = 7


@pytest.mark.parametrize(
    ("metric", "expected"),
    [
        ("total_score", [X, A, B]),  # 430, 350, 200
        ("average_score", [X, B, A]),  # 215, 200, 175
        ("best_score", [A, X, B]),  # 300, 250, 200
    ],
)
def test_a_tie_on_points_is_broken_by_the_score_metric_named_next(metric, expected):
    # A, B and X have 3 points each (one win); F won twice (6); D and E none.
    results = [
        result(1, seat(A, 1, 300), seat(D, 2, 100)),
        result(2, seat(F, 1, 120), seat(A, 2, 50)),
        result(3, seat(B, 1, 200), seat(D, 2, 90)),
        result(4, seat(X, 1, 250), seat(E, 2, 100)),
        result(5, seat(F, 1, 190), seat(X, 2, 180)),
    ]
    standings = compute_standings(results, game="yardzee", tiebreak_order=["points", metric])
    assert standings[0].player == F
    assert [s.player for s in standings[1:4]] == expected
    assert [s.rank for s in standings[:4]] == [1, 2, 3, 4]


def test_buchholz_separates_players_level_on_points():
    # A and B both beat one player; A's victim (C) went on to win twice, B's (D) never.
    results = [table(1, A, C), table(2, B, D), table(3, C, E), table(4, C, F)]
    standings = compute_standings(results, game="yardzee", tiebreak_order=["points", "buchholz"])
    assert order_of(standings)[:3] == [(C, 1), (A, 2), (B, 3)]


def test_a_metric_can_rank_lower_values_first():
    assert METRICS["yardkles"].descending is False
    assert all(
        METRICS[key].descending for key in METRICS if key != "yardkles"
    )  # every other metric ranks high values first


def test_the_default_tiebreak_order_is_valid_for_both_games():
    assert validate_tiebreak_order(list(DEFAULT_TIEBREAK_ORDER), game="yardzee")
    assert validate_tiebreak_order(list(DEFAULT_TIEBREAK_ORDER), game="yardkle")


@pytest.mark.parametrize(
    ("order", "code"),
    [
        (["points", "goal_difference"], "unknown_metric"),
        (["points", "wins", "points"], "duplicate_metric"),
        ([], "tiebreak_order"),
        ("points", "tiebreak_order"),
        (None, "tiebreak_order"),
        (["points", 3], "tiebreak_order"),
        (["points", "yardzees"], "metric_not_for_game"),
    ],
)
def test_an_invalid_tiebreak_order_is_refused_with_a_code_the_api_can_show(order, code):
    with pytest.raises(StandingsError) as error:
        validate_tiebreak_order(order, game="yardkle")
    assert error.value.code == code


def test_an_unknown_metric_error_names_the_metrics_there_are():
    with pytest.raises(StandingsError, match=r"the metrics of Yardzee leagues: .*buchholz"):
        compute_standings([], game="yardzee", tiebreak_order=["sonneborn_berger"])


@pytest.mark.parametrize(
    ("game", "own", "other"),
    [("yardzee", ["upper_bonuses", "yardzees"], "yardkles"), ("yardkle", ["yardkles"], "yardzees")],
)
def test_an_unknown_metric_lists_only_the_metrics_of_the_leagues_game(game, own, other):
    with pytest.raises(StandingsError) as error:
        validate_tiebreak_order(["points", "luck"], game=game)
    metrics = error.value.details["metrics"]
    assert set(own) <= set(metrics)
    assert other not in metrics
    assert other not in error.value.message
    assert error.value.message == (
        f"Unknown standings metric 'luck'; the metrics of {game.title()} leagues: "
        f"{', '.join(metrics)}."
    )
    assert error.value.details["metric"] == "luck"
    with pytest.raises(StandingsError) as anywhere:  # no game: every metric there is
        validate_tiebreak_order(["luck"])
    assert {"yardzees", "yardkles"} <= set(anywhere.value.details["metrics"])


def test_a_metric_twice_or_of_the_other_game_is_named_in_the_details():
    for order, game, code in (
        (["wins", "wins"], "yardzee", "duplicate_metric"),
        (["wins", "yardkles"], "yardzee", "metric_not_for_game"),
    ):
        with pytest.raises(StandingsError) as error:
            validate_tiebreak_order(order, game=game)
        assert (error.value.code, error.value.details) == (code, {"metric": order[1]})


def test_compute_standings_checks_the_tiebreak_order_before_counting():
    broken = result(1, seat(A, 1))  # one seat: an invalid result, never looked at
    with pytest.raises(StandingsError) as error:
        compute_standings([broken], game="yardzee", tiebreak_order=["nope"])
    assert error.value.code == "unknown_metric"


def test_rank_for_cut_breaks_a_full_tie_by_seed_then_puts_unseeded_players_last():
    results = [draw(1, A, B), draw(2, C, D), table(3, E, F)]
    standings = compute_standings(results, game="yardzee", tiebreak_order=["points"])
    assert order_of(standings) == [(E, 1), (A, 2), (B, 2), (C, 2), (D, 2), (F, 6)]
    cut = rank_for_cut(standings, seeds={A: 4, B: 2, D: 3, E: 9})
    assert cut == (E, B, D, A, C, F)


def test_rank_for_cut_never_reorders_players_the_tiebreak_order_separated():
    standings = compute_standings(
        [table(1, A, B), table(2, C, D), table(3, A, C)],
        game="yardzee",
        tiebreak_order=["points", "buchholz"],
    )
    seeds = {D: 1, C: 2, B: 3, A: 4}
    assert rank_for_cut(standings, seeds=seeds) == tuple(s.player for s in standings)


def test_issue38_a_withdrawn_player_is_ranked_after_those_still_playing_and_marked():
    """Issue 38, item 6: B withdrew with the most points; the places are those still
    playing's, B after them (among the withdrawn by the same metrics), marked."""
    results = [table(1, B, A, C), table(2, B, C, A)]
    tally = Tally(game="yardzee")
    tally.add_results(results)
    standings = rank_standings(tally, ["points", "wins"], withdrawn={B})
    assert order_of(standings) == [(A, 1), (C, 1), (B, 3)]
    assert [s.withdrawn for s in standings] == [False, False, True]
    groups = rank_standings(tally, ["points"], groups={A: 1, B: 1, C: 2}, withdrawn={B})
    assert [(s.player, s.group, s.rank, s.withdrawn) for s in groups] == [
        (A, 1, 1, False),
        (B, 1, 2, True),
        (C, 2, 1, False),
    ]
