"""RULES.md, Yardkle "Turn", "Entering the game" and "What a submitted turn must carry"."""

import pytest

from scoring import RuleViolation
from scoring.yardkle import EXAMPLE_TURN, YardkleGame, YardkleRules

from .positions import rejected, throw, yardkle_at


def on_board() -> YardkleGame:
    """Seat 0 to play, already on the scorecard."""
    return yardkle_at([1000, 0], turns_played=2)


def test_the_design_example_banks_450_not_the_1450_it_claims():
    game = on_board()
    error = rejected(game, {**EXAMPLE_TURN, "points": 1450})  # as DESIGN.md gives it
    assert error.code == "points_mismatch"
    assert error.details == {"expected": 450, "got": 1450}
    result = game.play(EXAMPLE_TURN)
    assert (result.seat, result.points, result.yardkle, result.score) == (0, 450, False, 1450)


def test_banked_points_are_added_to_the_players_score():
    game = YardkleGame(players=2)
    game.play({"throws": [throw([1, 1, 1, 2, 3, 4], [1, 1, 1])], "end": "bank"})
    assert game.total(0) == 1000
    assert game.current_player == 1


def test_combinations_count_only_within_one_throw():
    game = on_board()
    turn = {
        "throws": [throw([1, 1, 2, 3, 4, 6], [1, 1]), throw([1, 2, 3, 4], [1])],
        "end": "bank",
    }
    assert game.play(turn).points == 300  # three single 1s, not three 1s for 1,000


def test_a_straight_spread_over_two_throws_is_not_a_straight():
    game = on_board()
    turn = {"throws": [throw([1, 2, 3, 4, 6, 6], [1]), throw([2, 3, 4, 5, 6], [5])], "end": "bank"}
    assert game.play(turn).points == 150


def test_a_yardkle_ends_the_turn_and_loses_every_point_collected_this_turn():
    game = on_board()
    turn = {
        "throws": [throw([1, 1, 1, 2, 3, 4], [1, 1, 1]), throw([2, 3, 4], [])],
        "end": "yardkle",
        "points": 0,
    }
    result = game.play(turn)
    assert (result.points, result.yardkle, result.lost, result.score) == (0, True, 1000, 1000)
    assert game.total(0) == 1000
    assert game.current_player == 1


def test_a_yardkle_on_the_first_throw_scores_nothing():
    game = YardkleGame(players=2)
    result = game.play({"throws": [throw([2, 3, 4, 6, 6, 2], [])], "end": "yardkle"})
    assert (result.points, result.yardkle, result.lost) == (0, True, 0)


def test_nothing_may_follow_a_yardkle():
    turn = {
        "throws": [throw([2, 3, 4, 6, 6, 2], []), throw([1, 1, 1, 2, 3, 4], [1, 1, 1])],
        "end": "bank",
    }
    error = rejected(YardkleGame(players=2), turn)
    assert error.code == "throw_after_yardkle"
    assert error.rule == "Turn"


def test_the_player_must_set_aside_at_least_one_point_die_from_a_throw_with_points():
    turn = {"throws": [throw([1, 2, 3, 4, 6, 6], [])], "end": "yardkle"}
    assert rejected(on_board(), turn).code == "empty_set_aside"


def test_the_player_need_not_set_aside_every_point_die():
    game = on_board()
    turn = {"throws": [throw([1, 5, 2, 2, 3, 4], [1]), throw([5, 2, 2, 3, 4], [5])], "end": "bank"}
    assert game.play(turn).points == 150


def test_set_aside_dice_must_be_among_the_dice_thrown():
    error = rejected(on_board(), {"throws": [throw([1, 2, 3, 4, 6, 6], [5])], "end": "bank"})
    assert error.code == "set_aside_not_thrown"
    error = rejected(on_board(), {"throws": [throw([1, 2, 3, 4, 6, 6], [1, 1])], "end": "bank"})
    assert error.code == "set_aside_not_thrown"


def test_a_set_aside_die_that_scores_nothing_is_rejected_in_a_turn():
    error = rejected(on_board(), {"throws": [throw([1, 2, 3, 4, 6, 6], [1, 2])], "end": "bank"})
    assert error.code == "die_scores_nothing"


