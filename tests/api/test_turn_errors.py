"""Bad input gets a clear 4xx with a code and a sentence, and changes nothing."""

from typing import Any

import pytest
from django.db.transaction import TransactionManagementError
from rest_framework.test import APIClient

import scoring
from games import services as game_services
from games.models import Match, SubmissionReceipt, Turn
from scoring import simulate


def _counts() -> dict[str, int]:
    return {
        "turns": Turn.objects.count(),
        "receipts": SubmissionReceipt.objects.count(),
        "turns_played": sum(Match.objects.values_list("turns_played", flat=True)),
    }


def _state(match_id: int) -> Any:
    return Match.objects.values_list("state", "status", "turns_played").get(pk=match_id)


@pytest.fixture
def yardzee_match(players, seat_match):
    return seat_match("yardzee", players[:2])


def _post_turn(match: dict[str, Any], body: Any, **headers: Any) -> Any:
    return APIClient().post(
        f"/api/v1/matches/{match['id']}/turns/",
        body,
        format="json",
        HTTP_X_SCORE_KEY=match["score_key"],
        **headers,
    )


def _first_turn(match: dict[str, Any], **changes: Any) -> dict[str, Any]:
    return {
        "player": match["seats"][0]["player"]["id"],
        "rolls": [{"dice": [3, 3, 5, 2, 6]}, {"keep": [3, 3], "dice": [3, 3, 3, 1, 4]}],
        "category": "threes",
        **changes,
    }


VIOLATIONS = [
    ("invalid_die", {"rolls": [{"dice": [3, 3, 5, 2, 7]}]}),
    ("invalid_die", {"rolls": [{"dice": [3, 3, 5, 2, True]}]}),
    ("wrong_dice_count", {"rolls": [{"dice": [3, 3, 5, 2]}]}),
    (
        "too_many_rolls",
        {"rolls": [{"dice": [1, 2, 3, 4, 5]}] + [{"keep": [1], "dice": [1, 2, 3, 4, 5]}] * 3},
    ),
    (
        "keep_not_in_roll",
        {"rolls": [{"dice": [3, 3, 5, 2, 6]}, {"keep": [4], "dice": [4, 3, 3, 1, 4]}]},
    ),
    ("unknown_box", {"category": "sevens"}),
    ("points_mismatch", {"points": 12}),
    ("unknown_key", {"bonus_points": 3}),
    ("not_your_turn", {"player": -1}),
    ("wrong_type", {"player": "7"}),
]


@pytest.mark.django_db
@pytest.mark.parametrize(("code", "changes"), VIOLATIONS, ids=[v[0] for v in VIOLATIONS])
def test_every_rule_violation_answers_422_with_its_code_and_changes_nothing(
    yardzee_match, code, changes
):
    if changes.get("player") == -1:
        changes = {"player": yardzee_match["seats"][1]["player"]["id"]}
    before, state_before = _counts(), _state(yardzee_match["id"])
    response = _post_turn(yardzee_match, _first_turn(yardzee_match, **changes))
    assert response.status_code == 422, response.json()
    body = response.json()
    assert body["code"] == code
    assert body["message"]
    assert "rule" in body
    assert isinstance(body["details"], dict)
    assert _counts() == before
    assert _state(yardzee_match["id"]) == state_before


def _throws(*throws: tuple[list[int], list[int]]) -> list[dict[str, list[int]]]:
    return [{"dice": dice, "set_aside": set_aside} for dice, set_aside in throws]


