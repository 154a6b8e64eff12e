"""Standings and ratings: mark what a change makes stale (in the changing transaction), and
refresh it from the finished results (in a Celery job).

A refresh adds the results finished since the last one to the table's stored tally and ranks
again; a change that adding cannot express (a result withdrawn, the points scheme changed), or a
tally that disagrees with the finished matches, rebuilds the tally from scratch. Adding is
idempotent and order-free, so the stored tables converge to a from-scratch computation whatever
order results arrive in and whatever failed in between (docs/standings.md)."""

import dataclasses
import json
import logging
import time
from collections import defaultdict
from collections.abc import Collection, Iterable, Iterator
from contextlib import contextmanager
from datetime import datetime
from typing import Any

from django.conf import settings
from django.db import connection, transaction
from django.db.models import Count, F, Q, QuerySet
from django.utils import timezone

from games.models import Match, MatchStatus, Seat
from league import rating, standings
from league.models import (
    Event,
    League,
    Player,
    PlayerRating,
    RatingChange,
    RatingsState,
    Stage,
    StageBye,
    StageEntry,
    StageForfeit,
    StageMatch,
    StandingsScope,
    StandingsTable,
    StandingsTally,
)

logger = logging.getLogger(__name__)

# A refresh stores the tally it added to once this many results were added since the stored one.
TALLY_STORE_EVERY = 25

Scope = tuple[str, int]


# --- Which tables a match moves -----------------------------------------------------------------


def scopes_of_match(match: Match) -> list[Scope]:
    """The standings tables a match's result counts in: its stage's, its event's, its league's."""
    if match.event_id is None:
        return []
    stage_id = Stage.objects.filter(stage_matches__match=match).values_list("pk", flat=True).first()
    league_id = Event.objects.filter(pk=match.event_id).values_list("league_id", flat=True).get()
    scopes: list[Scope] = [
        (StandingsScope.EVENT, match.event_id),
        (StandingsScope.LEAGUE, league_id),
    ]
    if stage_id is not None:
        scopes.insert(0, (StandingsScope.STAGE, stage_id))
    return scopes


def _league_of(scope: Scope) -> int:
    kind, scope_id = scope
    if kind == StandingsScope.LEAGUE:
        return scope_id
    if kind == StandingsScope.EVENT:
        return int(Event.objects.values_list("league_id", flat=True).get(pk=scope_id))
    return int(Stage.objects.values_list("event__league_id", flat=True).get(pk=scope_id))


def standings_mark(scopes: Iterable[Scope], *, rebuild: bool = False) -> list[int]:
    """Record that these tables are out of date (creating them if new) and enqueue their
    refresh once the surrounding transaction commits. The record is durable even when the
    broker is down: the beat sweep finds it. `rebuild`: the change takes something away (a
    withdrawn result, another points scheme), so the next refresh counts from scratch."""
    marks: dict[str, Any] = {"requested": F("requested") + 1}
    if rebuild:
        marks["rebuild_from"] = F("requested") + 1
    table_ids = []
    for kind, scope_id in scopes:
        table = StandingsTable.objects.filter(scope=kind, scope_id=scope_id)
        if not table.update(**marks):
            _, created = StandingsTable.objects.get_or_create(
                scope=kind, scope_id=scope_id, defaults={"league_id": _league_of((kind, scope_id))}
            )
            if not created:
                # Another transaction created it while this one waited on its insert: mark it
                # too, or a refresh run between the two commits would miss this change.
                table.update(**marks)
        table_ids.append(
            StandingsTable.objects.values_list("pk", flat=True).get(scope=kind, scope_id=scope_id)
        )
    from league import tasks  # the tasks module calls back into these services

    for table_id in table_ids:
        tasks.enqueue_on_commit(tasks.standings_refresh, table_id)
    return table_ids


def league_settings_changed(*, league_id: int) -> None:
    """The league's tiebreak order or points changed: every table of it is stale, and its
    tally is counted again (points are part of it)."""
    standings_mark(
        StandingsTable.objects.filter(league_id=league_id).values_list("scope", "scope_id"),
        rebuild=True,
    )


