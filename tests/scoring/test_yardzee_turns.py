"""RULES.md, Yardzee "Turn" and "What a submitted turn must carry": rolls, keeps, strict input."""

import pytest

from scoring.yardzee import CATEGORIES, EXAMPLE_TURN, YardzeeGame

from .positions import one_roll, rejected, yardzee_at


def test_the_design_example_turn_scores_15_in_threes():
    game = YardzeeGame(players=2)
    result = game.play(EXAMPLE_TURN)
    assert (result.seat, result.category, result.points, result.bonus, result.joker) == (
        0,
        "threes",
        15,
        0,
        False,
    )
    assert result.dice == (3, 3, 3, 3, 3)
    assert game.scorecard(0).boxes["threes"] == 15


def test_a_turn_may_stop_after_the_first_roll():
    game = YardzeeGame(players=2)
    assert game.play(one_roll([2, 3, 4, 5, 6], "large_straight")).points == 40


@pytest.mark.parametrize(
    ("first", "keep", "second", "category", "points"),
    [
        ([1, 2, 3, 3, 6], [1, 2, 3], [1, 2, 3, 4, 5], "large_straight", 40),
        ([6, 6, 6, 6, 6], [6], [6, 1, 1, 1, 1], "aces", 4),
        ([1, 1, 2, 2, 3], [], [6, 6, 6, 5, 5], "full_house", 25),
        ([4, 1, 4, 2, 4], [4, 4, 4], [1, 4, 6, 4, 4], "fours", 12),
    ],
    ids=[
        "a-turn-may-stop-after-the-second-roll",
        "the-box-is-filled-with-the-dice-showing-after-the-last-roll",
        "a-further-roll-may-keep-no-dice-and-rethrow-all-five",
        "kept-dice-may-be-given-in-any-order",
    ],
)
def test_a_two_roll_turn_scores_the_dice_showing_after_its_second_roll(
    first, keep, second, category, points
):
    game = YardzeeGame(players=2)
    turn = {"rolls": [{"dice": first}, {"keep": keep, "dice": second}], "category": category}
    assert game.play(turn).points == points


def test_the_player_key_is_accepted_and_ignored():
    game = YardzeeGame(players=2)
    game.play(one_roll([1, 1, 1, 2, 2], "aces", player="anyone"))
    assert game.current_player == 1


def test_a_scratch_in_a_box_the_dice_do_not_qualify_for_is_accepted_as_zero():
    game = YardzeeGame(players=2)
    result = game.play(one_roll([2, 3, 3, 4, 6], "fives", points=0))  # seeds/001
    assert result.points == 0
    assert game.scorecard(0).boxes["fives"] == 0


def test_sent_points_that_differ_are_rejected_with_both_numbers():
    game = YardzeeGame(players=2)
    error = rejected(game, {**EXAMPLE_TURN, "points": 20})
    assert error.code == "points_mismatch"
    assert "20" in error.message
    assert "15" in error.message
    assert error.details == {"expected": 15, "got": 20}


def test_a_filled_box_cannot_be_filled_again():
    game = yardzee_at({"chance": 20})
    error = rejected(game, one_roll([1, 2, 3, 4, 6], "chance"))
    assert error.code == "box_filled"
    assert error.details == {"box": "chance"}
    assert error.rule == "Boxes"


ROLL = {"dice": [1, 2, 3, 4, 5]}


