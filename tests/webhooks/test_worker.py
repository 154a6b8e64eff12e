"""Webhooks on a real Celery worker (issue 21 item 4): a 500 is retried by the worker after
its backoff, and a receiver that holds its answer never holds up a turn's."""

import random
import threading
import time
from typing import Any, cast

import pytest
from celery import Celery, Task
from celery.contrib.testing.worker import start_worker
from rest_framework.test import APIClient

import scoring
from config.celery import app as celery_app
from tests.conftest import next_turn_for
from tests.webhooks.test_deliveries import verified
from webhooks import services
from webhooks.models import Delivery, DeliveryStatus

pytestmark = [pytest.mark.broker, pytest.mark.django_db(transaction=True)]


def _worker() -> Any:
    worker_app = cast("Celery[Task[Any, Any]]", celery_app)  # stub wants the base task class
    return start_worker(worker_app, pool="solo", perform_ping_check=False, shutdown_timeout=10)


def _settled(delivery_id: int, timeout: float = 30) -> Delivery:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        delivery = Delivery.objects.get(pk=delivery_id)
        if delivery.status not in (DeliveryStatus.PENDING, DeliveryStatus.RETRYING):
            return delivery
        time.sleep(0.1)
    raise AssertionError(f"delivery {delivery_id} still {delivery.status}")


def test_item4_a_real_worker_retries_a_500_after_its_backoff(endpoint, receiver, settings):
    settings.WEBHOOK_RETRY_SECONDS = [0.5, 0.5]
    receiver.statuses.extend([500])
    with _worker():
        delivery = services.endpoint_ping(endpoint_id=endpoint.pk)
        receiver.wait_for(2)
        delivery = _settled(delivery.pk)
    assert delivery.status == DeliveryStatus.DELIVERED
    assert [a.status_code for a in delivery.attempt_log.all()] == [500, 200]
    first, second = receiver.requests
    assert first.body == second.body
    assert verified(first, endpoint.secret)["id"] == verified(second, endpoint.secret)["id"]


def test_item4_a_slow_receiver_never_delays_a_turns_answer(
    yardkle_league, receiver, players, seat_match, settings
):
    # The receiver holds every request until the test has the last turn's answer back. Were
    # the delivery made in the turn's request, that answer would wait for the attempt to time
    # out, and the delivery would be logged as a timeout instead of delivered at once.
    settings.WEBHOOK_TIMEOUT_SECONDS = 3
    endpoint = services.endpoint_create(
        league=yardkle_league, url=receiver.url, events=["match.finished"]
    )
    event = yardkle_league.events.create(name="Night", date="2026-06-01")
    match = seat_match("yardkle", players[:2], event=event)
    game = scoring.new_game("yardkle", 2, match["rules"])
    rng = random.Random(4)
    client = APIClient()
    key = match["score_key"]
    receiver.gate = threading.Event()
    with _worker():
        while not game.is_over:
            turn = next_turn_for(match, game, rng)
            response = client.post(
                f"/api/v1/matches/{match['id']}/turns/",
                turn,
                format="json",
                HTTP_X_SCORE_KEY=key,
            )
            assert response.status_code == 201, response.json()
            game.play(turn)
            match = client.get(f"/api/v1/matches/{match['id']}/").json()
        assert response.json()["match"]["status"] == "finished"
        assert receiver.answered == 0  # the answer is back; the receiver has answered nothing
        receiver.gate.set()
        receiver.wait_for(1)
        delivery = _settled(Delivery.objects.get(endpoint=endpoint).pk)
    assert delivery.status == DeliveryStatus.DELIVERED
    assert delivery.attempts == 1
    assert receiver.requests[0].gate_was_open is True
    assert verified(receiver.requests[0], endpoint.secret)["data"]["match"]["id"] == match["id"]
