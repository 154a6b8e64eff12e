"""What games asks of the app that owns a match's context: whether the match's event is
closed, whether a user organizes the match, and what an organizer's write of a match locks
first. `league` registers its answers from its `ready()`, as it registers its receivers, so
games keeps the ids of a match's event and league and never reads their rows
(docs/architecture.md, "games and league").

Without a registration (games on its own), no event is ever closed and only staff and whoever
seated a match organize it."""

from collections.abc import Callable
from typing import Any

# event id -> the status that closes it ("finished", "cancelled"), or "" while it is open
EventClosedAs = Callable[[int], str]
# (user, event id, league id) -> whether the user organizes that event's (or league's) matches
Organizes = Callable[[Any, int | None, int | None], bool]
# match id -> nothing; takes what an organizer's write of the match takes before the match
LockFirst = Callable[[int], None]


def _never_closed(event_id: int) -> str:
    return ""


def _nobody(user: Any, event_id: int | None, league_id: int | None) -> bool:
    return False


def _nothing(match_id: int) -> None:
    return None


class _Answers:
    event_closed_as: EventClosedAs = staticmethod(_never_closed)
    organizes: Organizes = staticmethod(_nobody)
    before_organizer_write: LockFirst = staticmethod(_nothing)


def register(
    *, event_closed_as: EventClosedAs, organizes: Organizes, before_organizer_write: LockFirst
) -> None:
    """Answer games' questions (called once, by `league.apps`)."""
    _Answers.event_closed_as = staticmethod(event_closed_as)
    _Answers.organizes = staticmethod(organizes)
    _Answers.before_organizer_write = staticmethod(before_organizer_write)


def event_closed_as(event_id: int | None) -> str:
    """The status that closes the event `event_id` ("" when open, or when there is none).
    Read fresh each time: a write that waited for its match's lock sees a close that
    committed meanwhile."""
    return "" if event_id is None else _Answers.event_closed_as(event_id)


def organizes(user: Any, *, event_id: int | None, league_id: int | None) -> bool:
    """Whether `user` organizes the matches of the event `event_id` (or of the league
    `league_id`, for a casual match)."""
    return _Answers.organizes(user, event_id, league_id)


def before_organizer_write(match_id: int) -> None:
    """Take what an organizer's write of the match takes before the match's own lock (the
    league locks the match's event: `league.services.locks`), so that two organizers' writes
    of one event run one after the other. A void, an unvoid, an undo and a correction call it
    first; play (a turn, a whole result, a take-back) does not."""
    _Answers.before_organizer_write(match_id)
