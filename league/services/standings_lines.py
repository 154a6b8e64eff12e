"""Writing a standings table's lines (`StandingsRow`) and its row: every line after a count
from scratch, only the lines of the players whose totals changed after a refresh that kept its
ranking, and in the table's row what is kept apart from the lines, the order, the ranks and the
metrics that depend on other players (docs/standings.md, "After one more result")."""

import dataclasses
import json
from collections.abc import Collection, Iterable
from typing import Any

from django.contrib.postgres.fields import ArrayField
from django.db import connection, transaction
from django.db.models import BigIntegerField
from django.db.models.expressions import RawSQL
from django.utils import timezone

from core.prepared import prepared_cursor
from league import standings
from league.models import Player, StandingsRow, StandingsTable
from league.standings import incremental


def rows_of(table: Iterable[standings.Standing]) -> list[dict[str, Any]]:
    """The stored rows of a ranked table, with each player's display name."""
    table = list(table)
    names = names_of([s.player for s in table])
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


@dataclasses.dataclass(frozen=True)
class Mark:
    """What a refresh writes at: the mark it saw (`seen`), the mark of the stored lines its
    ranking was kept from (None: it writes every line), and the listed matches it read (they
    leave the table's list once it writes)."""

    seen: int
    lines_at: int | None
    counted: list[int]


# The listed matches a writing refresh read leave the table's list; a list that was unknown
# (None) becomes empty when no mark came since the refresh read it, else stays unknown.
_PENDING_AFTER = """CASE
    WHEN requested = %(seen)s THEN '{}'::bigint[]
    WHEN pending_matches IS NULL THEN NULL
    ELSE ARRAY(
        SELECT m FROM unnest(pending_matches) AS m WHERE m <> ALL(%(counted)s::bigint[])
    )
END"""


def write_lines(
    table_id: int,
    mark: Mark,
    tally: standings.Tally,
    ranked: incremental.RankedTable,
    changes: incremental.Changes | None,
    tiebreak: list[str],
) -> int | None:
    """Write the table at mark `mark.seen`, unless a refresh that saw a later mark wrote first:
    only the lines of the players whose totals `changes` counted (and of new players) when
    the stored lines are those of the ranking at mark `mark.lines_at`, else every line; the
    order, the ranks and the metrics kept apart from the lines in the table's row. How many
    lines were written; None when none was."""
    header = {
        "computed": mark.seen,
        "computed_at": timezone.now(),
        "tiebreak": list(tiebreak),
        "ranking": _ranking(ranked),
    }
    if changes is not None and mark.lines_at is not None:
        written = _write_changed_lines(table_id, header, mark, tally, ranked, changes)
        if written is not None:
            return written
    pending = RawSQL(  # noqa: S611 (constant SQL)
        _PENDING_AFTER.replace("%(seen)s", "%s").replace("%(counted)s", "%s"),
        (mark.seen, mark.counted),
        output_field=ArrayField(BigIntegerField()),
    )
    with transaction.atomic():
        # The table's row, locked by the update until this commits, orders the writers.
        if StandingsTable.objects.filter(pk=table_id, computed__lt=mark.seen).update(
            **header, pending_matches=pending
        ):
            StandingsRow.objects.filter(table_id=table_id).delete()
            _insert_lines(table_id, tally, ranked, ranked.players)
            return len(ranked.players)
    return None


def _ranking(ranked: incremental.RankedTable) -> str:
    """What the lines leave out, as the table's row stores it (`StandingsTable.ranking`)."""
    players, ranks, metrics = ranked.ranking()
    return json.dumps({"players": players, "ranks": ranks, "metrics": metrics})


def names_of(players: Collection[int]) -> dict[int, str]:
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
INSERT INTO league_standingsrow (table_id, player, metrics, data)
SELECT %s, line.player, line.metrics, line.data
FROM jsonb_to_recordset(%s::jsonb) AS line(player bigint, metrics jsonb, data jsonb)
"""

# A line's display name as it is now.
_NAME = """jsonb_build_object('name', COALESCE(
    (SELECT p.display_name FROM league_player AS p WHERE p.id = line.player), ''
))"""

# The table's row first (its lock orders two writers: a refresh that saw a later mark waits,
# then finds `computed` moved and writes nothing), then the lines of the players whose totals
# changed (with their names as they are now, read here; found by the index of the table's
# players) and the new ones, in one statement, prepared on the server (and its parameters
# bound there: the ranking's 25 kB are not quoted into the statement's text).
_WRITE_CHANGED_LINES = """
WITH header AS (
    UPDATE league_standingstable
    SET computed = %(seen)s, computed_at = %(now)s, tiebreak = %(tiebreak)s::jsonb,
        ranking = %(ranking)s, pending_matches = {pending}
    WHERE id = %(table)s AND computed = %(lines_at)s
    RETURNING id
), changed AS (
    UPDATE league_standingsrow AS r
    SET metrics = line.metrics, data = line.data || {name}
    FROM header, jsonb_to_recordset(%(changed)s::jsonb)
        AS line(player bigint, metrics jsonb, data jsonb)
    WHERE r.table_id = %(table)s AND r.player = ANY(%(changed_players)s::bigint[])
        AND r.player = line.player
    RETURNING 1
), added AS (
    INSERT INTO league_standingsrow (table_id, player, metrics, data)
    SELECT header.id, line.player, line.metrics, line.data || {name}
    FROM header, jsonb_to_recordset(%(added)s::jsonb)
        AS line(player bigint, metrics jsonb, data jsonb)
    RETURNING 1
)
SELECT (SELECT count(*) FROM header), (SELECT count(*) FROM changed), (SELECT count(*) FROM added)
""".replace("{pending}", _PENDING_AFTER).replace("{name}", _NAME)


def _insert_lines(
    table_id: int,
    tally: standings.Tally,
    ranked: incremental.RankedTable,
    players: Collection[int],
) -> None:
    if players:
        lines = _lines(tally, ranked, players, names_of(players))
        with connection.cursor() as cursor:
            cursor.execute(_INSERT_LINES, [table_id, lines])


def _write_changed_lines(
    table_id: int,
    header: dict[str, Any],
    mark: Mark,
    tally: standings.Tally,
    ranked: incremental.RankedTable,
    changes: incremental.Changes,
) -> int | None:
    """Write the table's new mark, its order and the lines of the players `changes` counted,
    if the stored lines are still those of mark `mark.lines_at`; how many lines were written,
    None when nothing was."""
    changed = sorted(changes.counted - changes.added)
    params = {
        "table": table_id,
        "lines_at": mark.lines_at,
        "seen": mark.seen,
        "counted": mark.counted,
        "now": header["computed_at"],
        "tiebreak": json.dumps(header["tiebreak"]),
        "ranking": header["ranking"],
        "changed": _lines(tally, ranked, changed),
        "changed_players": changed,
        "added": _lines(tally, ranked, changes.added),
    }
    with prepared_cursor(connection) as cursor:
        cursor.execute(_WRITE_CHANGED_LINES, params)
        headers, updated, inserted = cursor.fetchone()
    return updated + inserted if headers else None


def _lines(
    tally: standings.Tally,
    ranked: incremental.RankedTable,
    players: Collection[int],
    names: dict[int, str] | None = None,
) -> str:
    """The lines of `players` as one JSON array: the metrics of the line and the rest of it
    (the totals; the display name with `names`)."""
    return json.dumps(
        [
            {
                "player": player,
                "metrics": ranked.line_metrics(player),
                "data": _line_data(ranked.standing(tally, player), names),
            }
            for player in players
        ]
    )
