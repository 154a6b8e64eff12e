"""Round sheets (docs/organizing.md, "The round sheet"): one printable page a round, a block a
table with its number, its players in seat order, and the QR code and short link that open
its scoring page, so an organizer prints one sheet and hands out its tables. On screen each
table's status follows play (htmx polls a fragment that swaps the statuses in place).

The sheet prints scoring keys (in their short form): organizers only, and never cached."""

from dataclasses import dataclass
from typing import Any

import segno
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe
from django.views.decorators.cache import never_cache

from core.methods import read_only
from games import score_keys
from games.models import OPEN_STATUSES, Match, MatchStatus
from league.models import Event, Stage, StageStatus
from organize import selectors
from organize.permissions import require_match
from organize.selectors import TableRow
from organize.views.events import organized_stage, table_label

# While a table of the sheet is open, the page asks for their statuses this often.
LIVE_SECONDS = 10
PAPERS = {"a4": "A4", "letter": "Letter"}
# The most tables one refresh of statuses answers for (a round has far fewer).
MOST_TABLES = 512


@dataclass(frozen=True, slots=True)
class SheetTable:
    """A block of the sheet: the table as the event page shows it, and how to open its
    scoring page (the short link, as text and as a QR code)."""

    number: int
    label: str
    row: TableRow
    link: str
    link_host: str
    link_path: str
    qr: SafeString


def _paper(request: HttpRequest) -> str:
    paper = request.GET.get("paper", "a4")
    return paper if paper in PAPERS else "a4"


def qr_svg(link: str, *, title: str) -> SafeString:
    """`link` as a QR code in inline SVG (segno: no style attributes, which the CSP refuses)."""
    svg: str = segno.make(link, error="m").svg_inline(
        scale=4, dark="#000000", light="#ffffff", title=title, svgclass="qr-svg"
    )
    return mark_safe(svg)  # noqa: S308 - segno's own markup; the link and title are escaped by segno


def _blocks(request: HttpRequest, tables: list[tuple[str, TableRow]]) -> list[SheetTable]:
    links = selectors.table_links([row.match for _label, row in tables if row.match])
    blocks = []
    for number, (label, row) in enumerate(tables, start=1):
        if row.match is None:
            continue
        table, key = links[row.match]
        path = reverse(
            "games:short_link", kwargs={"match_id": table, "code": score_keys.short_code(key)}
        )
        link = request.build_absolute_uri(path)
        blocks.append(
            SheetTable(
                number=number,
                label=label,
                row=row,
                link=link,
                link_host=link.split("://", 1)[-1].removesuffix(path),
                link_path=path,
                qr=qr_svg(
                    link, title=f"QR code of the scoring link of {label}, match #{row.match}"
                ),
            )
        )
    return blocks


def _render(
    request: HttpRequest,
    *,
    stage: Stage | None,
    event: Event | None,
    title: str,
    tables: list[tuple[str, TableRow]],
    live_url: str,
    schedule_url: str = "",
) -> HttpResponse:
    blocks = _blocks(request, tables)
    ids = ",".join(str(block.row.match) for block in blocks)
    context = {
        "stage": stage,
        "event": event,
        "league": event.league if event is not None else None,
        "title": title,
        "tables": blocks,
        "walkovers": [(label, row) for label, row in tables if row.match is None],
        "paper": _paper(request),
        "papers": PAPERS,
        "schedule_url": schedule_url,
        **_live_context(
            {block.row.match: block.row.status for block in blocks if block.row.match},
            f"{live_url}?tables={ids}",
        ),
    }
    return render(request, "organize/events/sheet.html", context)


def _render_stage(
    request: HttpRequest,
    stage: Stage,
    title: str,
    rows: list[TableRow],
    *,
    grouped: bool,
    schedule_url: str = "",
) -> HttpResponse:
    """A sheet of tables of `stage`, labelled in their order, kept fresh by the stage's live
    fragment."""
    return _render(
        request,
        stage=stage,
        event=stage.event,
        title=title,
        tables=[(table_label(row, n, grouped=grouped), row) for n, row in enumerate(rows, start=1)],
        live_url=reverse("organize:stage_sheet_live", args=[stage.pk]),
        schedule_url=schedule_url,
    )


