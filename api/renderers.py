"""`?format=csv` for standings and leaderboards: one line per row, columns in a stable order,
the table's metrics in their tiebreak order."""

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
        rows = data.get("rows") if isinstance(data, dict) else None
        if rows is None:  # an error body: keep its sentence readable
            return f"{data.get('code', 'error')},{data.get('message', '')}\n".encode()
        metrics = list(data.get("tiebreak") or [])
        columns = [c for c in LEADING if any(c in row for row in rows[:1])]
        columns += [f"metric:{key}" for key in metrics]
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
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


def _cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, float):
        return f"{value:.4f}".rstrip("0").rstrip(".")
    return str(value)
