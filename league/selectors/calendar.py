"""The matches of a calendar feed: an event's or a player's, with a planned start."""

from django.db.models import Prefetch

from games.models import Match, Seat
from league import models

# The most matches a calendar feed lists (the latest planned ones).
CALENDAR_MATCHES = 500


def calendar_matches(
    *, event: models.Event | None = None, player: models.Player | None = None
) -> list[Match]:
    """The matches with a planned start of an event, or of a player (in any league), for their
    calendar feed: the latest `CALENDAR_MATCHES` planned, in order of their start, each with
    its event, stage slot and stage, and its seats with their players. Two queries."""
    found = Match.objects.filter(planned_at__isnull=False)
    if event is not None:
        found = found.filter(event=event)
    if player is not None:
        found = found.filter(seats__player=player)
    latest = list(
        found.select_related("event", "stage_match__stage")
        .defer("state", "rules", "score_key")
        .prefetch_related(
            Prefetch("seats", queryset=Seat.objects.select_related("player").order_by("order"))
        )
        .order_by("-planned_at", "-pk")[:CALENDAR_MATCHES]
    )
    return latest[::-1]
