"""Jobs that bring something up to date are sent once while one is waiting
(`core.jobs.enqueue_once_on_commit`, issue 41): a burst of triggers costs one job, the job
clears its mark as it starts (`job_started`), and a trigger after that sends the next one. On
the memory cache (the tests' own) and on Redis (one `SET NX` a trigger)."""

import socket
from collections.abc import Iterator

import pytest
from celery import current_app
from django.test import override_settings

from core import jobs
from league.services import jobs as league_jobs
from tests.caches import redis_cache

TASK = "analysis.forecast_match"


@pytest.fixture(params=["memory", "redis"])
def cache_kind(request: pytest.FixtureRequest) -> Iterator[str]:
    if request.param == "memory":
        yield request.param
        return
    with redis_cache("jobs-once-test", "the Redis cache"):
        yield request.param


@pytest.fixture
def sent(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, tuple[object, ...]]]:
    """What `core.jobs.send` was asked to send (nothing reaches a broker)."""
    record: list[tuple[str, tuple[object, ...]]] = []

    def send(task: str, args: tuple[object, ...]) -> bool:
        record.append((task, args))
        return True

    monkeypatch.setattr(jobs, "send", send)
    return record


def _trigger(capture, *args: object) -> None:
    with capture(execute=True):
        jobs.enqueue_once_on_commit(TASK, *args)


@pytest.mark.django_db
def test_a_burst_of_triggers_sends_one_job_until_it_starts(
    cache_kind, sent, django_capture_on_commit_callbacks
):
    for _ in range(5):
        _trigger(django_capture_on_commit_callbacks, 7)
    assert sent == [(TASK, (7,))]
    _trigger(django_capture_on_commit_callbacks, 8)  # other arguments: a job of their own
    assert sent == [(TASK, (7,)), (TASK, (8,))]
    jobs.job_started(TASK, 7)
    _trigger(django_capture_on_commit_callbacks, 7)
    _trigger(django_capture_on_commit_callbacks, 8)
    assert sent == [(TASK, (7,)), (TASK, (8,)), (TASK, (7,))]


@pytest.mark.django_db
def test_nothing_is_sent_for_a_transaction_rolled_back(sent, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=False):
        jobs.enqueue_once_on_commit(TASK, 7)
    _trigger(django_capture_on_commit_callbacks, 7)  # no mark was left by the first
    assert sent == [(TASK, (7,))]


@pytest.mark.django_db
def test_a_job_that_could_not_be_sent_leaves_no_mark(
    cache_kind, monkeypatch, django_capture_on_commit_callbacks
):
    tries: list[tuple[object, ...]] = []

    def send(task: str, args: tuple[object, ...]) -> bool:
        tries.append(args)
        return False  # the broker could not be reached

    monkeypatch.setattr(jobs, "send", send)
    _trigger(django_capture_on_commit_callbacks, 7)
    _trigger(django_capture_on_commit_callbacks, 7)
    assert tries == [(7,), (7,)]


def _unreachable_redis() -> dict[str, dict[str, str]]:
    """A Redis cache at a port where nothing listens (Redis down)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        closed = sock.getsockname()[1]
    return {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": f"redis://127.0.0.1:{closed}/0",
        }
    }


@pytest.mark.django_db
def test_with_the_cache_unreachable_every_trigger_sends(sent, django_capture_on_commit_callbacks):
    with override_settings(CACHES=_unreachable_redis()):
        _trigger(django_capture_on_commit_callbacks, 7)
        _trigger(django_capture_on_commit_callbacks, 7)
        jobs.job_started(TASK, 7)  # logged, not raised
    assert sent == [(TASK, (7,)), (TASK, (7,))]


@pytest.mark.django_db
def test_with_redis_down_a_trigger_neither_raises_nor_sends(
    monkeypatch, django_capture_on_commit_callbacks
):
    # Redis is both the cache and the broker: the mark cannot be set, the job cannot be sent,
    # and the mark cannot be cleared either. The change has committed; its answer must not be
    # an error (the system test of a Redis outage saw turns answered 500 here).
    tries: list[tuple[object, ...]] = []

    def send(task: str, args: tuple[object, ...]) -> bool:
        tries.append(args)
        return False

    monkeypatch.setattr(jobs, "send", send)
    with override_settings(CACHES=_unreachable_redis()):
        _trigger(django_capture_on_commit_callbacks, 7)
    assert tries == [(7,)]


def test_a_league_projection_waits_half_a_minute_the_others_a_second(monkeypatch):
    """The countdown each job is sent with (`core.jobs.waits`): Celery's own `apply_async`
    is the boundary here (the tests run the tasks eagerly, where a countdown is not kept)."""
    countdowns: dict[str, float] = {}
    for name in (league_jobs.LEAGUE_PROJECTION, league_jobs.STANDINGS_REFRESH, TASK):
        task = current_app.tasks[name]

        def record(*, args, countdown, name=name):
            countdowns[name] = countdown

        monkeypatch.setattr(task, "apply_async", record)
        assert jobs.send(name, (1,))
    assert countdowns == {
        league_jobs.LEAGUE_PROJECTION: 30.0,
        league_jobs.STANDINGS_REFRESH: jobs.COALESCE_SECONDS,
        TASK: jobs.COALESCE_SECONDS,
    }
    with pytest.raises(ValueError, match="wait"):
        jobs.wait_longer(TASK, jobs.PENDING_SECONDS)  # the mark would expire first
