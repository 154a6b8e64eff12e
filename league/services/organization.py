"""Writes of the organization: leagues, events (and their status), players and rosters, and
seating a match."""

import unicodedata
from collections.abc import Callable, Collection, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.core.validators import validate_slug
from django.db import IntegrityError, connection, transaction
from django.db.models import Model, Q, QuerySet
from django.db.models.functions import Lower
from django.utils.text import slugify

import scoring
from games import services as game_services
from games.models import Match, MatchStatus, Seat, TurnUndo
from league import models, signals, standings
from league.errors import EventConflict, LeagueConflict, LeagueError, LeagueForbidden
from league.services import locks
from league.services.standings_marks import (
    league_settings_changed,
    player_merged,
    player_renamed,
    stages_of_player,
)
from scoring import RuleViolation
from scoring.json_input import brief, read_rules_object

# --- Names ------------------------------------------------------------------------------------

# Characters no name may hold: control and format characters (bidirectional overrides and
# isolates, zero-width spaces and joiners, soft hyphens, byte order marks), line and paragraph
# separators, surrogates, private-use and unassigned code points. They make two different
# names look alike, or a name reorder the text around it.
_REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})


def unshown_characters(text: str) -> list[str]:
    """The code points (`U+XXXX`, sorted) of `text`'s characters of `_REFUSED_CATEGORIES`:
    what no name, nor any other text shown on a page (a webhook's note), may hold."""
    return sorted(
        {f"U+{ord(c):04X}" for c in text if unicodedata.category(c) in _REFUSED_CATEGORIES}
    )


def clean_name(value: str, *, field: str) -> str:
    """A name as stored: Unicode NFC, every kind of space as one plain space, trimmed. A name
    holding a character of `_REFUSED_CATEGORIES`, or nothing, is refused (`invalid_name`)."""
    text = unicodedata.normalize("NFC", value)
    refused = unshown_characters(text)
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


def _ensure_name_free(league: models.League, name: str, *, exclude: Collection[int] = ()) -> None:
    """`name_taken` when another player on the league's roster (not one of `exclude`) has a
    name that looks the same."""
    key = folded(name)
    others = league.players.exclude(pk__in=exclude)
    for other_id, other_name in others.values_list("pk", "display_name"):
        if folded(other_name) == key:
            raise LeagueError(
                "name_taken",
                f"{other_name!r} already plays in {league.name}; two names that look alike "
                "would be confused. Add something to tell them apart.",
                details={"field": "display_name", "player": other_id, "league": league.slug},
            )


def _lock_rosters(league_ids: Iterable[int]) -> None:
    """Lock the leagues' rows, in the order of their ids: whatever compares a name with a
    roster's and then puts it there (a new player, a rename, a player put on a roster, a file
    of players) takes them first, so that two such are checked one after the other."""
    list(
        models.League.objects.select_for_update()
        .filter(pk__in=list(league_ids))
        .order_by("pk")
        .values_list("pk", flat=True)
    )


def _clean_names(fields: dict[str, Any], *names: str) -> None:
    for name in names:
        if fields.get(name):
            fields[name] = clean_name(fields[name], field=name)


def _assign(instance: models.League | models.Event | models.Player, fields: dict[str, Any]) -> None:
    """Set the checked `fields` of an update on the row, to be saved."""
    for name, value in fields.items():
        setattr(instance, name, value)


def _validated_standings(game: str, fields: dict[str, Any]) -> None:
    """A tiebreak order and a points scheme the standings can use (StandingsError if not)."""
    if "tiebreak" in fields:
        fields["tiebreak"] = list(standings.validate_tiebreak_order(fields["tiebreak"], game=game))
    if "points" in fields:
        standings.LeaguePoints.from_json(fields["points"])


def _validated_rules(game: str, rules: object) -> dict[str, Any]:
    """The full ruleset for `game` with `rules` applied (RuleViolation on a bad option, and
    `wrong_type` when `rules` is not a JSON object)."""
    return scoring.new_game(game, 2, rules).rules.to_json()


def event_rules_checked(league: models.League, rules: object) -> dict[str, Any]:
    """An event's `rules` as it may store them: a JSON object (`wrong_type` otherwise, before
    it is laid over the league's) whose options, on top of the league's, make a ruleset of its
    game (`unknown_rule_option`, `invalid_rule_option`). An override is checked only with the
    league's: `entry_minimum` 15000 is right under a league's `target` of 20000."""
    overrides = read_rules_object(rules)
    _validated_rules(league.game, {**league.rules, **overrides})
    return overrides


