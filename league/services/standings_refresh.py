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

from core.prepared import prepared_cursor
from core.replica import primary_reads
from games.models import Match
from league import signals, standings
from league.models import (
    Event,
    League,
    RatingsState,
    Scope,
    ScopeKey,
    Stage,
    StandingsScope,
    StandingsTable,
    StandingsTally,
    with_rows,
)
from league.results import finished_matches, listed_seats_sql, load_standings
from league.services import standings_lines
from league.services.ratings import ratings_refresh
from league.services.standings_lines import write_lines
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
    # False: the scope has no stage, so no bye, walkover or forfeit to read.
    stages: bool = True

    def rank(self, tally: standings.Tally) -> tuple[standings.Standing, ...]:
        return standings.rank_standings(
            tally, self.tiebreak, groups=self.groups, withdrawn=self.withdrawn
        )


def settings_of(
    scope: ScopeKey, *, league: League | None = None, stages: bool = True
) -> TableSettings:
    """The settings of a table: a stage's own tiebreak order and points (the league's scheme
    until it starts, then the one it started with), a league's or event's the league's
    (`league`, when the caller has read it already, and whether the scope has `stages`)."""
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
    if league is None:
        league = (
            League.objects.get(pk=scope_id)
            if kind == StandingsScope.LEAGUE
            else Event.objects.select_related("league").get(pk=scope_id).league
        )
    return TableSettings(
        league=league, tiebreak=league.tiebreak, points=league.points, players=[], stages=stages
    )


def _counted_afresh(
    scope: ScopeKey,
    league: League,
    points: dict[str, Any],
    players: Iterable[int],
    *,
    stages: bool = True,
) -> standings.Tally:
    """The tally of `scope` counted from scratch: every finished result, bye and entrant."""
    tally = standings.Tally(game=league.game, points=standings.LeaguePoints.from_json(points))
    _count(tally, scope, players, stages=stages)
    return tally


def _count(
    tally: standings.Tally,
    scope: ScopeKey,
    players: Iterable[int],
    match_ids: Collection[int] | None = None,
    *,
    stages: bool = True,
    rows: list[list[int]] | None = None,
) -> None:
    """Add to `tally` the entrants, byes, walkovers and finished results of `scope` (only the
    matches of `match_ids` when given); what it has counted already is ignored. `stages=False`:
    the scope has none (no bye, walkover or forfeit is read)."""
    for player in players:
        tally.add_player(player)
    load_standings(scope, match_ids=match_ids, stages=stages, rows=rows).add_to(tally)


def compute_table(scope: ScopeKey) -> tuple[list[str], tuple[standings.Standing, ...]]:
    """The standings of `scope` computed from scratch, with the tiebreak order used."""
    settings = settings_of(scope)
    tally = _counted_afresh(scope, settings.league, settings.points, settings.players)
    return list(settings.tiebreak), settings.rank(tally)


def compute_rows(scope: ScopeKey) -> tuple[list[str], list[dict[str, Any]]]:
    """The standings of `scope` computed from scratch: the tiebreak order and one row per
    player (with their display name)."""
    tiebreak, table = compute_table(scope)
    return tiebreak, standings_lines.rows_of(table)


# The table's state, with its league's settings and whether its scope has a stage (a stage's
# table: itself), in one statement written by hand (prepared on the server: Django took longer
# to build it than PostgreSQL to answer it); with `{seats}`, the seats of the matches its
# marks listed (for a worker that kept the table, and so knows its scope).
_STATE_SQL = """
SELECT t.scope, t.scope_id, t.requested, t.computed, t.rebuild_from, t.pending_matches,
    l.id, l.game, l.tiebreak::text, l.points::text,
    CASE t.scope
        WHEN 'stage' THEN true
        WHEN 'event' THEN EXISTS (SELECT FROM league_stage AS st WHERE st.event_id = t.scope_id)
        ELSE EXISTS (
            SELECT FROM league_stage AS st JOIN league_event AS ev ON ev.id = st.event_id
            WHERE ev.league_id = t.scope_id
        )
    END,
    {seats}
FROM league_standingstable AS t JOIN league_league AS l ON l.id = t.league_id
WHERE t.id = %(table)s
"""
_STATE: dict[str | None, str] = {
    None: _STATE_SQL.replace("{seats}", "NULL"),
    **{
        kind: _STATE_SQL.replace("{seats}", listed_seats_sql(kind, "t.pending_matches"))
        for kind in StandingsScope.values
    },
}


@dataclasses.dataclass(frozen=True)
class _TableState:
    """A table's row as a refresh reads it (`_table_state`)."""

    scope: ScopeKey
    requested: int
    computed: int
    rebuild_from: int
    pending_matches: list[int] | None
    league: League
    has_stages: bool
    # The seats of the listed matches (`results.listed_seats_sql`), when they were read.
    listed_seats: list[list[int]] | None


def _table_state(table_id: int, known: ScopeKey | None) -> _TableState | None:
    """The state of the table, with the seats of its listed matches when its scope is `known`."""
    params = {"table": table_id} if known is None else {"table": table_id, "scope_id": known[1]}
    with prepared_cursor(connection) as cursor:
        cursor.execute(_STATE[None if known is None else known[0]], params)
        row = cursor.fetchone()
    if row is None:
        return None
    kind, scope_id, requested, computed, rebuild_from, pending, *league_row, stages, seats = row
    league_id, game, tiebreak, points = league_row
    league = League.from_db(
        connection.alias,
        ["id", "game", "tiebreak", "points"],
        [league_id, game, json.loads(tiebreak), json.loads(points)],
    )
    return _TableState(
        (kind, scope_id), requested, computed, rebuild_from, pending, league, stages, seats
    )


