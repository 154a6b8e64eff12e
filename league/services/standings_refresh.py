"""Refreshing a standings table from the finished results (in a Celery job).

A refresh adds the results finished since the last one to the table's stored tally and ranks
again; a change that adding cannot express (a result withdrawn, the points scheme changed), or a
tally that disagrees with the finished matches, rebuilds the tally from scratch. Adding is
idempotent and order-free, so the stored tables converge to a from-scratch computation whatever
order results arrive in and whatever failed in between (docs/standings.md)."""

import dataclasses
import json
import logging
import time
from collections.abc import Collection, Iterable
from typing import Any

import numpy as np
from django.contrib.postgres.aggregates import ArrayAgg
from django.db import connection, transaction
from django.db.models import Count, F, Q, QuerySet, Sum
from django.db.models.expressions import RawSQL
from django.utils import timezone

from core.replica import primary_reads
from games.models import Match
from league import signals, standings
from league.models import (
    Event,
    League,
    Player,
    RatingsState,
    Scope,
    ScopeKey,
    Stage,
    StandingsRow,
    StandingsScope,
    StandingsTable,
    StandingsTally,
    with_rows,
)
from league.results import finished_matches, load_standings
from league.services.ratings import ratings_refresh
from league.standings import incremental

logger = logging.getLogger(__name__)

# A refresh stores the tally it added to once this many results were added since the stored one.
TALLY_STORE_EVERY = 25


# --- Standings -----------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class TableSettings:
    """How a table is counted and ranked: its league, tiebreak order and points scheme, the
    players it lists even without a result, and, for a stage played in groups, each player's
    group (every group is then ranked on its own)."""

    league: League
    tiebreak: list[str]
    points: dict[str, Any]
    players: list[int]
    groups: dict[int, int] | None = None
    withdrawn: frozenset[int] = frozenset()

    def rank(self, tally: standings.Tally) -> tuple[standings.Standing, ...]:
        return standings.rank_standings(
            tally, self.tiebreak, groups=self.groups, withdrawn=self.withdrawn
        )


def settings_of(scope: ScopeKey) -> TableSettings:
    """The settings of a table: a stage's own tiebreak order and points (the league's scheme
    until it starts, then the one it started with), a league's or event's the league's."""
    kind, scope_id = scope
    if kind == StandingsScope.STAGE:
        stage = Stage.objects.select_related("event__league").get(pk=scope_id)
        league = stage.event.league
        rows = list(stage.entries.values_list("player_id", "group", "withdrawn_at"))
        entries = {player: group for player, group, _withdrawn in rows}
        return TableSettings(
            league=league,
            tiebreak=stage.tiebreak,
            points=stage.points or league.points,
            players=list(entries),
            groups=entries if stage.played_in_groups else None,
            withdrawn=frozenset(player for player, _group, at in rows if at is not None),
        )
    league = (
        League.objects.get(pk=scope_id)
        if kind == StandingsScope.LEAGUE
        else Event.objects.select_related("league").get(pk=scope_id).league
    )
    return TableSettings(league=league, tiebreak=league.tiebreak, points=league.points, players=[])


def _counted_afresh(
    scope: ScopeKey, league: League, points: dict[str, Any], players: Iterable[int]
) -> standings.Tally:
    """The tally of `scope` counted from scratch: every finished result, bye and entrant."""
    tally = standings.Tally(game=league.game, points=standings.LeaguePoints.from_json(points))
    _count(tally, scope, players)
    return tally


def _count(
    tally: standings.Tally,
    scope: ScopeKey,
    players: Iterable[int],
    match_ids: Collection[int] | None = None,
) -> None:
    """Add to `tally` the entrants, byes, walkovers and finished results of `scope` (only the
    matches of `match_ids` when given); what it has counted already is ignored."""
    for player in players:
        tally.add_player(player)
    load_standings(scope, match_ids=match_ids).add_to(tally)


def compute_table(scope: ScopeKey) -> tuple[list[str], tuple[standings.Standing, ...]]:
    """The standings of `scope` computed from scratch, with the tiebreak order used."""
    settings = settings_of(scope)
    tally = _counted_afresh(scope, settings.league, settings.points, settings.players)
    return list(settings.tiebreak), settings.rank(tally)


