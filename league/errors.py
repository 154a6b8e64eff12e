"""Every error of the league, one constructor shape (`code`, `message`, keyword `details`, from
`scoring.errors.DomainError`): its own two, and the pure packages' families, so that callers
find them in one place."""

from league.draw.errors import DrawError
from league.standings.errors import StandingsError
from scoring.errors import DomainError


class LeagueError(DomainError):
    """A request that contradicts the league's set-up; `code` names it (HTTP 400)."""


class LeagueForbidden(LeagueError):
    """The caller may not do this to what other leagues' organizers keep, e.g. put a player of
    theirs on this league's roster (HTTP 403, code `permission_denied`)."""


class StageConflict(LeagueError):
    """The stage cannot do this in its current state (HTTP 409)."""


class EventConflict(LeagueError):
    """The event cannot do this in its current state (HTTP 409)."""


class RoundNotFound(LeagueError):
    """The stage has no such round (no tables in it yet): HTTP 404."""


class LeagueConflict(LeagueError):
    """The league cannot do this in its current state, e.g. take an imported event once it has
    events of its own (HTTP 409)."""


class InvitationGone(LeagueError):
    """An organizer's invitation that no longer opens: accepted already, revoked (or replaced
    by a newer one), or expired; its `code` says which (HTTP 410)."""


class ImportRefused(LeagueError):
    """An event export that reads well but cannot be played again here: its results do not
    follow from its turns and draws (HTTP 422)."""


__all__ = [
    "DrawError",
    "EventConflict",
    "ImportRefused",
    "InvitationGone",
    "LeagueConflict",
    "LeagueError",
    "LeagueForbidden",
    "StageConflict",
    "StandingsError",
]
