"""`league.draw.seeding`: seed orders, groups by the snake, qualifiers, bracket placement."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from league.draw import (
    DrawError,
    bracket_order,
    group_qualifiers,
    qualifiers,
    random_seeding,
    rating_seeding,
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