def ruleset_for_event(event: models.Event) -> dict[str, Any]:
    """The full ruleset of an event's matches: the league's defaults, then the event's."""
    return _validated_rules(event.league.game, event.ruleset())


# Addresses the organizer pages keep beside a league's: /organize/leagues/new/ creates one.
RESERVED_SLUGS = frozenset({"new"})


def check_slug(slug: str, *, league: models.League | None = None) -> None:
    """`slug_taken` when `slug` cannot be a league's address (`league`'s, when it moves):
    another league has it, or the organizer pages use it (`RESERVED_SLUGS`), in any case of
    its letters: `Backyard` beside `backyard` is another address that reads the same, one to
    pass a league off as another by. The API, the pages and the admin all come here."""
    if slug.lower() in RESERVED_SLUGS:
        raise _taken(
            "slug",
            slug,
            f"The address {slug!r} is the organizer pages' own "
            f"(/organize/leagues/{slug.lower()}/); choose another.",
        )
    if _another_has(models.League.objects.filter(slug__iexact=slug), league):
        raise _slug_taken(slug)


def _taken(field: str, value: str, message: str) -> LeagueError:
    """`slug_taken` or `handle_taken`: `value` of `field` is another's."""
    return LeagueError(f"{field}_taken", message, details={"field": field, field: value})


def _slug_taken(slug: str) -> LeagueError:
    return _taken("slug", slug, f"Another league has the address {slug!r}; choose another.")


@contextmanager
def _unless_taken(refusal: Callable[[], LeagueError]) -> Iterator[None]:
    """The write inside, refused as its check refuses (`refusal`) when the database finds its
    address or handle taken after all: another request stored it, in some case of its
    letters, between the check and this write (the unique constraints of `Player` and
    `League`). In a savepoint, so the caller's transaction may go on."""
    try:
        with transaction.atomic():
            yield
    except IntegrityError:
        raise refusal() from None


@transaction.atomic
def league_create(
    *,
    name: str,
    slug: str,
    game: str,
    rules: dict[str, Any] | None = None,
    created_by: User,
    **settings: Any,
) -> models.League:
    """A new league; its creator is its first organizer. `rules`: its ruleset's options (None:
    the game's defaults; anything not a JSON object is `wrong_type`). `settings`: its standings
    `tiebreak` order and league `points` (docs/standings.md). `slug_taken` when the slug (the
    league's address) is another league's or the organizer pages' (`check_slug`)."""
    name = clean_name(name, field="name")
    check_slug(slug)
    _validated_standings(game, settings)
    with _unless_taken(lambda: _slug_taken(slug)):
        league = models.League.objects.create(
            name=name,
            slug=slug,
            game=game,
            rules=_validated_rules(game, {} if rules is None else rules),
            **settings,
        )
    league.organizers.add(created_by)
    league.owner = created_by
    league.save(update_fields=["owner"])
    return league


@transaction.atomic
def league_update(*, league: models.League, **fields: Any) -> models.League:
    """Change a league. A new tiebreak order or points scheme re-ranks every table of it
    (the same scheme written another way does not). The game changes only while the league
    has no event and no match (`game_settled`); its rules then start from the new game's
    defaults unless given, and its tiebreak order must suit the new game. A new slug must be
    free (`check_slug`)."""
    _clean_names(fields, "name")
    if "slug" in fields:
        check_slug(fields["slug"], league=league)
    game = fields.get("game", league.game)
    if game != league.game:
        if league.game_is_settled():
            raise LeagueError(
                "game_settled",
                f"{league.name} has events or matches of {league.get_game_display()}: its game "
                "can no longer change.",
                details={"field": "game", "game": league.game},
            )
        fields.setdefault("rules", {})
        fields.setdefault("tiebreak", league.tiebreak)
    if "rules" in fields:
        fields["rules"] = _validated_rules(game, fields["rules"])
    _validated_standings(game, fields)
    reranks = "tiebreak" in fields and fields["tiebreak"] != league.tiebreak
    if "points" in fields:
        current = standings.LeaguePoints.from_json(league.points)
        reranks |= standings.LeaguePoints.from_json(fields["points"]) != current
    _assign(league, fields)
    with _unless_taken(lambda: _slug_taken(league.slug)):
        league.save()
    if reranks:
        league_settings_changed(league_id=league.pk)
    return league


