"""The one way the apps enqueue background jobs: by the task's registered name, once the
current transaction commits. Callers never import the tasks modules (which import the
services), so imports stay one-way: tasks -> services. Used by `league.services.jobs` (the
standings and ratings jobs) and `analysis.services` (a match's analysis)."""

import logging
from functools import partial
from typing import Any

from celery import current_app
from django.db import transaction

logger = logging.getLogger(__name__)

# A job waits this long after its trigger, so a burst of triggers is computed once (and a
# finish undone at once is never analysed).
COALESCE_SECONDS = 1.0


def enqueue_on_commit(task_name: str, *args: Any) -> None:
    """Send the task named `task_name` once the current transaction commits. A broker that
    cannot be reached is logged, never raised: the change is already committed (and marked
    stale where that applies), and a beat sweep catches up once the broker is back."""
    transaction.on_commit(partial(send, task_name, args), robust=True)


def send(task: str, args: tuple[Any, ...]) -> None:
    """Send the task now (a sweep's re-send); logged, never raised, when it cannot be."""
    try:
        # Looked up by name among the registered tasks, so an eager app runs it in-process.
        current_app.tasks[task].apply_async(args=args, countdown=COALESCE_SECONDS)
    except Exception:
        logger.warning(
            "Could not enqueue %s%r; the sweep will pick it up.", task, args, exc_info=True
        )
