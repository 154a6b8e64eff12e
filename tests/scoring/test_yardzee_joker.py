"""RULES.md, Yardzee "Yardzee bonus", "Joker" and the `free_choice` ruleset option."""

import pytest

from scoring import RuleViolation
from scoring.yardzee import LOWER_BOXES, UPPER_BOXES

from .positions import one_roll, rejected, yardzee_at

FIVE_FOURS = [4, 4, 4, 4, 4]
ALL_LOWER_BUT_YARDZEE = {
    "three_of_a_kind": 20,
    "four_of_a_kind": 0,
    "full_house": 25,
    "small_straight": 30,
    "large_straight": 0,
    "chance": 22,
}


def test_first_yardzee_scores_50_in_the_open_yardzee_box_without_a_bonus():
    game = yardzee_at({})
    result = game.play(one_roll(FIVE_FOURS, "yardzee"))
    assert (result.points, result.bonus, result.joker) == (50, 0, False)


def test_first_yardzee_may_be_scored_elsewhere_like_any_roll():
    game = yardzee_at({})
    result = game.play(one_roll(FIVE_FOURS, "fours"))  # "safeguard your bonus" (seeds/001)
    assert (result.points, result.bonus, result.joker) == (20, 0, False)


def test_five_of_a_kind_with_the_yardzee_box_open_is_not_a_full_house():
    game = yardzee_at({})
    assert game.play(one_roll(FIVE_FOURS, "full_house")).points == 0


def test_yardzee_bonus_of_100_when_the_yardzee_box_already_holds_50():
    game = yardzee_at({"yardzee": 50})
    result = game.play(one_roll(FIVE_FOURS, "fours"))
    assert (result.points, result.bonus, result.joker) == (20, 100, True)
    card = game.scorecard(0)
    assert (card.yardzee_bonus_count, card.yardzee_bonus) == (1, 100)
    assert game.total(0) == 50 + 20 + 100


def test_no_yardzee_bonus_ever_when_the_yardzee_box_holds_0():
    game = yardzee_at({"yardzee": 0})
    result = game.play(one_roll(FIVE_FOURS, "fours"))
    assert (result.points, result.bonus, result.joker) == (20, 0, True)
    assert game.scorecard(0).yardzee_bonus_count == 0


def test_yardzee_bonuses_add_up_one_check_mark_each():
    game = yardzee_at({"yardzee": 50, "aces": 3}, bonus_count=1)
    game.play(one_roll(FIVE_FOURS, "fours"))
    assert game.scorecard(0).yardzee_bonus_count == 2
    assert game.total(0) == 50 + 3 + 20 + 200


@pytest.mark.parametrize("yardzee_box", [50, 0])
def test_forced_joker_must_fill_upper_box_of_that_face_when_open(yardzee_box):
    game = yardzee_at({"yardzee": yardzee_box})
    for box in ["chance", "full_house", "large_straight", "aces", "sixes"]:
        error = rejected(game, one_roll(FIVE_FOURS, box))
        assert error.code == "joker_forbids_box"
        assert error.rule == "Joker"
        assert error.details["allowed"] == ["fours"]
    assert game.play(one_roll(FIVE_FOURS, "fours")).points == 20


@pytest.mark.parametrize(
    ("box", "points"),
    [
        ("three_of_a_kind", 20),
        ("four_of_a_kind", 20),
        ("full_house", 25),
        ("small_straight", 30),
        ("large_straight", 40),
        ("chance", 20),
    ],
)
def test_forced_joker_may_fill_any_open_lower_box_in_full_when_that_upper_box_is_filled(
    box, points
):
    # seeds/002: five 4s "may score 20 in 3 of a kind, 4 of a kind or Chance, 25 in Full House,
    # 30 in Small Straight or 40 in Large Straight".
    game = yardzee_at({"yardzee": 50, "fours": 12})
    result = game.play(one_roll(FIVE_FOURS, box))
    assert (result.points, result.bonus, result.joker) == (points, 100, True)


def test_forced_joker_forbids_an_upper_box_while_a_lower_box_is_open():
    game = yardzee_at({"yardzee": 50, "fours": 12})
    error = rejected(game, one_roll(FIVE_FOURS, "aces"))
    assert error.code == "joker_forbids_box"