def event_create(*, league: models.League, **fields: Any) -> models.Event:
    """A new event of `league`; its `rules` (overrides of the league's) are checked by
    `event_rules_checked`."""
    _clean_names(fields, "name", "venue")
    fields["rules"] = event_rules_checked(league, fields.get("rules", {}))
    event = models.Event(league=league, **fields)
    event.save()
    return event


def event_update(*, event: models.Event, **fields: Any) -> models.Event:
    """Change an event; its `rules`, new or kept, are checked by `event_rules_checked`."""
    _clean_names(fields, "name", "venue")
    fields["rules"] = event_rules_checked(event.league, fields.get("rules", event.rules))
    _assign(event, fields)
    event.save()
    return event


# --- An event's status ------------------------------------------------------------------------
# It follows play (docs/api.md, "An event's status"): upcoming until a match of it starts,
# running while it is played, finished once its last stage finishes; its organizers close it
# (finished or cancelled) and reopen it. A closed event takes no more matches, stages or turns
# (`Event.ensure_open`; a match asks through `games.gates`).

CLOSED_STATUSES = (models.EventStatus.FINISHED, models.EventStatus.CANCELLED)
OPEN_MATCH_STATUSES = (MatchStatus.SCHEDULED, MatchStatus.IN_PROGRESS)


def event_play_started(*, event_id: int) -> None:
    """A match of the event `event_id` took its first turn: an upcoming event is now running.
    Called on every match's first turn, holding that match's lock, so it does not wait for
    the event's row here (`league.services.locks`): an upcoming event is marked now, in one
    statement that neither writes nor locks a running one; one whose row another write holds
    is marked once this transaction has committed."""
    with connection.cursor() as cursor:
        cursor.execute(_MARK_RUNNING, [event_id, event_id])
        marked, status = cursor.fetchone()
    if not marked and status == models.EventStatus.UPCOMING:  # an organizer's write has it
        transaction.on_commit(
            lambda: models.Event.objects.filter(
                pk=event_id, status=models.EventStatus.UPCOMING
            ).update(status=models.EventStatus.RUNNING)
        )


# Marks an upcoming event running unless its row is locked; says whether it did, and the
# status the statement started from.
_MARK_RUNNING = """
WITH free AS (
    SELECT id FROM league_event WHERE id = %s AND status = 'upcoming'
       FOR NO KEY UPDATE SKIP LOCKED
), marked AS (
    UPDATE league_event SET status = 'running' WHERE id IN (SELECT id FROM free) RETURNING id
)
SELECT (SELECT count(*) FROM marked), (SELECT status FROM league_event WHERE id = %s)"""


def event_play_over(*, event_id: int) -> bool:
    """Finish an event whose play is over: it has stages, every one of them has finished, and
    no match of it (in a stage or not) is still to be played or being played. Called when a
    stage finishes and when a match of the event finishes; True when the event finished now.
    An event without stages (casual tables only) is finished by its organizers (`event_close`)."""
    stages = set(models.Stage.objects.filter(event_id=event_id).values_list("status", flat=True))
    if stages != {models.StageStatus.FINISHED}:
        return False
    if Match.objects.filter(event_id=event_id, status__in=OPEN_MATCH_STATUSES).exists():
        return False
    finished = bool(
        models.Event.objects.filter(
            pk=event_id, status__in=(models.EventStatus.UPCOMING, models.EventStatus.RUNNING)
        ).update(status=models.EventStatus.FINISHED)
    )
    if finished:
        signals.send_on_commit(signals.event_finished, models.Event, event_id=event_id)
    return finished


@transaction.atomic
def event_close(*, event_id: int, status: str = models.EventStatus.FINISHED) -> models.Event:
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
    # The event first, as every organizer's write (league.services.locks), then every match
    # of it: a write being stored now that makes a match one being played (a first turn, an
    # undo of a finished match, an unvoid) is waited for and seen; one that waits for its
    # match asks whether the event is open once it has it (games.gates).
    locks.event_first(event_id)
    matches = list(
        Match.objects.select_for_update()
        .filter(event_id=event_id)
        .order_by("pk")
        .values_list("pk", "status")
    )
    event = models.Event.objects.get(pk=event_id)
    if event.status == status:
        return event
    event.ensure_open(then=f"reopen it before closing it as {status}.")
    in_progress = [pk for pk, match_status in matches if match_status == MatchStatus.IN_PROGRESS]
    if in_progress:
        raise EventConflict(
            "matches_in_progress",
            f"Event {event.pk} still has matches being played "
            f"({', '.join(f'#{pk}' for pk in in_progress)}): finish or void them before closing "
            "it.",
            details={"event": event.pk, "matches": in_progress},
        )
    event.status = status
    event.save(update_fields=["status"])
    if status == models.EventStatus.FINISHED:
        signals.send_on_commit(signals.event_finished, models.Event, event_id=event.pk)
    return event


