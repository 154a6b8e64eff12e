"""Writes of the organization: leagues, events, players and rosters, and seating a match."""

import unicodedata
from collections.abc import Iterable, Sequence
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction

import scoring
from games import services as game_services
from games.models import Match
from league import standings
from league.errors import LeagueError
from league.models import Event, League, Player
from league.services.standings_marks import league_settings_changed, player_renamed
from scoring import RuleViolation

# --- Names ------------------------------------------------------------------------------------

# Characters no name may hold: control and format characters (bidirectional overrides and
# isolates, zero-width spaces and joiners, soft hyphens, byte order marks), line and paragraph
# separators, surrogates, private-use and unassigned code points. They make two different
# names look alike, or a name reorder the text around it.
_REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})


def clean_name(value: str, *, field: str) -> str:
    """A name as stored: Unicode NFC, every kind of space as one plain space, trimmed. A name
    holding a character of `_REFUSED_CATEGORIES`, or nothing, is refused (`invalid_name`)."""
    text = unicodedata.normalize("NFC", value)
    refused = sorted(
        {f"U+{ord(c):04X}" for c in text if unicodedata.category(c) in _REFUSED_CATEGORIES}
    )
    if refused:
        raise LeagueError(
            "invalid_name",
            f"{field} holds invisible or control characters ({', '.join(refused[:5])}); "
            "names are plain text.",
            details={"field": field, "characters": refused},
        )
    text = " ".join(text.split())
    if not text:
        raise LeagueError("invalid_name", f"{field} must not be blank.", details={"field": field})
    return text


def folded(name: str) -> str:
    """The form in which two names that look alike are equal: compatibility-normalised
    (full-width letters, ligatures) and case-folded."""
    return unicodedata.normalize("NFKC", name).casefold()


def _ensure_name_free(league: League, name: str, *, player_id: int | None = None) -> None:
    """`name_taken` when another player on the league's roster has a name that looks the same."""
    key = folded(name)
    others = league.players.all()
    if player_id is not None:
        others = others.exclude(pk=player_id)
    for other_id, other_name in others.values_list("pk", "display_name"):
        if folded(other_name) == key:
            raise LeagueError(
                "name_taken",
                f"{other_name!r} already plays in {league.name}; two names that look alike "
                "would be confused. Add something to tell them apart.",
                details={"field": "display_name", "player": other_id, "league": league.slug},
            )


def _clean_names(fields: dict[str, Any], *names: str) -> None:
    for name in names:
        if fields.get(name):
            fields[name] = clean_name(fields[name], field=name)


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
    name = clean_name(name, field="name")
    _validated_standings(game, settings)
    league = League.objects.create(
        name=name, slug=slug, game=game, rules=_validated_rules(game, rules or {}), **settings
    )
    league.organizers.add(created_by)
    return league


@transaction.atomic
def league_update(*, league: League, **fields: Any) -> League:
    """Change a league. A new tiebreak order or points scheme re-ranks every table of it."""
    _clean_names(fields, "name")
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
    _clean_names(fields, "name", "venue")
    event = Event(league=league, **fields)
    _validated_rules(league.game, event.ruleset())
    event.save()
    return event


def event_update(*, event: Event, **fields: Any) -> Event:
    _clean_names(fields, "name", "venue")
    for name, value in fields.items():
        setattr(event, name, value)
    _validated_rules(event.league.game, event.ruleset())
    event.save()
    return event


# --- Players and rosters ------------------------------------------------------------------------


@transaction.atomic
def player_create(*, display_name: str, handle: str, league: League | None = None) -> Player:
    """A new player, on `league`'s roster (only staff create players of no league)."""
    name = clean_name(display_name, field="display_name")
    if league is not None:
        _ensure_name_free(league, name)
    player = Player.objects.create(display_name=name, handle=handle)
    if league is not None:
        league.players.add(player)
    return player


@transaction.atomic
def player_update(*, player: Player, **fields: Any) -> Player:
    """Rename a player (or change their handle). The name is checked against every roster
    they are on, and the tables that show it are marked to show the new one."""
    _clean_names(fields, "display_name")
    renamed = "display_name" in fields and fields["display_name"] != player.display_name
    if renamed:
        for league in player.leagues.all():
            _ensure_name_free(league, fields["display_name"], player_id=player.pk)
    for name, value in fields.items():
        setattr(player, name, value)
    player.save()
    if renamed:
        player_renamed(player_id=player.pk)
    return player


@transaction.atomic
def roster_add(*, league: League, player: Player) -> None:
    """Put an existing player on a league's roster (so its matches and stages may seat them).
    Who may do so is the API's rule: an organizer of this league who may already change the
    player (docs/api.md, "Whose data is whose")."""
    if league.players.filter(pk=player.pk).exists():
        return
    _ensure_name_free(league, player.display_name, player_id=player.pk)
    league.players.add(player)


def ensure_on_roster(league: League, player_ids: Iterable[int]) -> None:
    """`player_not_in_league` unless every player is on the league's roster."""
    missing = league.missing_players(player_ids)
    if missing:
        raise LeagueError(
            "player_not_in_league",
            f"Player {missing[0]} is not on the roster of {league.name}: add them to the "
            "league first (POST leagues/{slug}/players/).",
            details={"players": missing, "league": league.slug},
        )


# --- Matches ------------------------------------------------------------------------------------


def match_create(
    *,
    game: str,
    player_ids: Sequence[int],
    rules: dict[str, Any] | None = None,
    event: Event | None = None,
    league: League | None = None,
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
    known = set(Player.objects.filter(pk__in=player_ids).values_list("pk", flat=True))
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
    ruleset = {**league.rules, **(rules or {})}
    if event is not None:
        game_services.ensure_event_open(event)
        ruleset = {**event.ruleset(), **(rules or {})}
    if game not in scoring.GAMES:
        raise RuleViolation("unknown_game", f"There is no game {game!r}.")
    return game_services.match_create(
        game=game,
        player_ids=player_ids,
        rules=ruleset,
        event_id=event.pk if event else None,
        league_id=league.pk,
        created_by=created_by,
    )