def ratings_mark(league_id: int) -> None:
    """Record that a league's ratings are out of date and enqueue their refresh on commit."""
    state = RatingsState.objects.filter(league_id=league_id)
    if not state.update(requested=F("requested") + 1):
        _, created = RatingsState.objects.get_or_create(league_id=league_id)
        if not created:  # created meanwhile by another transaction: mark it (standings_mark)
            state.update(requested=F("requested") + 1)
    from league import tasks

    tasks.enqueue_on_commit(tasks.ratings_refresh, league_id)


def result_changed(match: Match, *, withdrawn: bool = False) -> None:
    """A match's result started (`withdrawn=False`) or stopped counting: its tables and ratings
    are stale. A withdrawn result cannot be subtracted from a tally: its tables are rebuilt."""
    scopes = scopes_of_match(match)
    standings_mark(scopes, rebuild=withdrawn)
    for kind, scope_id in scopes:
        if kind == StandingsScope.LEAGUE:
            ratings_mark(scope_id)


def player_renamed(*, player_id: int) -> None:
    """A player's display name changed: mark every standings table that can list them and
    every league leaderboard that rates them, so that their next refresh shows the new name
    (a table stores each row's name; a leaderboard's rendering is kept per computed version).
    Call it in the transaction that saves the name: the refresh jobs run once it commits.

    A table can list a player whose scope (a stage, its event, their league) has them entered,
    seated, given a bye or a forfeit; a table no longer listing them costs one refresh more."""
    stage_ids = (
        set(StageEntry.objects.filter(player_id=player_id).values_list("stage_id", flat=True))
        | set(StageBye.objects.filter(player_id=player_id).values_list("stage_id", flat=True))
        | set(
            StageForfeit.objects.filter(player_id=player_id).values_list(
                "stage_match__stage_id", flat=True
            )
        )
        | set(
            StageMatch.objects.filter(match__seats__player_id=player_id).values_list(
                "stage_id", flat=True
            )
        )
    )
    event_ids = set(
        Seat.objects.filter(player_id=player_id, match__event__isnull=False).values_list(
            "match__event_id", flat=True
        )
    ) | set(Stage.objects.filter(pk__in=stage_ids).values_list("event_id", flat=True))
    league_ids = set(Event.objects.filter(pk__in=event_ids).values_list("league_id", flat=True))
    table_ids = list(
        StandingsTable.objects.filter(
            Q(scope=StandingsScope.STAGE, scope_id__in=stage_ids)
            | Q(scope=StandingsScope.EVENT, scope_id__in=event_ids)
            | Q(scope=StandingsScope.LEAGUE, scope_id__in=league_ids)
        ).values_list("pk", flat=True)
    )
    StandingsTable.objects.filter(pk__in=table_ids).update(requested=F("requested") + 1)
    from league import tasks

    for table_id in table_ids:
        tasks.enqueue_on_commit(tasks.standings_refresh, table_id)
    for league_id in PlayerRating.objects.filter(player_id=player_id).values_list(
        "league_id", flat=True
    ):
        ratings_mark(league_id)


# --- Loading results --------------------------------------------------------------------------


def _finished(scope: Scope) -> QuerySet[Match]:
    kind, scope_id = scope
    matches = Match.objects.filter(status=MatchStatus.FINISHED)
    if kind == StandingsScope.STAGE:
        return matches.filter(stage_match__stage_id=scope_id)
    if kind == StandingsScope.EVENT:
        return matches.filter(event_id=scope_id)
    return matches.filter(event__league_id=scope_id)


def _stage_filter(scope: Scope, prefix: str) -> Q:
    kind, scope_id = scope
    if kind == StandingsScope.STAGE:
        return Q(**{f"{prefix}stage_id": scope_id})
    if kind == StandingsScope.EVENT:
        return Q(**{f"{prefix}stage__event_id": scope_id})
    return Q(**{f"{prefix}stage__event__league_id": scope_id})


