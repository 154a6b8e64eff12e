"""Database rows -> the pure packages' plain results: the finished matches, byes and forfeits
of a scope as `league.standings` takes them."""

import logging
from collections import defaultdict
from collections.abc import Collection
from dataclasses import dataclass
from datetime import datetime
from itertools import chain
from typing import Any

import numpy as np
import numpy.typing as npt
from django.db import connection
from django.db.models import F, IntegerField, QuerySet
from django.db.models.functions import Cast, Coalesce

from games.models import Match, MatchStatus, Seat
from league import standings
from league.models import Scope, ScopeKey, StageBye, StageForfeit, StandingsScope

logger = logging.getLogger(__name__)

# --- Loading results --------------------------------------------------------------------------


def finished_matches(scope: ScopeKey) -> QuerySet[Match]:
    """The finished matches that count in a scope's table."""
    return Match.objects.filter(Scope(*scope).matches(), status=MatchStatus.FINISHED)


def load_results(
    scope: ScopeKey,
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
    matches = finished_matches(scope)
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
    forfeited_seats, walkovers = _forfeits(scope)
    for match_id, players in forfeited_seats.items():
        if match_id in seats:
            for player in players:
                seats[match_id].append(
                    standings.SeatResult(
                        player=player,
                        placement=len(seats[match_id]) + 1,
                        score=None,
                        forfeited=True,
                    )
                )
    results = [
        standings.MatchResult(
            match_id=pk, seats=tuple(seats[pk]), round=info[pk][1], finished_at=info[pk][0]
        )
        for pk in info
        if len(seats[pk]) >= 2
    ]
    results.extend(walkovers)
    byes = _byes(scope)
    return results, byes


def _forfeits(scope: ScopeKey) -> tuple[dict[int, list[int]], list[standings.MatchResult]]:
    """The forfeits of `scope`: the players who forfeited a table that played on, by match id
    (in the order they forfeited), and every walkover as a result of its own."""
    seats: dict[int, list[int]] = defaultdict(list)
    walkovers: dict[int, tuple[list[int], set[int], int, int, datetime]] = {}
    for (
        stage_match_id,
        match_id,
        walkover,
        order,
        round_,
        player,
        created_at,
    ) in StageForfeit.objects.filter(Scope(*scope).stage_rows("stage_match__")).values_list(
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
        elif match_id is not None:
            seats[match_id].append(player)
    results = [
        standings.MatchResult(
            # Walkovers have no game row; negative ids keep them apart from matches.
            match_id=-stage_match_id,
            seats=tuple(
                standings.SeatResult(
                    player=p, placement=place, score=None, forfeited=p in forfeited
                )
                for place, p in enumerate(order, start=1)
            ),
            round=round_,
            finished_at=created_at,
        )
        for order, forfeited, round_, stage_match_id, created_at in walkovers.values()
        if len(order) >= 2
    ]
    return seats, results


def _byes(scope: ScopeKey) -> list[standings.Bye]:
    return [
        standings.Bye(player=player, round=round_, table_size=size, stage=stage_id)
        for stage_id, round_, player, size in StageBye.objects.filter(
            Scope(*scope).stage_rows("")
        ).values_list("stage_id", "round", "player_id", "stage__table_size")
    ]


# The seat columns `Tally.add_seat_columns` takes, as `seat_columns_query` reads them.
SEAT_COLUMNS = (
    "match_id",
    "player_id",
    "placement",
    "total",
    "yardzees",
    "upper_bonus",
    "yardkles",
)


def _seat_columns() -> tuple[Any, ...]:
    """The columns of `SEAT_COLUMNS` of a seat (missing values as `load_results` reads them)."""
    return (
        F("match_id"),
        F("player_id"),
        Coalesce("placement", 1),
        Coalesce("total", 0),
        Coalesce("yardzees", 0),
        Cast(Coalesce("upper_bonus", False), IntegerField()),
        Coalesce("yardkles", 0),
    )


def _finished_seats(scope: ScopeKey) -> QuerySet[Seat]:
    # A join, not `match_id IN (subquery)`: on tables never analysed (a benchmark's, filled in
    # its own transaction) PostgreSQL may run the subquery once per seat, for minutes.
    return Seat.objects.filter(
        Scope(*scope).matches("match__"), match__status=MatchStatus.FINISHED
    ).order_by("match_id", "order")


def seat_columns_query(
    scope: ScopeKey, match_ids: Collection[int] | None = None
) -> tuple[str, tuple[Any, ...]]:
    """The one query of a standings load: every seat of the finished matches of `scope` (only
    of `match_ids` when given), by match and seat order, as the integers of `SEAT_COLUMNS`
    (missing values as `load_results` reads them)."""
    seats = _finished_seats(scope)
    if match_ids is not None:
        seats = seats.filter(match_id__in=list(match_ids))
    sql, params = seats.values_list(*_seat_columns()).query.sql_with_params()
    return sql, tuple(params)


# `_seat_columns` of a seat `s` written out in SQL, for the statements written by hand.
_SEAT_COLUMNS_SQL = (
    "s.match_id, s.player_id, COALESCE(s.placement, 1), COALESCE(s.total, 0), "
    "COALESCE(s.yardzees, 0), COALESCE(s.upper_bonus, false)::integer, COALESCE(s.yardkles, 0)"
)

# `Scope.matches` of a match `m` written out in SQL, for each kind of scope (its id as the
# parameter `scope_id`).
_SCOPE_MATCHES_SQL = {
    "stage": "JOIN league_stagematch AS sm ON sm.match_id = m.id WHERE sm.stage_id = %(scope_id)s",
    "event": "WHERE m.event_id = %(scope_id)s",
    "league": "JOIN league_event AS e ON e.id = m.event_id WHERE e.league_id = %(scope_id)s",
}

_LISTED_SEATS_SQL = """ARRAY(
    SELECT ARRAY[{columns}]
    FROM games_seat AS s JOIN games_match AS m ON m.id = s.match_id {scope}
        AND m.status = 'finished' AND s.match_id = ANY({match_ids})
    ORDER BY s.match_id, s."order"
)"""


def listed_seats_sql(kind: str, match_ids: str) -> str:
    """SQL of the rows `seat_columns_query` reads for a scope of `kind` (its id the parameter
    `scope_id`) and the matches of the SQL array `match_ids` (such as a table's
    `pending_matches`), as one array of rows: read in the same statement as what holds the
    ids."""
    return (
        _LISTED_SEATS_SQL.replace("{columns}", _SEAT_COLUMNS_SQL)
        .replace("{scope}", _SCOPE_MATCHES_SQL[StandingsScope(kind)])
        .replace("{match_ids}", match_ids)
    )


@dataclass(frozen=True)
class StandingsLoad:
    """What a standings table counts, read lean: the seats of the finished matches as integer
    columns (`SEAT_COLUMNS`, for `Tally.add_seat_columns`), the matches a forfeit changed and
    the walkovers as results (for `Tally.add_result`), and the byes."""

    seats: tuple[npt.NDArray[np.int64], ...]
    results: list[standings.MatchResult]
    byes: list[standings.Bye]

    def add_to(self, tally: standings.Tally) -> None:
        """Count all of it in `tally` (what it counted already is ignored)."""
        tally.add_seat_columns(*self.seats)
        tally.add_results(self.results)
        for bye in self.byes:
            tally.add_bye(bye)


def load_standings(
    scope: ScopeKey,
    *,
    match_ids: Collection[int] | None = None,
    stages: bool = True,
    rows: list[list[int]] | None = None,
) -> StandingsLoad:
    """The finished results and byes of `scope` as `load_results(scope, with_times=False)` has
    them (rounds left out: standings do not use them), read in one query of integer columns
    plus the few forfeits and byes: no model instance, no object per seat. `stages=False`: the
    scope has no stage, so no forfeit or bye either (neither is read). `rows`: those of the
    seats of `match_ids`, read already (`seat_columns_of`)."""
    if rows is None:
        rows = []
        if match_ids is None or match_ids:  # no ids: an IN () Django will not even send
            sql, params = seat_columns_query(scope, match_ids)
            with connection.cursor() as cursor:
                cursor.execute(sql, params)
                rows = cursor.fetchall()
    width = len(SEAT_COLUMNS)
    table = np.fromiter(chain.from_iterable(rows), np.int64, len(rows) * width).reshape(-1, width)
    columns = tuple(table.T)
    forfeited_seats, walkovers = _forfeits(scope) if stages else ({}, [])
    match_of_seat = columns[0]
    if len(match_of_seat):
        ids, counts = np.unique(match_of_seat, return_counts=True)
        lone = set(ids[counts < 2].tolist())  # load_results leaves out a match of one seat
        moved = lone | set(forfeited_seats)
        if moved:
            keep = ~np.isin(match_of_seat, np.fromiter(moved, np.int64, len(moved)))
            aside = table[~keep]
            columns = tuple(table[keep].T)
            seats_of: dict[int, list[standings.SeatResult]] = defaultdict(list)
            for match_id, player, placement, total, zees, bonus, kles in aside.tolist():
                seats_of[match_id].append(
                    standings.SeatResult(
                        player=player,
                        placement=placement,
                        score=total,
                        yardzees=zees,
                        upper_bonus=bonus,
                        yardkles=kles,
                    )
                )
            for match_id, players in forfeited_seats.items():
                seated = seats_of.get(match_id)
                if seated is None:
                    continue
                for player in players:
                    seated.append(
                        standings.SeatResult(
                            player=player, placement=len(seated) + 1, score=None, forfeited=True
                        )
                    )
            walkovers = [
                standings.MatchResult(match_id=match_id, seats=tuple(seated))
                for match_id, seated in seats_of.items()
                if len(seated) >= 2
            ] + walkovers
    return StandingsLoad(seats=columns, results=walkovers, byes=_byes(scope) if stages else [])