@transaction.atomic
def event_reopen(*, event_id: int) -> models.Event:
    """Reopen a finished or cancelled event (closed by mistake, finished before a result was
    corrected, a cancelled night played after all): it takes matches, stages and turns again.
    It is running when a match of it has started, upcoming otherwise. An open event is left
    as it is."""
    event = models.Event.objects.select_for_update().get(pk=event_id)
    if not event.is_closed:
        return event
    played = Match.objects.filter(event=event, started_at__isnull=False).exists()
    event.status = models.EventStatus.RUNNING if played else models.EventStatus.UPCOMING
    event.save(update_fields=["status"])
    return event


# --- Players and rosters ------------------------------------------------------------------------


@transaction.atomic
def player_create(
    *,
    display_name: str,
    handle: str,
    league: models.League | None = None,
    handle_free: bool = False,
) -> models.Player:
    """A new player, on `league`'s roster (only staff create players of no league). The handle
    must be free in any case of its letters (`handle_taken`); `handle_free`: the caller chose it
    among the handles in use (`handles_in_use`), which it need not be checked against again."""
    name = clean_name(display_name, field="display_name")
    if league is not None:
        _lock_rosters([league.pk])
        _ensure_name_free(league, name)
    if not handle_free:
        ensure_handle_free(handle)
    with _unless_taken(lambda: _handle_taken(handle)):
        player = models.Player.objects.create(display_name=name, handle=handle)
    if league is not None:
        league.players.add(player)
    return player


@transaction.atomic
def player_update(*, player: models.Player, **fields: Any) -> models.Player:
    """Rename a player (or change their handle). The name is checked against every roster
    they are on, and the tables that show it are marked to show the new one. Fields given as
    they are (the same name, once cleaned) change nothing and save nothing."""
    _clean_names(fields, "display_name")
    fields = {name: value for name, value in fields.items() if getattr(player, name) != value}
    if not fields:
        return player
    if "handle" in fields:
        ensure_handle_free(fields["handle"], player=player)
    renamed = "display_name" in fields
    if renamed:
        _lock_rosters(player.leagues.values_list("pk", flat=True))
        for league in player.leagues.all():
            _ensure_name_free(league, fields["display_name"], exclude=[player.pk])
    _assign(player, fields)
    with _unless_taken(lambda: _handle_taken(player.handle)):
        player.save(update_fields=list(fields))
    if renamed:
        player_renamed(player_id=player.pk)
    return player


@transaction.atomic
def roster_add(*, league: models.League, player: models.Player) -> None:
    """Put an existing player on a league's roster (so its matches and stages may seat them).
    Who may do so is the API's rule: an organizer of this league who may already change the
    player (docs/api.md, "Whose data is whose")."""
    _lock_rosters([league.pk])
    if league.players.filter(pk=player.pk).exists():
        return
    _ensure_name_free(league, player.display_name, exclude=[player.pk])
    league.players.add(player)


# --- Adding players: one or a file of them ---------------------------------------------------

HANDLE_LENGTH = 40  # Player.handle's max_length
NAME_LENGTH = 80  # Player.display_name's max_length
# A handle numbered "-2", "-3", ... (up to "-99999") keeps this much of its base, so that it
# stays within HANDLE_LENGTH; a handle made from a name is no longer, so it keeps it whole.
NUMBERED_BASE = HANDLE_LENGTH - 6


@dataclass(frozen=True, slots=True)
class NewPlayer:
    """A player to add: their `row` (the line of a file it came from, or 1 for a form), a
    name and a handle (empty: made from the name)."""

    row: int
    display_name: str
    handle: str = ""


@dataclass(frozen=True, slots=True)
class RowProblem:
    """Why one new player cannot be added: the row, the field at fault, a code, a sentence."""

    row: int
    field: str
    code: str
    message: str

    def to_json(self) -> dict[str, Any]:
        return {"row": self.row, "field": self.field, "code": self.code, "message": self.message}


def handle_from_name(name: str) -> str:
    """The handle a name gives: its slug in ASCII letters, digits and hyphens ("Zoë Ná" ->
    "zoe-na"), or "player" when it has none to make one from."""
    return slugify(name)[:NUMBERED_BASE].strip("-") or "player"