def load_results(
    scope: Scope,
    *,
    since: datetime | None = None,
    with_times: bool = True,
    match_ids: Collection[int] | None = None,
) -> tuple[list[standings.MatchResult], list[standings.Bye]]:
    """The finished results and byes that count in `scope`, in a constant number of queries:
    finished matches with their seats, forfeits (a walkover becomes a result of its own, and a
    player who forfeited a table that played on is added to it as last), and byes.
    `with_times=False` leaves out when each finished: ratings need it, standings do not, and
    reading 20,000 timestamps costs a third of a second. `since` and `match_ids` narrow the
    finished matches (walkovers and byes are always all of them: there are few)."""
    matches = _finished(scope)
    if since is not None:
        matches = matches.filter(finished_at__gte=since)
    if match_ids is not None:
        matches = matches.filter(pk__in=list(match_ids))
    info: dict[int, tuple[datetime | None, int | None]]
    if with_times:
        info = {
            pk: (finished_at, round_)
            for pk, finished_at, round_ in matches.values_list(
                "pk", "finished_at", "stage_match__round"
            )
        }
    else:
        info = {
            pk: (None, round_) for pk, round_ in matches.values_list("pk", "stage_match__round")
        }
    seats: dict[int, list[standings.SeatResult]] = defaultdict(list)
    for match_id, player, placement, total, yardzees, upper_bonus, yardkles in (
        Seat.objects.filter(match__in=matches)
        .order_by("match_id", "order")
        .values_list(
            "match_id", "player_id", "placement", "total", "yardzees", "upper_bonus", "yardkles"
        )
    ):
        seats[match_id].append(
            standings.SeatResult(
                player=player,
                placement=placement or 1,
                score=total or 0,
                yardzees=yardzees or 0,
                upper_bonus=int(bool(upper_bonus)),
                yardkles=yardkles or 0,
            )
        )
    walkovers: dict[int, tuple[list[int], set[int], int, int, datetime]] = {}
    for (
        stage_match_id,
        match_id,
        walkover,
        order,
        round_,
        player,
        created_at,
    ) in StageForfeit.objects.filter(_stage_filter(scope, "stage_match__")).values_list(
        "stage_match_id",
        "stage_match__match_id",
        "stage_match__walkover",
        "stage_match__order",
        "stage_match__round",
        "player_id",
        "created_at",
    ):
        if walkover:
            entry = walkovers.setdefault(
                stage_match_id, (list(order or []), set(), round_, stage_match_id, created_at)
            )
            entry[1].add(player)
        elif match_id in seats:
            seats[match_id].append(
                standings.SeatResult(
                    player=player, placement=len(seats[match_id]) + 1, score=0, forfeited=True
                )
            )
    results = [
        standings.MatchResult(
            match_id=pk, seats=tuple(seats[pk]), round=info[pk][1], finished_at=info[pk][0]
        )
        for pk in info
        if len(seats[pk]) >= 2
    ]
    for order, forfeited, round_, stage_match_id, created_at in walkovers.values():
        if len(order) >= 2:
            results.append(
                standings.MatchResult(
                    # Walkovers have no game row; negative ids keep them apart from matches.
                    match_id=-stage_match_id,
                    seats=tuple(
                        standings.SeatResult(
                            player=p, placement=place, score=0, forfeited=p in forfeited
                        )
                        for place, p in enumerate(order, start=1)
                    ),
                    round=round_,
                    finished_at=created_at,
                )
            )
    byes = [
        standings.Bye(player=player, round=round_, table_size=size, stage=stage_id)
        for stage_id, round_, player, size in StageBye.objects.filter(
            _stage_filter(scope, "")
        ).values_list("stage_id", "round", "player_id", "stage__table_size")
    ]
    return results, byes


# --- Standings -----------------------------------------------------------------------------


def settings_of(scope: Scope) -> tuple[League, list[str], dict[str, Any], list[int]]:
    """The league, tiebreak order, points scheme and listed players of a table."""
    kind, scope_id = scope
    if kind == StandingsScope.STAGE:
        stage = Stage.objects.select_related("event__league").get(pk=scope_id)
        league = stage.event.league
        players = list(stage.entries.values_list("player_id", flat=True))
        return league, stage.tiebreak, stage.points or league.points, players
    league = (
        League.objects.get(pk=scope_id)
        if kind == StandingsScope.LEAGUE
        else Event.objects.select_related("league").get(pk=scope_id).league
    )
    return league, league.tiebreak, league.points, []


