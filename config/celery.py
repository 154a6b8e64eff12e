"""The one Celery app. Configured from Django settings (the CELERY_ names); tasks live in each
app's `tasks.py` and are discovered. With no broker configured, tasks run eagerly in-process."""

import os
from typing import Any

from celery import Celery
from celery.contrib.django.task import DjangoTask
from celery.signals import worker_process_init
from django.conf import settings

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.dev")

# DjangoTask adds delay_on_commit(): enqueue only once the surrounding transaction commits.
app: Celery[DjangoTask[Any, Any]] = Celery("yardleague", task_cls=DjangoTask)
app.config_from_object("django.conf:settings", namespace="CELERY")
app.conf.update(broker_url=settings.CELERY_BROKER_TRANSPORT_URL)
app.autodiscover_tasks()


@app.task(name="yardleague.ping", ignore_result=False)
def ping(token: str = "") -> str:
    """Round-trip check for a worker: returns what it was given, prefixed with 'pong'."""
    return f"pong {token}".strip()


@worker_process_init.connect
def _warm_job_worker(**_: Any) -> None:
    """Each job process, as it starts, loads what the first jobs would (config/workers.py)."""
    from config.workers import warm_job_worker  # imported once Django is set up

    warm_job_worker()