def handles_in_use(given: Collection[str], prefixes: Collection[str] = ()) -> set[str]:
    """The stored handles, lowercased, that are one of `given` or begin with one of `prefixes`,
    in any case of their letters (`Ada` is taken by `ada`: one reads as the other), in one
    query. Compare a handle with them lowercased."""
    lowered = models.Player.objects.annotate(lowered=Lower("handle"))
    matches = Q(lowered__in=[handle.lower() for handle in given])
    for prefix in prefixes:
        matches |= Q(lowered__startswith=prefix.lower())
    return set(lowered.filter(matches).values_list("lowered", flat=True))


def _another_has(rows: QuerySet[Any], this: Model | None) -> bool:
    """Whether `rows` (those holding a name or address) hold one other than `this`."""
    if this is not None:
        rows = rows.exclude(pk=this.pk)
    return rows.exists()


def ensure_handle_free(handle: str, *, player: models.Player | None = None) -> None:
    """`handle_taken` when another player (than `player`) has `handle`, in any case of its
    letters."""
    if _another_has(models.Player.objects.filter(handle__iexact=handle), player):
        raise _handle_taken(handle)


def _handle_taken(handle: str) -> LeagueError:
    message = f"Another player has the handle {handle!r} (in some case of its letters)."
    return _taken("handle", handle, message)


def free_handle(base: str, taken: set[str]) -> str:
    """`base`, or `base-2`, `base-3`, ... (`base` cut to leave room for the number): the
    first not in `taken` (lowercased handles, `handles_in_use`)."""
    handle, number = base, 1
    while handle.lower() in taken:
        number += 1
        handle = f"{base[:NUMBERED_BASE]}-{number}"
    return handle


def checked_name(value: str, *, field: str = "display_name") -> str:
    """A player's name as stored (`clean_name`), at most `NAME_LENGTH` characters
    (`invalid_name`)."""
    name = clean_name(value, field=field)
    if len(name) > NAME_LENGTH:
        raise LeagueError(
            "invalid_name",
            f"A name has at most {NAME_LENGTH} characters; this one has {len(name)}.",
            details={"field": field},
        )
    return name


def passes(value: str, validate: Callable[[str], None], *, longest: int) -> bool:
    """Whether `value` has at most `longest` characters and passes a Django validator."""
    if len(value) > longest:
        return False
    try:
        validate(value)
    except ValidationError:
        return False
    return True


def check_handle(handle: str) -> None:
    """`invalid_handle` unless the handle is a slug (ASCII letters, digits, hyphens and
    underscores) of at most `HANDLE_LENGTH` characters."""
    if not passes(handle, validate_slug, longest=HANDLE_LENGTH):
        raise LeagueError(
            "invalid_handle",
            f"A handle is letters, digits, hyphens and underscores only, at most {HANDLE_LENGTH}"
            f" of them; {brief(handle)} is not.",
            details={"field": "handle"},
        )


def _check_name(new: NewPlayer, roster: dict[str, str], seen: dict[str, int]) -> RowProblem | str:
    """The row's name as stored, or what is wrong with it."""
    try:
        name = checked_name(new.display_name)
    except LeagueError as error:
        return RowProblem(new.row, "display_name", error.code, error.message)
    key = folded(name)
    if key in roster:
        return RowProblem(
            new.row,
            "display_name",
            "name_taken",
            f"{roster[key]!r} already plays in this league; two names that look alike would "
            "be confused. Add something to tell them apart.",
        )
    if key in seen:
        return RowProblem(
            new.row,
            "display_name",
            "name_repeated",
            f"Row {seen[key]} has the same name; each player is added once.",
        )
    seen[key] = new.row
    return name


def _check_handle(new: NewPlayer, taken: set[str], seen: dict[str, int]) -> RowProblem | None:
    handle = new.handle
    try:
        check_handle(handle)
    except LeagueError as error:
        return RowProblem(new.row, "handle", error.code, error.message)
    if handle.lower() in taken:
        return RowProblem(
            new.row, "handle", "handle_taken", f"Another player has the handle {handle!r}."
        )
    if handle.lower() in seen:
        return RowProblem(
            new.row,
            "handle",
            "handle_repeated",
            f"Row {seen[handle.lower()]} has the same handle; each handle belongs to one player.",
        )
    seen[handle.lower()] = new.row
    return None