def _live_context(statuses: dict[int, str], live_url: str) -> dict[str, Any]:
    open_count = sum(1 for status in statuses.values() if status in OPEN_STATUSES)
    return {
        "statuses": [
            {"match": pk, "status": status, "text": MatchStatus(status).label}
            for pk, status in statuses.items()
        ],
        "done": len(statuses) - open_count,
        "total": len(statuses),
        "live": open_count > 0,
        "live_url": live_url,
        "live_seconds": LIVE_SECONDS,
    }


@read_only
@never_cache
@login_required
def round_sheet(request: HttpRequest, stage_id: int, number: int) -> HttpResponse:
    """The sheet of one round of a stage: every table of it (a slot decided without play is
    listed apart: no one plays there). 404 for a round with no tables (yet)."""
    stage = organized_stage(request, stage_id)
    rows = selectors.stage_tables([stage.pk], round_=number)[stage.pk]
    if not rows:
        raise Http404(f"Round {number} of {stage.name} has no tables yet.")
    return _render_stage(
        request,
        stage,
        f"{stage.name}, round {number}",
        rows,
        grouped=stage.groups > 1,
        schedule_url=reverse("organize:round_schedule", args=[stage.pk, number]),
    )


@read_only
@never_cache
@login_required
def stage_sheet(request: HttpRequest, stage_id: int) -> HttpResponseBase:
    """The tables of a stage to hand out now: for a stage played in rounds, the sheet of the
    first round with a table still open; for a bracket, every table seated and not yet
    finished, whatever its round."""
    stage = organized_stage(request, stage_id)
    rows = selectors.stage_tables([stage.pk], open_only=True)[stage.pk]
    if rows and not stage.is_elimination:
        return redirect("organize:round_sheet", stage.pk, min(row.round or 1 for row in rows))
    if not rows and stage.status != StageStatus.DRAFT and not stage.is_elimination:
        last = selectors.stage_tables([stage.pk])[stage.pk]
        if last:
            return redirect("organize:round_sheet", stage.pk, max(row.round or 1 for row in last))
    return _render_stage(request, stage, f"{stage.name}, tables to play now", rows, grouped=False)


@read_only
@never_cache
@login_required
def match_sheet(request: HttpRequest, match_id: int) -> HttpResponseBase:
    """A match's sheet: the sheet of its round, at its table, for a match of a stage; a sheet
    of its one table for a casual match."""
    match, row = _organized_match_table(request, match_id)
    if row.stage is not None:
        url = reverse("organize:round_sheet", args=[row.stage, row.round])
        return redirect(f"{url}#table-{match.pk}")
    return _render(
        request,
        stage=None,
        event=match.event,
        title=f"Match #{match.pk}",
        tables=[("Table", row)],
        live_url=reverse("organize:match_sheet_live", args=[match.pk]),
    )


def _organized_match_table(request: HttpRequest, match_id: int) -> tuple[Match, TableRow]:
    """The match and its table, if the user organizes it (403 if not, 404 if there is none)."""
    found = selectors.match_table(match_id)
    if found is None:
        raise Http404("No such match.")
    match, row = found
    require_match(request.user, match)
    return match, row


def _asked_tables(request: HttpRequest) -> list[int]:
    asked = request.GET.get("tables", "").split(",")
    return [int(pk) for pk in asked if pk.isascii() and pk.isdigit() and len(pk) < 19][:MOST_TABLES]


@read_only
@never_cache
@login_required
def stage_sheet_live(request: HttpRequest, stage_id: int) -> HttpResponse:
    """The statuses of the sheet's tables (`?tables=` their matches, of this stage), swapped
    into the sheet in place; without an open table, the fragment no longer asks again."""
    stage = organized_stage(request, stage_id)
    asked = _asked_tables(request)
    statuses = selectors.match_statuses(asked, stage_id=stage.pk)
    ordered = {pk: statuses[pk] for pk in asked if pk in statuses}
    url = (
        reverse("organize:stage_sheet_live", args=[stage.pk])
        + "?tables="
        + ",".join(map(str, ordered))
    )
    return render(request, "organize/events/_sheet_live.html", _live_context(ordered, url))


@read_only
@never_cache
@login_required
def match_sheet_live(request: HttpRequest, match_id: int) -> HttpResponse:
    match, row = _organized_match_table(request, match_id)
    url = reverse("organize:match_sheet_live", args=[match.pk])
    return render(
        request, "organize/events/_sheet_live.html", _live_context({match.pk: row.status}, url)
    )
