"""Rate limits: token logins per client address, turn submissions per client. Each rule is
checked on the memory cache (DRF's own path) and on Redis (one Lua round trip, api/throttles.py)."""

import logging
import socket
from collections.abc import Iterator

import pytest
from django.test import override_settings
from rest_framework.test import APIClient

from api import throttles
from api.throttles import LoginRateThrottle, TurnRateThrottle
from tests.caches import redis_cache


@pytest.fixture(params=["memory", "redis"])
def low_rates(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """Low rates, on the test settings' memory cache or on Redis (the broker's server, keys
    under a prefix of this test's own, deleted after it)."""
    monkeypatch.setattr(LoginRateThrottle, "THROTTLE_RATES", {"login": "3/min"})
    monkeypatch.setattr(TurnRateThrottle, "THROTTLE_RATES", {"turns": "2/min"})
    if request.param == "memory":
        yield request.param
        return
    with redis_cache("throttle-test", "the Redis throttle"):
        yield request.param


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """The throttles' clock, moved by hand: `clock[0]` is now."""
    now = [1_800_000_000.0]
    monkeypatch.setattr(LoginRateThrottle, "timer", lambda self: now[0])
    monkeypatch.setattr(TurnRateThrottle, "timer", lambda self: now[0])
    return now


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


@pytest.mark.django_db
def test_issue38_an_organizer_scoring_several_tables_has_a_turn_budget_at_each_match(
    players, seat_match, organizer, low_rates
):
    """Issue 38, item 9: one account keeping score at several tables is not held to one
    budget for all of them; at one match it still is."""
    client = APIClient()
    client.force_authenticate(organizer)
    first = seat_match("yardzee", players[:2])
    other = seat_match("yardzee", players[2:4])

    def post(match):
        return client.post(f"/api/v1/matches/{match['id']}/turns/", {"player": -1}, format="json")

    assert [post(first).status_code for _ in range(3)] == [422, 422, 429]
    assert [post(other).status_code for _ in range(2)] == [422, 422]


@pytest.mark.django_db
def test_a_limit_counts_the_last_minute_only_and_retry_after_says_when(
    players, seat_match, low_rates, clock
):
    match = seat_match("yardzee", players[:2])

    def post():
        return APIClient().post(
            f"/api/v1/matches/{match['id']}/turns/",
            {"player": -1},
            format="json",
            HTTP_X_SCORE_KEY=match["score_key"],
        )

    assert post().status_code == 422
    clock[0] += 20
    assert post().status_code == 422
    clock[0] += 30
    refused = post()
    assert refused.status_code == 429
    assert refused["Retry-After"] == "10"  # the first of the two leaves the minute in 10 s
    clock[0] += 10  # the first one's minute is over: one more is allowed, not two
    assert [post().status_code for _ in range(2)] == [422, 429]
    clock[0] += 60
    assert [post().status_code for _ in range(3)] == [422, 422, 429]


@pytest.mark.django_db
def test_wrong_scoring_keys_are_limited_per_address_on_either_cache(
    players, seat_match, low_rates, settings
):
    settings.SCORE_KEY_FAILURES = 3
    match = seat_match("yardzee", players[:2])

    def post(key: str, address: str = "127.0.0.1") -> int:
        return (
            APIClient()
            .post(
                f"/api/v1/matches/{match['id']}/turns/",
                {"player": -1},
                format="json",
                HTTP_X_SCORE_KEY=key,
                REMOTE_ADDR=address,
            )
            .status_code
        )

    assert [post(f"random-{i}") for i in range(4)] == [403, 403, 403, 429]
    assert post(match["score_key"]) == 429  # the address waits out its minute
    assert post(match["score_key"], "10.9.8.7") == 422  # another address is not held up


@pytest.mark.django_db
def test_a_client_cannot_escape_the_login_limit_by_sending_x_forwarded_for(organizer, low_rates):
    statuses = [
        APIClient()
        .post(
            "/api/v1/auth/token/",
            {"username": "orga", "password": "wrong"},
            format="json",
            HTTP_X_FORWARDED_FOR=f"198.51.100.{attempt}",
        )
        .status_code
        for attempt in range(4)
    ]
    assert statuses == [400, 400, 400, 429]


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.mark.django_db
def test_with_the_rate_limit_cache_down_logins_and_turns_go_through_and_say_so(
    organizer, players, seat_match, low_rates, caplog, monkeypatch
):
    monkeypatch.setattr(throttles, "_last_warning", {})
    match = seat_match("yardzee", players[:2])
    unreachable = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": f"redis://127.0.0.1:{_closed_port()}/0",
        }
    }
    with override_settings(CACHES=unreachable), caplog.at_level(logging.WARNING, "api.throttles"):
        logins = [
            APIClient()
            .post("/api/v1/auth/token/", {"username": "orga", "password": "pw-orga"}, format="json")
            .status_code
            for _ in range(4)
        ]
        turns = [
            APIClient()
            .post(
                f"/api/v1/matches/{match['id']}/turns/",
                {"player": -1},
                format="json",
                HTTP_X_SCORE_KEY=match["score_key"],
            )
            .status_code
            for _ in range(3)
        ]
    assert logins == [200, 200, 200, 200]  # past the limit of 3: nothing counted, nothing refused
    assert turns == [422, 422, 422]
    # Said once per process and minute, not on every request.
    assert caplog.messages.count("Rate-limit cache unreachable; login allowed unthrottled.") == 1
    assert caplog.messages.count("Rate-limit cache unreachable; turns allowed unthrottled.") == 1
