"""Stored standings tables of a stage, an event or a league, and their tallies."""

import json
from typing import Any, NamedTuple

from django.contrib.postgres.fields import ArrayField
from django.db import connection, models
from django.db.models.expressions import RawSQL

from league.models.organization import Event, League
from league.models.stages import Stage


class StandingsScope(models.TextChoices):
    STAGE = "stage", "Stage"
    EVENT = "event", "Event"
    LEAGUE = "league", "League"


class StandingsTable(models.Model):
    """A computed standings table, served as stored.

    Every change that can move it bumps `requested` in the same transaction; a refresh records
    the value it computed from in `computed`. So `pending` (requested > computed) survives a
    broker outage, and the beat sweep finds what was missed."""

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="standings_tables")
    scope = models.CharField(max_length=16, choices=StandingsScope.choices)
    scope_id = models.PositiveBigIntegerField()
    tiebreak = models.JSONField(default=list)
    requested = models.PositiveIntegerField(default=1)
    computed = models.PositiveIntegerField(default=0)
    computed_at = models.DateTimeField(null=True, blank=True)
    # The `requested` of the last change that a tally cannot absorb by adding (a result
    # withdrawn, the points scheme changed): a stored tally counted before it is rebuilt.
    rebuild_from = models.PositiveIntegerField(default=0)
    # What one result changes for players who did not play it, kept beside the lines instead
    # of in them, so that a refresh writes only the lines of the players whose totals changed:
    # the table's order and ranks, and the values of the metrics that depend on other players
    # (Buchholz, median Buchholz, head-to-head), as JSON: {"players": [player ids, best
    # first], "ranks": [the rank of each], "metrics": {metric key: [the value of each]}}; ""
    # before the table is first computed. Merged with the lines when they are read
    # (`merge_ranking`). Text, not jsonb: PostgreSQL's conversion of its 3,000 numbers to
    # jsonb took 5 ms of every refresh, and its readers parse it in Python anyway.
    ranking = models.TextField(default="", blank=True)
    # The matches whose results were marked since the last refresh that wrote (appended by
    # `standings_marks.result_changed` in the finishing transaction): a refresh that kept the
    # tally of the stored lines counts exactly these. None: a mark that did not say which
    # results it brings (the refresh then compares every finished match of the scope).
    pending_matches = ArrayField(models.BigIntegerField(), null=True, blank=True, default=list)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["scope", "scope_id"], name="standings_unique_scope"),
        ]
        indexes = [models.Index(fields=["league", "scope"])]

    def __str__(self) -> str:
        return f"{self.scope} {self.scope_id} standings"

    @property
    def pending(self) -> bool:
        return self.requested > self.computed

    @property
    def players_in_order(self) -> list[int]:
        """The table's players, best first."""
        return list(json.loads(self.ranking)["players"]) if self.ranking else []

    @property
    def rows(self) -> list[dict[str, Any]]:
        """The table's rows, best first (`StandingsRow`, read once per instance; the selectors
        read those of several tables in one query and set them)."""
        rows: list[dict[str, Any]] | None = self.__dict__.get("_rows")
        if rows is None:
            read = self.__dict__.pop("lines_json", False)  # with_rows: read with the table
            if read is not False:
                rows = merge_ranking(json.loads(read or "[]"), self.ranking, self.tiebreak)
        if rows is None:
            rows = standings_rows([self.pk]).get(self.pk, [])
        self.__dict__["_rows"] = rows
        return rows

    @rows.setter
    def rows(self, rows: list[dict[str, Any]] | None) -> None:
        self.__dict__["_rows"] = rows  # None: read again when next asked for
        if rows is None:
            # Lines read with the table (`with_rows`) before a refresh are out of date too.
            self.__dict__.pop("lines_json", None)


class StandingsRow(models.Model):
    """One line of a stored standings table: the player, the values of the table's metrics
    that are the player's own figures, and the rest of the line (`data`: the totals and the
    display name). Where the line stands, its rank and the metrics that depend on other
    players are the table's (`StandingsTable.ranking`), so that a refresh after one more result
    writes only the lines of its players (docs/standings.md); `standings_rows` reads a table's
    lines back as one list of dicts, best first."""

    # No constraint in the database: a refresh rewrites hundreds of lines in place, and a
    # deferred foreign key check queued by each of them (PostgreSQL checks a line updated in
    # the transaction that inserted it) costs minutes at the commit of a long test transaction.
    # Deleting a table deletes its lines (Django's cascade); only the refresh writes them.
    table = models.ForeignKey(
        StandingsTable, on_delete=models.CASCADE, related_name="lines", db_constraint=False
    )
    # Not a foreign key: a line is what the table showed when computed (the refresh after a
    # merge or a deletion replaces it).
    player = models.BigIntegerField()
    metrics = models.JSONField(default=dict)
    data = models.JSONField(default=dict)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["table", "player"], name="standings_row_unique_player"),
        ]

    def __str__(self) -> str:
        return f"{self.table} row of player {self.player}"


