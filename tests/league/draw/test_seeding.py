"""`league.draw.seeding`: seed orders, groups by the snake, qualifiers, group-mates kept apart,
bracket placement."""

import itertools
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from league.draw import (
    DrawError,
    bracket_order,
    double_elimination,
    first_round,
    group_qualifiers,
    groups_apart,
    meeting_rounds,
    qualifiers,
    random_seeding,
    rating_seeding,
    single_elimination,
    snake_groups,
    table_sizes,
)


@pytest.mark.parametrize(
    ("players", "groups", "expected"),
    [
        (range(1, 9), 2, ((1, 4, 5, 8), (2, 3, 6, 7))),
        (range(1, 9), 3, ((1, 6, 7), (2, 5, 8), (3, 4))),
        (range(1, 13), 4, ((1, 8, 9), (2, 7, 10), (3, 6, 11), (4, 5, 12))),
        (range(1, 6), 1, ((1, 2, 3, 4, 5),)),
    ],
)
def test_snake_groups_deal_seeds_forward_then_back(players, groups, expected):
    assert snake_groups(list(players), groups) == expected


def test_snake_groups_refuse_groups_of_fewer_than_two():
    with pytest.raises(DrawError) as error:
        snake_groups([1, 2, 3, 4, 5], 3)
    assert error.value.code == "groups"


