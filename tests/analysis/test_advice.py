"""POST advice/ (issue 19, "API"): the ranked options for one position, public and throttled;
a position the rules do not allow gets 400 with the rule's code and the field."""

import pytest
from rest_framework.test import APIClient

from analysis import strategies
from api.throttles import AdviceRateThrottle


def _advice(body: object):
    return APIClient().post("/api/v1/advice/", body, format="json")


@pytest.mark.django_db
def test_yardzee_keeps_after_the_first_roll_best_first(tables):
    answer = _advice({"game": "yardzee", "filled": {}, "dice": [3, 3, 3, 5, 6], "rolls_left": 2})
    assert answer.status_code == 200, answer.json()
    options = answer.json()["options"]
    assert options[0]["keep"] == [3, 3, 3]
    assert options[0]["loss"] == 0
    losses = [option["loss"] for option in options]
    assert losses == sorted(losses)
    assert {"label", "value", "loss"} <= set(options[-1])


@pytest.mark.django_db
def test_yardzee_boxes_for_final_dice(tables):
    answer = _advice(
        {"game": "yardzee", "filled": {"aces": 3}, "dice": [3, 3, 3, 5, 5], "rolls_left": 0}
    ).json()
    best = answer["options"][0]
    assert (best["box"], best["points"]) == ("full_house", 25)
    assert "aces" not in [option["box"] for option in answer["options"]]


@pytest.mark.django_db
def test_yardkle_set_asides_then_bank_or_throw():
    answer = _advice(
        {"game": "yardkle", "on_board": True, "turn_total": 300, "dice": [1, 5, 2, 3, 4, 6]}
    )
    assert answer.status_code == 200, answer.json()
    best = answer.json()["options"][0]
    assert best["set_aside"] == [1, 2, 3, 4, 5, 6]
    assert best["points"] == 1500


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("body", "code", "field"),
    [
        ({"game": "chess"}, "unknown_game", "game"),
        ([1, 2], "wrong_type", ""),
        (
            {"game": "yardzee", "filled": {"eights": 8}, "dice": [1] * 5, "rolls_left": 0},
            "unknown_box",
            "filled",
        ),
        (
            {"game": "yardzee", "filled": {}, "dice": [1, 1, 1, 1], "rolls_left": 1},
            "wrong_dice_count",
            "dice",
        ),
        (
            {"game": "yardzee", "filled": {}, "dice": [1] * 5, "rolls_left": 3},
            "wrong_type",
            "rolls_left",
        ),
        (
            {"game": "yardkle", "on_board": True, "turn_total": -5, "dice": [1]},
            "invalid_state",
            "turn_total",
        ),
        (
            {"game": "yardkle", "on_board": "yes", "turn_total": 0, "dice": [1]},
            "wrong_type",
            "on_board",
        ),
        # A turn total of another JSON type is wrong_type, as on_board and need are (it was
        # invalid_state, "50.0 is not a turn total").
        *(
            (
                {"game": "yardkle", "on_board": True, "turn_total": value, "dice": [1, 5, 2, 3]},
                "wrong_type",
                "turn_total",
            )
            for value in (50.0, "50", True, None)
        ),
    ],
)
def test_a_position_the_rules_do_not_allow_is_a_400_naming_the_field(tables, body, code, field):
    answer = _advice(body)
    assert answer.status_code == 400, answer.json()
    assert answer.json()["code"] == code
    assert answer.json()["details"]["field"] == field
    assert answer.json()["message"]


@pytest.mark.django_db
def test_advice_is_throttled_per_address(monkeypatch):
    monkeypatch.setattr(AdviceRateThrottle, "THROTTLE_RATES", {"advice": "2/min"})
    body = {"game": "yardkle", "on_board": False, "turn_total": 0, "dice": [5, 2, 3, 4, 6, 6]}
    assert [_advice(body).status_code for _ in range(3)] == [200, 200, 429]


@pytest.mark.django_db
def test_a_final_round_need_out_of_range_is_refused():
    body = {"game": "yardkle", "on_board": True, "turn_total": 0, "dice": [1] * 6, "need": 10**9}
    answer = _advice(body)
    assert answer.status_code == 400
    assert answer.json()["details"]["field"] == "need"


@pytest.mark.django_db
def test_without_the_strategy_tables_yardzee_advice_is_a_503(settings, tmp_path):
    settings.STRATEGY_DIR = tmp_path
    strategies.forget()
    answer = _advice({"game": "yardzee", "filled": {}, "dice": [1] * 5, "rolls_left": 0})
    strategies.forget()
    assert answer.status_code == 503
    assert answer.json()["code"] == "analysis_unavailable"


def _yardzee_box(filled: dict[str, int], dice: list[int] | None = None) -> dict[str, object]:
    return {"game": "yardzee", "filled": filled, "dice": dice or [2, 3, 4, 5, 5], "rolls_left": 0}


