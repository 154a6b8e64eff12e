"""Celery: eager after-commit tasks when no broker is configured; a real worker through Redis."""

from collections.abc import Iterator
from typing import Any, cast

import pytest
from celery import Celery, Task
from celery.contrib.testing.worker import start_worker
from django.db import transaction

from config.celery import app as celery_app
from config.celery import ping

recorded: list[str] = []


@celery_app.task(name="tests.record")
def record(value: str) -> None:
    recorded.append(value)


@pytest.fixture
def clean_record() -> Iterator[list[str]]:
    recorded.clear()
    yield recorded
    recorded.clear()


@pytest.mark.django_db(transaction=True)
def test_without_a_broker_a_task_enqueued_in_a_transaction_runs_after_commit(clean_record):
    with transaction.atomic():
        record.delay_on_commit("committed")
        assert clean_record == [], "ran before the commit"
    assert clean_record == ["committed"]


@pytest.mark.django_db(transaction=True)
def test_without_a_broker_a_task_enqueued_in_a_rolled_back_transaction_never_runs(
    clean_record,
):
    class RollbackError(Exception):
        pass

    def enqueue_then_fail() -> None:
        with transaction.atomic():
            record.delay_on_commit("rolled back")
            raise RollbackError

    with pytest.raises(RollbackError):
        enqueue_then_fail()
    assert clean_record == []


@pytest.mark.broker
def test_a_real_worker_receives_a_task_through_the_redis_broker():
    assert celery_app.conf.task_always_eager is False
    assert celery_app.conf.broker_url.startswith("redis://")
    # start_worker's stub wants Celery[Task]; the app's task class is the DjangoTask subclass.
    worker_app = cast("Celery[Task[Any, Any]]", celery_app)
    with start_worker(worker_app, pool="solo", perform_ping_check=False, shutdown_timeout=10):
        result = ping.delay("through redis")
        assert result.get(timeout=20) == "pong through redis"
    assert result.successful()


def test_every_task_has_time_limits_the_worker_enforces():
    """Issue 15: a stuck job is stopped (soft limit inside it, hard limit by the worker)."""
    from config.celery import app

    assert 0 < app.conf.task_soft_time_limit < app.conf.task_time_limit
    assert app.conf.task_time_limit <= 600
