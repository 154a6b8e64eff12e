"""A match's result typed in from its paper pad (docs/pages.md, "Entering a paper pad"):
`/matches/<id>/score/pad/`, for whoever may keep score at the table (an organizer of the match,
or the table's private link, whose key cookie is scoped to the scoring page and so reaches this
page under it). The form is the pad as printed: Yardzee a column of the 13 boxes and the Yardzee
bonus check marks a player, Yardkle each player's banked turn totals in order. The rulebook
checks it (`games.services.scorecard_submit`, `scoring.pad`); a pad no legal game writes is
shown again as typed, every refused cell marked with its rule, and nothing is stored."""

import re
from dataclasses import dataclass, field
from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_http_methods

from games import score_keys, services, views
from games.models import GameName, Match, Seat
from games.scorecard import BOX_LABELS
from scoring.errors import DomainError
from scoring.pad import PadInvalid

# What separates a Yardkle column's totals as typed: spaces and new lines, a semicolon, or a
# comma followed by a space ("1,500, 500": a comma between digits writes thousands).
_SEPARATORS = re.compile(r"(?:\s*[;,]\s+|\s*;\s*|\s+)")
# A typed number: digits, with thousands written with a comma, a point, a space or an
# apostrophe ("2,050", "10 000") read as the number.
_THOUSANDS = re.compile(r"^\d{1,3}(?:[,.' ]\d{3})+$")


@dataclass
class Typed:
    """The pad as typed (the form's values, kept to show again) and what was read of it: the
    columns for the rulebook, and the errors of cells that are not numbers at all."""

    values: dict[str, str]
    columns: list[dict[str, Any]]
    errors: list[dict[str, Any]] = field(default_factory=list)


def _number(text: str) -> int | None:
    text = text.strip()
    if _THOUSANDS.match(text):
        text = re.sub(r"[,.' ]", "", text)
    return int(text) if text.isdigit() and len(text) <= 7 else None


def _typed_yardzee(post: Any, seats: list[Seat]) -> Typed:
    typed = Typed(values={}, columns=[])
    for order in range(len(seats)):
        boxes: dict[str, int] = {}
        for box in BOX_LABELS:
            name = f"p{order}-{box}"
            text = typed.values[name] = str(post.get(name, ""))[:12]
            if not text.strip():
                continue  # left empty: the rulebook says the box is missing
            value = _number(text)
            if value is None:
                typed.errors.append(
                    {"player": order, "box": box, "message": f"“{text}” is not a number of points."}
                )
            else:
                boxes[box] = value
        name = f"p{order}-bonus"
        text = typed.values[name] = str(post.get(name, ""))[:12]
        count = _number(text) if text.strip() else 0
        if count is None:
            typed.errors.append(
                {
                    "player": order,
                    "box": "yardzee_bonus_count",
                    "message": f"“{text}” is not a count of Yardzee bonuses.",
                }
            )
        typed.columns.append({"boxes": boxes, "yardzee_bonus_count": count or 0})
    return typed


def _typed_yardkle(post: Any, seats: list[Seat]) -> Typed:
    typed = Typed(values={}, columns=[])
    for order in range(len(seats)):
        name = f"p{order}-turns"
        text = typed.values[name] = str(post.get(name, ""))[:4000]
        turns: list[int] = []
        for index, word in enumerate(w for w in _SEPARATORS.split(text) if w):
            value = _number(word)
            if value is None:
                typed.errors.append(
                    {
                        "player": order,
                        "turn": index,
                        "message": f"Turn {index + 1}: “{word}” is not a number of points.",
                    }
                )
            else:
                turns.append(value)
        typed.columns.append({"turns": turns})
    return typed


# The cells of a Yardzee column: an error of any other (a sum written, the column as a whole)
# is said above the column.
_CELLS = frozenset({*BOX_LABELS, "yardzee_bonus_count"})


@dataclass(frozen=True, slots=True)
class PadColumn:
    """One player's column of the form: their seat, their name, and its cells (Yardzee: box,
    label, typed value and messages; Yardkle: the typed totals and their messages)."""

    order: int
    name: str
    cells: list[dict[str, Any]]
    messages: list[str]


def _columns(match: Match, seats: list[Seat], typed: Typed | None) -> list[PadColumn]:
    values = typed.values if typed else {}
    errors = typed.errors if typed else []

    def said(order: int, **cell: Any) -> list[str]:
        return [
            e["message"]
            for e in errors
            if e.get("player") == order and all(e.get(k) == v for k, v in cell.items())
        ]

    columns = []
    for order, seat in enumerate(seats):
        if match.game == GameName.YARDZEE:
            cells = [
                {
                    "name": f"p{order}-{box}",
                    "label": label,
                    "value": values.get(f"p{order}-{box}", ""),
                    "messages": said(order, box=box),
                }
                for box, label in BOX_LABELS.items()
            ]
            cells.append(
                {
                    "name": f"p{order}-bonus",
                    "label": "Yardzee bonuses (check marks)",
                    "value": values.get(f"p{order}-bonus", ""),
                    "messages": said(order, box="yardzee_bonus_count"),
                }
            )
            general = [
                e["message"]
                for e in errors
                if e.get("player") == order
                and e.get("box") not in {*BOX_LABELS, "yardzee_bonus_count"}
            ]
        else:
            cells = [{"name": f"p{order}-turns", "value": values.get(f"p{order}-turns", "")}]
            general = said(order)
        columns.append(PadColumn(order, seat.player.display_name, cells, general))
    return columns


def _rows(columns: list[PadColumn]) -> list[dict[str, Any]]:
    """A Yardzee pad's columns as the table shows them: a row a box (and the bonus check
    marks), a cell a player."""
    return [
        {"label": cells[0]["label"], "cells": cells}
        for cells in zip(*(column.cells for column in columns), strict=True)
    ]


@require_http_methods(["GET", "POST"])
def match_pad_entry(request: HttpRequest, match_id: int) -> HttpResponse:
    match = get_object_or_404(Match.objects.select_related("event__league"), pk=match_id)
    organizer = match.is_organizer(request.user)
    by_key = match.opens_with(request.COOKIES.get(score_keys.cookie_name(match.pk)))
    if not (organizer or by_key):
        return views._private(views._key_refused(request, match, status=403), key_in_url=False)
    seats = list(match.seats.select_related("player").order_by("order"))
    typed: Typed | None = None
    refusal = ""
    status = 200
    if request.method == "POST":
        read = _typed_yardzee if match.game == GameName.YARDZEE else _typed_yardkle
        typed = read(request.POST, seats)
        if typed.errors:
            status = 400
        else:
            try:
                services.scorecard_submit(
                    match_id=match.pk,
                    pad=typed.columns,
                    submitted_by=request.user if request.user.is_authenticated else None,
                )
            except PadInvalid as invalid:
                typed.errors = [error.to_json() for error in invalid.errors]
                status = 422
            except DomainError as error:
                refusal, status = error.message, 409
            else:
                messages.success(request, f"Match #{match.pk} is finished from its pad.")
                return views._private(redirect("games:match", match.pk), key_in_url=False)
    columns = _columns(match, seats, typed)
    context = {
        "match": match,
        "is_yardzee": match.game == GameName.YARDZEE,
        "columns": columns,
        "rows": _rows(columns) if match.game == GameName.YARDZEE else [],
        "pad_errors": [
            e["message"] for e in (typed.errors if typed else []) if e.get("player") is None
        ],
        "refusal": refusal,
        "takes_pad": match.is_open and not match.turns_played,
    }
    return views._private(
        render(request, "games/pad_entry.html", context, status=status), key_in_url=False
    )
