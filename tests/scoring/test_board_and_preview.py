"""Each game reports its own part of a match's board and previews a turn being entered, so
`games` never branches on which game it holds (issue 15, "Game facts live in scoring only")."""

import pytest

from scoring import RuleViolation, new_game


def test_yardzee_board_names_each_seat_with_the_id_given_and_its_scorecard():
    game = new_game("yardzee", 2, {})
    game.play({"rolls": [{"dice": [3, 3, 3, 5, 5]}], "category": "full_house"})
    board = game.board([70, 71])
    assert [(card["seat"], card["player"]) for card in board["scorecards"]] == [(0, 70), (1, 71)]
    assert board["scorecards"][0]["boxes"]["full_house"] == 25
    assert set(board) == {"scorecards"}


def test_yardkle_board_has_scores_and_who_started_the_final_round():
    game = new_game("yardkle", 2, {"target": 500, "entry_minimum": 0})
    game.play(
        {"throws": [{"dice": [1, 1, 1, 5, 5, 2], "set_aside": [1, 1, 1, 5, 5]}], "end": "bank"}
    )
    board = game.board([8, 9])
    assert board["final_round"] is True
    assert board["final_round_by"] == 8
    assert board["scores"][0] == {"seat": 0, "player": 8, "total": 1100, "on_board": True}


def test_previews_and_their_refusals():
    zee = new_game("yardzee", 2, {})
    preview = zee.preview({"dice": [6, 6, 6, 6, 6]})
    assert preview["game"] == "yardzee"
    assert preview["options"]["yardzee"] == 50
    with pytest.raises(RuleViolation) as missing:
        zee.preview({})
    assert missing.value.code == "missing_key"
    kle = new_game("yardkle", 2, {})
    preview = kle.preview({"throws": [], "dice": [1, 2, 3, 4, 6, 6]})
    assert preview["has_points"] is True
    assert {"dice": [1], "points": 100} in preview["set_aside_options"]
    with pytest.raises(RuleViolation):
        kle.preview([1, 2])


@pytest.mark.parametrize(
    ("game", "partial", "code"),
    [
        ("yardzee", {"dice": [1, 2, 3, 4, 5], "rolls": []}, "unknown_key"),
        ("yardkle", {"throws": [], "dice": [1, 2, 3], "bank": True}, "unknown_key"),
        # Three dice set aside from the first throw: three are left to throw, not six.
        (
            "yardkle",
            {"throws": [{"dice": [1, 1, 1, 2, 3, 4], "set_aside": [1, 1, 1]}], "dice": [1] * 6},
            "wrong_dice_count",
        ),
        ("yardkle", {"throws": [], "dice": [1, 5]}, "wrong_dice_count"),
        (
            "yardkle",
            {"throws": [{"dice": [2, 2, 3, 3, 4, 6], "set_aside": []}], "dice": [1, 5]},
            "throw_after_yardkle",
        ),
    ],
    ids=["yardzee-rolls", "yardkle-bank", "six-after-three-set-aside", "two-first", "yardkle"],
)
def test_a_preview_of_dice_the_turn_cannot_throw_next_is_refused(game, partial, code):
    with pytest.raises(RuleViolation) as error:
        new_game(game, 2, {}).preview(partial)
    assert error.value.code == code