def compute_rows(scope: ScopeKey) -> tuple[list[str], list[dict[str, Any]]]:
    """The standings of `scope` computed from scratch: the tiebreak order and one row per
    player (with their display name)."""
    tiebreak, table = compute_table(scope)
    return tiebreak, _rows(table)


def _rows(table: Iterable[standings.Standing]) -> list[dict[str, Any]]:
    """The stored rows of a ranked table, with each player's display name."""
    table = list(table)
    names = _names([s.player for s in table])
    return [_row(standing, names.get(standing.player, "")) for standing in table]


ROW_FIELDS = tuple(
    field.name
    for field in dataclasses.fields(standings.Standing)
    if field.name not in ("placements", "metrics")
)


def _row(standing: standings.Standing, name: str) -> dict[str, Any]:
    """A standing as stored JSON (dataclasses.asdict deep-copies: ten times slower here)."""
    row = {field: getattr(standing, field) for field in ROW_FIELDS}
    row["placements"] = list(standing.placements)
    row["metrics"] = dict(standing.metrics)
    row["name"] = name
    return row


def standings_refresh(*, table_id: int, rebuild: bool = False) -> bool:
    """Bring one table up to date if it is stale; True when it computed. Coalescing: a refresh
    that finds the table current does nothing, so a burst of results costs one or two
    recomputes. The results finished since the last refresh are added to the stored tally
    (`rebuild` counts everything again instead), and the ranking this worker kept is brought
    up to date: only the lines that changed are written. Two concurrent refreshes are
    harmless: only the one that saw more marks writes."""
    state = (
        StandingsTable.objects.filter(pk=table_id)
        .values("scope", "scope_id", "requested", "computed", "rebuild_from")
        .first()
    )
    if state is None or state["requested"] <= state["computed"]:
        return False
    seen = state["requested"]
    scope: ScopeKey = (state["scope"], state["scope_id"])
    started = time.perf_counter()
    logger.info("Refreshing standings table %s (%s %s).", table_id, *scope)
    settings = settings_of(scope)
    kept = None if rebuild else _kept_tally(table_id, state["rebuild_from"], settings.points)
    tally, unstored, ranked = (None, 0, None) if kept is None else kept[:3]
    if tally is None and not rebuild:
        tally = _stored_tally(table_id, state["rebuild_from"], settings.points)
    added = None if tally is None else _count_since(tally, scope, settings.players)
    if tally is None or added is None:
        tally = _counted_afresh(scope, settings.league, settings.points, settings.players)
        ranked = None
    unstored = 0 if added is None else unstored + added
    # The lines in the database are the kept ranking's when this worker wrote them last.
    lines_at = None if kept is None or ranked is None else kept[3]
    if ranked is None:
        ranked = incremental.RankedTable(
            tally, settings.tiebreak, groups=settings.groups, withdrawn=settings.withdrawn
        )
        changes = None
    else:
        changes = ranked.update(
            tally, settings.tiebreak, groups=settings.groups, withdrawn=settings.withdrawn
        )
    written = _write_lines(table_id, seen, lines_at, tally, ranked, changes, settings)
    if written is not None:
        signals.send_on_commit(
            signals.standings_changed,
            StandingsTable,
            table_id=table_id,
            scope=scope[0],
            scope_id=scope[1],
            league_id=settings.league.pk,
            version=seen,
        )
    # Storing 20,000 tables' tally takes longer than adding a few dozen results to it: the
    # stored one is brought up to date only now and then (or after a rebuild), once the new
    # table is already served.
    if written is not None and (added is None or unstored >= TALLY_STORE_EVERY):
        _store_tally(table_id, seen, tally)
        unstored = 0
    _keep_tally(table_id, seen, tally, unstored, ranked, None if written is None else seen)
    logger.info(
        "Refreshed standings table %s: %s lines written, %s, in %.3f s.",
        table_id,
        written if written is not None else "no",
        "counted from scratch" if added is None else f"{added} results added to its tally",
        time.perf_counter() - started,
    )
    return True