def _counted_afresh(
    scope: Scope, league: League, points: dict[str, Any], players: Iterable[int]
) -> standings.Tally:
    """The tally of `scope` counted from scratch: every finished result, bye and entrant."""
    tally = standings.Tally(game=league.game, points=standings.LeaguePoints.from_json(points))
    _count(tally, scope, players)
    return tally


def _count(
    tally: standings.Tally,
    scope: Scope,
    players: Iterable[int],
    match_ids: Collection[int] | None = None,
) -> None:
    """Add to `tally` the entrants, byes, walkovers and finished results of `scope` (only the
    matches of `match_ids` when given); what it has counted already is ignored."""
    for player in players:
        tally.add_player(player)
    results, byes = load_results(scope, with_times=False, match_ids=match_ids)
    tally.add_results(results)
    for bye in byes:
        tally.add_bye(bye)


def compute_table(scope: Scope) -> tuple[list[str], tuple[standings.Standing, ...]]:
    """The standings of `scope` computed from scratch, with the tiebreak order used."""
    league, tiebreak, points, players = settings_of(scope)
    tally = _counted_afresh(scope, league, points, players)
    return list(tiebreak), standings.rank_standings(tally, tiebreak)


def compute_rows(scope: Scope) -> tuple[list[str], list[dict[str, Any]]]:
    """The standings of `scope` computed from scratch: the tiebreak order and one row per
    player (with their display name)."""
    tiebreak, table = compute_table(scope)
    return tiebreak, _rows(table)


