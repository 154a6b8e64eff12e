"""The ranked table kept current (`league.standings.incremental.RankedTable`): after any results,
byes and players added one at a time, it equals `rank_standings` of the same tally, and it
reports every line that changed and only those."""

import dataclasses
import random
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from league.standings import Bye, MatchResult, SeatResult, Tally, rank_standings
from league.standings.incremental import RankedTable
from tests.league.standings.strategies import ORDERS, PROPERTIES, League, leagues

WIDER_ORDERS = [
    ["points", "head_to_head", "buchholz", "wins", "average_score", "best_score"],
    ["points", "head_to_head", "buchholz", "median_buchholz", "wins", "best_score"],
    ["wins", "points", "average_score", "total_score"],
    ["head_to_head", "points"],
    ["points", "buchholz", "head_to_head"],
    ["total_score", "head_to_head"],
]


def _lines(table, apart=()):
    """Each player's line: their position and standing, without the metrics kept apart from
    the lines (`RankedTable.apart`: a change of those alone is no change of the line)."""
    return {
        standing.player: (
            position,
            dataclasses.replace(
                standing, metrics={k: v for k, v in standing.metrics.items() if k not in apart}
            ),
        )
        for position, standing in enumerate(table)
    }


def _check_step(ranked: RankedTable, tally: Tally, order, before, **settings: Any) -> Any:
    """Update, then compare with a ranking from scratch and with what the update reported."""
    changes = ranked.update(tally, order, **settings)
    expected = rank_standings(tally, order, **settings)
    assert ranked.table(tally) == expected
    after = _lines(expected, ranked.apart)
    # Lines compared with the same metrics left out (the order, and so those, may change).
    before = _lines([line for _, line in sorted(before.values())], ranked.apart)
    differ = {player for player, line in after.items() if before.get(player) != line}
    assert differ <= changes.placed | changes.counted
    assert changes.placed <= differ
    assert changes.added == after.keys() - before.keys()
    return after


@PROPERTIES
@given(leagues(max_matches=24), ORDERS, st.data())
def test_a_table_kept_current_result_by_result_equals_the_ranking_from_scratch(
    league: League, order: list[str], data: st.DataObject
):
    start = data.draw(st.integers(0, len(league.results)))
    tally = Tally(game=league.game, points=league.points)
    tally.add_results(league.results[:start])
    ranked = RankedTable(tally, order)
    assert ranked.table(tally) == rank_standings(tally, order)
    before = _lines(ranked.table(tally), ranked.apart)
    events: list[MatchResult | Bye] = [*league.results[start:], *league.byes]
    for event in data.draw(st.permutations(events)):
        if isinstance(event, Bye):
            tally.add_bye(event)
        else:
            tally.add_result(event)
        before = _check_step(ranked, tally, order, before)


@pytest.mark.parametrize("order", WIDER_ORDERS)
@pytest.mark.parametrize("seed", range(4))
def test_a_season_kept_current_in_groups_with_withdrawals_and_ties(order, seed):
    """Larger seeded seasons: many players level on points (so head-to-head and Buchholz decide),
    stages in groups, withdrawn players, forfeits, byes, a new entrant now and then, and a
    change of order midway."""
    rng = random.Random(seed)
    players = list(range(1, 41))
    groups = {player: 1 + player % 3 for player in players[:36]} if seed % 2 else None
    withdrawn = frozenset(rng.sample(players, 3)) if seed >= 2 else frozenset()
    tally = Tally(game="yardzee")
    for player in players[:30]:
        tally.add_player(player)
    match_id = 0

    def one_match() -> MatchResult:
        nonlocal match_id
        match_id += 1
        seated = rng.sample(players[:30] if match_id < 60 else players, rng.choice([2, 3, 4]))
        scores = [rng.choice([100, 150, 200]) for _ in seated]  # many ties
        return MatchResult(
            match_id=match_id,
            seats=tuple(
                SeatResult(
                    player=player,
                    placement=1 + sum(other > score for other in scores),
                    score=score,
                    forfeited=rng.random() < 0.05,
                )
                for player, score in zip(seated, scores, strict=True)
            ),
        )

    tally.add_results(one_match() for _ in range(40))
    settings: dict[str, Any] = {"groups": groups, "withdrawn": withdrawn}
    ranked = RankedTable(tally, order, **settings)
    before = _lines(ranked.table(tally), ranked.apart)
    for step in range(60):
        if step == 30:
            order = [*order[1:], order[0]]
        if step % 17 == 5:
            tally.add_bye(Bye(player=rng.choice(players[:30]), round=step, table_size=4))
        else:
            tally.add_result(one_match())
        before = _check_step(ranked, tally, order, before, **settings)


def _pair(match_id: int, winner: int, loser: int, best: int = 200) -> MatchResult:
    return MatchResult(
        match_id=match_id,
        seats=(
            SeatResult(player=winner, placement=1, score=best),
            SeatResult(player=loser, placement=2, score=100),
        ),
    )


def test_a_match_at_the_bottom_reports_its_two_players_and_no_one_above():
    tally = Tally(game="yardzee")
    pairs = [(1, 2), (1, 3), (1, 4), (2, 5), (2, 6), (3, 5), (4, 6)]
    tally.add_results(_pair(i, winner, loser) for i, (winner, loser) in enumerate(pairs, 1))
    order = ["points", "head_to_head", "wins", "best_score"]
    ranked = RankedTable(tally, order)
    assert [s.rank for s in ranked.table(tally)] == [1, 2, 3, 3, 5, 5]
    draw = MatchResult(
        match_id=8,
        seats=(
            SeatResult(player=5, placement=1, score=100),
            SeatResult(player=6, placement=1, score=100),
        ),
    )
    tally.add_result(draw)  # 5 and 6 go from 0 to 1 point each, still level and last
    changes = ranked.update(tally, order)
    assert ranked.table(tally) == rank_standings(tally, order)
    assert [s.rank for s in ranked.table(tally)] == [1, 2, 3, 3, 5, 5]
    assert changes.counted == {5, 6}
    assert changes.placed <= {5, 6}
    assert not changes.ranked_afresh
