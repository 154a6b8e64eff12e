"""Idempotency receipts expire (issue 14, item 18): the answers kept for `Idempotency-Key`s go
after IDEMPOTENCY_RECEIPT_HOURS, deleted by an hourly beat job; a retry after that is a new
request, which `turn_number` keeps from being applied twice."""

import time
from datetime import timedelta
from typing import Any, cast

import pytest
from celery import Celery, Task
from celery.contrib.testing.worker import start_worker
from django.conf import settings
from django.test import override_settings
from django.utils import timezone
from rest_framework.test import APIClient

from config.celery import app as celery_app
from games import services, tasks
from games.models import Match, SubmissionReceipt, Turn
from scoring import simulate

# Ages of the receipts made by `receipts`, in hours: the first three are past the default 24.
AGES = [24 * 30, 48, 24.5, 23.5, 0.5, 0]


@pytest.fixture
def receipts(players) -> list[int]:
    """One receipt of each age in AGES (by id, in that order), on one match."""
    match = services.match_create(game="yardzee", player_ids=[p.pk for p in players[:2]])
    ids = []
    for number, hours in enumerate(AGES):
        receipt = SubmissionReceipt.objects.create(
            match=match,
            key=f"key-{number}",
            fingerprint="0" * 64,
            status_code=201,
            response={"turn": number},
        )
        # created_at is set on insert (auto_now_add): age it afterwards.
        SubmissionReceipt.objects.filter(pk=receipt.pk).update(
            created_at=timezone.now() - timedelta(hours=hours)
        )
        ids.append(receipt.pk)
    return ids


def _kept() -> list[str]:
    return sorted(SubmissionReceipt.objects.values_list("key", flat=True))


@pytest.mark.django_db
def test_item_18_receipts_older_than_the_configured_hours_expire_and_fresh_ones_stay(receipts):
    assert settings.IDEMPOTENCY_RECEIPT_HOURS == 24
    assert services.receipts_expire(batch=2) == 3  # in batches of 2, 2 then 1
    assert _kept() == ["key-3", "key-4", "key-5"]
    assert services.receipts_expire() == 0  # safe to run twice


@pytest.mark.django_db
@override_settings(IDEMPOTENCY_RECEIPT_HOURS=1)
def test_receipts_are_kept_for_the_hours_the_setting_says(receipts):
    assert services.receipts_expire() == 4
    assert _kept() == ["key-4", "key-5"]


def test_celery_beat_expires_receipts_every_hour():
    assert settings.CELERY_BEAT_SCHEDULE["receipts-expire"] == {
        "task": "games.receipts_expire",
        "schedule": 3600.0,
    }
    assert tasks.receipts_expire.name == "games.receipts_expire"
    celery_app.loader.import_default_modules()  # what a worker does on start: autodiscovery
    assert "games.receipts_expire" in celery_app.tasks


@pytest.mark.django_db
def test_the_expiry_job_runs_in_process(receipts):
    assert tasks.receipts_expire.apply().get() == 3
    assert _kept() == ["key-3", "key-4", "key-5"]


@pytest.mark.broker
@pytest.mark.django_db(transaction=True)
def test_a_real_worker_runs_the_expiry_job_by_its_name(receipts):
    worker_app = cast("Celery[Task[Any, Any]]", celery_app)  # stub wants the base task class
    with start_worker(worker_app, pool="solo", perform_ping_check=False, shutdown_timeout=10):
        celery_app.send_task("games.receipts_expire")  # as beat sends it: by name
        deadline = time.monotonic() + 30
        while _kept() != ["key-3", "key-4", "key-5"] and time.monotonic() < deadline:
            time.sleep(0.2)
    assert _kept() == ["key-3", "key-4", "key-5"]


@pytest.mark.django_db
def test_a_retry_after_its_receipt_expired_is_a_new_request_refused_by_its_turn_number(
    players, seat_match
):
    match = seat_match("yardzee", players[:2])
    turn = {
        "player": match["seats"][0]["player"]["id"],
        "turn_number": 1,
        "rolls": [{"dice": [3, 3, 5, 2, 6]}, {"keep": [3, 3], "dice": [3, 3, 3, 1, 4]}],
        "category": "threes",
    }

    def post() -> Any:
        return APIClient().post(
            f"/api/v1/matches/{match['id']}/turns/",
            turn,
            format="json",
            HTTP_X_SCORE_KEY=match["score_key"],
            HTTP_IDEMPOTENCY_KEY="retry-me",
        )

    assert post().status_code == 201
    assert post().status_code == 201  # within the hours: the first answer again
    SubmissionReceipt.objects.update(created_at=timezone.now() - timedelta(hours=25))
    assert services.receipts_expire() == 1
    late = post()
    assert late.status_code == 409
    assert late.json()["code"] == "turn_number_mismatch"
    assert Turn.objects.filter(match_id=match["id"]).count() == 1
    assert Match.objects.get(pk=match["id"]).turns_played == 1


@pytest.mark.django_db
def test_a_whole_result_retried_after_its_receipt_expired_is_refused(
    players, seat_match, as_organizer
):
    match = seat_match("yardkle", players[:2])
    game = Match.objects.get(pk=match["id"]).scoring_game()
    turns = simulate.play_game(game, seed=3)

    def post() -> Any:
        return as_organizer.post(
            f"/api/v1/matches/{match['id']}/result/",
            {"turns": turns},
            format="json",
            HTTP_IDEMPOTENCY_KEY="whole-game",
        )

    assert post().status_code == 201
    SubmissionReceipt.objects.update(created_at=timezone.now() - timedelta(hours=25))
    assert services.receipts_expire() == 1
    late = post()
    assert late.status_code == 409
    assert late.json()["code"] == "match_closed"
    assert Turn.objects.filter(match_id=match["id"]).count() == len(turns)
