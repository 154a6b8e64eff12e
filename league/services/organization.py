"""Writes of the organization: leagues, events (and their status), players and rosters, and
seating a match."""

import unicodedata
from collections.abc import Iterable, Sequence
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction

import scoring
from games import services as game_services
from games.errors import EventClosed
from games.models import Match, MatchStatus
from league import standings
from league.errors import EventConflict, LeagueError
from league.models import Event, EventStatus, League, Player, Stage, StageStatus
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


# --- An event's status ------------------------------------------------------------------------
# It follows play (docs/api.md, "An event's status"): upcoming until a match of it starts,
# running while it is played, finished once its last stage finishes; its organizers close it
# (finished or cancelled) and reopen it. A closed event takes no more matches, stages or turns
# (`games.services.ensure_event_open`).

CLOSED_STATUSES = (EventStatus.FINISHED, EventStatus.CANCELLED)
OPEN_MATCH_STATUSES = (MatchStatus.SCHEDULED, MatchStatus.IN_PROGRESS)


def event_play_started(*, event: Event) -> None:
    """A match of `event` took its first turn: an upcoming event is now running. Called on
    every match's first turn, so it costs nothing once the event runs (`event` is the one
    read with the locked match), and one UPDATE the first time."""
    if event.status != EventStatus.UPCOMING:
        return
    Event.objects.filter(pk=event.pk, status=EventStatus.UPCOMING).update(
        status=EventStatus.RUNNING
    )
    event.status = EventStatus.RUNNING


def event_play_over(*, event_id: int) -> bool:
    """Finish an event whose play is over: it has stages, every one of them has finished, and
    no match of it (in a stage or not) is still to be played or being played. Called when a
    stage finishes and when a match of the event finishes; True when the event finished now.
    An event without stages (casual tables only) is finished by its organizers (`event_close`)."""
    stages = set(Stage.objects.filter(event_id=event_id).values_list("status", flat=True))
    if stages != {StageStatus.FINISHED}:
        return False
    if Match.objects.filter(event_id=event_id, status__in=OPEN_MATCH_STATUSES).exists():
        return False
    return bool(
        Event.objects.filter(
            pk=event_id, status__in=(EventStatus.UPCOMING, EventStatus.RUNNING)
        ).update(status=EventStatus.FINISHED)
    )


@transaction.atomic
def event_close(*, event_id: int, status: str = EventStatus.FINISHED) -> Event:
    """Close an event: `finished` (its play is over) or `cancelled` (it did not take place). It
    then takes no more matches, stages, turns, undos or voids (409 `event_closed`) until it is
    reopened. Refused while a match of it is being played (409 `matches_in_progress`, naming
    them): finish or void those first. Matches not started stay unplayed. Closing an event
    again as it already is changes nothing; finished <-> cancelled goes through a reopen
    (`event_closed`)."""
    if status not in CLOSED_STATUSES:
        raise LeagueError(
            "invalid_option",
            f"An event is closed as finished or cancelled, not {status!r}.",
            details={"field": "status", "choices": list(CLOSED_STATUSES)},
        )
    # The event's open matches first, then the event, in the order a first turn takes them (its
    # match, then the event): no deadlock, and a turn being stored now is waited for and seen.
    open_matches = list(
        Match.objects.select_for_update()
        .filter(event_id=event_id, status__in=OPEN_MATCH_STATUSES)
        .order_by("pk")
        .values_list("pk", "status")
    )
    event = Event.objects.select_for_update().get(pk=event_id)
    if event.status == status:
        return event
    if event.is_closed:
        raise EventClosed(
            f"Event {event.pk} is {event.get_status_display().lower()}; reopen it before "
            f"closing it as {status}.",
            details={"event": event.pk, "status": event.status},
        )
    in_progress = [
        pk for pk, match_status in open_matches if match_status == MatchStatus.IN_PROGRESS
    ]
    if in_progress:
        raise EventConflict(
            "matches_in_progress",
            f"Event {event.pk} still has matches being played ({', '.join(map(str, in_progress))}):"
            " finish or void them before closing it.",
            details={"event": event.pk, "matches": in_progress},
        )
    event.status = status
    event.save(update_fields=["status"])
    return event


@transaction.atomic
def event_reopen(*, event_id: int) -> Event:
    """Reopen a finished or cancelled event (closed by mistake, finished before a result was
    corrected, a cancelled night played after all): it takes matches, stages and turns again.
    It is running when a match of it has started, upcoming otherwise. An open event is left
    as it is."""
    event = Event.objects.select_for_update().get(pk=event_id)
    if not event.is_closed:
        return event
    played = Match.objects.filter(event=event, started_at__isnull=False).exists()
    event.status = EventStatus.RUNNING if played else EventStatus.UPCOMING
    event.save(update_fields=["status"])
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