@given(st.integers(2, 40), st.data())
def test_snake_groups_hold_everyone_once_with_sizes_one_apart(count, data):
    groups = data.draw(st.integers(1, count // 2))
    split = snake_groups(list(range(count)), groups)
    assert sorted(p for group in split for p in group) == list(range(count))
    sizes = [len(group) for group in split]
    assert max(sizes) - min(sizes) <= 1


def test_random_seeding_is_decided_by_its_seed_alone():
    players = [31, 4, 15, 9, 26, 5]
    first = random_seeding(players, seed=2024)
    assert random_seeding(list(reversed(players)), seed=2024) == first
    assert sorted(first) == sorted(players)
    assert any(random_seeding(players, seed=s) != first for s in range(5))


def test_rating_seeding_puts_the_highest_rating_first_then_the_unrated_in_the_order_given():
    ratings = {7: 1500.0, 3: 1620.0, 9: 1500.0, 1: 1400.0}
    assert rating_seeding([9, 1, 8, 7, 3, 2], ratings) == (3, 9, 7, 1, 8, 2)


@pytest.mark.parametrize(
    ("tables", "fan_in", "expected"),
    [
        (1, 2, (1,)),
        (2, 2, (1, 2)),
        (4, 2, (1, 4, 2, 3)),
        (8, 2, (1, 8, 4, 5, 2, 7, 3, 6)),
        (3, 3, (1, 2, 3)),
        (9, 3, (1, 6, 7, 2, 5, 8, 3, 4, 9)),
    ],
)
def test_bracket_order_keeps_top_seeds_apart_until_late(tables, fan_in, expected):
    assert bracket_order(tables, fan_in) == expected


@pytest.mark.parametrize(
    ("players", "table_size", "expected"),
    [
        (13, 4, (4, 3, 3, 3)),
        (16, 4, (4, 4, 4, 4)),
        (5, 4, (3, 2)),
        (5, 2, (2, 2, 1)),
        (7, 5, (4, 3)),
    ],
)
def test_table_sizes_use_the_fewest_tables_as_equal_as_possible(players, table_size, expected):
    assert table_sizes(players, table_size) == expected


def test_qualifiers_are_the_top_of_the_final_standings_in_order():
    assert qualifiers([8, 3, 5, 1, 7], 3) == (8, 3, 5)
    with pytest.raises(DrawError) as error:
        qualifiers([8, 3], 3)
    assert error.value.code == "qualifiers"


def test_group_qualifiers_take_all_group_winners_before_any_runner_up():
    assert group_qualifiers([[1, 4, 5], [2, 3, 6]], 2) == (1, 2, 4, 3)


def test_a_player_entered_twice_is_refused():
    with pytest.raises(DrawError) as error:
        snake_groups([1, 2, 3, 2], 2)
    assert error.value.code == "duplicate_player"


def test_meeting_rounds_are_where_two_seeds_paths_first_join():
    meetings = meeting_rounds(single_elimination(list(range(1, 9))))
    assert meetings[(1, 8)] == meetings[(4, 5)] == 1
    assert meetings[(1, 4)] == meetings[(1, 5)] == 2
    assert meetings[(1, 2)] == meetings[(3, 8)] == 3
    assert len(meetings) == 28


def test_meeting_rounds_of_a_double_elimination_are_its_winners_brackets():
    players = list(range(1, 13))
    assert meeting_rounds(double_elimination(players)) == meeting_rounds(
        single_elimination(players)
    )


def test_meeting_rounds_at_tables_seat_a_round_one_table_together():
    meetings = meeting_rounds(single_elimination(list(range(1, 17)), table_size=4, advance=2))
    for seeds in first_round(16, 4, 2):
        assert all(meetings[pair] == 1 for pair in itertools.combinations(seeds, 2))
    assert max(meetings.values()) == 3


def test_seeds_at_a_table_of_byes_meet_where_it_leads_not_in_round_one():
    # 5 players at tables of 4, top 2 on: seeds 1 and 4 go on without playing.
    assert first_round(5, 4, 2) == ((1, 4), (2, 3, 5))
    meetings = meeting_rounds(single_elimination(list(range(1, 6)), table_size=4, advance=2))
    assert meetings[(1, 4)] == 2
    assert meetings[(2, 3)] == meetings[(2, 5)] == meetings[(3, 5)] == 1


def _clashes(order, groups, meetings) -> tuple[int, ...]:
    deepest = max(meetings.values())
    counts = [0] * deepest
    for (a, b), round_ in meetings.items():
        if groups[order[a - 1]] == groups[order[b - 1]]:
            counts[round_ - 1] += 1
    return tuple(counts)


def test_groups_apart_keeps_a_group_winner_from_its_own_third_and_moves_the_lower_seeds():
    # 3 groups, the top two of each and the two best thirds: seeds 1 v 8, 4 v 5, 2 v 7, 3 v 6.
    names = ["A1", "B1", "C1", "C2", "B2", "A2", "B3", "A3"]
    order = groups_apart(
        range(1, 9),
        groups={seed: ord(name[0]) for seed, name in enumerate(names, start=1)},
        places={seed: int(name[1]) - 1 for seed, name in enumerate(names, start=1)},
        meetings=meeting_rounds(single_elimination(list(range(1, 9)))),
    )
    # A1 v A3 and B1 v B3 in the merged order; swapping the thirds clears both.
    assert [names[seed - 1] for seed in order] == ["A1", "B1", "C1", "C2", "B2", "A2", "A3", "B3"]


@pytest.mark.parametrize(
    ("groups", "per_group"),
    [(g, n) for g in (2, 3, 4) for n in (1, 2, 3) if g * n > 2],  # two players: one match
)
@pytest.mark.parametrize("whole_bracket", [True, False])
def test_groups_apart_clears_round_one_whenever_an_order_within_places_can(
    groups, per_group, whole_bracket
):
    """Against every order that swaps players within a place only, on random group
    standings: the same fewest clashes in round 1, every player once, every place kept. For a
    bracket, and for a stage whose round 1 alone is drawn from the seeds (a Swiss)."""
    rng = random.Random(groups * 10 + per_group)
    count = groups * per_group
    meetings = meeting_rounds(single_elimination(list(range(1, count + 1))))
    if not whole_bracket:
        meetings = {pair: round_ for pair, round_ in meetings.items() if round_ == 1}
    for _ in range(20):
        # The merged order: place by place, each place's groups in a random order.
        order = [
            (place, group)
            for place in range(per_group)
            for group in rng.sample(range(groups), groups)
        ]
        players = list(range(100, 100 + count))
        group_of = {p: order[i][1] for i, p in enumerate(players)}
        place_of = {p: order[i][0] for i, p in enumerate(players)}
        arranged = groups_apart(players, group_of, place_of, meetings)
        assert sorted(arranged) == players
        assert [place_of[p] for p in arranged] == [place_of[p] for p in players]
        by_place = [[p for p in players if place_of[p] == place] for place in range(per_group)]
        fewest = min(
            _clashes([p for part in parts for p in part], group_of, meetings)[0]
            for parts in itertools.product(*(itertools.permutations(ps) for ps in by_place))
        )
        assert _clashes(arranged, group_of, meetings)[0] == fewest


def test_groups_apart_needs_every_players_group_and_place():
    with pytest.raises(DrawError) as error:
        groups_apart([1, 2], groups={1: 1}, places={1: 0, 2: 0}, meetings={(1, 2): 1})
    assert error.value.code == "qualifiers"