# RULES.md, "What a submitted turn must carry, and what makes it invalid": the Yardkle half of
# its list, each sent as the first turn of a match (entry minimum 500).
YARDKLE_VIOLATIONS = [
    ("invalid_die", _throws(([1, 1, 1, 2, 3, 0], [1, 1, 1])), "bank"),
    ("wrong_dice_count", _throws(([1, 1, 1, 2, 3], [1, 1, 1])), "bank"),
    ("wrong_dice_count", _throws(([1, 1, 1, 2, 3, 4], [1, 1, 1]), ([5, 5], [5])), "bank"),
    ("die_scores_nothing", _throws(([1, 1, 1, 2, 3, 4], [1, 1, 1, 2])), "bank"),
    ("die_scores_nothing", _throws(([2, 2, 3, 3, 4, 6], [2, 2])), "bank"),
    ("set_aside_not_thrown", _throws(([1, 1, 1, 2, 3, 4], [1, 1, 1, 5])), "bank"),
    ("empty_set_aside", _throws(([1, 1, 1, 2, 3, 4], [])), "bank"),
    ("bank_below_entry_minimum", _throws(([1, 5, 2, 3, 4, 6], [1, 5])), "bank"),
    ("bank_after_hot_dice", _throws(([1, 1, 1, 5, 5, 5], [1, 1, 1, 5, 5, 5])), "bank"),
    (
        "throw_after_yardkle",
        _throws(([2, 2, 3, 3, 4, 6], []), ([1, 1, 1, 2, 3, 4], [1, 1, 1])),
        "bank",
    ),
    ("end_contradicts_throws", _throws(([2, 2, 3, 3, 4, 6], [])), "bank"),
    ("end_contradicts_throws", _throws(([1, 1, 1, 2, 3, 4], [1, 1, 1])), "yardkle"),
    ("too_many_throws", _throws(*[([1, 1, 1, 5, 5, 5], [1, 1, 1, 5, 5, 5])] * 101), "bank"),
]


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("code", "throws", "end"),
    YARDKLE_VIOLATIONS,
    ids=[f"{index}-{case[0]}" for index, case in enumerate(YARDKLE_VIOLATIONS)],
)
def test_every_yardkle_rule_violation_answers_422_with_its_code_and_changes_nothing(
    players, seat_match, code, throws, end
):
    match = seat_match("yardkle", players[:2])
    before, state_before = _counts(), _state(match["id"])
    turn = {"player": match["seats"][0]["player"]["id"], "throws": throws, "end": end}
    response = _post_turn(match, turn)
    assert response.status_code == 422, response.json()
    body = response.json()
    assert body["code"] == code
    assert body["message"]
    assert body["rule"]
    assert _counts() == before
    assert _state(match["id"]) == state_before


@pytest.mark.django_db
def test_a_box_the_joker_rule_forbids_answers_422_and_changes_nothing(yardzee_match, players):
    """RULES.md, "Joker": five 6s with the Yardzee box filled go in the open Sixes box only."""
    sixes = {"rolls": [{"dice": [6, 6, 6, 6, 6]}], "category": "yardzee"}
    assert _post_turn(yardzee_match, {**sixes, "player": players[0].pk}).status_code == 201
    other = {"rolls": [{"dice": [1, 2, 3, 4, 6]}], "category": "chance", "player": players[1].pk}
    assert _post_turn(yardzee_match, other).status_code == 201
    before, state_before = _counts(), _state(yardzee_match["id"])
    response = _post_turn(yardzee_match, {**sixes, "category": "chance", "player": players[0].pk})
    assert response.status_code == 422, response.json()
    assert response.json()["code"] == "joker_forbids_box"
    assert response.json()["details"]["allowed"] == ["sixes"]
    assert (_counts(), _state(yardzee_match["id"])) == (before, state_before)


@pytest.mark.django_db
def test_points_mismatch_message_gives_both_numbers(yardzee_match):
    response = _post_turn(yardzee_match, _first_turn(yardzee_match, points=12))
    body = response.json()
    assert "12" in body["message"]
    assert "9" in body["message"]


@pytest.mark.django_db
def test_a_filled_box_is_refused_with_box_filled(yardzee_match, players):
    assert _post_turn(yardzee_match, _first_turn(yardzee_match)).status_code == 201
    second = {**_first_turn(yardzee_match), "player": players[1].pk}
    assert _post_turn(yardzee_match, second).status_code == 201
    again = _post_turn(yardzee_match, _first_turn(yardzee_match))
    assert again.status_code == 422
    assert again.json()["code"] == "box_filled"


@pytest.mark.django_db
def test_turn_without_its_player_is_refused(yardzee_match):
    turn = _first_turn(yardzee_match)
    del turn["player"]
    response = _post_turn(yardzee_match, turn)
    assert response.status_code == 422
    assert response.json()["code"] == "missing_key"


@pytest.mark.django_db
def test_malformed_json_answers_400_and_changes_nothing(yardzee_match):
    before = _counts()
    response = APIClient().generic(
        "POST",
        f"/api/v1/matches/{yardzee_match['id']}/turns/",
        '{"rolls": [',
        content_type="application/json",
        HTTP_X_SCORE_KEY=yardzee_match["score_key"],
    )
    assert response.status_code == 400
    assert response.json()["code"] == "malformed_json"
    assert _counts() == before


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("body", "code"),
    [([1, 2], "wrong_type"), ("turn", "wrong_type"), (7, "wrong_type"), (None, "missing_key")],
)
def test_a_turn_that_is_not_a_json_object_answers_422(yardzee_match, body, code):
    response = _post_turn(yardzee_match, body)
    assert response.status_code == 422
    assert response.json()["code"] == code
    assert not Turn.objects.exists()


