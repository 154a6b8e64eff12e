"""Webhooks (issue 21 item 4): what happens in a league reaches its endpoints as signed JSON,
checked by a real HTTP receiver on 127.0.0.1; failures are logged with their status code or
error and retried, and an endpoint that keeps failing is disabled until re-enabled. Tasks run
in-process here; tests/webhooks/test_worker.py runs them on a real Celery worker."""

import hashlib
import hmac
import json
import logging
import socket
import threading
import time
from datetime import timedelta
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

import scoring
from games import services as game_services
from games.models import Match
from league.models import Event, League
from league.services import organization, stages
from scoring import simulate
from tests.webhooks.receiver import Received, Receiver
from webhooks import sender, services
from webhooks.models import Delivery, DeliveryStatus, Endpoint

pytestmark = pytest.mark.django_db(transaction=True)


def verified(request: Received, secret: str) -> dict[str, Any]:
    """What docs/api.md tells a receiver to do, written out again here: recompute the HMAC of
    "<t>.<raw body>" with the secret, compare in constant time, refuse an old timestamp."""
    fields = dict(
        part.split("=", 1) for part in request.headers["Yard-Webhook-Signature"].split(",")
    )
    timestamp = int(fields["t"])
    assert abs(time.time() - timestamp) < 300
    assert request.headers["Yard-Webhook-Timestamp"] == fields["t"]
    expected = hmac.new(
        secret.encode(), f"{timestamp}.".encode() + request.body, hashlib.sha256
    ).hexdigest()
    assert hmac.compare_digest(expected, fields["v1"]), "signature does not match"
    body: dict[str, Any] = json.loads(request.body)
    assert body["id"] == request.headers["Yard-Webhook-Id"]
    assert body["type"] == request.headers["Yard-Webhook-Event"]
    return body


def _finish(match_id: int, seed: int = 0) -> None:
    match = Match.objects.get(pk=match_id)
    turns = simulate.play_game(
        scoring.new_game(match.game, match.seats.count(), match.rules), seed=seed
    )
    game_services.result_submit(match_id=match_id, turns=turns)


def _roster(league: League, players) -> list[int]:
    league.players.add(*players)
    return [player.pk for player in players]


def test_item4_a_finished_match_reaches_the_receiver_signed_with_the_endpoint_secret(
    endpoint, receiver, yardkle_event, players
):
    ids = _roster(yardkle_event.league, players[:2])
    match = game_services.match_create(
        game="yardkle", player_ids=ids, rules={}, event_id=yardkle_event.pk
    )
    _finish(match.pk)
    receiver.wait_for(3)
    bodies = [verified(request, endpoint.secret) for request in receiver.requests]
    by_type: dict[str, list[dict[str, Any]]] = {}
    for body in bodies:
        by_type.setdefault(body["type"], []).append(body)
    finished = by_type["match.finished"][0]
    assert finished["league"] == {
        "id": yardkle_event.league_id,
        "slug": "yardkle",
        "path": "/api/v1/leagues/yardkle/",
    }
    seats = finished["data"]["match"]["seats"]
    assert [seat["player"] for seat in seats] == ids
    assert sorted(seat["placement"] for seat in seats) in ([1, 2], [1, 1])
    assert finished["data"]["match"]["event"] == yardkle_event.pk
    # The event's and the league's tables were refreshed: each said so once.
    tables = sorted(body["data"]["table"]["scope"] for body in by_type["standings.changed"])
    assert tables == ["event", "league"]
    assert all(request.path == "/yard-hook" for request in receiver.requests)
    assert set(Delivery.objects.values_list("status", flat=True)) == {DeliveryStatus.DELIVERED}