def _write_lines(
    table_id: int,
    seen: int,
    lines_at: int | None,
    tally: standings.Tally,
    ranked: incremental.RankedTable,
    changes: incremental.Changes | None,
    settings: TableSettings,
) -> int | None:
    """Write the table at mark `seen`, unless a refresh that saw a later mark wrote first: only
    the lines `changes` names when the stored lines are those of the ranking at mark
    `lines_at`, else every line. How many lines were written; None when none was."""
    header = {
        "computed": seen,
        "computed_at": timezone.now(),
        "tiebreak": list(settings.tiebreak),
    }
    if changes is not None and lines_at is not None:
        written = _write_changed_lines(table_id, header, lines_at, tally, ranked, changes)
        if written is not None:
            return written
    with transaction.atomic():
        # The table's row, locked by the update until this commits, orders the writers.
        if StandingsTable.objects.filter(pk=table_id, computed__lt=seen).update(**header):
            StandingsRow.objects.filter(table_id=table_id).delete()
            _insert_lines(table_id, tally, ranked, ranked.players)
            return len(ranked.players)
    return None


def _names(players: Collection[int]) -> dict[int, str]:
    """The display names of `players`, read with one array parameter."""
    ids = RawSQL("SELECT unnest(%s::bigint[])", (list(players),))
    sql, params = (
        Player.objects.filter(pk__in=ids).values_list("pk", "display_name").query.sql_with_params()
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return dict(cursor.fetchall())


_LINE_DATA = tuple(field for field in ROW_FIELDS if field not in ("player", "rank"))


def _line_data(standing: standings.Standing, names: dict[int, str] | None) -> dict[str, Any]:
    """The part of a stored line that is neither its place nor its metrics (with the display
    name when `names` are given)."""
    data = {field: getattr(standing, field) for field in _LINE_DATA}
    data["placements"] = list(standing.placements)
    if names is not None:
        data["name"] = names.get(standing.player, "")
    return data


# The lines come as one JSON array (one parameter: psycopg escapes every element of an array
# parameter on its own, which cost more than the update itself).
_INSERT_LINES = """
INSERT INTO league_standingsrow (table_id, player, position, rank, metrics, data)
SELECT %s, line.player, line.position, line.rank, line.metrics, line.data
FROM jsonb_to_recordset(%s::jsonb)
    AS line(player bigint, position int, rank int, metrics jsonb, data jsonb)
"""

# The table's row first (its lock orders two writers: a refresh that saw a later mark waits,
# then finds `computed` moved and writes nothing), then the changed lines (whole for the players
# whose totals changed, with their names as they are now) and the new ones, in one statement.
_WRITE_CHANGED_LINES = """
WITH header AS (
    UPDATE league_standingstable
    SET computed = %(seen)s, computed_at = %(now)s, tiebreak = %(tiebreak)s::jsonb
    WHERE id = %(table)s AND computed = %(lines_at)s
    RETURNING id
), changed AS (
    UPDATE league_standingsrow AS r
    SET position = line.position, rank = line.rank, metrics = line.metrics,
        data = COALESCE(line.data, r.data)
    FROM header, jsonb_to_recordset(%(changed)s::jsonb)
        AS line(player bigint, position int, rank int, metrics jsonb, data jsonb)
    WHERE r.table_id = header.id AND r.player = line.player
    RETURNING 1
), added AS (
    INSERT INTO league_standingsrow (table_id, player, position, rank, metrics, data)
    SELECT header.id, line.player, line.position, line.rank, line.metrics, line.data
    FROM header, jsonb_to_recordset(%(added)s::jsonb)
        AS line(player bigint, position int, rank int, metrics jsonb, data jsonb)
    RETURNING 1
)
SELECT (SELECT count(*) FROM header), (SELECT count(*) FROM changed), (SELECT count(*) FROM added)
"""


def _insert_lines(
    table_id: int,
    tally: standings.Tally,
    ranked: incremental.RankedTable,
    players: Collection[int],
) -> None:
    if players:
        lines = _lines(tally, ranked, players, players, _names(players))
        with connection.cursor() as cursor:
            cursor.execute(_INSERT_LINES, [table_id, lines])


def _write_changed_lines(
    table_id: int,
    header: dict[str, Any],
    lines_at: int,
    tally: standings.Tally,
    ranked: incremental.RankedTable,
    changes: incremental.Changes,
) -> int | None:
    """Write the table's new mark and the lines `changes` names, if the stored lines are still
    those of mark `lines_at`; how many lines were written, None when nothing was."""
    changed = (changes.placed | changes.counted) - changes.added
    names = _names(changes.counted | changes.added) if changes.counted or changes.added else {}
    params = {
        "table": table_id,
        "lines_at": lines_at,
        "seen": header["computed"],
        "now": header["computed_at"],
        "tiebreak": json.dumps(header["tiebreak"]),
        "changed": _lines(tally, ranked, changed, changes.counted, names),
        "added": _lines(tally, ranked, changes.added, changes.added, names),
    }
    with connection.cursor() as cursor:
        cursor.execute(_WRITE_CHANGED_LINES, params)
        headers, updated, inserted = cursor.fetchone()
    return updated + inserted if headers else None


def _lines(
    tally: standings.Tally,
    ranked: incremental.RankedTable,
    players: Collection[int],
    whole: Collection[int],
    names: dict[int, str] | None = None,
) -> str:
    """The lines of `players` as one JSON array: place, rank and metrics, and for those of
    `whole` the rest of the line too (the totals; the display name with `names`)."""
    lines = []
    for player in players:
        position, rank, metrics = ranked.place(player)
        line: dict[str, Any] = {
            "player": player,
            "position": position,
            "rank": rank,
            "metrics": metrics,
        }
        if player in whole:
            line["data"] = _line_data(ranked.standing(tally, player), names)
        lines.append(line)
    return json.dumps(lines)


def _store_tally(table_id: int, counted: int, tally: standings.Tally) -> None:
    """Store `tally` as the table's, counted at mark `counted`, unless a refresh that saw a
    later mark stored one first. Any stored tally is safe to add to, however old: it is only
    a head start."""
    data = tally.to_json()
    if not StandingsTally.objects.filter(table_id=table_id, counted__lt=counted).update(
        counted=counted, data=data
    ):
        StandingsTally.objects.bulk_create(
            [StandingsTally(table_id=table_id, counted=counted, data=data)], ignore_conflicts=True
        )


def _stored_tally(
    table_id: int, rebuild_from: int, points: dict[str, Any]
) -> standings.Tally | None:
    """The table's stored tally, or None when there is none worth adding to: counted before a
    change that needs a rebuild, with another points scheme, or unreadable."""
    stored = (
        StandingsTally.objects.filter(table_id=table_id, counted__gte=rebuild_from)
        .values_list("data", flat=True)
        .first()
    )
    if stored is None:
        return None
    try:
        tally = standings.Tally.from_json(stored)
    except standings.StandingsError as error:
        logger.warning("Standings table %s: %s Counting from scratch.", table_id, error.message)
        return None
    return tally if tally.points == standings.LeaguePoints.from_json(points) else None


# --- Tallies kept in the worker's memory ----------------------------------------------------

# The tallies this process counted last, by table id: (the `requested` mark they were counted
# at, the tally, results added since the stored tally, the ranking of the tally, and the mark
# of the lines this process wrote last from it, None when it did not write them). Reading back a
# stored tally of 20,000 tables costs more than the rest of a refresh; a worker that refreshes
# a table again starts from the tally it kept instead, and writes only the lines its ranking
# says changed when the stored lines are still those it wrote. A kept tally is a head start
# like a stored one: valid unless a change that needs a rebuild was marked after it was
# counted.
KEEP_TALLIES = 16
_Kept = tuple[standings.Tally, int, incremental.RankedTable, int | None]
_kept: dict[int, tuple[int, standings.Tally, int, incremental.RankedTable, int | None]] = {}


def _kept_tally(table_id: int, rebuild_from: int, points: dict[str, Any]) -> _Kept | None:
    """What this process kept of the table (taken out while it is used): the tally, how many
    results it counts that the stored one does not, its ranking and the mark of the lines
    written from it; None when there is no tally worth adding to."""
    kept = _kept.pop(table_id, None)
    if kept is None:
        return None
    counted, tally, unstored, ranked, lines_at = kept
    if counted < rebuild_from or tally.points != standings.LeaguePoints.from_json(points):
        return None
    return tally, unstored, ranked, lines_at


def _keep_tally(
    table_id: int,
    counted: int,
    tally: standings.Tally,
    unstored: int,
    ranked: incremental.RankedTable,
    lines_at: int | None,
) -> None:
    _kept[table_id] = (counted, tally, unstored, ranked, lines_at)
    while len(_kept) > KEEP_TALLIES:  # the least recently refreshed goes
        del _kept[next(iter(_kept))]


def forget_tallies() -> None:
    """Drop every tally kept in memory (the next refresh of each table reads the stored one)."""
    _kept.clear()


def _count_since(tally: standings.Tally, scope: ScopeKey, players: Iterable[int]) -> int | None:
    """Add to `tally` what finished in `scope` since it was counted; how many results that
    was. None (the tally is then of no use) when it counts a match that no longer stands: a
    withdrawal whose rebuild mark was missed must not survive in the table.

    One aggregate query tells whether the matches finished are those counted plus some with
    higher ids (the usual case: their count, sum and sum of squares agree), and lists those;
    otherwise every finished match's id is read and compared."""
    counted_ids = tally.match_id_column()
    counted_ids = counted_ids[counted_ids > 0]  # < 0: walkovers
    top = int(counted_ids.max()) if len(counted_ids) else 0
    finished = finished_matches(scope).order_by()
    summary = finished.aggregate(
        count=Count("pk"),
        total=Sum("pk"),
        squares=Sum(F("pk") * F("pk")),
        new=ArrayAgg("pk", filter=Q(pk__gt=top), default=[]),
    )
    new = set(summary["new"])
    new_ids = np.fromiter(new, np.int64, len(new))
    expected = (
        len(counted_ids) + len(new_ids),
        int(counted_ids.sum()) + int(new_ids.sum()),
        int((counted_ids * counted_ids).sum()) + int((new_ids * new_ids).sum()),
    )
    if (summary["count"], int(summary["total"] or 0), int(summary["squares"] or 0)) != expected:
        finished_ids = _ids(finished)
        counted = set(counted_ids.tolist())
        if not counted <= finished_ids:
            logger.warning("Standings %s %s: the tally counts withdrawn results.", *scope)
            return None
        new = finished_ids - counted
    _count(tally, scope, players, match_ids=new)
    return len(new)


def _ids(matches: QuerySet[Match]) -> set[int]:
    """The ids of `matches`, fetched as plain rows: Django's per-row iteration costs more than
    the query itself at 20,000 ids."""
    sql, params = matches.values_list("pk").order_by().query.sql_with_params()
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return {row[0] for row in cursor.fetchall()}


def standings_recompute(*, table_id: int) -> None:
    """Count one table again from scratch now, whatever its state (`recompute_standings`)."""
    StandingsTable.objects.filter(pk=table_id).update(
        requested=F("requested") + 1, rebuild_from=F("requested") + 1
    )
    standings_refresh(table_id=table_id, rebuild=True)


def standings_table_computed_on_miss(scope: ScopeKey) -> StandingsTable:
    """The stored table of `scope`; computed on the spot the first time it is asked for (also
    when it was marked, e.g. by a stage starting, but its first job has not run yet). What it
    reads back after writing is read from the primary, also within a page read from a replica."""
    table = with_rows(StandingsTable.objects.filter(scope=scope[0], scope_id=scope[1])).first()
    if table is not None and table.computed_at is not None:
        return table
    with primary_reads():
        if table is None:
            with transaction.atomic():
                table, _ = StandingsTable.objects.get_or_create(
                    scope=scope[0],
                    scope_id=scope[1],
                    defaults={"league_id": Scope(*scope).league_id()},
                )
        if table.computed_at is None:
            standings_refresh(table_id=table.pk)
            table.refresh_from_db()
            table.rows = None
    return table


def standings_sweep() -> dict[str, int]:
    """Refresh everything marked stale and not yet refreshed (a mark made while the broker was
    down, a worker killed mid-job). Run by Celery beat."""
    refreshed = sum(
        standings_refresh(table_id=pk)
        for pk in StandingsTable.objects.filter(requested__gt=F("computed")).values_list(
            "pk", flat=True
        )
    )
    rated = sum(
        ratings_refresh(league_id=league_id)
        for league_id in RatingsState.objects.filter(requested__gt=F("computed")).values_list(
            "league_id", flat=True
        )
    )
    return {"standings": refreshed, "ratings": rated}
