"""The home page's leagues with their upcoming and recent events (league.pages.home), built
from plain reads without a database."""

from datetime import date, timedelta

from league.models import EventStatus
from league.pages.home import RECENT_SHOWN, UPCOMING_SHOWN, home_league
from league.selectors import EventLine, LeagueEvents

TODAY = date(2026, 5, 2)


def _event(event_id: int, days: int, status: str = EventStatus.UPCOMING) -> EventLine:
    return EventLine(
        id=event_id,
        name=f"Night {event_id}",
        date=TODAY + timedelta(days=days),
        venue="",
        status=status,
        status_text=EventStatus(status).label,
    )


def _league(*events: EventLine) -> LeagueEvents:
    return LeagueEvents(slug="spring", name="Spring", game_text="Yardzee", events=events)


def test_running_events_come_first_then_the_next_by_date_and_cancelled_ones_nowhere() -> None:
    shown = home_league(
        _league(
            _event(1, 9),
            _event(2, 0),
            _event(3, -1, EventStatus.RUNNING),
            _event(4, 3, EventStatus.CANCELLED),
            _event(5, 2),
        ),
        today=TODAY,
    )
    assert [e.id for e in shown.upcoming] == [3, 2, 5]
    assert shown.recent == ()


def test_an_event_past_its_day_or_finished_is_recent_newest_first_as_read() -> None:
    shown = home_league(
        _league(_event(1, -1), _event(2, -3, EventStatus.FINISHED), _event(3, 1)), today=TODAY
    )
    assert [e.id for e in shown.upcoming] == [3]
    assert [e.id for e in shown.recent] == [1, 2]


def test_only_the_first_few_of_each_are_shown() -> None:
    events = [_event(n, n) for n in range(1, 9)] + [_event(n, -n) for n in range(10, 20)]
    shown = home_league(_league(*events), today=TODAY)
    assert len(shown.upcoming) == UPCOMING_SHOWN
    assert len(shown.recent) == RECENT_SHOWN
    assert shown.league.name == "Spring"
