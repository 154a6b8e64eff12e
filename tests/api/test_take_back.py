"""POST matches/{id}/turns/last/take-back/: the scorekeeper who sent the last turn takes it
back (docs/api.md, "Taking back your own last turn"), with the key it was sent with or signed
in as who sent it; every refusal is 409 with its code and changes nothing."""

from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.utils import timezone
from rest_framework.test import APIClient

from games.models import Turn, TurnUndo
from tests.conftest import client_for
from tests.games.conftest import SCRIPTED_YARDZEE

pytestmark = pytest.mark.django_db


def _url(match: dict[str, Any]) -> str:
    return f"/api/v1/matches/{match['id']}/turns/last/take-back/"


def _send(
    client: APIClient, match: dict[str, Any], number: int, key: str | None = None, **headers: Any
) -> Any:
    player = match["seats"][(number - 1) % len(match["seats"])]["player"]["id"]
    if key is not None:
        headers["HTTP_X_SCORE_KEY"] = key
    return client.post(
        f"/api/v1/matches/{match['id']}/turns/",
        {**SCRIPTED_YARDZEE[number - 1], "player": player, "turn_number": number},
        format="json",
        **headers,
    )


@pytest.fixture
def match(seat_match, players):
    return seat_match("yardzee", players[:2])


def test_the_key_holder_takes_back_their_last_turn(match):
    key = match["score_key"]
    for number in (1, 2):
        assert _send(APIClient(), match, number, key).status_code == 201
    answer = APIClient().post(_url(match), {"turn_number": 2}, format="json", HTTP_X_SCORE_KEY=key)
    assert answer.status_code == 200, answer.json()
    body = answer.json()
    assert body["undone"]["sequence"] == 2
    assert body["undone"]["player"] == match["seats"][1]["player"]["id"]
    assert body["match"]["turns_played"] == 1
    assert TurnUndo.objects.get().taken_back is True


def test_a_signed_in_scorekeeper_takes_back_their_own_turn(match, organizer):
    client = client_for(organizer)
    assert _send(client, match, 1).status_code == 201
    answer = client.post(_url(match), {}, format="json")
    assert answer.status_code == 200, answer.json()
    assert TurnUndo.objects.get().undone_by == organizer


def test_the_turn_of_another_scorekeeper_is_refused(match, organizer):
    assert _send(client_for(organizer), match, 1).status_code == 201
    answer = APIClient().post(_url(match), {}, format="json", HTTP_X_SCORE_KEY=match["score_key"])
    assert answer.status_code == 409
    assert answer.json()["code"] == "take_back_not_yours"
    assert Turn.objects.count() == 1


def test_once_the_next_turn_is_in_the_number_says_so(match, organizer):
    key = match["score_key"]
    assert _send(APIClient(), match, 1, key).status_code == 201
    assert _send(client_for(organizer), match, 2).status_code == 201
    answer = APIClient().post(_url(match), {"turn_number": 1}, format="json", HTTP_X_SCORE_KEY=key)
    assert answer.status_code == 409
    assert answer.json()["code"] == "turn_number_mismatch"
    assert answer.json()["details"] == {"turn_number": 1, "expected": 2}
    assert Turn.objects.count() == 2


def test_too_late(match, settings):
    settings.TAKE_BACK_SECONDS = 30
    key = match["score_key"]
    assert _send(APIClient(), match, 1, key).status_code == 201
    Turn.objects.update(submitted_at=timezone.now() - timedelta(seconds=31))
    answer = APIClient().post(_url(match), {}, format="json", HTTP_X_SCORE_KEY=key)
    assert answer.status_code == 409
    assert answer.json()["code"] == "take_back_too_late"
    assert answer.json()["details"] == {"turn": 1, "seconds": 30}


def test_a_finishing_turn_is_refused_and_the_answer_says_who_can(match):
    key = match["score_key"]
    for number in range(1, len(SCRIPTED_YARDZEE) + 1):
        assert _send(APIClient(), match, number, key).status_code == 201
    answer = APIClient().post(_url(match), {}, format="json", HTTP_X_SCORE_KEY=key)
    assert answer.status_code == 409
    assert answer.json()["code"] == "match_closed"
    assert "only an organizer" in answer.json()["message"]


def test_no_credentials_401_a_wrong_key_403_and_a_stranger_403(match, player_account):
    assert _send(APIClient(), match, 1, match["score_key"]).status_code == 201
    assert APIClient().post(_url(match), {}, format="json").status_code == 401
    wrong = APIClient().post(_url(match), {}, format="json", HTTP_X_SCORE_KEY="x" * 32)
    assert wrong.status_code == 403
    stranger = client_for(player_account).post(_url(match), {}, format="json")
    assert stranger.status_code == 403
    assert Turn.objects.count() == 1


def test_an_unknown_match_is_404(match):
    answer = APIClient().post(
        "/api/v1/matches/999999/turns/last/take-back/",
        {},
        format="json",
        HTTP_X_SCORE_KEY=match["score_key"],
    )
    assert answer.status_code == 404


def test_a_retry_of_the_taken_back_turn_is_not_applied_again(match):
    key = match["score_key"]
    first = _send(APIClient(), match, 1, key, HTTP_IDEMPOTENCY_KEY="turn-1")
    assert first.status_code == 201
    assert APIClient().post(_url(match), {}, format="json", HTTP_X_SCORE_KEY=key).status_code == 200
    retry = _send(APIClient(), match, 1, key, HTTP_IDEMPOTENCY_KEY="turn-1")
    assert retry.status_code == 409
    assert retry.json()["code"] == "turn_undone"
    assert "taken back" in retry.json()["message"]  # by the scorekeeper: no organizer did it
    assert "organizer" not in retry.json()["message"]
    assert Turn.objects.count() == 0


def test_the_schema_documents_the_path(api: APIClient, organizer: User) -> None:
    schema = api.get("/api/v1/schema/", HTTP_ACCEPT="application/json").json()
    assert "/api/v1/matches/{id}/turns/last/take-back/" in schema["paths"]


@pytest.mark.parametrize("turn_number", ["2", True, 2.0, 0, -1])
def test_a_turn_number_that_is_not_a_positive_integer_is_wrong_type(match, turn_number):
    """As a turn's and a correction's (`games.services.turn_number_sent`): "2", true, 2.0, 0
    and -1 name no turn, 422 `wrong_type`, and nothing is taken back."""
    key = match["score_key"]
    for number in (1, 2):
        assert _send(APIClient(), match, number, key).status_code == 201
    answer = APIClient().post(
        _url(match), {"turn_number": turn_number}, format="json", HTTP_X_SCORE_KEY=key
    )
    assert answer.status_code == 422, answer.json()
    assert answer.json()["code"] == "wrong_type"
    assert answer.json()["details"] == {"field": "turn_number"}
    assert Turn.objects.count() == 2
    assert not TurnUndo.objects.exists()