@pytest.mark.parametrize(
    ("turn", "code"),
    [
        # Not an object or array where one is expected.
        ([], "wrong_type"),
        ("threes", "wrong_type"),
        (None, "wrong_type"),
        ({"rolls": {"dice": [1, 2, 3, 4, 5]}, "category": "chance"}, "wrong_type"),
        ({"rolls": [[1, 2, 3, 4, 5]], "category": "chance"}, "wrong_type"),
        ({"rolls": [ROLL, [1, 2, 3, 4, 5]], "category": "chance"}, "wrong_type"),
        ({"rolls": [ROLL], "category": ["chance"]}, "wrong_type"),
        ({"rolls": [ROLL], "category": "chance", "points": "15"}, "wrong_type"),
        ({"rolls": [ROLL], "category": "chance", "points": 15.0}, "wrong_type"),
        ({"rolls": [ROLL], "category": "chance", "points": True}, "wrong_type"),
        # Unknown or missing keys, unknown boxes.
        ({"rolls": [ROLL], "category": "chance", "bonus": 100}, "unknown_key"),
        ({"rolls": [{"dice": [1, 2, 3, 4, 5], "held": []}], "category": "chance"}, "unknown_key"),
        ({"rolls": [ROLL]}, "missing_key"),
        ({"category": "chance"}, "missing_key"),
        ({"rolls": [{}], "category": "chance"}, "missing_key"),
        ({"rolls": [ROLL, {"dice": [1, 2, 3, 4, 5]}], "category": "chance"}, "missing_key"),
        ({"rolls": [ROLL], "category": "sevens"}, "unknown_box"),
        ({"rolls": [ROLL], "category": "Chance"}, "unknown_box"),
        # Dice that are not integers 1..6.
        ({"rolls": [{"dice": [1, 2, 3, 4, 7]}], "category": "chance"}, "invalid_die"),
        ({"rolls": [{"dice": [0, 2, 3, 4, 5]}], "category": "chance"}, "invalid_die"),
        ({"rolls": [{"dice": [True, 2, 3, 4, 5]}], "category": "chance"}, "invalid_die"),
        ({"rolls": [{"dice": [1.0, 2, 3, 4, 5]}], "category": "chance"}, "invalid_die"),
        ({"rolls": [{"dice": ["3", 2, 3, 4, 5]}], "category": "chance"}, "invalid_die"),
        ({"rolls": [{"dice": [None, 2, 3, 4, 5]}], "category": "chance"}, "invalid_die"),
        (
            {"rolls": [ROLL, {"keep": [True], "dice": [1, 2, 3, 4, 5]}], "category": "chance"},
            "invalid_die",
        ),
        # Wrong dice counts.
        ({"rolls": [{"dice": [1, 2, 3, 4]}], "category": "chance"}, "wrong_dice_count"),
        ({"rolls": [{"dice": [1, 2, 3, 4, 5, 6]}], "category": "chance"}, "wrong_dice_count"),
        ({"rolls": [{"dice": []}], "category": "chance"}, "wrong_dice_count"),
        (
            {"rolls": [ROLL, {"keep": [1], "dice": [1, 2, 3, 4]}], "category": "chance"},
            "wrong_dice_count",
        ),
    ],
)
def test_malformed_turn_json_is_rejected_with_its_own_code(turn, code):
    assert rejected(YardzeeGame(players=2), turn).code == code


def test_a_turn_without_rolls_is_rejected():
    assert rejected(YardzeeGame(players=2), {"rolls": [], "category": "chance"}).code == "no_rolls"


def test_a_turn_has_at_most_three_rolls():
    roll = {"keep": [1], "dice": [1, 2, 3, 4, 5]}
    turn = {"rolls": [ROLL, roll, roll, roll], "category": "chance"}
    error = rejected(YardzeeGame(players=2), turn)
    assert error.code == "too_many_rolls"
    assert error.rule == "Turn"


def test_the_first_roll_throws_all_five_dice_and_keeps_nothing():
    turn = {"rolls": [{"keep": [], "dice": [1, 2, 3, 4, 5]}], "category": "chance"}
    assert rejected(YardzeeGame(players=2), turn).code == "keep_on_first_roll"


def test_kept_dice_must_be_among_the_dice_showing_before_the_roll():
    turn = {"rolls": [ROLL, {"keep": [6], "dice": [6, 2, 3, 4, 5]}], "category": "chance"}
    error = rejected(YardzeeGame(players=2), turn)
    assert error.code == "keep_not_in_roll"
    assert error.details["roll"] == 2


def test_kept_dice_count_each_face_only_as_often_as_it_showed():
    turn = {"rolls": [ROLL, {"keep": [1, 1], "dice": [1, 1, 3, 4, 5]}], "category": "chance"}
    assert rejected(YardzeeGame(players=2), turn).code == "keep_not_in_roll"


def test_kept_dice_must_be_among_the_dice_showing_after_the_roll():
    turn = {"rolls": [ROLL, {"keep": [1, 2], "dice": [6, 6, 6, 6, 6]}], "category": "yardzee"}
    assert rejected(YardzeeGame(players=2), turn).code == "keep_not_in_new_roll"


def test_the_third_roll_keeps_from_the_second_roll_not_the_first():
    turn = {
        "rolls": [
            {"dice": [6, 6, 1, 2, 3]},
            {"keep": [1], "dice": [1, 4, 4, 4, 4]},
            {"keep": [6], "dice": [6, 4, 4, 4, 4]},
        ],
        "category": "fours",
    }
    assert rejected(YardzeeGame(players=2), turn).code == "keep_not_in_roll"


def test_a_further_roll_rethrows_at_least_one_die_so_keeping_all_five_is_rejected():
    turn = {
        "rolls": [ROLL, {"keep": [1, 2, 3, 4, 5], "dice": [1, 2, 3, 4, 5]}],
        "category": "chance",
    }
    assert rejected(YardzeeGame(players=2), turn).code == "keep_all_dice"


def test_a_turn_after_the_game_is_over_is_rejected():
    game = yardzee_at({**dict.fromkeys(CATEGORIES, 0), "chance": 5})
    assert game.is_over
    error = rejected(game, one_roll([1, 2, 3, 4, 5], "chance"))
    assert error.code == "game_over"
    assert rejected(game, "anything at all").code == "game_over"