@pytest.mark.django_db
def test_unknown_match_answers_404_with_the_error_shape():
    response = APIClient().get("/api/v1/matches/999999/")
    assert response.status_code == 404
    assert response.json() == {"code": "not_found", "message": "Not found.", "details": {}}


@pytest.mark.django_db
def test_wrong_turn_number_answers_409_with_the_expected_number(yardzee_match):
    response = _post_turn(yardzee_match, {**_first_turn(yardzee_match), "turn_number": 4})
    assert response.status_code == 409
    body = response.json()
    assert body["code"] == "turn_number_mismatch"
    assert body["details"]["expected"] == 1
    assert not Turn.objects.exists()


@pytest.mark.django_db
def test_turns_on_a_finished_or_void_match_answer_409(players, seat_match, as_organizer):
    """RULES.md, "What a submitted turn must carry": a turn when the game is over is refused
    with an error that names the rule ("Game"); a void match's game was called off, not over."""
    match = seat_match("yardzee", players[:2])
    turns = simulate.play_game(scoring.new_game("yardzee", 2, {}), seed=1)
    as_organizer.post(f"/api/v1/matches/{match['id']}/result/", {"turns": turns}, format="json")
    response = _post_turn(match, _first_turn(match))
    assert response.status_code == 409
    assert response.json()["code"] == "match_closed"
    assert response.json()["rule"] == "Game"
    preview = as_organizer.post(
        f"/api/v1/matches/{match['id']}/preview/", {"dice": [1, 2, 3, 4, 5]}, format="json"
    )
    assert (preview.status_code, preview.json().get("rule")) == (409, "Game")

    other = seat_match("yardzee", players[2:4])
    assert as_organizer.post(f"/api/v1/matches/{other['id']}/void/").status_code == 200
    response = _post_turn(other, _first_turn(other))
    assert response.status_code == 409
    assert response.json()["details"]["status"] == "void"
    assert "rule" not in response.json()


# --- Idempotency --------------------------------------------------------------------------------


@pytest.mark.django_db
def test_same_idempotency_key_and_body_returns_the_first_answer_and_applies_nothing(
    yardzee_match,
):
    turn = _first_turn(yardzee_match)
    first = _post_turn(yardzee_match, turn, HTTP_IDEMPOTENCY_KEY="k-1")
    again = _post_turn(yardzee_match, turn, HTTP_IDEMPOTENCY_KEY="k-1")
    assert first.status_code == again.status_code == 201
    assert again.json() == first.json()
    assert Turn.objects.count() == 1
    assert Match.objects.get(pk=yardzee_match["id"]).turns_played == 1


@pytest.mark.django_db
def test_same_idempotency_key_with_another_body_answers_422(yardzee_match, players):
    assert (
        _post_turn(
            yardzee_match, _first_turn(yardzee_match), HTTP_IDEMPOTENCY_KEY="k-2"
        ).status_code
        == 201
    )
    other = {**_first_turn(yardzee_match), "player": players[1].pk}
    response = _post_turn(yardzee_match, other, HTTP_IDEMPOTENCY_KEY="k-2")
    assert response.status_code == 422
    assert response.json()["code"] == "idempotency_key_reused"
    assert Turn.objects.count() == 1


@pytest.mark.django_db
def test_idempotent_result_submission_is_applied_once(players, seat_match, as_organizer):
    match = seat_match("yardkle", players[:2])
    turns = simulate.play_game(scoring.new_game("yardkle", 2, {}), seed=4)
    url = f"/api/v1/matches/{match['id']}/result/"
    first = as_organizer.post(url, {"turns": turns}, format="json", HTTP_IDEMPOTENCY_KEY="r")
    again = as_organizer.post(url, {"turns": turns}, format="json", HTTP_IDEMPOTENCY_KEY="r")
    assert first.status_code == again.status_code == 201
    assert again.json() == first.json()
    assert Turn.objects.filter(match_id=match["id"]).count() == len(turns)


