"""Standings tables and ratings leaderboards as the pages show them: built from what the
selectors read (`StandingsAnswer`, `Leaderboard`), with no database, into frozen values that
`league/_standings.html` and `league/_leaderboard.html` read."""

from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass
from datetime import datetime
from typing import Any

from league.selectors import Leaderboard, StandingsAnswer
from league.standings import METRICS, GroupMetric


def metric_label(key: str) -> str:
    """A metric's column heading (a key no metric has: the key in words)."""
    metric = METRICS.get(key)
    return str(metric.label) if metric is not None else key.replace("_", " ").capitalize()


def tiebreak_labels(tiebreak: Iterable[str]) -> tuple[str, ...]:
    """The metrics of a tiebreak order, in words ("Ranked by Points, then Wins")."""
    return tuple(metric_label(key) for key in tiebreak)


def across_groups(tiebreak: Iterable[str]) -> tuple[str, ...]:
    """What compares players of the same place in different groups: the metrics of the order
    that are not a group's own (never head-to-head)."""
    return tuple(
        metric_label(key)
        for key in tiebreak
        if key in METRICS and not issubclass(METRICS[key], GroupMetric)
    )


def metric_text(key: str, value: object) -> str:
    """A metric's value as the table shows it: exact halves and thirds of points as
    decimals, averages to one decimal, counts with thousands separators, none as a dash."""
    if value is None:
        return "\u2013"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        if key == "average_score":
            return f"{value:,.1f}"
        if value.is_integer():
            return f"{int(value):,}"
        return f"{value:,.2f}".rstrip("0").rstrip(".")
    if isinstance(value, int):
        return f"{value:,}"
    return str(value)


@dataclass(frozen=True, slots=True)
class Column:
    key: str
    label: str


@dataclass(frozen=True, slots=True)
class StandingsRow:
    """A player's row: rank, name, one text per metric column, matches played, the
    win-draw-loss record, byes and forfeits."""

    rank: int
    player: int
    name: str
    cells: tuple[str, ...]
    matches: int
    record: str
    byes: int
    forfeits: int


@dataclass(frozen=True, slots=True)
class StandingsTable:
    """A standings table as `league/_standings.html` shows it."""

    id: str
    caption: str
    columns: tuple[Column, ...]
    rows: tuple[StandingsRow, ...]
    computed_at: datetime | None
    pending: bool
    with_byes: bool
    with_forfeits: bool


def _row(row: Mapping[str, Any], keys: tuple[str, ...]) -> StandingsRow:
    metrics = row.get("metrics") or {}
    won = row["wins"] - row["byes"]
    return StandingsRow(
        rank=row["rank"],
        player=row["player"],
        name=row["name"],
        cells=tuple(metric_text(key, metrics.get(key, row.get(key))) for key in keys),
        matches=row["matches"],
        record=f"{won}\u2013{row['draws']}\u2013{row['matches'] - won - row['draws']}",
        byes=row["byes"],
        forfeits=row.get("forfeits", 0),
    )


def standings_table(answer: StandingsAnswer, *, caption: str) -> StandingsTable:
    """One column per metric of the tiebreak order, in that order, then matches played and
    the win-draw-loss record (and the byes and forfeits, when the table has any); a group's
    table (`answer.group`) has that group's rows alone."""
    keys = answer.tiebreak
    rows = tuple(_row(row, keys) for row in answer.rows)
    return StandingsTable(
        id=f"standings-{answer.scope}-{answer.scope_id}"
        + (f"-group-{answer.group}" if answer.group is not None else ""),
        caption=caption,
        columns=tuple(Column(key=key, label=metric_label(key)) for key in keys),
        rows=rows,
        computed_at=answer.computed_at,
        pending=answer.pending,
        with_byes=any(row.byes for row in rows),
        with_forfeits=any(row.forfeits for row in rows),
    )


@dataclass(frozen=True, slots=True)
class LeaderboardRow:
    """A rated player: rank, name, rating (ordinal, mu, sigma), matches rated, and their
    accuracy over their analysed matches (None: none analysed)."""

    rank: int
    player: int
    name: str
    ordinal: float
    mu: float
    sigma: float
    matches: int
    accuracy: float | None


@dataclass(frozen=True, slots=True)
class LeaderboardTable:
    """A league's leaderboard as `league/_leaderboard.html` shows it."""

    league_name: str
    rows: tuple[LeaderboardRow, ...]
    computed_at: datetime | None
    pending: bool


def leaderboard_table(
    board: Leaderboard, *, league_name: str, accuracy: Mapping[int, float | None]
) -> LeaderboardTable:
    """The leaderboard with each player's accuracy (`accuracy`, by player) beside it."""
    return LeaderboardTable(
        league_name=league_name,
        rows=tuple(
            LeaderboardRow(**asdict(row), accuracy=accuracy.get(row.player)) for row in board.rows
        ),
        computed_at=board.computed_at,
        pending=board.pending,
    )
