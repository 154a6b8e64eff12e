"""Properties over random leagues: standings depend on the set of results only, a stored tally
plus more results equals a fresh one, and ranks are consistent with the metrics."""

import json
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from league.standings import (
    METRICS,
    LeaguePoints,
    Tally,
    compute_standings,
    effective_placements,
    rank_standings,
)
from league.standings.metrics import HeadToHead
from tests.league.standings.strategies import ORDERS, PROPERTIES, League, leagues


def standings_of(league: League, order: list[str], results=None):
    return compute_standings(
        league.results if results is None else results,
        byes=league.byes,
        game=league.game,
        tiebreak_order=order,
        points=league.points,
    )


@PROPERTIES
@given(leagues(), ORDERS, st.randoms(use_true_random=False))
def test_results_in_any_order_and_with_duplicates_give_the_same_standings(
    league: League, order: list[str], rng: random.Random
):
    shuffled = league.results + rng.sample(league.results, k=len(league.results) // 2)
    rng.shuffle(shuffled)
    assert standings_of(league, order, shuffled) == standings_of(league, order)


@PROPERTIES
@given(leagues(), ORDERS, st.data())
def test_a_stored_tally_plus_more_results_equals_the_table_from_scratch(
    league: League, order: list[str], data: st.DataObject
):
    split = data.draw(st.integers(0, len(league.results)))
    tally = Tally(game=league.game, points=league.points)
    tally.add_results(league.results[:split])
    for bye in league.byes:
        tally.add_bye(bye)
    for one_more in league.results[split:]:
        tally = Tally.from_json(json.loads(json.dumps(tally.to_json())))
        tally.add_result(one_more)
    assert rank_standings(tally, order) == standings_of(league, order)


@PROPERTIES
@given(leagues(), ORDERS)
def test_ranks_are_shared_only_by_players_equal_on_every_metric(league: League, order: list[str]):
    standings = standings_of(league, order)
    for position, standing in enumerate(standings):
        if position == 0:
            assert standing.rank == 1
            continue
        previous = standings[position - 1]
        assert standing.rank in (previous.rank, position + 1)
        if standing.rank == previous.rank:
            assert standing.metrics == previous.metrics
        else:
            assert standing.metrics != previous.metrics or "head_to_head" in order


@PROPERTIES
@given(leagues(), st.sampled_from(["points", "buchholz", "wins", "total_score"]))
def test_a_table_ranked_by_one_metric_is_sorted_by_it(league: League, key: str):
    values = [standing.metrics[key] for standing in standings_of(league, [key])]
    assert values == sorted(values, reverse=True)


@PROPERTIES
@given(leagues())
def test_every_seat_and_bye_is_counted_exactly_once(league: League):
    standings = standings_of(league, ["points"])
    assert len({standing.player for standing in standings}) == len(standings)
    assert sum(s.matches for s in standings) == sum(len(r.seats) for r in league.results)
    assert sum(s.byes for s in standings) == len(league.byes)
    assert all(sum(s.placements) == s.matches for s in standings)
    assert all(s.wins + s.draws <= s.matches + s.byes for s in standings)
    assert sum(s.forfeits for s in standings) == sum(
        seat.forfeited for r in league.results for seat in r.seats
    )


@PROPERTIES
@given(leagues(max_matches=1))
def test_default_points_of_a_match_without_forfeits_add_up_to_the_places_points(league: League):
    if not league.results or any(seat.forfeited for seat in league.results[0].seats):
        return
    size = len(league.results[0].seats)
    standings = compute_standings(league.results, game=league.game, tiebreak_order=["points"])
    total = sum(standing.points for standing in standings)
    if size == 2:
        assert total in (3, 2)  # a win and a loss, or a draw each
    else:
        assert total == size * (size - 1) / 2
    assert LeaguePoints() == LeaguePoints.from_json({})


# --- The opponent metrics against their definitions ------------------------------------------
# The metrics work on the tally's seating arrays; these are the definitions of docs/standings.md
# written out over the results, one match at a time.


def _opponent_points(league: League, tally: Tally) -> dict[int, list[float]]:
    """Every opponent's league points, once per match against them, by player."""
    met: dict[int, list[float]] = {player: [] for player in tally.players}
    for match in league.results:
        for seat in match.seats:
            met[seat.player].extend(
                tally.league_points(other.player)
                for other in match.seats
                if other.player != seat.player
            )
    return met


def _tally_of(league: League) -> Tally:
    tally = Tally(game=league.game, points=league.points)
    tally.add_results(league.results)
    for bye in league.byes:
        tally.add_bye(bye)
    return tally


@PROPERTIES
@given(leagues(max_matches=30))
def test_buchholz_is_the_sum_of_every_opponents_points_once_per_match(league: League):
    tally = _tally_of(league)
    expected = {player: sum(points) for player, points in _opponent_points(league, tally).items()}
    values = METRICS["buchholz"]().values(tally)
    assert values == pytest.approx(expected, abs=1e-9)


@PROPERTIES
@given(leagues(max_matches=30))
def test_median_buchholz_drops_the_best_and_the_worst_opponent(league: League):
    tally = _tally_of(league)
    expected = {
        player: sum(sorted(points)[1:-1]) if len(points) >= 3 else 0.0
        for player, points in _opponent_points(league, tally).items()
    }
    values = METRICS["median_buchholz"]().values(tally)
    assert values == pytest.approx(expected, abs=1e-9)


@PROPERTIES
@given(leagues(max_matches=30), st.data())
def test_head_to_head_counts_only_matches_among_players_of_one_group(
    league: League, data: st.DataObject
):
    tally = _tally_of(league)
    players = list(tally.players)
    group_of = {player: data.draw(st.integers(-1, 2)) for player in players}  # -1: in no group
    groups = [[player for player in players if group_of[player] == number] for number in range(3)]
    groups = [group for group in groups if group]
    expected = {player: 0.0 for group in groups for player in group}
    for match in league.results:
        places = dict(
            zip([s.player for s in match.seats], effective_placements(match), strict=True)
        )
        for me, mine in places.items():
            for other, theirs in places.items():
                if other != me and group_of[me] >= 0 and group_of[me] == group_of[other]:
                    expected[me] += 1.0 if mine < theirs else 0.5 if mine == theirs else 0.0
    assert HeadToHead().values_within(tally, groups) == expected
