"""Celery jobs of the organization: thin, ids in, call a service, safe to run twice."""

import logging
from functools import partial
from typing import Any

from celery import shared_task
from celery.app.task import Task
from django.db import transaction

from league.services import standings as services

logger = logging.getLogger(__name__)

# A refresh waits this long after its trigger, so a burst of results is computed once.
COALESCE_SECONDS = 1.0


def enqueue_on_commit(task: Task[Any, Any], *args: Any) -> None:
    """Send `task` once the current transaction commits. A broker that cannot be reached is
    logged, never raised: the change is already committed and marked stale, and the beat
    sweep refreshes it once the broker is back."""
    transaction.on_commit(partial(_send, task, args), robust=True)


def _send(task: Task[Any, Any], args: tuple[Any, ...]) -> None:
    try:
        task.apply_async(args=args, countdown=COALESCE_SECONDS)
    except Exception:
        logger.warning("Could not enqueue %s%r; the sweep will pick it up.", task.name, args)


@shared_task(name="league.standings_refresh", acks_late=True)
def standings_refresh(table_id: int) -> bool:
    return services.standings_refresh(table_id=table_id)


@shared_task(name="league.ratings_refresh", acks_late=True)
def ratings_refresh(league_id: int) -> bool:
    return services.ratings_refresh(league_id=league_id)


@shared_task(name="league.standings_sweep", acks_late=True)
def standings_sweep() -> dict[str, int]:
    return services.standings_sweep()