# One JSON array per table of its lines (in no order), each as a row of the table with its
# rank left to fill in (`merge_ranking`; a key of its own already, so that the row's keys come
# in the order PostgreSQL's jsonb gives them), with the table's ranking and tiebreak order.
_ROWS_SQL = """
SELECT t.id, json_agg(
    r.data || jsonb_build_object('player', r.player, 'rank', NULL, 'metrics', r.metrics)
)::text, t.ranking, t.tiebreak::text
FROM league_standingsrow r JOIN league_standingstable t ON t.id = r.table_id
WHERE r.table_id = ANY(%s) GROUP BY t.id
"""


def merge_ranking(
    lines: list[dict[str, Any]], ranking: str, order: list[str]
) -> list[dict[str, Any]]:
    """The rows of a table, best first: its `lines` (as `_ROWS_SQL` reads them, in any order) in
    the order of its `ranking` (`StandingsTable.ranking`), each with its rank and the metrics
    kept apart from the lines, its metrics in the tiebreak `order` (as a computed row's)."""
    if not ranking:
        return lines  # never computed: no lines either
    kept = json.loads(ranking)
    by_player = {line["player"]: line for line in lines}
    apart = list(kept["metrics"].items())
    rows = []
    for position, (player, rank) in enumerate(zip(kept["players"], kept["ranks"], strict=True)):
        row = by_player[player]
        row["rank"] = rank
        metrics = row["metrics"]
        for key, values in apart:
            metrics[key] = values[position]
        ordered = {key: metrics[key] for key in order if key in metrics}
        if len(ordered) < len(metrics):  # a key outside the order (none is): kept, after
            ordered.update(metrics)
        row["metrics"] = ordered
        rows.append(row)
    return rows


def with_rows(tables: models.QuerySet[StandingsTable]) -> models.QuerySet[StandingsTable]:
    """`tables` with their rows read in the same query (`StandingsTable.rows`)."""
    return tables.annotate(lines_json=RawSQL(_LINES_OF_TABLE, ()))  # noqa: S611 (constant SQL)


_LINES_OF_TABLE = """
SELECT json_agg(
    data || jsonb_build_object('player', player, 'rank', NULL, 'metrics', metrics)
)::text
FROM league_standingsrow WHERE table_id = league_standingstable.id
"""


def standings_rows(table_ids: list[int]) -> dict[int, list[dict[str, Any]]]:
    """The rows of each of these tables (none computed: no entry), in one query."""
    with connection.cursor() as cursor:
        cursor.execute(_ROWS_SQL, [table_ids])
        return {
            table_id: merge_ranking(json.loads(rows), ranking, json.loads(order))
            for table_id, rows, ranking, order in cursor.fetchall()
        }


class StandingsTally(models.Model):
    """The running totals behind a standings table (`league.standings.Tally` as JSON), as they
    were when the table was computed with `requested` at `counted`. A refresh adds the results
    finished since to it instead of counting every result again (docs/standings.md).

    Kept apart from `StandingsTable` so that serving a table never reads it."""

    table = models.OneToOneField(
        StandingsTable, on_delete=models.CASCADE, primary_key=True, related_name="tally"
    )
    counted = models.PositiveIntegerField()
    data = models.JSONField()

    def __str__(self) -> str:
        return f"tally of {self.table}"


# Where each kind of scope's id sits, seen from a match and from a stage's row.
_MATCH_PATH = {
    StandingsScope.STAGE: "stage_match__stage_id",
    StandingsScope.EVENT: "event_id",
    StandingsScope.LEAGUE: "event__league_id",  # its events' matches, not casual ones
}
_STAGE_PATH = {
    StandingsScope.STAGE: "stage_id",
    StandingsScope.EVENT: "stage__event_id",
    StandingsScope.LEAGUE: "stage__event__league_id",
}


# What the services take: a Scope, or any (kind, id) pair (a Scope is one).
ScopeKey = tuple[str, int]


class Scope(NamedTuple):
    """What a standings table ranks: a stage, an event or a league (`kind`, a StandingsScope
    value, and its `id`). A tuple, so `(StandingsScope.EVENT, 3)` is one too."""

    kind: str
    id: int

    def matches(self, prefix: str = "") -> models.Q:
        """The filter of the matches in this scope (`prefix` leads to the match)."""
        return models.Q(**{prefix + _MATCH_PATH[StandingsScope(self.kind)]: self.id})

    def stage_rows(self, prefix: str = "") -> models.Q:
        """The filter of rows hanging off a stage (`prefix` leads to the stage) in this scope."""
        return models.Q(**{prefix + _STAGE_PATH[StandingsScope(self.kind)]: self.id})

    def league_id(self) -> int:
        """The league the scope belongs to."""
        if self.kind == StandingsScope.LEAGUE:
            return self.id
        if self.kind == StandingsScope.EVENT:
            return int(Event.objects.values_list("league_id", flat=True).get(pk=self.id))
        return int(Stage.objects.values_list("event__league_id", flat=True).get(pk=self.id))
