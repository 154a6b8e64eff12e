"""Players made (`player_create`; a file of them, `players_create`), renamed (`player_update`) and
put on a league's roster (`roster_add`): the names on a roster look different."""

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import transaction

from league import models
from league.errors import LeagueError
from league.services.organization._common import (
    _another_has,
    _assign,
    _clean_names,
    _ensure_name_free,
    _taken,
    _unless_taken,
)
from league.services.organization.names import (
    check_handle,
    checked_name,
    clean_name,
    folded,
    free_handle,
    handle_from_name,
    handles_in_use,
)
from league.services.standings_marks import player_renamed


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


def ensure_handle_free(handle: str, *, player: models.Player | None = None) -> None:
    """`handle_taken` when another player (than `player`) has `handle`, in any case of its
    letters."""
    if _another_has(models.Player.objects.filter(handle__iexact=handle), player):
        raise _handle_taken(handle)


def _handle_taken(handle: str) -> LeagueError:
    message = f"Another player has the handle {handle!r} (in some case of its letters)."
    return _taken("handle", handle, message)


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
