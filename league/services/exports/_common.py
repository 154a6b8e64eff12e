"""What the export, the checks and the replay share: the file's format and schema, and how the
replay reads the file's times and compares what it made with the file."""

import json
from collections.abc import Iterable, Mapping
from datetime import datetime
from functools import cache
from pathlib import Path
from typing import Any, Final

FORMAT: Final = "yard-league/event-export"
VERSION: Final = 1
SCHEMA_PATH: Final = (
    Path(__file__).resolve().parent.parent.parent / "schemas" / "event-export.schema.json"
)


@cache
def export_schema() -> dict[str, Any]:
    """The JSON Schema every export follows and every import is checked against."""
    schema: dict[str, Any] = json.loads(SCHEMA_PATH.read_text())
    return schema


def _time_of(value: str | None) -> datetime | None:
    return datetime.fromisoformat(value) if value is not None else None


def _played_at(match: Mapping[str, Any]) -> datetime:
    """When a match counts as played in the replay: its finish, else its last turn, else when it
    was seated."""
    if match["finished_at"] is not None:
        return datetime.fromisoformat(match["finished_at"])
    if match["turns"]:
        return datetime.fromisoformat(match["turns"][-1]["submitted_at"])
    return datetime.fromisoformat(match["created_at"])


# What the replay must give as the file has it (besides the tables): a stage's options and
# outcome, a match's rules, result and place in its stage.
STAGE_FIELDS: Final = (
    "name",
    "format",
    "status",
    "table_size",
    "advance",
    "rounds",
    "groups",
    "third_place",
    "grand_final_reset",
    "tiebreak",
    "source_top",
    "source_per_group",
    "source_best_rest",
)
MATCH_FIELDS: Final = ("game", "rules", "status", "round", "group", "slot", "walkover")


def _is_id(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _turn_result(turn: Mapping[str, Any]) -> tuple[Any, ...]:
    """A turn as its result: its number, whose it is, its points and bonus."""
    return (turn["sequence"], turn["player"], turn["points"], turn["bonus"])


def _first(row: tuple[Any, ...]) -> Any:
    return row[0]


def _order(seat: Mapping[str, Any]) -> int:
    return int(seat["order"])


def _comparable(rows: Iterable[Mapping[str, Any]]) -> list[str]:
    return sorted(json.dumps(row, sort_keys=True) for row in rows)