@pytest.mark.django_db
def test_a_rejected_turn_leaves_no_receipt_so_a_corrected_retry_may_reuse_the_key(
    yardzee_match,
):
    bad = _post_turn(
        yardzee_match, _first_turn(yardzee_match, points=1), HTTP_IDEMPOTENCY_KEY="k-3"
    )
    assert bad.status_code == 422
    assert not SubmissionReceipt.objects.exists()
    good = _post_turn(yardzee_match, _first_turn(yardzee_match), HTTP_IDEMPOTENCY_KEY="k-3")
    assert good.status_code == 201


@pytest.mark.django_db
def test_a_replay_is_shown_only_to_who_may_score_the_match(yardzee_match):
    """The stored first answer carries the match's board: a retry with its key and body but
    without the scoring key is refused like any other write, not answered from the receipt."""
    turn = _first_turn(yardzee_match)
    assert _post_turn(yardzee_match, turn, HTTP_IDEMPOTENCY_KEY="k-4").status_code == 201
    stranger = APIClient().post(
        f"/api/v1/matches/{yardzee_match['id']}/turns/",
        turn,
        format="json",
        HTTP_X_SCORE_KEY="not-the-key",
        HTTP_IDEMPOTENCY_KEY="k-4",
    )
    assert stranger.status_code == 403
    assert "board" not in stranger.content.decode()


@pytest.mark.django_db(transaction=True)
def test_applying_a_turn_outside_a_transaction_is_refused_before_anything_changes(
    yardzee_match,
):
    """`turn_submit_locked` trusts its caller to hold the match's row lock; with no transaction
    open there is no lock, so it refuses instead of writing unserialised."""
    match = Match.objects.get(pk=yardzee_match["id"])
    seats = list(match.seats.order_by("order").values_list("pk", "player_id"))
    with pytest.raises(TransactionManagementError):
        game_services.turn_submit_locked(
            game_services.Submission(match, seats, None), body=_first_turn(yardzee_match)
        )
    assert Turn.objects.count() == 0


# --- Undo and void --------------------------------------------------------------------------


@pytest.mark.django_db
def test_undo_removes_the_last_turn_and_keeps_an_audit_record(
    yardzee_match, as_organizer, organizer
):
    _post_turn(yardzee_match, _first_turn(yardzee_match))
    state_after_one = _state(yardzee_match["id"])
    second = {**_first_turn(yardzee_match), "player": yardzee_match["seats"][1]["player"]["id"]}
    _post_turn(yardzee_match, second)
    response = as_organizer.post(f"/api/v1/matches/{yardzee_match['id']}/undo/")
    assert response.status_code == 200, response.json()
    body = response.json()
    assert body["undone"]["sequence"] == 2
    assert body["undone"]["payload"] == second
    assert body["match"]["turns_played"] == 1
    assert _state(yardzee_match["id"]) == state_after_one
    match = Match.objects.get(pk=yardzee_match["id"])
    undo = match.undos.get()
    assert undo.undone_by == organizer
    assert undo.payload == second


@pytest.mark.django_db
def test_undo_of_a_finished_match_reopens_it(players, seat_match, as_organizer):
    match = seat_match("yardzee", players[:2])
    turns = simulate.play_game(scoring.new_game("yardzee", 2, {}), seed=2)
    as_organizer.post(f"/api/v1/matches/{match['id']}/result/", {"turns": turns}, format="json")
    response = as_organizer.post(f"/api/v1/matches/{match['id']}/undo/")
    assert response.status_code == 200
    assert response.json()["match"]["status"] == "in_progress"
    stored = Match.objects.get(pk=match["id"])
    assert stored.turns_played == 25
    assert list(stored.seats.values_list("total", "placement")) == [(None, None)] * 2
    assert _post_turn(match, {"player": players[1].pk, **turns[-1]}).status_code == 201


@pytest.mark.django_db
def test_undo_with_no_turns_answers_409(yardzee_match, as_organizer):
    response = as_organizer.post(f"/api/v1/matches/{yardzee_match['id']}/undo/")
    assert response.status_code == 409
    assert response.json()["code"] == "nothing_to_undo"


@pytest.mark.django_db
def test_undo_removes_one_turn_at_a_time_and_then_has_nothing_to_undo(yardzee_match, as_organizer):
    _post_turn(yardzee_match, _first_turn(yardzee_match))
    assert as_organizer.post(f"/api/v1/matches/{yardzee_match['id']}/undo/").status_code == 200
    assert as_organizer.post(f"/api/v1/matches/{yardzee_match['id']}/undo/").status_code == 409
