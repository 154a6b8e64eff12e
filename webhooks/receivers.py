"""What becomes a webhook delivery: a match finishing (`games.signals`), a stage or event
finishing and a standings table changing (`league.signals`). Each is published once its
transaction has committed, from the rows as they then stand; a league with no endpoint that
hears of it costs one query."""

from collections.abc import Callable
from functools import partial
from typing import Any

from django.db import transaction
from django.dispatch import receiver

from games.models import Match
from games.signals import match_finished
from league import signals as league_signals
from league.models import Event, Stage, StandingsTable
from webhooks import payloads, services
from webhooks.models import EventType


def _finished(
    event: EventType,
    league_of: Callable[[int], int | None],
    payload: Callable[[int], dict[str, Any] | None],
    finished_id: int,
) -> None:
    """Publish that the match, stage or event `finished_id` finished, to its league."""
    services.event_publish(
        league_id=league_of(finished_id), event=event, data=partial(payload, finished_id)
    )


@receiver(match_finished, sender=Match, dispatch_uid="webhooks.match_finished")
def match_finished_published(sender: type[Match], match: Match, **kwargs: Any) -> None:
    # Inside the turn's transaction: published once it commits (and the answer goes out
    # without waiting for any endpoint: the deliveries are jobs).
    publish = (EventType.MATCH_FINISHED, payloads.league_of_match, payloads.match_finished)
    transaction.on_commit(partial(_finished, *publish, match.pk), robust=True)


@receiver(league_signals.stage_finished, sender=Stage, dispatch_uid="webhooks.stage_finished")
def stage_finished_published(sender: type[Stage], stage_id: int, **kwargs: Any) -> None:
    _finished(EventType.STAGE_FINISHED, payloads.league_of_stage, payloads.stage_finished, stage_id)


@receiver(league_signals.event_finished, sender=Event, dispatch_uid="webhooks.event_finished")
def event_finished_published(sender: type[Event], event_id: int, **kwargs: Any) -> None:
    _finished(EventType.EVENT_FINISHED, payloads.league_of_event, payloads.event_finished, event_id)


@receiver(
    league_signals.standings_changed,
    sender=StandingsTable,
    dispatch_uid="webhooks.standings_changed",
)
def standings_changed_published(
    sender: type[StandingsTable],
    league_id: int,
    scope: str,
    scope_id: int,
    version: int,
    **kwargs: Any,
) -> None:
    services.event_publish(
        league_id=league_id,
        event=EventType.STANDINGS_CHANGED,
        data=partial(payloads.standings_changed, scope, scope_id, version),
    )