def test_item4_a_stage_and_its_event_finishing_are_delivered(
    endpoint, receiver, yardkle_event, players
):
    ids = _roster(yardkle_event.league, players[:2])
    stage = stages.stage_create(
        event_id=yardkle_event.pk, name="Final", format="round_robin", player_ids=ids
    )
    stages.stage_start(stage_id=stage.pk)
    _finish(Match.objects.get(stage_match__stage=stage).pk)
    receiver.wait_for(5)  # match, stage, event finished; the stage's, event's, league's tables...
    types = [verified(request, endpoint.secret)["type"] for request in receiver.requests]
    assert types.count("stage.finished") == 1
    assert types.count("event.finished") == 1
    stage_body = next(
        json.loads(r.body) for r in receiver.requests if b'"stage.finished"' in r.body
    )
    assert stage_body["data"]["stage"]["id"] == stage.pk
    assert (
        stage_body["data"]["stage"]["ranking"]
        == Event.objects.get(pk=yardkle_event.pk).stages.get().ranking
    )
    # docs/api.md, "Webhooks": each body's fields, and its API path.
    stage_data = stage_body["data"]["stage"]
    assert set(stage_data) == {"id", "event", "name", "format", "finished_at", "ranking", "path"}
    assert (stage_data["event"], stage_data["name"], stage_data["format"]) == (
        yardkle_event.pk,
        "Final",
        "round_robin",
    )
    assert stage_data["path"] == f"/api/v1/stages/{stage.pk}/"
    event_body = next(
        json.loads(r.body) for r in receiver.requests if b'"event.finished"' in r.body
    )
    assert event_body["data"]["event"] == {
        "id": yardkle_event.pk,
        "name": yardkle_event.name,
        "date": Event.objects.get(pk=yardkle_event.pk).date.isoformat(),
        "status": "finished",
        "path": f"/api/v1/events/{yardkle_event.pk}/",
    }


def test_item4_an_event_closed_as_finished_is_delivered_and_only_events_heard_are_sent(
    yardkle_league, receiver, yardkle_event
):
    only_events = services.endpoint_create(
        league=yardkle_league, url=receiver.url, events=["event.finished"]
    )
    organization.event_close(event_id=yardkle_event.pk)
    receiver.wait_for(1)
    assert verified(receiver.requests[0], only_events.secret)["data"]["event"]["status"] == (
        "finished"
    )
    organization.event_reopen(event_id=yardkle_event.pk)
    organization.event_close(event_id=yardkle_event.pk, status="cancelled")
    assert Delivery.objects.count() == 1  # a cancelled event did not finish


def test_item4_a_league_without_endpoints_makes_no_deliveries(yardkle_event, players, receiver):
    ids = _roster(yardkle_event.league, players[:2])
    other = League.objects.create(name="Other", slug="other", game="yardkle")
    services.endpoint_create(league=other, url=receiver.url, events=["match.finished"])
    match = game_services.match_create(
        game="yardkle", player_ids=ids, rules={}, event_id=yardkle_event.pk
    )
    _finish(match.pk)
    assert Delivery.objects.count() == 0
    assert receiver.requests == []


def test_item4_a_500_is_logged_with_its_status_and_the_delivery_retried_with_the_same_body(
    endpoint, receiver
):
    receiver.statuses.extend([500])
    delivery = services.endpoint_ping(endpoint_id=endpoint.pk)
    delivery.refresh_from_db()
    assert delivery.status == DeliveryStatus.RETRYING
    assert delivery.last_status_code == 500
    attempt = delivery.attempt_log.get()
    assert attempt.status_code == 500
    assert attempt.response_excerpt.startswith("answered 500 ")
    assert len(attempt.response_excerpt) == sender.EXCERPT_CHARS  # the rest is not kept
    # The first retry waits WEBHOOK_RETRY_SECONDS[0]; due, it is sent again as it was.
    assert delivery.next_attempt_at > timezone.now() + timedelta(seconds=5)
    assert services.delivery_attempt(delivery_id=delivery.pk) is None  # not due yet
    assert len(receiver.requests) == 1
    Delivery.objects.filter(pk=delivery.pk).update(next_attempt_at=timezone.now())
    services.delivery_attempt(delivery_id=delivery.pk)
    delivery.refresh_from_db()
    assert delivery.status == DeliveryStatus.DELIVERED
    assert [a.status_code for a in delivery.attempt_log.all()] == [500, 200]
    first, second = receiver.requests
    assert first.body == second.body
    assert (
        first.headers["Yard-Webhook-Id"] == second.headers["Yard-Webhook-Id"] == str(delivery.uuid)
    )
    verified(second, endpoint.secret)