def standings_refresh(*, table_id: int, rebuild: bool = False, listed: bool = True) -> bool:
    """Bring one table up to date if it is stale; True when it computed. Coalescing: a refresh
    that finds the table current does nothing, so a burst of results costs one or two
    recomputes. The results finished since the last refresh are added to the stored tally
    (`rebuild` counts everything again instead), and the ranking this worker kept is brought
    up to date: only the lines that changed are written. Two concurrent refreshes are
    harmless: only the one that saw more marks writes. `listed=False` compares every finished
    match of the scope with those counted even when the marks listed the new ones (the sweep:
    a safety net against a result marked without its match)."""
    # The table's state with its league (an event's or league's settings) and whether its
    # scope has stages, in one query; with the seats of the matches its marks listed, when
    # this worker kept the table (and so knows its scope).
    known = _scopes.get(table_id) if listed and not rebuild else None
    state = _table_state(table_id, known)
    if state is None or state.requested <= state.computed:
        return False
    seen = state.requested
    scope = state.scope
    started = time.perf_counter()
    logger.info("Refreshing standings table %s (%s %s).", table_id, *scope)
    settings = settings_of(scope, league=state.league, stages=state.has_stages)
    kept = None if rebuild else _kept_tally(table_id, state.rebuild_from, settings.points)
    tally, unstored, ranked = (None, 0, None) if kept is None else kept[:3]
    # The lines in the database are the kept ranking's when this worker wrote them last.
    lines_at = None if kept is None else kept[3]
    # The marks since then listed the results they brought: those are all that is new.
    pending = state.pending_matches
    listed_ids = pending if listed and lines_at == state.computed else None
    if tally is None and not rebuild:
        tally = _stored_tally(table_id, state.rebuild_from, settings.points)
    seats = state.listed_seats if known == scope else None
    added = None if tally is None else _count_since(tally, scope, settings, listed_ids, seats)
    if tally is None or added is None:
        tally = _counted_afresh(
            scope, settings.league, settings.points, settings.players, stages=settings.stages
        )
        ranked = lines_at = None
    unstored = 0 if added is None else unstored + added
    if ranked is None:
        ranked = incremental.RankedTable(
            tally, settings.tiebreak, groups=settings.groups, withdrawn=settings.withdrawn
        )
        changes = None
    else:
        changes = ranked.update(
            tally, settings.tiebreak, groups=settings.groups, withdrawn=settings.withdrawn
        )
    mark = standings_lines.Mark(seen, lines_at, pending or [])
    written = write_lines(table_id, mark, tally, ranked, changes, settings.tiebreak)
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
    _keep_tally(table_id, scope, (seen, tally, unstored, ranked, None if written is None else seen))
    logger.info(
        "Refreshed standings table %s: %s lines written, %s, in %.3f s.",
        table_id,
        written if written is not None else "no",
        "counted from scratch" if added is None else f"{added} results added to its tally",
        time.perf_counter() - started,
    )
    return True


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
_scopes: dict[int, ScopeKey] = {}  # the scope of each table kept


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
    scope: ScopeKey,
    kept: tuple[int, standings.Tally, int, incremental.RankedTable, int | None],
) -> None:
    _kept[table_id] = kept
    _scopes[table_id] = scope
    while len(_kept) > KEEP_TALLIES:  # the least recently refreshed goes
        oldest = next(iter(_kept))
        del _kept[oldest]
        _scopes.pop(oldest, None)


def forget_tallies() -> None:
    """Drop every tally kept in memory (the next refresh of each table reads the stored one)."""
    _kept.clear()
    _scopes.clear()


def _count_since(
    tally: standings.Tally,
    scope: ScopeKey,
    settings: TableSettings,
    listed: Collection[int] | None = None,
    seats: list[list[int]] | None = None,
) -> int | None:
    """Add to `tally` what finished in `scope` since it was counted; how many results that
    was. None (the tally is then of no use) when it counts a match that no longer stands: a
    withdrawal whose rebuild mark was missed must not survive in the table.

    `listed`: the matches the marks since the tally was counted brought (the table's
    `pending_matches`): only those are read (`seats`: their seats' rows, read with the list).
    Otherwise one aggregate query tells whether the
    matches finished are those counted plus some with higher ids (the usual case: their
    count, sum and sum of squares agree), and lists those; failing that, every finished
    match's id is read and compared."""
    if listed is not None:
        before = len(tally.match_id_column())
        _count(
            tally,
            scope,
            settings.players,
            match_ids=set(listed),
            stages=settings.stages,
            rows=seats,
        )
        return len(tally.match_id_column()) - before
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
    _count(tally, scope, settings.players, match_ids=new, stages=settings.stages)
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
    down, a worker killed mid-job). Run by Celery beat. Its refreshes compare every finished
    match with those counted, whatever the marks listed."""
    refreshed = sum(
        standings_refresh(table_id=pk, listed=False)
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
