"""Celery jobs of the webhooks: thin, ids in, call a service, safe to run twice. Services
enqueue them by name (`webhooks.services.DELIVER`), never by importing this module."""

from typing import Any

from celery import shared_task

from webhooks import services


@shared_task(name=services.DELIVER, bind=True, acks_late=True)
def deliver(self: Any, delivery_id: int) -> None:
    retry_in = services.delivery_attempt(delivery_id=delivery_id)
    # A failed attempt is tried again after its backoff by this job on a worker. Run in-process
    # (no broker) it is left to the sweep: a web request never waits out a backoff.
    if retry_in is not None and not self.request.is_eager:
        raise self.retry(countdown=retry_in, max_retries=None)


@shared_task(name="webhooks.sweep", acks_late=True)
def sweep() -> int:
    return services.deliveries_sweep()


@shared_task(name="webhooks.prune", acks_late=True)
def prune() -> int:
    return services.deliveries_prune()
