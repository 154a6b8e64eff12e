"""Writes of the organization: leagues, events, players, and seating a match for an event."""

from collections.abc import Sequence
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction

import scoring
from games import services as game_services
from games.models import Match
from league import standings
from league.models import Event, League, Player
from league.services.standings import league_settings_changed
from scoring import RuleViolation


class LeagueError(Exception):
    """A request that contradicts the league's set-up; `code` names it."""

    def __init__(self, code: str, message: str, *, details: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.details = details or {}


def _validated_standings(game: str, fields: dict[str, Any]) -> None:
    """A tiebreak order and a points scheme the standings can use (StandingsError if not)."""
    if "tiebreak" in fields:
        fields["tiebreak"] = list(standings.validate_tiebreak_order(fields["tiebreak"], game=game))
    if "points" in fields:
        standings.LeaguePoints.from_json(fields["points"])


def _validated_rules(game: str, rules: dict[str, Any]) -> dict[str, Any]:
    """The full ruleset for `game` with `rules` applied (RuleViolation on a bad option)."""
    return scoring.new_game(game, 2, rules).rules.to_json()


def ruleset_for_event(event: Event) -> dict[str, Any]:
    """The full ruleset of an event's matches: the league's defaults, then the event's."""
    return _validated_rules(event.league.game, event.ruleset())


@transaction.atomic
def league_create(
    *,
    name: str,
    slug: str,
    game: str,
    rules: dict[str, Any] | None = None,
    created_by: User,
    **settings: Any,
) -> League:
    """A new league; its creator is its first organizer. `settings`: its standings
    `tiebreak` order and league `points` (docs/standings.md)."""
    _validated_standings(game, settings)
    league = League.objects.create(
        name=name, slug=slug, game=game, rules=_validated_rules(game, rules or {}), **settings
    )
    league.organizers.add(created_by)
    return league


@transaction.atomic
def league_update(*, league: League, **fields: Any) -> League:
    """Change a league. A new tiebreak order or points scheme re-ranks every table of it."""
    if "rules" in fields:
        fields["rules"] = _validated_rules(fields.get("game", league.game), fields["rules"])
    _validated_standings(league.game, fields)
    reranks = any(
        name in fields and fields[name] != getattr(league, name) for name in ("tiebreak", "points")
    )
    for name, value in fields.items():
        setattr(league, name, value)
    league.save()
    if reranks:
        league_settings_changed(league_id=league.pk)
    return league


def event_create(*, league: League, **fields: Any) -> Event:
    event = Event(league=league, **fields)
    _validated_rules(league.game, event.ruleset())
    event.save()
    return event


def event_update(*, event: Event, **fields: Any) -> Event:
    for name, value in fields.items():
        setattr(event, name, value)
    _validated_rules(event.league.game, event.ruleset())
    event.save()
    return event


def match_create(
    *,
    game: str,
    player_ids: Sequence[int],
    rules: dict[str, Any] | None = None,
    event: Event | None = None,
    created_by: User | None = None,
) -> Match:
    """Seat players at a new match. For an event, the game must be the league's and the
    ruleset is the league's defaults, then the event's overrides, then `rules`."""
    if len(set(player_ids)) != len(player_ids):
        raise LeagueError(
            "duplicate_player",
            "A player can take only one seat at a match.",
            details={"players": list(player_ids)},
        )
    known = set(Player.objects.filter(pk__in=player_ids).values_list("pk", flat=True))
    unknown = [pk for pk in player_ids if pk not in known]
    if unknown:
        raise LeagueError(
            "unknown_player", f"No player with id {unknown[0]}.", details={"players": unknown}
        )
    ruleset = dict(rules or {})
    if event is not None:
        game_services.ensure_event_open(event)
        if event.league.game != game:
            raise LeagueError(
                "wrong_game",
                f"{event.league.name} plays {event.league.game}, not {game}.",
                details={"league_game": event.league.game},
            )
        ruleset = {**event.ruleset(), **ruleset}
    if game not in scoring.GAMES:
        raise RuleViolation("unknown_game", f"There is no game {game!r}.")
    return game_services.match_create(
        game=game,
        player_ids=player_ids,
        rules=ruleset,
        event_id=event.pk if event else None,
        created_by=created_by,
    )
