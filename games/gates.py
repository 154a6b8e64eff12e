"""What games asks of the app that owns a match's context: whether the match's event is closed,
and whether a user organizes the match. `league` registers its answers from its `ready()`, as
it registers its receivers, so games keeps the ids of a match's event and league and never
reads their rows (docs/architecture.md, "games and league").

Without a registration (games on its own), no event is ever closed and only staff and whoever
seated a match organize it."""

from collections.abc import Callable
from typing import Any

# event id -> the status that closes it ("finished", "cancelled"), or "" while it is open
EventClosedAs = Callable[[int], str]
# (user, event id, league id) -> whether the user organizes that event's (or league's) matches
Organizes = Callable[[Any, int | None, int | None], bool]


def _never_closed(event_id: int) -> str:
    return ""


def _nobody(user: Any, event_id: int | None, league_id: int | None) -> bool:
    return False


class _Answers:
    event_closed_as: EventClosedAs = staticmethod(_never_closed)
    organizes: Organizes = staticmethod(_nobody)


def register(*, event_closed_as: EventClosedAs, organizes: Organizes) -> None:
    """Answer games' two questions (called once, by `league.apps`)."""
    _Answers.event_closed_as = staticmethod(event_closed_as)
    _Answers.organizes = staticmethod(organizes)


def event_closed_as(event_id: int | None) -> str:
    """The status that closes the event `event_id` ("" when open, or when there is none).
    Read fresh each time: a write that waited for its match's lock sees a close that
    committed meanwhile."""
    return "" if event_id is None else _Answers.event_closed_as(event_id)


def organizes(user: Any, *, event_id: int | None, league_id: int | None) -> bool:
    """Whether `user` organizes the matches of the event `event_id` (or of the league
    `league_id`, for a casual match)."""
    return _Answers.organizes(user, event_id, league_id)