@transaction.atomic
def players_create(*, league: models.League, players: Sequence[NewPlayer]) -> list[models.Player]:
    """New players on `league`'s roster, all of them or none: every row is checked first, and
    if any fails, `players_invalid` lists each failing row (`details["rows"]`: row, field,
    code, message) and nothing is saved. A row fails on a name that is blank or holds control
    characters (`invalid_name`), that looks like a name on the roster (`name_taken`) or of an
    earlier row (`name_repeated`); on a handle that is not a slug (`invalid_handle`), that
    another player has (`handle_taken`) or an earlier row (`handle_repeated`). A row without a
    handle gets one made from its name (`handle_from_name`, then "-2", "-3", ... when taken).
    A fixed number of queries, whatever the size of the file or the roster. The league's row
    is locked, so two imports into one league check their names one after the other."""
    _lock_rosters([league.pk])
    roster: dict[str, str] = {}
    for stored in league.players.values_list("display_name", flat=True):
        roster.setdefault(folded(stored), stored)
    given = [new.handle for new in players if new.handle]
    bases = {i: handle_from_name(new.display_name) for i, new in enumerate(players)}
    taken = handles_in_use(given, {bases[i] for i, new in enumerate(players) if not new.handle})
    problems: list[RowProblem] = []
    names: dict[str, int] = {}
    handles: dict[str, int] = {}
    checked: list[tuple[int, str]] = []
    for i, new in enumerate(players):
        name = _check_name(new, roster, names)
        handle_problem = _check_handle(new, taken, handles) if new.handle else None
        problems += [p for p in (name, handle_problem) if isinstance(p, RowProblem)]
        if isinstance(name, str):
            checked.append((i, name))
    if problems:
        rows = sorted({p.row for p in problems})
        raise LeagueError(
            "players_invalid",
            f"{len(rows)} of {len(players)} rows cannot be added (row{'s' if len(rows) > 1 else ''}"
            f" {', '.join(map(str, rows))}); nothing was saved.",
            details={"rows": [p.to_json() for p in problems]},
        )
    taken |= {handle.lower() for handle in given}
    created = []
    for i, name in checked:
        handle = players[i].handle or free_handle(bases[i], taken)
        taken.add(handle.lower())
        created.append(models.Player(display_name=name, handle=handle))
    with _unless_taken(_handles_taken_meanwhile):
        models.Player.objects.bulk_create(created)
    league.players.add(*created)
    return created


def _handles_taken_meanwhile() -> LeagueError:
    return LeagueError(
        "handle_taken",
        "Another player took one of these handles while they were being added; nothing was "
        "saved: send them again.",
        details={"field": "handle"},
    )


def ensure_on_roster(league: models.League, player_ids: Iterable[int]) -> None:
    """`player_not_in_league` unless every player is on the league's roster."""
    missing = league.missing_players(player_ids)
    if missing:
        raise LeagueError(
            "player_not_in_league",
            f"Player {missing[0]} is not on the roster of {league.name}: add them to the "
            "league first (POST leagues/{slug}/players/).",
            details={"players": missing, "league": league.slug},
        )


# --- Merging duplicate players ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PlayerMerge:
    """What a merge moved from the removed player (now deleted) onto the kept one."""

    kept: models.Player
    removed_name: str
    seats: int
    stage_entries: int
    rosters_joined: int
    leagues_rerated: tuple[int, ...]


def _replaced(ids: Any, old: int, new: int) -> Any:
    """A JSON list of player ids (or of lists of them: tiers) with `old` replaced by `new`."""
    if isinstance(ids, list):
        return [_replaced(item, old, new) for item in ids]
    return new if ids == old else ids


def _move_stage_records(stage_ids: Collection[int], old: int, new: int) -> None:
    """Player `old`'s id where a stage keeps ids as JSON (the bracket's participants, the final
    rankings, frozen finishing orders, the forfeits a void recorded) becomes `new`'s. Only
    stages `new` has no part in are touched, so no list ends up naming anyone twice."""
    for stage in models.Stage.objects.filter(pk__in=stage_ids):
        if stage.bracket:
            participants = _replaced(stage.bracket["participants"], old, new)
            stage.bracket = {**stage.bracket, "participants": participants}
        stage.ranking = _replaced(stage.ranking, old, new)
        if stage.group_ranking:
            stage.group_ranking = {
                group: _replaced(tiers, old, new) for group, tiers in stage.group_ranking.items()
            }
        stage.save(update_fields=["bracket", "ranking", "group_ranking"])
    for stage_match in models.StageMatch.objects.filter(stage_id__in=stage_ids).exclude(order=None):
        order = _replaced(stage_match.order, old, new)
        if order != stage_match.order:
            stage_match.order = order
            stage_match.save(update_fields=["order"])
    for void in models.StageVoid.objects.filter(stage_match__stage_id__in=stage_ids):
        if old in void.forfeits:
            void.forfeits = _replaced(void.forfeits, old, new)
            void.save(update_fields=["forfeits"])


