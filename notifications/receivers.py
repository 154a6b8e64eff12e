"""What becomes a notification: a registration made or decided, an event's check-in opening,
a stage match seated (`league.signals`, each sent once its transaction committed). The tables
starting soon are found by the sweep (`services.tables_soon`), not by a signal."""

from datetime import datetime
from typing import Any

from django.dispatch import receiver

from league import signals as league_signals
from league.models import Event, Registration, StageMatch
from notifications import services


@receiver(
    league_signals.registration_changed,
    sender=Registration,
    dispatch_uid="notifications.registration_changed",
)
def registration_changed_notified(
    sender: type[Registration], registration_id: int, change: str, **kwargs: Any
) -> None:
    services.registration_news(registration_id=registration_id, change=change)


@receiver(
    league_signals.check_in_opened, sender=Event, dispatch_uid="notifications.check_in_opened"
)
def check_in_opened_notified(
    sender: type[Event], event_id: int, opened_at: datetime, **kwargs: Any
) -> None:
    services.check_in_news(event_id=event_id, opened_at=opened_at)


@receiver(league_signals.match_ready, sender=StageMatch, dispatch_uid="notifications.match_ready")
def match_ready_notified(sender: type[StageMatch], match_id: int, **kwargs: Any) -> None:
    services.match_news(match_id=match_id)
