"""The home page's leagues, each with its next and latest events, built from what the selectors
read (`LeagueEvents`), with no database, into frozen values that `league/home.html` reads."""

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date

from league.models import EventStatus
from league.selectors import EventLine, LeagueEvents

UPCOMING_SHOWN = 3
RECENT_SHOWN = 5


@dataclass(frozen=True, slots=True)
class HomeLeague:
    """A league with its upcoming events (running ones first, then by date) and its recent
    ones (newest first); cancelled events are in neither."""

    league: LeagueEvents
    upcoming: tuple[EventLine, ...]
    recent: tuple[EventLine, ...]


def home_league(league: LeagueEvents, *, today: date) -> HomeLeague:
    """An event is upcoming while it runs, or until its day if it has not started; else it is
    recent."""
    upcoming: list[EventLine] = []
    recent: list[EventLine] = []
    for event in league.events:
        if event.status == EventStatus.CANCELLED:
            continue
        ahead = event.status == EventStatus.RUNNING or (
            event.status == EventStatus.UPCOMING and event.date >= today
        )
        (upcoming if ahead else recent).append(event)
    upcoming.sort(key=lambda e: (e.status != EventStatus.RUNNING, e.date, e.id))
    return HomeLeague(
        league=league,
        upcoming=tuple(upcoming[:UPCOMING_SHOWN]),
        recent=tuple(recent[:RECENT_SHOWN]),
    )


def home_leagues(leagues: Iterable[LeagueEvents], *, today: date) -> tuple[HomeLeague, ...]:
    return tuple(home_league(league, today=today) for league in leagues)
