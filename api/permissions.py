"""Who may do what. Reading is open to anyone; writing is for organizers, and keeping score
for one match is also open to whoever presents that match's scoring key."""

from typing import Any

from django.contrib.auth.models import AnonymousUser
from rest_framework import authentication, permissions
from rest_framework.exceptions import PermissionDenied
from rest_framework.request import Request

from games.models import Match
from league.models import Event, League, Stage

SCORE_KEY_HEADER = "X-Score-Key"


def presented_score_key(request: Request) -> str | None:
    key = request.headers.get(SCORE_KEY_HEADER) or request.query_params.get("key")
    return key or None


class ScoreKeyAuthentication(authentication.BaseAuthentication):
    """A scoring key authenticates a request as anonymous-with-a-key; whether it opens a given
    match is the permission's business. So a wrong key answers 403, no credentials 401."""

    def authenticate(self, request: Request) -> tuple[AnonymousUser, str] | None:
        key = presented_score_key(request)
        return (AnonymousUser(), key) if key else None


def holds_score_key(request: Request, match: Match) -> bool:
    return match.opens_with(presented_score_key(request))


class CanKeepScore(permissions.BasePermission):
    message = "Only an organizer of this match's league or a holder of its scoring key may score."

    def has_object_permission(self, request: Request, view: Any, obj: Any) -> bool:
        return holds_score_key(request, obj) or obj.is_organizer(request.user)


class IsMatchOrganizer(permissions.BasePermission):
    message = "Only an organizer of this match's league may do this."

    def has_object_permission(self, request: Request, view: Any, obj: Any) -> bool:
        return bool(obj.is_organizer(request.user))


def require_organizer(organized: League | Match, user: Any, refusal: str) -> None:
    """The 403 `refusal` unless `user` organizes the league (the match's league)."""
    if not organized.is_organizer(user):
        raise PermissionDenied(refusal)


def _league_of(obj: League | Event | Stage) -> League:
    if isinstance(obj, Stage):
        return obj.event.league
    return obj.league if isinstance(obj, Event) else obj


class IsLeagueOrganizerOrReadOnly(permissions.BasePermission):
    """Anyone reads; changing a league, or an event or stage of it, needs one of the league's
    organizers."""

    message = "Only an organizer of this league may change it."

    def has_permission(self, request: Request, view: Any) -> bool:
        if request.method in permissions.SAFE_METHODS:
            return True
        return bool(request.user and request.user.is_authenticated)

    def has_object_permission(self, request: Request, view: Any, obj: Any) -> bool:
        if request.method in permissions.SAFE_METHODS:
            return True
        return _league_of(obj).is_organizer(request.user)


class IsOrganizerOrReadOnly(permissions.BasePermission):
    """Anyone reads; adding players needs staff or an organizer of some league, and changing
    one needs staff or an organizer of a league whose roster they are on."""

    message = "Only organizers of a league this player plays in may change them."

    def has_object_permission(self, request: Request, view: Any, obj: Any) -> bool:
        if request.method in permissions.SAFE_METHODS:
            return True
        return bool(obj.is_changeable_by(request.user))

    def has_permission(self, request: Request, view: Any) -> bool:
        if request.method in permissions.SAFE_METHODS:
            return True
        user = request.user
        if not (user and user.is_authenticated):
            return False
        return bool(user.is_staff) or League.objects.filter(organizers=user).exists()
