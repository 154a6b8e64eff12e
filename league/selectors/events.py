"""Reads of leagues' events: every league with its events, and an event's matches outside its
stages (the casual tables of a league night) with their versions and counts."""

from dataclasses import dataclass
from datetime import date

from django.db.models import Count, Prefetch, Q, QuerySet, Window

from games.models import OPEN_STATUSES, Match, Seat
from league import models
from league.selectors.matches import MatchResult, MatchVersion, match_result


@dataclass(frozen=True, slots=True)
class EventLine:
    """An event as a line of a list: its name, date, venue and status (`EventStatus`)."""

    id: int
    name: str
    date: date
    venue: str
    status: str
    status_text: str


def _event_line(event: models.Event) -> EventLine:
    return EventLine(
        id=event.pk,
        name=event.name,
        date=event.date,
        venue=event.venue,
        status=event.status,
        status_text=event.get_status_display(),
    )


@dataclass(frozen=True, slots=True)
class LeagueEvents:
    """A league (its slug, name and game) with its events, newest first."""

    slug: str
    name: str
    game_text: str
    events: tuple[EventLine, ...]


def leagues_with_events() -> list[LeagueEvents]:
    """Every league with its events, newest first, in two queries."""
    return [
        LeagueEvents(
            slug=league.slug,
            name=league.name,
            game_text=league.get_game_display(),
            events=tuple(_event_line(event) for event in league.events.all()),
        )
        for league in models.League.objects.prefetch_related("events")
    ]


def league_events(league: models.League) -> list[EventLine]:
    """A league's events, newest first, in one query."""
    return [_event_line(event) for event in league.events.all()]


def _loose_matches(event: models.Event) -> QuerySet[Match]:
    """The event's matches of no stage: neither a stage's match now, nor one a stage replaced
    when it was voided (a forfeit, a replay: `StageVoid`)."""
    return Match.objects.filter(event=event, stage_match__isnull=True, stage_void__isnull=True)


def _latest_loose_matches(event: models.Event) -> QuerySet[Match]:
    """Newest first, read in that order through the index `match_event_newest`."""
    return _loose_matches(event).order_by("-created_at", "-pk")


def event_loose_matches(event: models.Event, *, limit: int) -> list[MatchResult]:
    """An event's latest `limit` matches that belong to no stage (the casual tables of a
    league night), newest first, with their seats and players, in two queries."""
    return [
        match_result(match)
        for match in _latest_loose_matches(event)
        .defer("state", "rules")  # a line of the list shows neither
        .prefetch_related(
            Prefetch("seats", queryset=Seat.objects.select_related("player").order_by("order"))
        )[:limit]
    ]


def event_loose_match_versions(event: models.Event, *, limit: int) -> list[MatchVersion]:
    """The versions of the matches `event_loose_matches` reads: one query, no seats."""
    return [
        MatchVersion(*row)
        for row in _latest_loose_matches(event).values_list(
            "pk", "status", "turns_played", "finished_at", "schedule_sequence"
        )[:limit]
    ]


@dataclass(frozen=True, slots=True)
class MatchCounts:
    """How many matches (`count`), and how many of them are still to be played or being
    played (`open`)."""

    count: int
    open: int


def event_loose_matches_latest(
    event: models.Event, *, limit: int
) -> tuple[MatchCounts, list[MatchVersion]]:
    """`event_loose_match_counts` and `event_loose_match_versions` in one query (the counts
    as window aggregates over the matches the versions are the latest `limit` of): the event
    page's version reads its matches once."""
    open_statuses = OPEN_STATUSES
    rows = list(
        _latest_loose_matches(event)
        .annotate(
            all_count=Window(Count("pk")),
            open_count=Window(Count("pk", filter=Q(status__in=open_statuses))),
        )
        .values_list(
            "pk",
            "status",
            "turns_played",
            "finished_at",
            "schedule_sequence",
            "all_count",
            "open_count",
        )[:limit]
    )
    if not rows:
        return MatchCounts(count=0, open=0), []
    return MatchCounts(count=rows[0][5], open=rows[0][6]), [MatchVersion(*row[:5]) for row in rows]


def event_loose_match_counts(event: models.Event) -> MatchCounts:
    """How many matches outside any stage the event has, and how many of them are open, in
    one query."""
    counts = _loose_matches(event).aggregate(
        count=Count("pk"),
        open=Count("pk", filter=Q(status__in=OPEN_STATUSES)),
    )
    return MatchCounts(count=counts["count"], open=counts["open"])
