"""The one way services enqueue background jobs: by the task's registered name, once the
current transaction commits. Services never import `league.tasks` (which imports them), so the
two stay one-way: tasks -> services."""

import logging
from functools import partial
from typing import Any

from celery import current_app
from django.db import transaction

logger = logging.getLogger(__name__)

# A refresh waits this long after its trigger, so a burst of results is computed once.
COALESCE_SECONDS = 1.0

STANDINGS_REFRESH = "league.standings_refresh"
RATINGS_REFRESH = "league.ratings_refresh"


def enqueue_on_commit(task_name: str, *args: Any) -> None:
    """Send the task named `task_name` once the current transaction commits. A broker that
    cannot be reached is logged, never raised: the change is already committed and marked
    stale, and the beat sweep refreshes it once the broker is back."""
    transaction.on_commit(partial(_send, task_name, args), robust=True)


def _send(task: str, args: tuple[Any, ...]) -> None:
    try:
        # Looked up by name among the registered tasks, so an eager app runs it in-process.
        current_app.tasks[task].apply_async(args=args, countdown=COALESCE_SECONDS)
    except Exception:
        logger.warning(
            "Could not enqueue %s%r; the sweep will pick it up.", task, args, exc_info=True
        )
