"""A table ranked in groups (issue 16, item 3): each group on its own, so that no metric, and
head-to-head least of all, compares players of different groups; and the one order that merges
the groups by place (docs/standings.md, "Ranking and ties")."""

from league.standings import DEFAULT_TIEBREAK_ORDER, compute_standings, merge_groups
from tests.league.standings.results import A, B, C, D, E, F, result, seat, table

ORDER = ["points", "head_to_head", "total_score"]
# Group 1: a cycle (A beat B, B beat C, C beat A), 3 points each, totals A 300, B 400, C 350.
# Group 2: D beat E and F, E beat F: 6, 3 and 0 points.
RESULTS = [
    result(1, seat(A, 1, 200), seat(B, 2, 100)),
    result(2, seat(B, 1, 300), seat(C, 2, 100)),
    result(3, seat(C, 1, 250), seat(A, 2, 100)),
    result(4, seat(D, 1, 200), seat(E, 2, 100)),
    result(5, seat(D, 1, 200), seat(F, 2, 100)),
    result(6, seat(E, 1, 200), seat(F, 2, 100)),
]
GROUPS = {A: 1, B: 1, C: 1, D: 2, E: 2, F: 2}


def test_item3_each_group_is_ranked_on_its_own_and_head_to_head_never_crosses_groups():
    one_table = compute_standings(RESULTS, game="yardzee", tiebreak_order=ORDER)
    # As one table, E (3 points) is tied with A, B and C, and head-to-head among the four puts
    # E last of them: E never met them, so E "lost" a comparison never played.
    e = next(s for s in one_table if s.player == E)
    assert e.metrics["head_to_head"] == 0
    assert [s.player for s in one_table] == [D, B, C, A, E, F]

    grouped = compute_standings(RESULTS, game="yardzee", tiebreak_order=ORDER, groups=GROUPS)
    assert [s.player for s in grouped] == [B, C, A, D, E, F]
    assert [(s.group, s.rank) for s in grouped] == [(1, 1), (1, 2), (1, 3), (2, 1), (2, 2), (2, 3)]
    e = next(s for s in grouped if s.player == E)
    assert e.metrics["head_to_head"] is None  # E was tied with nobody of group 2


def test_item3_the_merged_order_goes_place_by_place_and_compares_a_place_by_points():
    grouped = compute_standings(RESULTS, game="yardzee", tiebreak_order=ORDER, groups=GROUPS)
    # Winners: D (6 points) before B (3); runners-up: C and E (3 points each, totals 350 and
    # 300); thirds: A (3 points) before F (0).
    assert merge_groups(grouped, ORDER) == ((D,), (B,), (C,), (E,), (A,), (F,))


def test_item3_players_of_one_place_equal_on_every_metric_but_head_to_head_share_a_tier():
    results = [table(1, A, B), table(2, C, D)]  # two groups of two, the same scores
    grouped = compute_standings(
        results,
        game="yardzee",
        tiebreak_order=DEFAULT_TIEBREAK_ORDER,
        groups={A: 1, B: 1, C: 2, D: 2},
    )
    assert merge_groups(grouped, DEFAULT_TIEBREAK_ORDER) == ((A, C), (B, D))


def test_item3_merging_a_table_ranked_as_one_gives_its_places():
    table_ = compute_standings(RESULTS, game="yardzee", tiebreak_order=ORDER)
    places: dict[int, list[int]] = {}
    for standing in table_:
        places.setdefault(standing.rank, []).append(standing.player)
    assert merge_groups(table_, ORDER) == tuple(tuple(p) for _, p in sorted(places.items()))