def _ensure_mergeable(keep: models.Player, remove: models.Player) -> set[int]:
    """Refuse a merge that would seat one player twice or leave a game being played with a
    seat that changed hands; the stages of the removed player."""
    if keep.user_id is not None and remove.user_id is not None:
        raise LeagueError(
            "players_both_linked",
            f"{keep.display_name} and {remove.display_name} are each linked to a user account: "
            "two accounts are two people.",
            details={"players": [keep.pk, remove.pk]},
        )
    together = sorted(
        Seat.objects.filter(player=keep, match__seats__player=remove).values_list(
            "match_id", flat=True
        )
    )
    removed_stages = stages_of_player(remove.pk)
    both_stages = sorted(removed_stages & stages_of_player(keep.pk))
    if together or both_stages:
        where = f"match {together[0]}" if together else f"stage {both_stages[0]}"
        raise LeagueError(
            "players_met",
            f"{keep.display_name} and {remove.display_name} both played in {where}: they are "
            "two people, not one entered twice.",
            details={"matches": together, "stages": both_stages},
        )
    playing = sorted(
        Seat.objects.filter(player=remove, match__status=MatchStatus.IN_PROGRESS).values_list(
            "match_id", flat=True
        )
    )
    if playing:
        raise LeagueError(
            "matches_in_progress",
            f"{remove.display_name} is playing match {playing[0]} right now: merge once it is "
            "finished (or voided).",
            details={"matches": playing},
        )
    return removed_stages


def _ensure_registrations_apart(keep: models.Player, remove: models.Player) -> None:
    """Both confirmed for one event are two people (`players_met`)."""
    confirmed = models.Registration.objects.filter(status=models.RegistrationStatus.CONFIRMED)
    both = sorted(
        set(confirmed.filter(player=keep).values_list("event_id", flat=True))
        & set(confirmed.filter(player=remove).values_list("event_id", flat=True))
    )
    if both:
        raise LeagueError(
            "players_met",
            f"{keep.display_name} and {remove.display_name} are both confirmed for event "
            f"{both[0]}: they are two people, not one entered twice.",
            details={"events": both},
        )


def player_merge_check(
    *, league: models.League, keep: models.Player, remove: models.Player, by: Any
) -> set[int]:
    """Every refusal of `player_merge`, checked without writing anything: the page that asks
    to confirm a merge shows the refusal instead of a merge the service would refuse. The
    stages of the removed player."""
    if keep.pk == remove.pk:
        raise LeagueError(
            "same_player",
            "Choose two different players: the one to keep and the duplicate to remove.",
            details={"field": "remove"},
        )
    ensure_on_roster(league, [keep.pk, remove.pk])
    _ensure_merges_only_own(keep, remove, by)
    stage_ids = _ensure_mergeable(keep, remove)
    for other in models.League.objects.filter(players=remove).exclude(players=keep):
        _ensure_name_free(other, keep.display_name, exclude=[keep.pk, remove.pk])
    _ensure_registrations_apart(keep, remove)
    return stage_ids


def _ensure_merges_only_own(keep: models.Player, remove: models.Player, by: Any) -> None:
    """A merge rewrites both players' records in every league they play in (seats, entries,
    rosters): the caller must organize each of those leagues, or be staff (`by` None: a
    caller inside the project that has checked it). Otherwise 403 `permission_denied`, naming
    the leagues: their organizers merge the two, or staff do."""
    if by is None or getattr(by, "is_staff", False):
        return
    others = (
        models.League.objects.filter(players__in=[keep.pk, remove.pk])
        .exclude(organizers=by.pk)
        .distinct()
        .order_by("name", "pk")
    )
    names = [league.name for league in others]
    if names:
        raise LeagueForbidden(
            "permission_denied",
            f"{keep.display_name} or {remove.display_name} also plays in "
            f"{', '.join(names)}, which you do not organize: a merge changes their records "
            "there too. Their organizers (or staff) can merge them.",
            details={"leagues": [league.slug for league in others]},
        )