def test_no_die_of_a_yardkle_may_be_set_aside():
    error = rejected(on_board(), {"throws": [throw([2, 3, 4, 6, 6, 2], [2])], "end": "yardkle"})
    assert error.code == "die_scores_nothing"


@pytest.mark.parametrize(
    "throws",
    [
        [throw([1, 2, 3, 4, 6], [1])],  # the first throw is all six dice
        [throw([1, 2, 3, 4, 6, 6, 6], [1])],
        [throw([1, 2, 3, 4, 6, 6], [1]), throw([1, 2, 3, 4], [1])],  # five left, not four
        [throw([1, 2, 3, 4, 6, 6], [1]), throw([1, 2, 3, 4, 6, 6], [1])],
    ],
)
def test_a_throw_with_the_wrong_number_of_dice_is_rejected(throws):
    assert rejected(on_board(), {"throws": throws, "end": "bank"}).code == "wrong_dice_count"


HOT = throw([1, 1, 1, 5, 5, 5], [1, 1, 1, 5, 5, 5])  # two triplets: all six set aside


def test_hot_dice_must_throw_all_six_again_before_banking():
    error = rejected(on_board(), {"throws": [HOT], "end": "bank"})
    assert error.code == "bank_after_hot_dice"


def test_after_hot_dice_the_next_throw_is_all_six_dice_and_the_turn_total_carries_on():
    game = on_board()
    turn = {"throws": [HOT, throw([1, 2, 2, 3, 4, 6], [1])], "end": "bank", "points": 2600}
    assert game.play(turn).points == 2600
    after_hot = {"throws": [HOT, throw([1, 2, 2], [1])], "end": "bank"}
    assert rejected(on_board(), after_hot).code == "wrong_dice_count"


def test_hot_dice_followed_by_a_yardkle_loses_everything():
    game = on_board()
    turn = {"throws": [HOT, throw([2, 2, 3, 4, 6, 6], [])], "end": "yardkle"}
    result = game.play(turn)
    assert (result.points, result.lost) == (0, 2500)


def test_hot_dice_can_happen_with_the_last_dice_of_a_throw():
    game = on_board()
    turn = {
        "throws": [
            throw([1, 5, 2, 3, 4, 6], [1]),
            throw([5, 5, 2, 3, 6], [5, 5]),
            throw([1, 1, 1], [1, 1, 1]),
            throw([5, 2, 2, 3, 4, 6], [5]),
        ],
        "end": "bank",
    }
    assert game.play(turn).points == 100 + 100 + 1000 + 50


def test_a_player_not_on_the_scorecard_cannot_bank_below_the_500_entry_minimum():
    game = YardkleGame(players=2)
    turn = {"throws": [throw([1, 5, 2, 2, 3, 4], [1, 5]), throw([1, 2, 3, 4], [1])], "end": "bank"}
    error = rejected(game, turn)
    assert error.code == "bank_below_entry_minimum"
    assert error.rule == "Entering the game"
    assert error.details == {"turn_total": 250, "entry_minimum": 500}


def test_a_player_not_on_the_scorecard_may_bank_exactly_500():
    game = YardkleGame(players=2)
    assert (
        game.play({"throws": [throw([5, 5, 5, 2, 3, 4], [5, 5, 5])], "end": "bank"}).points == 500
    )
    assert game.on_board(0)
    assert not game.on_board(1)


def test_once_on_the_scorecard_any_turn_total_may_be_banked():
    game = on_board()
    assert game.play({"throws": [throw([5, 2, 2, 3, 4, 6], [5])], "end": "bank"}).points == 50


def test_the_entry_minimum_is_a_ruleset_option():
    game = YardkleGame(players=2, rules=YardkleRules(entry_minimum=0))
    assert game.play({"throws": [throw([5, 2, 2, 3, 4, 6], [5])], "end": "bank"}).points == 50
    strict = YardkleGame(players=2, rules=YardkleRules(entry_minimum=1000))
    turn = {"throws": [throw([5, 5, 5, 2, 3, 4], [5, 5, 5])], "end": "bank"}
    assert rejected(strict, turn).code == "bank_below_entry_minimum"


def test_an_end_of_yardkle_needs_a_last_throw_without_point_dice():
    turn = {"throws": [throw([1, 2, 2, 3, 4, 6], [1])], "end": "yardkle"}
    assert rejected(on_board(), turn).code == "end_contradicts_throws"


