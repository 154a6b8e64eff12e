"""Celery jobs of the games app: thin, call a service, safe to run twice."""

from celery import shared_task

from games import services


@shared_task(name="games.receipts_expire", acks_late=True)
def receipts_expire() -> int:
    """Run hourly by Celery beat (CELERY_BEAT_SCHEDULE["receipts-expire"])."""
    return services.receipts_expire()
