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
