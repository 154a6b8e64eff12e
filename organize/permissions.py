"""Who may use an organizer page: the rules the API applies, from the models, in one place.

- A league's pages: its organizers and staff (`League.is_organizer`, as the API's
  `IsLeagueOrganizerOrReadOnly`).
- An event's and a stage's pages: the organizers of its league.
- A match's controls: `Match.is_organizer` (as the API's `IsMatchOrganizer`).
- "My leagues": any signed-in user (a user who organizes nothing sees an empty list and may
  create a league, as `POST leagues/` allows).

A signed-in user without the right gets 403; an anonymous one is sent to sign in."""

from typing import Any

from django.core.exceptions import PermissionDenied

from games.models import Match
from league.models import Event, League


def require_league(user: Any, league: League) -> League:
    if not league.is_organizer(user):
        raise PermissionDenied(f"Only the organizers of {league.name} may do this.")
    return league


def require_event(user: Any, event: Event) -> Event:
    require_league(user, event.league)
    return event


def require_match(user: Any, match: Match) -> Match:
    if not match.is_organizer(user):
        raise PermissionDenied("Only the organizers of this match's league may do this.")
    return match
