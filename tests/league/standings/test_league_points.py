"""League points (docs/standings.md, "League points"): pairs win/draw/loss, tables by placement
with ties averaged, forfeits last, byes a win. Every table is checked by hand."""

import pytest

from league.standings import Bye, LeaguePoints, Standing, StandingsError, compute_standings
from tests.league.standings.results import A, B, C, D, E, F, draw, result, seat, table


def points_of(standings: tuple[Standing, ...]) -> dict[int, float]:
    return {standing.player: standing.points for standing in standings}


def test_pairs_score_three_for_a_win_one_for_a_draw_and_zero_for_a_loss():
    standings = compute_standings(
        [table(1, A, B), draw(2, A, C)], game="yardzee", tiebreak_order=["points"]
    )
    assert points_of(standings) == {A: 4, B: 0, C: 1}


def test_pairs_points_follow_the_leagues_scheme():
    standings = compute_standings(
        [table(1, A, B), draw(2, A, C)],
        game="yardzee",
        tiebreak_order=["points"],
        points=LeaguePoints(win=2, draw=1, loss=-1),
    )
    assert points_of(standings) == {A: 3, B: -1, C: 1}


def test_a_table_of_four_scores_three_two_one_zero_by_default():
    standings = compute_standings([table(1, C, A, D, B)], game="yardzee", tiebreak_order=["points"])
    assert points_of(standings) == {C: 3, A: 2, D: 1, B: 0}


def test_two_tied_for_first_at_a_table_of_three_share_one_and_a_half_each():
    standings = compute_standings(
        [result(1, seat(A, 1, 250), seat(B, 1, 250), seat(C, 3, 200))],
        game="yardzee",
        tiebreak_order=["points"],
    )
    assert points_of(standings) == {A: 1.5, B: 1.5, C: 0}


def test_players_tied_in_the_middle_share_the_average_of_their_places():
    standings = compute_standings(
        [result(1, seat(A, 1), seat(B, 2), seat(C, 2), seat(D, 4))],
        game="yardkle",
        tiebreak_order=["points"],
    )
    assert points_of(standings) == {A: 3, B: 1.5, C: 1.5, D: 0}


def test_placement_points_are_configurable_per_table_size():
    scheme = LeaguePoints(placement={4: (5, 3, 1, 0)})
    standings = compute_standings(
        [table(1, A, B, C, D), table(2, A, B, C)],  # the table of 3 keeps the default 2/1/0
        game="yardzee",
        tiebreak_order=["points"],
        points=scheme,
    )
    assert points_of(standings) == {A: 7, B: 4, C: 1, D: 0}


def test_shares_of_a_third_add_up_exactly_so_equal_points_tie():
    # 5/3/1/0: three tied for 2nd share (3 + 1 + 0) / 3 = 4/3 each; three such shares are 4,
    # exactly what E gets for a shared 1st ((5 + 3) / 2).
    scheme = LeaguePoints(placement={4: (5, 3, 1, 0)})
    thirds = [result(m, seat(A, 1), seat(B, 2), seat(C, 2), seat(D, 2)) for m in (1, 2, 3)]
    shared_first = result(4, seat(E, 1), seat(F, 1), seat(C, 3), seat(D, 4))
    standings = compute_standings(
        [*thirds, shared_first], game="yardzee", tiebreak_order=["points"], points=scheme
    )
    by_player = {standing.player: standing for standing in standings}
    assert by_player[B].points == by_player[E].points == 4
    assert by_player[B].rank == by_player[E].rank


def test_a_forfeit_at_a_table_counts_as_last_place_and_the_others_move_up():
    # A led when forfeiting: A is last, B, C, D take places 1, 2, 3.
    forfeit = result(
        1, seat(A, 1, 180, forfeited=True), seat(B, 2, 150), seat(C, 3, 120), seat(D, 4, 90)
    )
    standings = compute_standings([forfeit], game="yardzee", tiebreak_order=["points"])
    by_player = {standing.player: standing for standing in standings}
    assert points_of(standings) == {B: 3, C: 2, D: 1, A: 0}
    assert by_player[A].placements == (0, 0, 0, 1)
    assert by_player[A].forfeits == 1
    assert by_player[B].wins == 1


def test_every_forfeit_at_a_table_scores_the_last_places_points():
    forfeits = result(
        1, seat(A, 1, forfeited=True), seat(B, 2, forfeited=True), seat(C, 3), seat(D, 4)
    )
    standings = compute_standings([forfeits], game="yardzee", tiebreak_order=["points"])
    assert points_of(standings) == {C: 3, D: 2, A: 0, B: 0}


