"""`?format=csv` for standings, leaderboards and a player's rating history: one line per row,
columns in a stable order, the table's metrics in their tiebreak order. The file downloads
(`Content-Disposition: attachment`) under a name that says what it is, and no cell can be read by
a spreadsheet as a formula: text starting with `=`, `+`, `-`, `@`, a tab or a carriage return
gets a leading `'` (numbers are written as numbers)."""

import csv
import io
from collections.abc import Mapping
from typing import Any

from rest_framework.renderers import BaseRenderer

# Leading columns, when a row has them; then every metric; then what is left.
LEADING = (
    "rank",
    "player",
    "name",
    "group",
    "matches",
    "wins",
    "draws",
    "byes",
    "forfeits",
    "points",
    "total_score",
    "average_score",
    "best_score",
    "yardzees",
    "upper_bonuses",
    "yardkles",
    "mu",
    "sigma",
    "ordinal",
)


class CSVRenderer(BaseRenderer):
    media_type = "text/csv"
    format = "csv"
    charset = "utf-8"

    def render(
        self,
        data: Any,
        accepted_media_type: str | None = None,
        renderer_context: Mapping[str, Any] | None = None,
    ) -> bytes:
        context = renderer_context or {}
        response = context.get("response")
        if isinstance(data, list):  # a player's rating history: a list of rows
            return self._history(data, context)
        rows = data["rows"]  # errors are answered as JSON (api.exceptions.exception_handler)
        if response is not None:
            response["Content-Disposition"] = f'attachment; filename="{_file_name(data)}"'

        metrics = list(data.get("tiebreak") or [])
        if rows:
            columns = [c for c in LEADING if any(c in row for row in rows[:1])]
        else:  # no row to read the columns from: the ones a row of this table has
            columns = list(STANDINGS_COLUMNS if "scope" in data else LEADERBOARD_COLUMNS)
        if not any(row.get("group") is not None for row in rows):  # a table not in groups
            columns = [c for c in columns if c != "group"]
        columns += [f"metric:{key}" for key in metrics]
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\r\n")
        writer.writerow(columns)
        for row in rows:
            writer.writerow(
                [
                    _cell(row.get("metrics", {}).get(c.split(":", 1)[1]))
                    if c.startswith("metric:")
                    else _cell(row.get(c))
                    for c in columns
                ]
            )
        return out.getvalue().encode()

    def _history(self, rows: list[dict[str, Any]], context: Mapping[str, Any]) -> bytes:
        """`players/{id}/ratings/`: the rating after each rated match, oldest first."""
        response = context.get("response")
        view = context.get("view")
        if response is not None:
            player = getattr(view, "kwargs", {}).get("pk", "")
            response["Content-Disposition"] = (
                f'attachment; filename="{_safe(f"player-{player}-ratings")}.csv"'
            )
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\r\n")
        writer.writerow(HISTORY_COLUMNS)
        for row in rows:
            writer.writerow([_cell(row.get(column)) for column in HISTORY_COLUMNS])
        return out.getvalue().encode()


# The columns of a table with no row yet (a league before its first result): the header is
# the same as a filled table's, not empty ("\r\n" for a leaderboard, only the metrics for
# standings).
STANDINGS_COLUMNS = tuple(c for c in LEADING if c not in ("mu", "sigma", "ordinal"))
LEADERBOARD_COLUMNS = ("rank", "player", "name", "matches", "mu", "sigma", "ordinal")

# A player's rating history, in this order.
HISTORY_COLUMNS = ("league", "match", "finished_at", "mu", "sigma", "ordinal")

# What a spreadsheet reads as the start of a formula (OWASP, "CSV Injection").
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def _cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, float):
        return f"{value:.4f}".rstrip("0").rstrip(".")
    if isinstance(value, int):
        return str(value)
    text = str(value)
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def _file_name(data: dict[str, Any]) -> str:
    """`league-3-standings.csv`, `stage-12-standings.csv` (one group: `stage-12-group-2-
    standings.csv`), `backyard-ratings.csv`."""
    if "scope" in data:
        group = f"-group-{data['group']}" if data.get("group") is not None else ""
        name = f"{data['scope']}-{data.get('scope_id', '')}{group}-standings"
    else:
        name = f"{data.get('league', 'league')}-ratings"
    return _safe(name) + ".csv"


def _safe(name: str) -> str:
    """A file name of ASCII letters, digits, `-` and `_` (anything else becomes `-`)."""
    return "".join(c if c.isascii() and (c.isalnum() or c in "-_") else "-" for c in name)
