"""What becomes a webhook delivery: a match finishing (`games.signals`), a match won by a player
the ratings gave under 20% before it (`match.upset`), a stage or event
finishing, a standings table changing, a registration made or decided, an event's check-in
opening and a stage match seated (`league.signals`). Each is published once its
transaction has committed, from the rows as they then stand; a league with no endpoint that
hears of it costs one query."""

from collections.abc import Callable
from functools import partial
from typing import Any

from django.db import transaction
from django.dispatch import receiver

from games.models import Match, Seat
from games.signals import match_finished
from league import rating, selectors
from league import signals as league_signals
from league.models import Event, Registration, Stage, StageMatch, StandingsTable
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
    transaction.on_commit(partial(_upset, match.pk), robust=True)


# A finished match won by a player given less than this before it is an upset.
UPSET_BELOW = 0.2


def _upset(match_id: int) -> None:
    """Publish `match.upset` when a winner of the finished match had been given under
    `UPSET_BELOW` by the ratings before it (`league.rating.win_chances`). Read only when some
    endpoint of its league hears of upsets (`services.event_publish` calls the payload then)."""

    def payload() -> dict[str, Any] | None:
        before = selectors.pre_match_ratings(match_id)
        if before is None:
            return None
        players, ratings = before
        chances = rating.win_chances(ratings)
        winners = set(
            Seat.objects.filter(match_id=match_id, placement=1).values_list("player_id", flat=True)
        )
        upsets = [
            (p, c)
            for p, c in zip(players, chances, strict=True)
            if p in winners and c < UPSET_BELOW
        ]
        if not upsets:
            return None
        player, chance = min(upsets, key=lambda found: found[1])
        return payloads.match_upset(match_id, player, chance)

    services.event_publish(
        league_id=payloads.league_of_match(match_id), event=EventType.MATCH_UPSET, data=payload
    )


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


# A registration's change, as its webhook event (`league.signals.REGISTRATION_CHANGES`).
REGISTRATION_EVENTS = {
    "received": EventType.REGISTRATION_RECEIVED,
    "approved": EventType.REGISTRATION_APPROVED,
    "refused": EventType.REGISTRATION_REFUSED,
    "moved_up": EventType.REGISTRATION_MOVED_UP,
}


@receiver(
    league_signals.registration_changed,
    sender=Registration,
    dispatch_uid="webhooks.registration_changed",
)
def registration_changed_published(
    sender: type[Registration], registration_id: int, change: str, **kwargs: Any
) -> None:
    services.event_publish(
        league_id=payloads.league_of_registration(registration_id),
        event=REGISTRATION_EVENTS[change],
        data=partial(payloads.registration_changed, registration_id),
    )


@receiver(league_signals.check_in_opened, sender=Event, dispatch_uid="webhooks.check_in_opened")
def check_in_opened_published(
    sender: type[Event], event_id: int, opened_at: Any, **kwargs: Any
) -> None:
    services.event_publish(
        league_id=payloads.league_of_event(event_id),
        event=EventType.CHECK_IN_OPENED,
        data=partial(payloads.check_in_opened, event_id, opened_at),
    )


@receiver(league_signals.match_ready, sender=StageMatch, dispatch_uid="webhooks.match_ready")
def match_ready_published(sender: type[StageMatch], match_id: int, **kwargs: Any) -> None:
    services.event_publish(
        league_id=payloads.league_of_match(match_id),
        event=EventType.MATCH_READY,
        data=partial(payloads.match_ready, match_id),
    )