def test_a_forfeit_in_pairs_is_a_loss_and_the_opponent_wins():
    forfeit = result(1, seat(A, 1, 90, forfeited=True), seat(B, 2, 40))
    standings = compute_standings([forfeit], game="yardzee", tiebreak_order=["points"])
    by_player = {standing.player: standing for standing in standings}
    assert points_of(standings) == {B: 3, A: 0}
    assert (by_player[B].wins, by_player[A].wins) == (1, 0)


def test_when_both_of_a_pair_forfeit_both_lose():
    both = result(1, seat(A, 1, forfeited=True), seat(B, 2, forfeited=True))
    standings = compute_standings([both], game="yardzee", tiebreak_order=["points"])
    assert points_of(standings) == {A: 0, B: 0}
    assert all(standing.draws == 0 for standing in standings)


def test_a_bye_in_pairs_is_worth_the_win_points_and_counts_as_a_win():
    standings = compute_standings(
        [table(1, B, C)],
        byes=[Bye(player=A, round=1, table_size=2)],
        game="yardzee",
        tiebreak_order=["points"],
    )
    by_player = {standing.player: standing for standing in standings}
    assert by_player[A].points == 3
    assert (by_player[A].wins, by_player[A].byes, by_player[A].matches) == (1, 1, 0)
    assert by_player[A].placements == ()


def test_a_bye_at_tables_is_worth_first_place_at_the_stages_usual_table_size():
    default = compute_standings(
        [], byes=[Bye(A, round=1, table_size=4)], game="yardzee", tiebreak_order=["points"]
    )
    custom = compute_standings(
        [],
        byes=[Bye(A, round=1, table_size=4)],
        game="yardzee",
        tiebreak_order=["points"],
        points=LeaguePoints(placement={4: (5, 3, 1, 0)}),
    )
    assert default[0].points == 3
    assert custom[0].points == 5


def test_the_same_bye_given_twice_counts_once_but_byes_of_two_stages_both_count():
    byes = [
        Bye(A, round=1, table_size=2, stage=10),
        Bye(A, round=1, table_size=2, stage=10),
        Bye(A, round=1, table_size=2, stage=11),
    ]
    standings = compute_standings([], byes=byes, game="yardzee", tiebreak_order=["points"])
    assert (standings[0].points, standings[0].byes) == (6, 2)


def test_league_points_read_from_settings_json_and_back():
    scheme = LeaguePoints.from_json({"win": 2, "placement": {"4": [4, 2, 1, 0]}})
    assert scheme == LeaguePoints(win=2, draw=1, loss=0, placement={4: (4, 2, 1, 0)})
    assert LeaguePoints.from_json(scheme.to_json()) == scheme


@pytest.mark.parametrize(
    "settings",
    [
        {"wins": 3},
        {"win": 1, "draw": 2},
        {"win": True},
        {"win": "3"},
        {"win": float("nan")},
        {"placement": {"4": [3, 2, 1]}},
        {"placement": {"4": [0, 1, 2, 3]}},
        {"placement": {"2": [1, 0]}},
        {"placement": {"four": [3, 2, 1, 0]}},
        {"placement": [3, 2, 1, 0]},
        {"placement": {"3": 5}},
        [],
        # Numbers the exact 64-bit sums cannot hold.
        {"win": 10**30},
        {"win": 1e300, "draw": 0},
        {"win": 1001},
        {"loss": -1001},
        {"win": 0.0001},
        {"placement": {"3": [10**20, 0, 0]}},
        # A table size written otherwise than as its number: two keys could name one size
        # ({"3": ..., "03": ...}), and one of them would be dropped without a word.
        {"placement": {"03": [3, 2, 1]}},
        {"placement": {" 3": [3, 2, 1]}},
        {"placement": {"+3": [3, 2, 1]}},
        {"placement": {"3_0": [0] * 30}},
        {"placement": {"\uff13": [3, 2, 1]}},
        {"placement": {"3": [3, 2, 1], "03": [5, 1, 0]}},
    ],
)
def test_a_league_points_scheme_that_makes_no_sense_is_refused(settings):
    with pytest.raises(StandingsError) as error:
        LeaguePoints.from_json(settings)
    assert error.value.code == "league_points"


def test_points_up_to_a_thousand_with_three_decimals_are_taken():
    scheme = LeaguePoints.from_json({"win": 1000, "draw": 0.125, "loss": -1000})
    assert (scheme.win, scheme.draw, scheme.loss) == (1000, 0.125, -1000)


def test_a_bye_needs_a_table_size_of_two_or_more():
    with pytest.raises(StandingsError) as error:
        compute_standings(
            [], byes=[Bye(A, round=1, table_size=1)], game="yardzee", tiebreak_order=["points"]
        )
    assert error.value.code == "invalid_bye"
