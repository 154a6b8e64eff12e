"""Celery jobs of the notifications: thin, ids in, call a service, safe to run twice. Services
enqueue them by name (`notifications.services.SEND`), never by importing this module."""

from typing import Any

from celery import shared_task

from notifications import services


@shared_task(name=services.SEND, bind=True, acks_late=True)
def send(self: Any, notification_id: int) -> None:
    retry_in = services.notification_send(notification_id=notification_id)
    # A mail server that failed is tried again after a backoff by this job on a worker. Run
    # in-process (no broker) it is left to the sweep: a web request never waits out a backoff.
    if retry_in is not None and not self.request.is_eager:
        raise self.retry(countdown=retry_in, max_retries=None)


@shared_task(name="notifications.sweep", acks_late=True)
def sweep() -> dict[str, int]:
    return services.notifications_sweep()
