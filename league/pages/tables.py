"""Standings tables and ratings leaderboards as the pages show them: built from what the
selectors read (`StandingsAnswer`, `Leaderboard`), with no database, into frozen values that
`league/_standings.html` and `league/_leaderboard.html` read."""

from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass, replace
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


# Tiebreaks only a Swiss draw gives a meaning to (the strength of the opponents a player was
# drawn against): a round robin seats everyone against everyone and a bracket ranks by its
# slots, so a stage of those formats does not show them (docs/standings.md, "On the pages").
SWISS_ONLY = frozenset({"buchholz", "median_buchholz"})


def shown_metrics(tiebreak: Iterable[str], stage_format: str | None) -> tuple[str, ...]:
    """The metric columns a table shows: its tiebreak order, less the Swiss tiebreaks in a
    stage of another format (`stage_format` None: a league's or event's table, all of them)."""
    if stage_format is None or stage_format == "swiss":
        return tuple(tiebreak)
    return tuple(key for key in tiebreak if key not in SWISS_ONLY)


@dataclass(frozen=True, slots=True)
class Column:
    key: str
    label: str
    more: bool = False  # behind "All columns" on a narrow screen


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
    withdrawn: bool = False
    # The stage's projection (docs/analysis.md, "Chance to qualify"): the chance to go on and
    # to win, as text; None where the table shows none.
    qualify: str | None = None
    win: str | None = None


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
    with_qualify: bool = False
    with_win: bool = False
    of_league: bool = False

    @property
    def withdrawn_note(self) -> bool:
        return any(row.withdrawn for row in self.rows)


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
        withdrawn=bool(row.get("withdrawn")),
    )


def chance_text(chance: float) -> str:
    """A chance as a whole percentage; never 0% or 100% unless certain (<1%, >99%)."""
    if chance <= 0:
        return "0%"
    if chance >= 1:
        return "100%"
    percent = round(chance * 100)
    if percent < 1:
        return "<1%"
    if percent > 99:
        return ">99%"
    return f"{percent}%"


def _with_chances(row: StandingsRow, chances: Mapping[str, Any] | None) -> StandingsRow:
    if chances is None:
        return row
    qualify = chances.get("qualify")
    return replace(
        row,
        qualify=None if qualify is None else chance_text(qualify),
        win=chance_text(chances.get("win", 0.0)),
    )


def standings_table(
    answer: StandingsAnswer,
    *,
    caption: str,
    stage_format: str | None = None,
    chances: Mapping[int, Mapping[str, Any]] | None = None,
    of_league: bool = False,
) -> StandingsTable:
    """One column per metric of the tiebreak order, in that order (less those the stage's
    format has no use for, `shown_metrics`), then matches played and the win-draw-loss record
    (and the byes and forfeits, when the table has any); a group's table (`answer.group`) has
    that group's rows alone. On a narrow screen the first metric and the record show, the rest
    behind "All columns". `chances`: a running stage's projection, by player (`places`,
    `qualify`, `win`): the columns "Chance to qualify" (when a stage takes players from this
    one) and "to win"; `of_league`: the chances are a league's, to win the league."""
    keys = shown_metrics(answer.tiebreak, stage_format)
    rows = tuple(
        _with_chances(_row(row, keys), None if chances is None else chances.get(row["player"]))
        for row in answer.rows
    )
    return StandingsTable(
        id=f"standings-{answer.scope}-{answer.scope_id}"
        + (f"-group-{answer.group}" if answer.group is not None else ""),
        caption=caption,
        columns=tuple(
            Column(key=key, label=metric_label(key), more=index > 0)
            for index, key in enumerate(keys)
        ),
        rows=rows,
        computed_at=answer.computed_at,
        pending=answer.pending,
        with_byes=any(row.byes for row in rows),
        with_forfeits=any(row.forfeits for row in rows),
        with_qualify=any(row.qualify is not None for row in rows),
        with_win=any(row.win is not None for row in rows),
        of_league=of_league,
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
    # What an accuracy of 50 means: the mean loss a decision, in expected points
    # (docs/analysis.md, "Accuracy").
    half_accuracy_loss: float = 1.0


def leaderboard_table(
    board: Leaderboard,
    *,
    league_name: str,
    accuracy: Mapping[int, float | None],
    half_accuracy_loss: float = 1.0,
) -> LeaderboardTable:
    """The leaderboard with each player's accuracy (`accuracy`, by player) beside it."""
    return LeaderboardTable(
        league_name=league_name,
        half_accuracy_loss=half_accuracy_loss,
        rows=tuple(
            LeaderboardRow(**asdict(row), accuracy=accuracy.get(row.player)) for row in board.rows
        ),
        computed_at=board.computed_at,
        pending=board.pending,
    )