def test_item4_the_sweep_sends_a_retry_whose_job_was_lost(endpoint, receiver):
    receiver.statuses.extend([503])
    delivery = services.endpoint_ping(endpoint_id=endpoint.pk)
    assert services.deliveries_sweep() == 0  # its retry is not due
    Delivery.objects.filter(pk=delivery.pk).update(
        next_attempt_at=timezone.now() - timedelta(minutes=5)
    )
    assert services.deliveries_sweep() == 1
    delivery.refresh_from_db()
    assert delivery.status == DeliveryStatus.DELIVERED
    assert delivery.attempts == 2


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_item4_a_refused_connection_and_a_timeout_are_logged_as_such(
    yardkle_league, receiver, settings
):
    refused = services.endpoint_create(
        league=yardkle_league, url=f"http://127.0.0.1:{_closed_port()}/", events=["event.finished"]
    )
    delivery = services.endpoint_ping(endpoint_id=refused.pk)
    delivery.refresh_from_db()
    assert delivery.last_error == "connection refused"
    assert delivery.attempt_log.get().status_code is None

    settings.WEBHOOK_TIMEOUT_SECONDS = 0.5
    receiver.gate = threading.Event()  # never opened while the attempt waits
    slow = services.endpoint_create(
        league=yardkle_league, url=receiver.url, events=["event.finished"]
    )
    delivery = services.endpoint_ping(endpoint_id=slow.pk)
    delivery.refresh_from_db()
    assert delivery.last_error == "timeout: no answer"
    assert delivery.status == DeliveryStatus.RETRYING