@pytest.mark.django_db
@pytest.mark.parametrize(
    "filled",
    [
        {"full_house": 24},
        {"yardzee": 30},
        {"yardzee": 100},
        {"chance": 3},
        {"chance": 31},
        {"chance": 0},
        {"large_straight": 39},
        {"small_straight": 40},
        {"three_of_a_kind": 1},
        {"four_of_a_kind": 4},
        {"four_of_a_kind": 31},
        {"twos": 3},
        {"aces": 7},
        {"sixes": -6},
    ],
    ids=lambda filled: "-".join(f"{box}-{points}" for box, points in filled.items()),
)
def test_a_box_holding_points_the_rules_cannot_give_it_is_a_400_naming_the_box(tables, filled):
    answer = _advice(_yardzee_box(filled))
    assert answer.status_code == 400, answer.json()
    (box,) = filled
    assert answer.json()["code"] == "invalid_state"
    assert answer.json()["details"]["field"] == f"filled.{box}"
    assert box in answer.json()["message"]


@pytest.mark.django_db
def test_every_box_may_hold_any_points_the_rules_can_give_it(tables):
    filled = {
        "twos": 10,
        "three_of_a_kind": 5,
        "four_of_a_kind": 0,
        "full_house": 25,
        "small_straight": 0,
        "large_straight": 40,
        "yardzee": 50,
        "chance": 30,
    }
    answer = _advice(_yardzee_box(filled))
    assert answer.status_code == 200, answer.json()
    assert answer.json()["options"]


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("body", "key"),
    [
        ({**_yardzee_box({"yardzee": 0}), "yardzee_bonus_count": 2}, "yardzee_bonus_count"),
        ({**_yardzee_box({}), "filed": {"chance": 20}}, "filed"),
        (
            {"game": "yardkle", "on_board": True, "turn_total": 0, "dice": [1] * 6, "score": 9},
            "score",
        ),
    ],
    ids=["yardzee-bonus-count", "misspelt-filled", "yardkle-score"],
)
def test_a_position_with_a_key_the_advice_does_not_read_is_a_400(tables, body, key):
    answer = _advice(body)
    assert answer.status_code == 400, answer.json()
    assert answer.json()["code"] == "unknown_key"
    assert answer.json()["details"]["field"] == key


def _throw(turn_total: int, dice: list[int], **more: object) -> dict[str, object]:
    return {"game": "yardkle", "on_board": True, "turn_total": turn_total, "dice": dice, **more}


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("body", "field"),
    [
        (_throw(100, [1, 2, 3, 4, 5, 6]), "turn_total"),  # six dice: a new turn, or hot dice
        (_throw(250, [1, 2, 3, 4, 5, 6]), "turn_total"),
        (_throw(0, [1, 5, 2]), "turn_total"),  # three dice set aside score 150 or more
        (_throw(350, [1, 5, 2, 3]), "turn_total"),  # two dice set aside score 100 or 200
        (_throw(75, [1, 5]), "turn_total"),
        (_throw(0, [1] * 6, need=30), "need"),  # the leader has 50 more than you, at least
        (_throw(0, [1] * 6, need=100), "need"),  # scores are multiples of 50: need is 51, 101
        (_throw(0, [1] * 6, need=5_001, on_board=False), "need"),  # the leader has 10,000+
        (_throw(0, [1] * 6, need=501, rules={"target": 500, "entry_minimum": 500}), "need"),
    ],
    ids=[
        "hundred-before-six-dice",
        "two-fifty-before-six-dice",
        "nothing-before-three-dice",
        "three-fifty-before-four-dice",
        "not-a-multiple-of-fifty",
        "need-below-fifty-one",
        "need-not-one-past-a-score",
        "need-below-the-target-off-the-board",
        "on-the-board-cannot-be-below-the-target",
    ],
)
def test_a_yardkle_position_no_turn_can_reach_is_a_400_naming_the_field(body, field):
    answer = _advice(body)
    assert answer.status_code == 400, answer.json()
    assert answer.json()["code"] == "invalid_state"
    assert answer.json()["details"]["field"] == field


@pytest.mark.django_db
@pytest.mark.parametrize(
    "body",
    [
        _throw(0, [1, 2, 3, 4, 5, 6]),
        _throw(300, [1, 2, 3, 4, 5, 6]),  # hot dice
        _throw(150, [1, 5, 2]),
        _throw(400, [1, 5, 2, 3]),
        _throw(0, [1] * 6, need=51),
        _throw(0, [1] * 6, need=10_001, on_board=False),
    ],
    ids=["new-turn", "hot-dice", "three-set-aside", "after-hot-dice", "need-51", "need-off"],
)
def test_a_yardkle_position_a_turn_can_reach_gets_advice(body):
    answer = _advice(body)
    assert answer.status_code == 200, answer.json()