def _rows(table: Iterable[standings.Standing]) -> list[dict[str, Any]]:
    """The stored rows of a ranked table, with each player's display name."""
    table = list(table)
    names = dict(
        Player.objects.filter(pk__in=[s.player for s in table]).values_list("pk", "display_name")
    )
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
    (`rebuild` counts everything again instead). Two concurrent refreshes are harmless: only
    the one that saw more marks writes."""
    state = (
        StandingsTable.objects.filter(pk=table_id)
        .values("scope", "scope_id", "requested", "computed", "rebuild_from")
        .first()
    )
    if state is None or state["requested"] <= state["computed"]:
        return False
    seen = state["requested"]
    scope: Scope = (state["scope"], state["scope_id"])
    started = time.perf_counter()
    logger.info("Refreshing standings table %s (%s %s).", table_id, *scope)
    league, tiebreak, points, players = settings_of(scope)
    tally = None if rebuild else _stored_tally(table_id, state["rebuild_from"], points)
    added = None if tally is None else _count_since(tally, scope, players)
    if tally is None or added is None:
        tally = _counted_afresh(scope, league, points, players)
    rows = _rows(standings.rank_standings(tally, tiebreak))
    written = StandingsTable.objects.filter(pk=table_id, computed__lt=seen).update(
        rows=rows, tiebreak=list(tiebreak), computed=seen, computed_at=timezone.now()
    )
    # Storing 20,000 tables' tally takes longer than adding a few dozen results to it: the
    # stored one is brought up to date only now and then (or after a rebuild), once the new
    # table is already served.
    if written and (added is None or added >= TALLY_STORE_EVERY):
        _store_tally(table_id, seen, tally)
    logger.info(
        "Refreshed standings table %s: %d rows, %s, in %.3f s.",
        table_id,
        len(rows),
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


def _count_since(tally: standings.Tally, scope: Scope, players: Iterable[int]) -> int | None:
    """Add to `tally` what finished in `scope` since it was counted; how many results that
    was. None (the tally is then of no use) when it counts a match that no longer stands: a
    withdrawal whose rebuild mark was missed must not survive in the table."""
    finished = _ids(_finished(scope))
    counted = {match_id for match_id in tally.match_ids if match_id > 0}  # < 0: walkovers
    if not counted <= finished:
        logger.warning("Standings %s %s: the tally counts withdrawn results.", *scope)
        return None
    new = finished - counted
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


def standings_table(scope: Scope) -> StandingsTable:
    """The stored table of `scope`; computed on the spot the first time it is asked for (also
    when it was marked, e.g. by a stage starting, but its first job has not run yet)."""
    table = StandingsTable.objects.filter(scope=scope[0], scope_id=scope[1]).first()
    if table is None:
        with transaction.atomic():
            table, _ = StandingsTable.objects.get_or_create(
                scope=scope[0], scope_id=scope[1], defaults={"league_id": _league_of(scope)}
            )
    if table.computed_at is None:
        standings_refresh(table_id=table.pk)
        table.refresh_from_db()
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


# --- Checking the stored tables and ratings (`recompute_standings --check`, ...) ---------------


@dataclasses.dataclass(frozen=True, slots=True)
class CheckReport:
    """What a check of stored tables or leaderboards found: every real difference from a
    computation from scratch, one sentence each, and what it did not compare and why."""

    compared: int
    differences: tuple[str, ...]
    skipped: tuple[str, ...]


@dataclasses.dataclass(frozen=True, slots=True)
class _Marks:
    """A stored table's (or ratings state's) marks, as the check found them."""

    pk: int
    requested: int
    computed: int
    computed_at: datetime | None

    @property
    def pending(self) -> bool:
        return self.requested > self.computed


def default_check_wait() -> float:
    """How long a check gives a table marked stale to be computed by its job: twice the beat
    sweep's interval, by which a healthy system has computed every mark (its own job runs
    a second after it; the sweep catches what the broker lost)."""
    return 2 * float(settings.CELERY_BEAT_SCHEDULE["standings-sweep"]["schedule"])


def _wait_for_marks(
    model: type[StandingsTable] | type[RatingsState], marks: dict[int, int], wait: float
) -> dict[int, _Marks]:
    """Wait up to `wait` seconds until every row of `model` in `marks` (pk: the `requested`
    the check saw) has been computed up to that mark. The rows that were not, as they are."""
    if not marks:
        return {}
    deadline = time.monotonic() + wait
    while True:
        behind = {
            pk: _Marks(pk, requested, computed, computed_at)
            for pk, requested, computed, computed_at in model.objects.filter(
                pk__in=list(marks)
            ).values_list("pk", "requested", "computed", "computed_at")
            if computed < marks[pk]
        }
        left = deadline - time.monotonic()
        if not behind or left <= 0:
            return behind
        marks = {pk: marks[pk] for pk in behind}
        time.sleep(min(0.5, left))


@contextmanager
def _one_snapshot() -> Iterator[None]:
    """A read-only transaction whose statements all read one moment (PostgreSQL's REPEATABLE
    READ; its default takes a new snapshot for every statement). A stored table read in it
    and the results it is compared with are then of the same moment: a result committed
    while the check reads cannot make a current table look wrong. Inside a transaction
    already open, that one is used as it is."""
    outermost = not transaction.get_connection().in_atomic_block
    with transaction.atomic():
        if outermost and connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
        yield


def _still_pending(name: str, marks: _Marks, wait: float) -> str:
    waited = f" after waiting {wait:g} s: are a worker and beat running?" if wait > 0 else ""
    return (
        f"{name}: newer results are still pending "
        f"(marked {marks.requested}, computed {marks.computed}){waited}"
    )


def _stored_tables(scopes: list[Scope]) -> dict[Scope, _Marks]:
    by_kind: dict[str, list[int]] = defaultdict(list)
    for kind, scope_id in scopes:
        by_kind[kind].append(scope_id)
    which = Q(pk__in=[])
    for kind, ids in by_kind.items():
        which |= Q(scope=kind, scope_id__in=ids)
    return {
        (kind, scope_id): _Marks(pk, requested, computed, computed_at)
        for kind, scope_id, pk, requested, computed, computed_at in StandingsTable.objects.filter(
            which
        ).values_list("scope", "scope_id", "pk", "requested", "computed", "computed_at")
    }


def standings_check(scopes: Iterable[Scope], *, wait: float = 0.0) -> CheckReport:
    """Compare the stored tables of `scopes` with a count from scratch, reporting only real
    differences; writes nothing (`recompute_standings --check`). Healthy means (see
    docs/operations.md, "Checking and repairing derived data"):

    - a table never computed (none stored, or marked but never computed yet: a draft stage, a
      league never viewed) is not compared: it is counted from scratch when first shown;
    - a table marked stale gets `wait` seconds for its job (or the beat sweep) to compute it
      past the mark the check saw; a table still behind then is a difference;
    - every other table is compared in one snapshot with the results; one marked again since
      the check began is being refreshed, not wrong: skipped, with a note;
    - rows are compared with the names they show: a rename marks its tables
      (`player_renamed`), so a name that differs is a rename that did not."""
    scopes = list(scopes)
    stored = _stored_tables(scopes)
    skipped: list[str] = []
    computed: list[Scope] = []
    for scope in scopes:
        marks = stored.get(scope)
        if marks is None or marks.computed_at is None:
            skipped.append(f"{scope[0]} {scope[1]}: never computed, skipped")
        else:
            computed.append(scope)
    behind = _wait_for_marks(
        StandingsTable,
        {stored[s].pk: stored[s].requested for s in computed if stored[s].pending},
        wait,
    )
    differences: list[str] = []
    compared = 0
    for kind, scope_id in computed:
        late = behind.get(stored[(kind, scope_id)].pk)
        if late is not None:
            differences.append(_still_pending(f"{kind} {scope_id}", late, wait))
            continue
        with _one_snapshot():
            table = StandingsTable.objects.filter(scope=kind, scope_id=scope_id).first()
            if table is None or table.pending:
                skipped.append(
                    f"{kind} {scope_id}: marked again while the check ran (new results are "
                    "being counted), skipped"
                )
                continue
            compared += 1
            differences.extend(_table_differences(table))
    return CheckReport(compared, tuple(differences), tuple(skipped))


def _table_differences(table: StandingsTable) -> list[str]:
    """How a stored, current table differs from a count from scratch (in the same snapshot)."""
    name = f"{table.scope} {table.scope_id}"
    tiebreak, computed = compute_rows((table.scope, table.scope_id))
    rows = json.loads(json.dumps(computed))  # as the JSON column gives it back
    problems = []
    if list(table.tiebreak) != tiebreak:
        problems.append(f"{name}: tiebreak {table.tiebreak} != {tiebreak}")
    if table.rows == rows:
        return problems
    stored = {row["player"]: row for row in table.rows}
    fresh = {row["player"]: row for row in rows}
    differing = sorted(
        player for player in stored.keys() | fresh.keys() if stored.get(player) != fresh.get(player)
    )
    renamed = [
        player
        for player in differing
        if player in stored
        and player in fresh
        and {**stored[player], "name": ""} == {**fresh[player], "name": ""}
    ]
    if differing and renamed == differing:
        problems.append(
            f"{name}: shows old names of players {differing[:10]} (renamed without marking "
            "the table: player_renamed)"
        )
    elif differing:
        problems.append(f"{name}: rows differ for players {differing[:10]}")
    else:
        problems.append(f"{name}: rows are in another order")
    return problems


def standings_differences(scopes: Iterable[Scope]) -> list[str]:
    """Every real difference of the stored tables of `scopes` from a count from scratch, a
    table still marked stale included (`standings_check` without waiting)."""
    return list(standings_check(scopes).differences)


# --- Ratings -----------------------------------------------------------------------------------


def _rated_matches(league_id: int) -> dict[int, datetime]:
    return dict(
        RatingChange.objects.filter(league_id=league_id)
        .values_list("match_id", "finished_at")
        .distinct()
    )


# The namespace of the ratings locks (`_lock_ratings`): "YLRT" as a 32-bit integer.
RATINGS_LOCK = 0x594C5254


def _lock_ratings(league_id: int) -> None:
    """Hold the league's ratings lock until the transaction ends, so that two jobs rating one
    league (a refresh, a replay) run one after the other: the second waits, then reads what
    the first stored. A PostgreSQL advisory lock keyed (RATINGS_LOCK, league id): the
    two-integer keys never meet the one-bigint ones, and the namespace keeps it apart from
    other locks; unlike a lock on the `RatingsState` row it never holds up the result that
    marks the ratings stale. SQLite has no such locks and lets one writer in at a time."""
    if not transaction.get_connection().in_atomic_block:
        raise transaction.TransactionManagementError("The ratings lock needs a transaction.")
    if connection.vendor != "postgresql":
        return
    # objid is a 32-bit integer: a larger id wraps (ids 2**32 apart would only wait for each other).
    objid = (league_id + 2**31) % 2**32 - 2**31
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(%s, %s)", [RATINGS_LOCK, objid])


def ratings_refresh(*, league_id: int) -> bool:
    """Bring a league's ratings up to date: rate the matches finished since, in finished
    order; when a rated result was withdrawn or a match finished before one already rated,
    replay from that point on. True when anything changed. Under the league's ratings lock:
    a second refresh at the same time waits, then finds the work done (or rates only what
    finished since)."""
    if not RatingsState.objects.filter(league_id=league_id, requested__gt=F("computed")).exists():
        return False
    with transaction.atomic():
        _lock_ratings(league_id)
        # Read again under the lock: a refresh that held it may have done the work.
        state = RatingsState.objects.filter(league_id=league_id).first()
        if state is None or not state.pending:
            return False
        changed = _rerate(league_id)
        RatingsState.objects.filter(pk=state.pk, computed__lt=state.requested).update(
            computed=state.requested, computed_at=timezone.now()
        )
    return changed


def _rerate(league_id: int) -> bool:
    finished = dict(_finished((StandingsScope.LEAGUE, league_id)).values_list("pk", "finished_at"))
    rated = _rated_matches(league_id)
    differing = [
        standings.finish_order(when, pk)
        for pk, when in {**finished, **rated}.items()
        if finished.get(pk) != rated.get(pk)
    ]
    if not differing:
        return False
    _, start_at, start_id = min(differing)
    last_rated = max((standings.finish_order(when, pk) for pk, when in rated.items()), default=None)
    in_order = last_rated is None or last_rated < (False, start_at, start_id)
    after = Q(finished_at__gt=start_at) | Q(finished_at=start_at, match_id__gte=start_id)
    if in_order:
        base = {
            player: rating.Rating(mu, sigma)
            for player, mu, sigma in PlayerRating.objects.filter(league_id=league_id).values_list(
                "player_id", "mu", "sigma"
            )
        }
    else:
        RatingChange.objects.filter(Q(league_id=league_id) & after).delete()
        base = {}
        for player, mu, sigma in (
            RatingChange.objects.filter(league_id=league_id)
            .order_by("finished_at", "match_id")
            .values_list("player_id", "mu", "sigma")
        ):
            base[player] = rating.Rating(mu, sigma)
    results, _ = load_results((StandingsScope.LEAGUE, league_id), since=start_at)
    todo = [r for r in results if r.match_id > 0 and r.order_key >= (False, start_at, start_id)]
    replayed = rating.replay(todo, start=base)
    RatingChange.objects.bulk_create(
        RatingChange(
            league_id=league_id,
            player_id=change.player,
            match_id=change.match_id,
            finished_at=change.finished_at or timezone.now(),
            mu=change.mu,
            sigma=change.sigma,
            ordinal=change.ordinal,
        )
        for change in replayed.history
    )
    _store_leaderboard(league_id, {**base, **replayed.ratings}, rebuild=not in_order)
    return True


def _store_leaderboard(league_id: int, ratings: dict[int, rating.Rating], *, rebuild: bool) -> None:
    counts = dict(
        RatingChange.objects.filter(league_id=league_id)
        .values_list("player_id")
        .annotate(n=Count("pk"))
        .values_list("player_id", "n")
    )
    if rebuild:
        PlayerRating.objects.filter(league_id=league_id).delete()
    PlayerRating.objects.bulk_create(
        [
            PlayerRating(
                league_id=league_id,
                player_id=player,
                mu=value.mu,
                sigma=value.sigma,
                ordinal=value.ordinal,
                matches=counts.get(player, 0),
            )
            for player, value in ratings.items()
            if counts.get(player)
        ],
        update_conflicts=True,
        unique_fields=["league", "player"],
        update_fields=["mu", "sigma", "ordinal", "matches"],
    )


@transaction.atomic
def ratings_replay(*, league_id: int) -> None:
    """Forget a league's rating history and rate every finished match again, in order (under
    the league's ratings lock, as a refresh)."""
    _lock_ratings(league_id)
    RatingChange.objects.filter(league_id=league_id).delete()
    PlayerRating.objects.filter(league_id=league_id).delete()
    state, _ = RatingsState.objects.get_or_create(league_id=league_id)
    RatingsState.objects.filter(pk=state.pk).update(requested=F("requested") + 1)
    ratings_refresh(league_id=league_id)


