"""A match seated at a league, or at one of its events (`match_create`)."""

from collections.abc import Sequence
from typing import Any

from django.contrib.auth.models import User

import scoring
from games import services as game_services
from games.models import Match
from league import models
from league.errors import LeagueError
from league.services.organization.players import ensure_on_roster
from scoring import RuleViolation
from scoring.json_input import brief, read_rules_object


def match_create(
    *,
    game: str,
    player_ids: Sequence[int],
    rules: dict[str, Any] | None = None,
    event: models.Event | None = None,
    league: models.League | None = None,
    created_by: User | None = None,
) -> Match:
    """Seat players at a new match of a league: at one of its events, or a casual match of the
    league. The players must be on the league's roster, the game must be the league's, and the
    ruleset is the league's defaults, then the event's overrides, then `rules`."""
    if len(set(player_ids)) != len(player_ids):
        raise LeagueError(
            "duplicate_player",
            "A player can take only one seat at a match.",
            details={"players": list(player_ids)},
        )
    known = set(models.Player.objects.filter(pk__in=player_ids).values_list("pk", flat=True))
    unknown = [pk for pk in player_ids if pk not in known]
    if unknown:
        raise LeagueError(
            "unknown_player", f"No player with id {unknown[0]}.", details={"players": unknown}
        )
    if event is not None:
        if league is not None and league.pk != event.league_id:
            raise LeagueError(
                "wrong_league",
                f"Event {event.pk} belongs to {event.league.name}, not {league.name}.",
                details={"league": event.league.slug},
            )
        league = event.league
    if league is None:
        raise LeagueError(
            "league_required",
            "A match belongs to a league: name its event, or the league of a casual match.",
            details={"field": "league"},
        )
    ensure_on_roster(league, player_ids)
    if league.game != game:
        raise LeagueError(
            "wrong_game",
            f"{league.name} plays {league.game}, not {game}.",
            details={"league_game": league.game},
        )
    overrides = {} if rules is None else read_rules_object(rules)
    ruleset = {**league.rules, **overrides}
    if event is not None:
        event.ensure_open()
        ruleset = {**event.ruleset(), **overrides}
    if game not in scoring.GAMES:
        raise RuleViolation("unknown_game", f"There is no game {brief(game)}.")
    return game_services.match_create(
        game=game,
        player_ids=player_ids,
        rules=ruleset,
        event_id=event.pk if event else None,
        league_id=league.pk,
        created_by=created_by,
    )
