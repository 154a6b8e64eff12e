"""Every write of the organization, one function per use case (see docs/architecture.md).

`organization`: leagues, events, seating matches. `stages`: drawing and advancing stages."""

from league.errors import LeagueError
from league.services.organization import (
    event_close,
    event_create,
    event_reopen,
    event_update,
    league_create,
    league_organizer_add,
    league_organizer_remove,
    league_update,
    match_create,
    player_create,
    player_merge,
    player_update,
    players_create,
    roster_add,
)

__all__ = [
    "LeagueError",
    "event_close",
    "event_create",
    "event_reopen",
    "event_update",
    "league_create",
    "league_organizer_add",
    "league_organizer_remove",
    "league_update",
    "match_create",
    "player_create",
    "player_merge",
    "player_update",
    "players_create",
    "roster_add",
]
