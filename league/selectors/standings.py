"""Stored standings tables, one or several, and a table as the API and pages show it."""

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db.models import Q

from league import models


@dataclass(frozen=True, slots=True)
class StandingsAnswer:
    """A stored standings table (with `group`, one group's rows). `rows` are the stored rows
    (docs/standings.md lists their keys)."""

    scope: str
    scope_id: int
    group: int | None
    tiebreak: tuple[str, ...]
    computed_at: datetime | None
    pending: bool
    rows: tuple[Mapping[str, Any], ...]


def standings_answer(table: models.StandingsTable, *, group: int | None = None) -> StandingsAnswer:
    """A stored standings table as the API and pages show it; with `group`, only the rows of
    that group (a stage played in groups ranks each group on its own)."""
    rows = table.rows
    if group is not None:
        rows = [row for row in rows if row.get("group") == group]
    return StandingsAnswer(
        scope=table.scope,
        scope_id=table.scope_id,
        group=group,
        tiebreak=tuple(str(key) for key in table.tiebreak),
        computed_at=table.computed_at,
        pending=table.pending,
        rows=tuple(rows),
    )


def stored_standings(
    scopes: Iterable[tuple[str, int]], *, rows: bool = True
) -> dict[tuple[str, int], models.StandingsTable]:
    """The stored standings tables of several scopes, in one query; a scope with no table
    computed yet is missing from the answer. `rows=False` leaves out the rows (1,000 lines of
    a large table), for a page that only needs to know which version is stored."""
    wanted = list(scopes)
    if not wanted:
        return {}
    condition = Q()
    for kind, scope_id in wanted:
        condition |= Q(scope=kind, scope_id=scope_id)
    tables = models.StandingsTable.objects.filter(condition, computed_at__isnull=False)
    # Without the rows, nor the ranking kept apart from the lines (merged into the rows).
    tables = models.with_rows(tables) if rows else tables.defer("ranking")
    return {(table.scope, table.scope_id): table for table in tables}


def standings_table(table_id: int) -> models.StandingsTable:
    """A stored standings table with its rows and the version they belong to, in one query."""
    return models.with_rows(models.StandingsTable.objects.filter(pk=table_id)).get()
