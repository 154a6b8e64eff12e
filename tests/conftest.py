"""Shared fixtures.

Task mode: tests run Celery tasks eagerly in-process (as `make run` does) unless marked
`broker`; those talk to the real broker in CELERY_BROKER_URL through a real worker, and are
skipped, with the reason shown, when no broker is configured (CI always configures one)."""

from collections.abc import Iterator

import pytest
from django.conf import settings

from config.celery import app as celery_app


@pytest.fixture(autouse=True)
def _task_mode(request: pytest.FixtureRequest) -> Iterator[None]:
    uses_broker = request.node.get_closest_marker("broker") is not None
    if uses_broker and not settings.CELERY_BROKER_URL:
        pytest.skip("needs CELERY_BROKER_URL (a real Redis broker); CI sets it")
    previous = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = not uses_broker
    yield
    celery_app.conf.task_always_eager = previous