@pytest.mark.parametrize("box", ["aces", "twos", "threes", "fives", "sixes"])
def test_forced_joker_enters_zero_in_an_open_upper_box_when_that_upper_and_all_lower_are_filled(
    box,
):
    game = yardzee_at({"yardzee": 50, "fours": 12, **ALL_LOWER_BUT_YARDZEE})
    result = game.play(one_roll(FIVE_FOURS, box))
    assert (result.points, result.bonus, result.joker) == (0, 100, True)


def test_forced_joker_bonus_is_added_in_every_step():
    step_1 = yardzee_at({"yardzee": 50}).play(one_roll(FIVE_FOURS, "fours"))
    step_2 = yardzee_at({"yardzee": 50, "fours": 8}).play(one_roll(FIVE_FOURS, "chance"))
    step_3 = yardzee_at({"yardzee": 50, "fours": 8, **ALL_LOWER_BUT_YARDZEE}).play(
        one_roll(FIVE_FOURS, "aces")
    )
    assert [step.bonus for step in (step_1, step_2, step_3)] == [100, 100, 100]


def test_free_choice_joker_may_go_in_any_open_box():
    for box in UPPER_BOXES + LOWER_BOXES:
        if box == "yardzee":
            continue
        game = yardzee_at({"yardzee": 50}, joker="free_choice")
        result = game.play(one_roll(FIVE_FOURS, box))
        assert result.bonus == 100
        assert result.joker


@pytest.mark.parametrize(
    ("box", "points"),
    [
        ("fours", 20),
        ("aces", 0),
        ("three_of_a_kind", 20),
        ("four_of_a_kind", 20),
        ("chance", 20),
        ("full_house", 0),
        ("small_straight", 0),
        ("large_straight", 0),
    ],
)
def test_free_choice_scores_straights_and_full_house_zero_while_that_upper_box_is_open(box, points):
    game = yardzee_at({"yardzee": 50}, joker="free_choice")
    assert game.play(one_roll(FIVE_FOURS, box)).points == points


@pytest.mark.parametrize(
    ("box", "points"),
    [("full_house", 25), ("small_straight", 30), ("large_straight", 40), ("chance", 20)],
)
def test_free_choice_scores_lower_boxes_in_full_once_that_upper_box_is_filled(box, points):
    game = yardzee_at({"yardzee": 0, "fours": 16}, joker="free_choice")
    result = game.play(one_roll(FIVE_FOURS, box))
    assert (result.points, result.bonus) == (points, 0)


def test_box_options_show_only_the_forced_joker_box_and_none_for_the_forbidden_ones():
    game = yardzee_at({"yardzee": 50, "aces": 2})
    options = game.box_options(FIVE_FOURS)
    assert "aces" not in options  # filled boxes are not options
    assert options["fours"] == 20
    assert {name for name, points in options.items() if points is not None} == {"fours"}
    assert game.yardzee_bonus_for(FIVE_FOURS) == 100


def test_box_options_give_joker_values_for_the_lower_boxes_in_step_two():
    game = yardzee_at({"yardzee": 0, "fours": 12})
    options = game.box_options(FIVE_FOURS)
    assert options["full_house"] == 25
    assert options["large_straight"] == 40
    assert options["aces"] is None
    assert game.yardzee_bonus_for(FIVE_FOURS) == 0


def test_box_options_without_five_of_a_kind_are_the_plain_values_of_every_open_box():
    game = yardzee_at({"chance": 20})
    options = game.box_options([3, 3, 3, 6, 6])
    assert options == {
        "aces": 0,
        "twos": 0,
        "threes": 9,
        "fours": 0,
        "fives": 0,
        "sixes": 12,
        "three_of_a_kind": 21,
        "four_of_a_kind": 0,
        "full_house": 25,
        "small_straight": 0,
        "large_straight": 0,
        "yardzee": 0,
    }
    assert game.yardzee_bonus_for([3, 3, 3, 6, 6]) == 0


def test_box_options_reject_dice_that_are_not_five_dice():
    with pytest.raises(RuleViolation) as error:
        yardzee_at({}).box_options([4, 4, 4, 4, True])
    assert error.value.code == "invalid_die"
