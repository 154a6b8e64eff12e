"""RULES.md, Yardzee "Boxes": each box's plain value, with the rule documents' own examples."""

import pytest

from scoring import RuleViolation
from scoring.yardzee import CATEGORIES, LOWER_BOXES, UPPER_BOXES, score


def test_the_scorecard_has_the_thirteen_boxes_in_scorecard_order():
    assert CATEGORIES == (
        "aces", "twos", "threes", "fours", "fives", "sixes",
        "three_of_a_kind", "four_of_a_kind", "full_house", "small_straight", "large_straight",
        "yardzee", "chance",
    )  # fmt: skip
    assert CATEGORIES == UPPER_BOXES + LOWER_BOXES


@pytest.mark.parametrize(
    ("dice", "box", "points"),
    [
        # seeds/001 and seeds/003: 5-2-5-6-5 in Fives is 15; Aces, Threes, Fours 0; Twos 2; Sixes 6.
        ([5, 2, 5, 6, 5], "fives", 15),
        ([5, 2, 5, 6, 5], "aces", 0),
        ([5, 2, 5, 6, 5], "threes", 0),
        ([5, 2, 5, 6, 5], "fours", 0),
        ([5, 2, 5, 6, 5], "twos", 2),
        ([5, 2, 5, 6, 5], "sixes", 6),
        # seeds/000: four threes in Threes score twelve.
        ([3, 3, 3, 3, 1], "threes", 12),
        # seeds/002: 3-3-3-4-6 is 9 in Threes; 5-5-5-5-2 is 20 in Fives; 2-2-4-5-6 is 4 in Twos.
        ([3, 3, 3, 4, 6], "threes", 9),
        ([5, 5, 5, 5, 2], "fives", 20),
        ([2, 2, 4, 5, 6], "twos", 4),
        ([1, 1, 1, 1, 1], "aces", 5),
        ([6, 6, 6, 6, 6], "sixes", 30),
    ],
)
def test_upper_box_scores_the_sum_of_the_dice_showing_that_face(dice, box, points):
    assert score(box, dice) == points


@pytest.mark.parametrize(
    ("dice", "points"),
    [
        ([5, 5, 5, 2, 4], 21),  # seeds/000
        ([3, 3, 3, 4, 6], 19),  # seeds/002
        ([5, 5, 5, 5, 2], 22),  # seeds/002: four of a kind is also three of a kind
        ([6, 6, 6, 6, 6], 30),
        ([5, 5, 2, 2, 4], 0),
        ([1, 2, 3, 4, 5], 0),
    ],
)
def test_three_of_a_kind_scores_the_sum_of_all_dice_when_three_show_one_face_else_zero(
    dice, points
):
    assert score("three_of_a_kind", dice) == points


@pytest.mark.parametrize(
    ("dice", "points"),
    [
        ([5, 5, 5, 5, 2], 22),  # seeds/002
        ([2, 2, 2, 2, 6], 14),  # seeds/002: "would be scored 14"
        ([4, 4, 4, 4, 4], 20),
        ([5, 5, 5, 2, 4], 0),
        ([3, 3, 3, 6, 6], 0),
    ],
)
def test_four_of_a_kind_scores_the_sum_of_all_dice_when_four_show_one_face_else_zero(dice, points):
    assert score("four_of_a_kind", dice) == points


@pytest.mark.parametrize(
    ("dice", "points"),
    [
        ([3, 3, 3, 6, 6], 25),  # the example
        ([1, 1, 2, 1, 2], 25),  # seeds/001
        ([6, 2, 6, 2, 6], 25),
        ([3, 3, 3, 3, 6], 0),  # four and one
        ([3, 3, 6, 6, 1], 0),  # two pairs
        ([1, 2, 3, 4, 5], 0),
    ],
)
def test_full_house_scores_25_for_exactly_three_of_one_face_and_two_of_another(dice, points):
    assert score("full_house", dice) == points