def test_an_end_of_bank_after_a_yardkle_throw_is_rejected():
    turn = {"throws": [throw([1, 2, 2, 3, 4, 6], [1]), throw([2, 2, 3, 4, 6], [])], "end": "bank"}
    assert rejected(on_board(), turn).code == "end_contradicts_throws"


def test_can_bank_and_turn_state_follow_the_throws_so_far():
    game = YardkleGame(players=2)
    first = throw([1, 5, 2, 2, 3, 4], [1, 5])
    assert not game.can_bank([])
    state = game.turn_state([first])
    assert (state.turn_total, state.dice_to_throw, state.hot_dice, state.can_bank) == (
        150,
        4,
        False,
        False,
    )
    assert game.can_bank([first, throw([5, 5, 5, 2], [5, 5, 5])])
    assert not game.can_bank([HOT])
    assert game.turn_state([HOT]).dice_to_throw == 6
    ended = game.turn_state([throw([2, 2, 3, 4, 6, 6], [])])
    assert (ended.yardkle, ended.can_bank, ended.dice_to_throw) == (True, False, 0)


def test_turn_state_rejects_invalid_throws_like_play():
    with pytest.raises(RuleViolation) as error:
        YardkleGame(players=2).turn_state([throw([1, 2, 3], [1])])
    assert error.value.code == "wrong_dice_count"


ONE = throw([1, 2, 2, 3, 4, 6], [1])


@pytest.mark.parametrize(
    ("turn", "code"),
    [
        ([], "wrong_type"),
        ("bank", "wrong_type"),
        ({"throws": ONE, "end": "bank"}, "wrong_type"),
        ({"throws": [[1, 2, 2, 3, 4, 6]], "end": "bank"}, "wrong_type"),
        ({"throws": [ONE], "end": True}, "wrong_type"),
        ({"throws": [ONE], "end": "bank", "points": 100.0}, "wrong_type"),
        ({"throws": [ONE], "end": "stop"}, "invalid_end"),
        ({"throws": [ONE], "end": "bank", "banked": 100}, "unknown_key"),
        ({"throws": [{**ONE, "kept": []}], "end": "bank"}, "unknown_key"),
        ({"throws": [ONE]}, "missing_key"),
        ({"end": "bank"}, "missing_key"),
        ({"throws": [{"dice": [1, 2, 2, 3, 4, 6]}], "end": "bank"}, "missing_key"),
        ({"throws": [], "end": "bank"}, "no_throws"),
        ({"throws": [throw([1, 2, 2, 3, 4, 7], [1])], "end": "bank"}, "invalid_die"),
        ({"throws": [throw([True, 2, 2, 3, 4, 6], [1])], "end": "bank"}, "invalid_die"),
        ({"throws": [throw([1.0, 2, 2, 3, 4, 6], [1])], "end": "bank"}, "invalid_die"),
        ({"throws": [throw(["3", 2, 2, 3, 4, 6], [1])], "end": "bank"}, "invalid_die"),
        ({"throws": [throw([1, 2, 2, 3, 4, 6], [True])], "end": "bank"}, "invalid_die"),
        ({"throws": [throw([1, 2, 2, 3, 4, 6], 1)], "end": "bank"}, "wrong_type"),
    ],
)
def test_malformed_yardkle_turn_json_is_rejected_with_its_own_code(turn, code):
    assert rejected(on_board(), turn).code == code


def _hot_dice_turn(throws: int) -> dict[str, object]:
    """A legal turn of `throws` throws: hot dice (six 1s) every time, then a single 1 banked."""
    hot = {"dice": [1, 1, 1, 1, 1, 1], "set_aside": [1, 1, 1, 1, 1, 1]}
    last = {"dice": [1, 2, 3, 4, 6, 6], "set_aside": [1]}
    return {"throws": [hot] * (throws - 1) + [last], "end": "bank"}


def test_too_many_throws_a_turn_has_at_most_100_throws():
    """docs/rules.md, "What a submitted turn must carry": the project's cap on one turn."""
    assert on_board().play(_hot_dice_turn(100)).points > 0
    error = rejected(on_board(), _hot_dice_turn(101))
    assert error.code == "too_many_throws"
    assert error.details == {"field": "throws", "limit": 100, "throws": 101}
