"""RULES.md, Yardkle "Point dice and combinations": what dice set aside from one throw score."""

from collections import Counter
from itertools import combinations_with_replacement, product

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring import RuleViolation
from scoring.yardkle import has_points, score_selection, set_aside_options

from .strategies import QUICK, dice


@pytest.mark.parametrize(
    ("selection", "points"),
    [
        ([1], 100),
        ([5], 50),
        ([1, 1, 1], 1000),
        ([2, 2, 2], 200),  # seeds/004: "Three 2's = 200"
        ([3, 3, 3], 300),
        ([4, 4, 4], 400),
        ([5, 5, 5], 500),  # seeds/004: "three 5's = 500"
        ([6, 6, 6], 600),
        ([2, 2, 4, 4, 6, 6], 1500),  # three pairs
        ([1, 2, 3, 4, 5, 6], 1500),
        ([3, 3, 3, 5, 5, 5], 2500),  # seeds/004: two triplets
        ([6, 6, 6, 6, 2, 2], 3000),  # seeds/004: four of a kind with a pair
        ([4, 4, 4, 4, 4, 4], 3000),
    ],
)
def test_each_combination_scores_its_table_points(selection, points):
    assert score_selection(selection) == points


def test_three_ones_score_1000_not_100_times_the_face():
    assert score_selection([1, 1, 1]) == 1000


def test_four_of_a_kind_is_a_triple_plus_a_single():
    assert score_selection([1, 1, 1, 1]) == 1100  # RULES.md: four 1s = 1,000 + 100
    assert score_selection([5, 5, 5, 5]) == 550
    assert score_selection([5, 5, 5, 5, 5]) == 600


def test_four_twos_cannot_all_be_set_aside_but_three_of_them_can():
    with pytest.raises(RuleViolation) as error:
        score_selection([2, 2, 2, 2])
    assert error.value.code == "die_scores_nothing"
    assert score_selection([2, 2, 2]) == 200


@pytest.mark.parametrize("selection", [[2], [1, 2], [5, 3], [1, 1, 6], [3, 3], [2, 2, 3, 3]])
def test_a_set_aside_die_that_scores_nothing_makes_the_selection_invalid(selection):
    with pytest.raises(RuleViolation) as error:
        score_selection(selection)
    assert error.value.code == "die_scores_nothing"
    assert error.value.rule == "Point dice and combinations"


@pytest.mark.parametrize(
    ("selection", "points"),
    [
        ([1, 1, 1, 5, 5, 5], 2500),  # two triplets, not 1,000 + 500
        ([1, 1, 5, 5, 6, 6], 1500),  # three pairs, not 250 and two dead 6s
        ([1, 1, 1, 1, 5, 5], 3000),  # four with a pair, not three pairs or 1,200
        ([1, 1, 1, 1, 1, 1], 3000),  # six of a kind, not two triplets
        ([1, 5, 1], 250),
        ([1, 1, 1, 5], 1050),
    ],
)
def test_a_selection_scores_its_best_split_into_combinations(selection, points):
    assert score_selection(selection) == points


def test_an_empty_selection_scores_nothing_and_is_not_an_error():
    assert score_selection([]) == 0


@pytest.mark.parametrize(
    ("selection", "code"),
    [([1, 1, 1, 1, 1, 1, 1], "wrong_dice_count"), ([1, True], "invalid_die"), ("11", "wrong_type")],
)
def test_score_selection_rejects_what_is_not_a_selection_of_dice(selection, code):
    with pytest.raises(RuleViolation) as error:
        score_selection(selection)
    assert error.value.code == code


@pytest.mark.parametrize(
    ("throw", "expected"),
    [
        ([2, 3, 4, 6], False),
        ([2, 3, 4, 6, 6, 2], False),
        ([2, 2, 3, 3, 4, 4], True),  # three pairs
        ([2, 2, 2], True),
        ([1], True),
        ([5, 6], True),
        ([6], False),
    ],
)
def test_has_points_is_false_only_for_a_yardkle(throw, expected):
    assert has_points(throw) is expected


@pytest.mark.parametrize(
    ("throw", "code"), [([], "wrong_dice_count"), ([1] * 7, "wrong_dice_count")]
)
def test_a_throw_has_one_to_six_dice(throw, code):
    with pytest.raises(RuleViolation) as error:
        has_points(throw)
    assert error.value.code == code


@pytest.mark.parametrize(
    ("dice", "yardkles"), [(1, 4), (2, 16), (3, 60), (4, 204), (5, 600), (6, 1080)]
)
def test_throws_without_point_dice_number_exactly_as_counted_for_each_dice_count(dice, yardkles):
    assert sum(not has_points(throw) for throw in product(range(1, 7), repeat=dice)) == yardkles


def test_set_aside_options_are_every_valid_selection_of_the_throw():
    options = set_aside_options([1, 5, 2, 2, 2, 3])
    assert options == {
        (1,): 100,
        (5,): 50,
        (1, 5): 150,
        (2, 2, 2): 200,
        (1, 2, 2, 2): 300,
        (2, 2, 2, 5): 250,
        (1, 2, 2, 2, 5): 350,
    }
    assert set_aside_options([2, 3, 4, 6]) == {}


# The combinations, written out independently of scoring/yardkle.py for the brute force.
def combination_points(group: tuple[int, ...]) -> int | None:
    counts = sorted(Counter(group).values())
    faces = set(group)
    if len(group) == 1:
        return {1: 100, 5: 50}.get(group[0])
    if len(group) == 3 and counts == [3]:
        return 1000 if group[0] == 1 else 100 * group[0]
    if len(group) == 6:
        if faces == {1, 2, 3, 4, 5, 6} or counts == [2, 2, 2]:
            return 1500
        if counts == [3, 3]:
            return 2500
        if counts in ([2, 4], [6]):
            return 3000
    return None


def partitions(items: list[int]):
    """Every way to split a list into groups (set partitions, by position)."""
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for split in partitions(rest):
        yield [[first], *split]
        for index in range(len(split)):
            yield [*split[:index], [first, *split[index]], *split[index + 1 :]]


def brute_force(selection: list[int]) -> int | None:
    best = None
    for split in partitions(selection):
        points = [combination_points(tuple(sorted(group))) for group in split]
        if all(point is not None for point in points):
            total = sum(point or 0 for point in points)
            best = total if best is None else max(best, total)
    return best


def score_or_none(selection) -> int | None:
    """The points of a selection, or None when a die scores nothing."""
    try:
        return score_selection(selection)
    except RuleViolation as error:
        if error.code != "die_scores_nothing":
            raise
        return None


def test_score_selection_equals_a_brute_force_search_over_all_splits_for_every_selection():
    for size in range(7):
        for selection in combinations_with_replacement(range(1, 7), size):
            assert score_or_none(list(selection)) == brute_force(list(selection)), selection


@QUICK
@given(st.lists(dice, max_size=6))
def test_score_selection_equals_a_brute_force_search_over_all_splits(selection):
    assert score_or_none(selection) == brute_force(selection)