@pytest.mark.parametrize(
    ("dice", "points"),
    [
        ([2, 3, 2, 5, 4], 30),  # seeds/003: a small straight...
        ([1, 2, 3, 4, 6], 30),
        ([3, 4, 5, 6, 6], 30),
        ([1, 3, 4, 5, 6], 30),
        ([6, 3, 2, 5, 4], 30),  # a large straight contains a small one
        ([1, 2, 3, 5, 6], 0),
        ([1, 1, 2, 2, 3], 0),
    ],
)
def test_small_straight_scores_30_when_the_dice_contain_four_consecutive_faces(dice, points):
    assert score("small_straight", dice) == points


@pytest.mark.parametrize(
    ("dice", "points"),
    [
        ([1, 2, 3, 4, 5], 40),
        ([5, 4, 3, 2, 1], 40),
        ([2, 3, 4, 5, 6], 40),
        ([2, 3, 2, 5, 4], 0),  # seeds/003: ...but not a large one
        ([1, 2, 3, 4, 6], 0),
        ([1, 3, 4, 5, 6], 0),
    ],
)
def test_large_straight_scores_40_only_for_one_to_five_or_two_to_six(dice, points):
    assert score("large_straight", dice) == points


def test_six_three_two_five_four_is_a_large_straight_because_rules_md_overrides_seed_001():
    # seeds/001 says 6-3-2-5-4 scores 0 as a large straight; RULES.md lists 2-3-4-5-6 as one.
    assert score("large_straight", [6, 3, 2, 5, 4]) == 40


@pytest.mark.parametrize(
    ("dice", "points"),
    [([4, 4, 4, 4, 4], 50), ([1, 1, 1, 1, 1], 50), ([4, 4, 4, 4, 3], 0), ([1, 2, 3, 4, 5], 0)],
)
def test_yardzee_box_scores_50_only_for_five_of_a_kind(dice, points):
    assert score("yardzee", dice) == points


@pytest.mark.parametrize(
    ("dice", "points"),
    [([3, 3, 3, 4, 6], 19), ([2, 2, 4, 5, 6], 19), ([1, 1, 1, 1, 1], 5), ([6, 6, 6, 6, 6], 30)],
)
def test_chance_scores_the_sum_of_all_dice(dice, points):
    assert score("chance", dice) == points


@pytest.mark.parametrize("box", ["full_house", "small_straight", "large_straight"])
@pytest.mark.parametrize("face", [1, 2, 3, 4, 5, 6])
def test_five_of_a_kind_is_not_a_full_house_or_straight_outside_the_joker(box, face):
    assert score(box, [face] * 5) == 0


def test_a_box_the_dice_do_not_qualify_for_scores_zero_as_a_scratch():
    # seeds/001: 2-3-3-4-6 may be taken in the 5's as a zero.
    assert score("fives", [2, 3, 3, 4, 6]) == 0
    assert score("yardzee", [2, 3, 3, 4, 6]) == 0


def test_dice_order_does_not_change_a_box_value():
    assert score("full_house", [6, 3, 6, 3, 3]) == score("full_house", [3, 3, 3, 6, 6])


@pytest.mark.parametrize(
    ("box", "dice", "code"),
    [
        ("sevens", [1, 2, 3, 4, 5], "unknown_box"),
        ("Full House", [1, 2, 3, 4, 5], "unknown_box"),
        (7, [1, 2, 3, 4, 5], "wrong_type"),
        ("chance", [1, 2, 3, 4], "wrong_dice_count"),
        ("chance", [1, 2, 3, 4, 5, 6], "wrong_dice_count"),
        ("chance", [1, 2, 3, 4, 7], "invalid_die"),
        ("chance", [0, 2, 3, 4, 5], "invalid_die"),
        ("chance", [True, 2, 3, 4, 5], "invalid_die"),
        ("chance", [1.0, 2, 3, 4, 5], "invalid_die"),
        ("chance", ["3", 2, 3, 4, 5], "invalid_die"),
        ("chance", "12345", "wrong_type"),
        ("chance", None, "wrong_type"),
    ],
)
def test_score_rejects_unknown_boxes_and_anything_that_is_not_five_dice(box, dice, code):
    with pytest.raises(RuleViolation) as error:
        score(box, dice)
    assert error.value.code == code