def _dripping_server(at_once: bytes, dripped: bytes, every: float) -> tuple[str, threading.Event]:
    """A receiver on 127.0.0.1 that reads the request, sends `at_once`, then `dripped` a byte
    at a time, one each `every` seconds (each within the timeout of a read); its address, and
    an event to stop it."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen()
    stop = threading.Event()

    def serve() -> None:
        connection, _ = listener.accept()
        with connection, listener:
            connection.recv(65536)
            try:
                connection.sendall(at_once)
                for byte in dripped:
                    if stop.wait(every):
                        return
                    connection.sendall(bytes([byte]))
            except OSError:
                return

    threading.Thread(target=serve, daemon=True).start()
    return f"http://127.0.0.1:{listener.getsockname()[1]}/hook", stop


@pytest.mark.parametrize("dripped", ["headers", "body"])
def test_an_answer_dripped_a_byte_at_a_time_cannot_hold_an_attempt(
    yardkle_league, settings, dripped
):
    """Each byte came within the read timeout, so an attempt waited for the whole answer: a
    far end sending a byte every 0.2 s held it (and, in-process, the request that sent it) as
    long as it liked, past the lease that keeps the sweep from sending it again. Now an
    attempt ends after the timeout to connect and again for the answer."""
    settings.WEBHOOK_TIMEOUT_SECONDS = 0.5
    head = b"HTTP/1.1 200 OK\r\nContent-Length: 100\r\n" + b"X-Pad: y\r\n" * 20 + b"\r\n"
    if dripped == "headers":
        url, stop = _dripping_server(b"", head + b"z" * 100, 0.2)
    else:
        url, stop = _dripping_server(head, b"z" * 100, 0.2)
    endpoint = services.endpoint_create(league=yardkle_league, url=url, events=["event.finished"])
    started = time.monotonic()
    try:
        delivery = services.endpoint_ping(endpoint_id=endpoint.pk)
    finally:
        stop.set()
    assert time.monotonic() - started < 3
    delivery.refresh_from_db()
    if dripped == "headers":
        assert delivery.last_error == "timeout: no answer"
        assert delivery.status == DeliveryStatus.RETRYING
    else:  # its status came in time and counts; the answer's body is only a courtesy
        assert delivery.status == DeliveryStatus.DELIVERED


def test_item4_a_redirect_is_not_followed(endpoint, receiver):
    receiver.statuses.extend([302])
    delivery = services.endpoint_ping(endpoint_id=endpoint.pk)
    delivery.refresh_from_db()
    assert delivery.status == DeliveryStatus.RETRYING
    assert delivery.last_error == "HTTP 302 (redirect not followed)"
    assert len(receiver.requests) == 1


def _pinged(endpoint: Endpoint, receiver: Receiver, answers: list[int]) -> None:
    """Ping the endpoint once for each of `answers`, the receiver answering with them in
    turn; the endpoint refreshed after."""
    receiver.statuses.extend(answers)
    for _ in answers:
        services.endpoint_ping(endpoint_id=endpoint.pk)
    endpoint.refresh_from_db()


def test_item4_repeated_failures_disable_the_endpoint_and_its_organizer_sees_why(
    endpoint, receiver, settings
):
    settings.WEBHOOK_DISABLE_AFTER = 3
    _pinged(endpoint, receiver, [500, 500, 500])
    assert endpoint.enabled is False
    assert endpoint.disabled_reason == (
        "Disabled after 3 failed attempts in a row; the last: HTTP 500."
    )
    # Its deliveries waiting for a retry give up; nothing more is published to it.
    assert set(Delivery.objects.values_list("status", flat=True)) == {DeliveryStatus.FAILED}
    assert (
        services.event_publish(league_id=endpoint.league_id, event="event.finished", data={}) == []
    )
    services.endpoint_enable(endpoint_id=endpoint.pk)
    delivery = services.endpoint_ping(endpoint_id=endpoint.pk)
    delivery.refresh_from_db()
    assert delivery.status == DeliveryStatus.DELIVERED
    assert Endpoint.objects.get(pk=endpoint.pk).failures == 0


def test_item4_a_success_between_failures_starts_the_count_again(endpoint, receiver, settings):
    settings.WEBHOOK_DISABLE_AFTER = 2
    _pinged(endpoint, receiver, [500, 200, 500])
    assert endpoint.enabled is True
    assert endpoint.failures == 1


def test_item4_a_rotated_secret_signs_every_attempt_from_then_on(endpoint, receiver):
    old = endpoint.secret
    rotated = services.endpoint_secret_rotate(endpoint_id=endpoint.pk)
    assert rotated.secret != old
    assert rotated.secret.startswith("whsec_")
    services.endpoint_ping(endpoint_id=endpoint.pk)
    verified(receiver.requests[0], rotated.secret)
    with pytest.raises(AssertionError, match="signature"):
        verified(receiver.requests[0], old)


def test_item4_no_secret_is_ever_logged(endpoint, receiver, caplog, settings):
    settings.WEBHOOK_DISABLE_AFTER = 2
    caplog.set_level(logging.DEBUG)
    receiver.statuses.extend([500, 500])
    services.endpoint_ping(endpoint_id=endpoint.pk)
    rotated = services.endpoint_secret_rotate(endpoint_id=endpoint.pk)
    services.endpoint_ping(endpoint_id=endpoint.pk)
    text = caplog.text + repr(Endpoint.objects.get(pk=endpoint.pk))
    assert "failed attempts" in text  # the failures and the disabling were logged
    assert endpoint.secret not in text
    assert rotated.secret not in text
    assert "whsec_" not in text


def test_item4_the_delivery_time_check_refuses_loopback_when_it_is_not_allowed(
    endpoint, receiver, settings
):
    settings.WEBHOOK_ALLOW_LOOPBACK = False
    delivery = services.endpoint_ping(endpoint_id=endpoint.pk)
    delivery.refresh_from_db()
    assert "loopback" in delivery.last_error
    assert receiver.requests == []


def test_item4_a_name_resolving_to_a_private_address_is_not_called(yardkle_league, monkeypatch):
    # DNS is the one part replaced: this machine resolves no public names.
    endpoint = services.endpoint_create(
        league=yardkle_league, url="https://hooks.example.org/in", events=["event.finished"]
    )
    monkeypatch.setattr(
        socket,
        "getaddrinfo",
        lambda *args, **kwargs: [(socket.AF_INET, socket.SOCK_STREAM, 6, "", ("10.0.0.7", 443))],
    )
    delivery = services.endpoint_ping(endpoint_id=endpoint.pk)
    delivery.refresh_from_db()
    assert delivery.last_error == ("address not allowed: hooks.example.org resolves to 10.0.0.7")


def test_item4_an_unresolvable_name_fails_visibly(yardkle_league):
    endpoint = services.endpoint_create(
        league=yardkle_league, url="https://hooks.invalid/yard", events=["event.finished"]
    )
    delivery = services.endpoint_ping(endpoint_id=endpoint.pk)
    delivery.refresh_from_db()
    assert delivery.status == DeliveryStatus.RETRYING
    assert delivery.last_error.startswith("DNS: ")


def test_item4_old_finished_deliveries_leave_the_log(endpoint, receiver, settings):
    settings.WEBHOOK_LOG_DAYS = 30
    old, recent = (services.endpoint_ping(endpoint_id=endpoint.pk) for _ in range(2))
    receiver.statuses.extend([500])
    waiting = services.endpoint_ping(endpoint_id=endpoint.pk)
    long_ago = timezone.now() - timedelta(days=31)
    Delivery.objects.filter(pk__in=[old.pk, waiting.pk]).update(created_at=long_ago)
    Delivery.objects.filter(pk=old.pk).update(finished_at=long_ago)
    assert services.deliveries_prune(batch=1) == 1
    # A delivery still being retried stays, however old; so does a recent one.
    assert set(Delivery.objects.values_list("pk", flat=True)) == {recent.pk, waiting.pk}
    assert services.deliveries_prune() == 0


def test_item4_a_league_without_endpoints_pays_one_query_an_event(yardkle_event, players):
    ids = _roster(yardkle_event.league, players[:2])
    match = game_services.match_create(
        game="yardkle", player_ids=ids, rules={}, event_id=yardkle_event.pk
    )
    with CaptureQueriesContext(connection) as captured:
        _finish(match.pk)
    # (The turns' own statements are prepared on the server: the query log has no text for them.)
    asked = [q["sql"] for q in captured.captured_queries if "webhooks_" in (q["sql"] or "")]
    # match.finished and match.upset, then standings.changed for the event's and the league's
    # tables.
    assert len(asked) == 4, asked


def test_item4_an_address_that_refuses_the_connection_gives_way_to_the_next(
    yardkle_league, receiver, monkeypatch
):
    # A name with two addresses, the first of which nothing listens on (as an IPv6 address
    # this machine cannot reach would be); DNS is the one part replaced.
    port = int(receiver.url.split(":")[2].split("/")[0])
    endpoint = services.endpoint_create(
        league=yardkle_league, url=f"http://localhost:{port}/yard-hook", events=["event.finished"]
    )
    addresses = [
        (socket.AF_INET, socket.SOCK_STREAM, 6, "", ("127.0.0.2", port)),
        (socket.AF_INET, socket.SOCK_STREAM, 6, "", ("127.0.0.1", port)),
    ]
    resolve = socket.getaddrinfo

    def two_addresses(host: str, *args: Any, **kwargs: Any) -> Any:
        return addresses if host == "localhost" else resolve(host, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", two_addresses)
    delivery = services.endpoint_ping(endpoint_id=endpoint.pk)
    delivery.refresh_from_db()
    assert delivery.status == DeliveryStatus.DELIVERED, delivery.last_error
    assert len(receiver.requests) == 1
    assert receiver.requests[0].headers["Host"] == f"localhost:{port}"


def test_item4_an_international_name_is_sent_to_in_ascii(yardkle_league, receiver, monkeypatch):
    # DNS and the Host header take a name in ASCII (IDNA); DNS is the one part replaced.
    port = int(receiver.url.split(":")[2].split("/")[0])
    endpoint = services.endpoint_create(
        league=yardkle_league,
        url=f"http://例え.localhost:{port}/yard-hook",
        events=["event.finished"],
    )
    asked: list[str] = []

    def loopback(host: str, *args: Any, **kwargs: Any) -> Any:
        asked.append(host)
        return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", ("127.0.0.1", port))]

    monkeypatch.setattr(socket, "getaddrinfo", loopback)
    delivery = services.endpoint_ping(endpoint_id=endpoint.pk)
    delivery.refresh_from_db()
    assert delivery.status == DeliveryStatus.DELIVERED, delivery.last_error
    assert asked[0] == "xn--r8jz45g.localhost"
    assert receiver.requests[0].headers["Host"] == f"xn--r8jz45g.localhost:{port}"