@transaction.atomic
def player_merge(
    *, league: models.League, keep: models.Player, remove: models.Player, by: Any
) -> PlayerMerge:
    """Merge two players of `league`'s roster who are one person entered twice: everything of
    `remove` becomes `keep`'s (seats and the turns and undos at them, stage entries, byes,
    forfeits, the ids stages keep as JSON, the rosters of other leagues, a linked account)
    and `remove` is deleted. Refused when they are the same player (`same_player`), when
    either is not on the roster (`player_not_in_league`), when both played at one match or in
    one stage (`players_met`), when both have accounts (`players_both_linked`), while
    `remove` is playing (`matches_in_progress`), or when `keep`'s name looks like a name on a
    roster they join (`name_taken`), or when `by` does not organize every league either plays
    in (`permission_denied`, `_ensure_merges_only_own`). The tables listing `remove` are
    counted again and their leagues' ratings rate again from the start
    (`standings_marks.player_merged`). Turns keep the player id they were submitted with
    (they are a record of what was sent)."""
    # Both rows locked, lower id first, so two merges (or a merge and a rename) take turns.
    locked = {
        player.pk: player
        for player in models.Player.objects.select_for_update()
        .filter(pk__in={keep.pk, remove.pk})
        .order_by("pk")
    }
    for field, player in (("keep", keep), ("remove", remove)):
        if player.pk not in locked:  # another merge removed them while this one waited
            raise LeagueError(
                "unknown_player",
                f"{player.display_name} was merged into another player (or deleted) "
                "meanwhile: choose the two again.",
                details={"field": field, "player": player.pk},
            )
    keep, remove = locked[keep.pk], locked[remove.pk]
    stage_ids = player_merge_check(league=league, keep=keep, remove=remove, by=by)
    joining = list(models.League.objects.filter(players=remove).exclude(players=keep))
    models.Registration.objects.filter(player=remove).update(player=keep)
    rerated = player_merged(removed_id=remove.pk)
    seats = Seat.objects.filter(player=remove).update(player=keep)
    TurnUndo.objects.filter(player=remove).update(player=keep)
    entries = models.StageEntry.objects.filter(player=remove).update(player=keep)
    models.StageBye.objects.filter(player=remove).update(player=keep)
    models.StageForfeit.objects.filter(player=remove).update(player=keep)
    _move_stage_records(stage_ids, remove.pk, keep.pk)
    keep.leagues.add(*joining)
    account = remove.user_id
    removed_name = remove.display_name
    remove.delete()
    if account is not None:
        keep.user_id = account
        keep.save(update_fields=["user"])
    return PlayerMerge(
        kept=keep,
        removed_name=removed_name,
        seats=seats,
        stage_entries=entries,
        rosters_joined=len(joining),
        leagues_rerated=tuple(rerated),
    )


# --- A league's organizers ----------------------------------------------------------------------


@transaction.atomic
def league_organizer_add(*, league: models.League, user: User) -> None:
    """Make `user` an organizer of `league` (`already_organizer` when they are one)."""
    models.League.objects.select_for_update().filter(pk=league.pk).first()
    if league.organizers.filter(pk=user.pk).exists():
        raise LeagueError(
            "already_organizer",
            f"{user.get_username()} already organizes {league.name}.",
            details={"field": "username", "user": user.get_username()},
        )
    league.organizers.add(user)


@transaction.atomic
def league_organizer_remove(*, league: models.League, user: User) -> None:
    """`user` no longer organizes `league` (they may remove themselves). Refused for someone
    who is not one of its organizers (`not_organizer`), for the last one (`last_organizer`): a
    league always has someone to run it, and for its owner (`league_owner`, 409), who made it:
    a co-organizer added a moment ago could remove them. The league's row is locked, so two
    organizers removing each other at once cannot leave it with none."""
    locked = models.League.objects.select_for_update().filter(pk=league.pk).first()
    if locked is not None and locked.owner_id == user.pk:
        raise LeagueConflict(
            "league_owner",
            f"{user.get_username()} made {league.name} and owns it: no organizer removes its "
            "owner (staff can change the owner in the admin).",
            details={"user": user.get_username()},
        )
    organizers = set(league.organizers.values_list("pk", flat=True))
    if user.pk not in organizers:
        raise LeagueError(
            "not_organizer",
            f"{user.get_username()} does not organize {league.name}.",
            details={"user": user.get_username()},
        )
    if organizers == {user.pk}:
        raise LeagueError(
            "last_organizer",
            f"{user.get_username()} is the only organizer of {league.name}: add another "
            "before removing them.",
            details={"user": user.get_username()},
        )
    league.organizers.remove(user)


# --- Matches ------------------------------------------------------------------------------------


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