def ratings_check(
    league_ids: Iterable[int], *, wait: float = 0.0, tolerance: float = 1e-9
) -> CheckReport:
    """Compare the stored leaderboards of `league_ids` with rating all their finished matches
    from scratch, reporting only real differences; writes nothing (`recompute_ratings
    --check`). As `standings_check`: ratings marked stale get `wait` seconds for their job,
    each league is compared in one snapshot, one marked again since the check began is
    skipped; a league never rated with nothing to rate is skipped. The leaderboard shows no
    stored names."""
    league_ids = list(league_ids)
    states = {
        league_id: _Marks(pk, requested, computed, computed_at)
        for league_id, pk, requested, computed, computed_at in RatingsState.objects.filter(
            league_id__in=league_ids
        ).values_list("league_id", "pk", "requested", "computed", "computed_at")
    }
    behind = _wait_for_marks(
        RatingsState, {m.pk: m.requested for m in states.values() if m.pending}, wait
    )
    differences: list[str] = []
    skipped: list[str] = []
    compared = 0
    for league_id in league_ids:
        marks = states.get(league_id)
        if marks is not None and marks.pk in behind:
            differences.append(_still_pending(f"league {league_id}", behind[marks.pk], wait))
            continue
        with _one_snapshot():
            state = RatingsState.objects.filter(league_id=league_id).first()
            if state is not None and state.pending:
                skipped.append(
                    f"league {league_id}: marked again while the check ran (new results are "
                    "being rated), skipped"
                )
                continue
            problems = _leaderboard_differences(league_id, tolerance)
            if state is None and not problems:
                skipped.append(f"league {league_id}: never computed, skipped")
                continue
            compared += 1
            differences.extend(problems)
    return CheckReport(compared, tuple(differences), tuple(skipped))


