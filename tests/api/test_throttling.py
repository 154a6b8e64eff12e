"""Rate limits: token logins per client address, turn submissions per client."""

import pytest
from rest_framework.test import APIClient

from api.throttles import LoginRateThrottle, TurnRateThrottle


@pytest.fixture
def low_rates(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(LoginRateThrottle, "THROTTLE_RATES", {"login": "3/min"})
    monkeypatch.setattr(TurnRateThrottle, "THROTTLE_RATES", {"turns": "2/min"})


@pytest.mark.django_db
def test_token_login_is_throttled_per_client_with_429_and_retry_after(organizer, low_rates):
    client = APIClient()
    statuses = [
        client.post(
            "/api/v1/auth/token/", {"username": "orga", "password": "wrong"}, format="json"
        ).status_code
        for _ in range(4)
    ]
    assert statuses == [400, 400, 400, 429]
    refused = client.post(
        "/api/v1/auth/token/", {"username": "orga", "password": "pw-orga"}, format="json"
    )
    assert refused.status_code == 429
    assert refused.json()["code"] == "throttled"
    assert int(refused["Retry-After"]) > 0


@pytest.mark.django_db
def test_turn_submission_is_throttled_per_scoring_key(players, seat_match, low_rates):
    first = seat_match("yardzee", players[:2])
    other = seat_match("yardzee", players[2:4])

    def post(match):
        return APIClient().post(
            f"/api/v1/matches/{match['id']}/turns/",
            {"player": -1},
            format="json",
            HTTP_X_SCORE_KEY=match["score_key"],
        )

    assert [post(first).status_code for _ in range(3)] == [422, 422, 429]
    assert post(other).status_code == 422  # another match's key has its own budget
