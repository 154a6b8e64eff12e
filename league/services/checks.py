"""Checking the stored standings tables and ratings against a from-scratch computation
(`recompute_standings --check`, `recompute_ratings --check`): only real differences count."""

import dataclasses
import json
import logging
import time
from collections import defaultdict
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from datetime import datetime

from django.conf import settings
from django.db import connection, transaction
from django.db.models import Q

from league import rating
from league.models import (
    PlayerRating,
    RatingsState,
    ScopeKey,
    StandingsScope,
    StandingsTable,
)
from league.results import load_results
from league.services.standings_refresh import compute_rows

logger = logging.getLogger(__name__)

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
        if outermost:
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
        yield


def _still_pending(name: str, marks: _Marks, wait: float) -> str:
    waited = f" after waiting {wait:g} s: are a worker and beat running?" if wait > 0 else ""
    return (
        f"{name}: newer results are still pending "
        f"(marked {marks.requested}, computed {marks.computed}){waited}"
    )


def _stored_tables(scopes: list[ScopeKey]) -> dict[ScopeKey, _Marks]:
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


def standings_check(scopes: Iterable[ScopeKey], *, wait: float = 0.0) -> CheckReport:
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
    computed: list[ScopeKey] = []
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