def _leaderboard_differences(league_id: int, tolerance: float) -> list[str]:
    """How a league's stored leaderboard differs from rating its matches from scratch."""
    problems = []
    results, _ = load_results((StandingsScope.LEAGUE, league_id))
    fresh = rating.replay([r for r in results if r.match_id > 0]).ratings
    counts: dict[int, int] = defaultdict(int)
    for result in results:
        if result.match_id > 0:
            for seat in result.seats:
                counts[seat.player] += 1
    stored = {
        player: (mu, sigma, matches)
        for player, mu, sigma, matches in PlayerRating.objects.filter(
            league_id=league_id
        ).values_list("player_id", "mu", "sigma", "matches")
    }
    for player in sorted(stored.keys() | fresh.keys()):
        if player not in stored or player not in fresh:
            problems.append(f"league {league_id}: player {player} is only on one leaderboard")
            continue
        mu, sigma, matches = stored[player]
        want = fresh[player]
        if abs(mu - want.mu) > tolerance or abs(sigma - want.sigma) > tolerance:
            problems.append(
                f"league {league_id}: player {player} is rated {mu:.6f}/{sigma:.6f}, "
                f"from scratch {want.mu:.6f}/{want.sigma:.6f}"
            )
        if matches != counts[player]:
            problems.append(
                f"league {league_id}: player {player} has {matches} rated matches, "
                f"from scratch {counts[player]}"
            )
    return problems


def ratings_differences(league_id: int, *, tolerance: float = 1e-9) -> list[str]:
    """Every real difference of a league's stored leaderboard from rating its matches from
    scratch, ratings still marked stale included (`ratings_check` without waiting)."""
    return list(ratings_check([league_id], tolerance=tolerance).differences)
