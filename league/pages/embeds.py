"""Embeds: a stage's bracket and a standings table (a league's, an event's, a stage's) as a
page another site may show in an `<iframe>`, and a stage's bracket as an SVG file to download.

Only these pages may be framed: they are marked with Django's `xframe_options_exempt` (no
`X-Frame-Options`), and `config.middleware` gives a response so marked the site's
Content-Security-Policy with `frame-ancestors *` instead of `'none'`; every other page keeps
both refusals. An embed has no site header, no script, no form and no cookie: it is rendered
without the request (no session or CSRF token is touched) and shows what the public pages show.
Its links open in a new tab (`<base target="_blank">`): the pages they lead to refuse a frame."""

import hashlib
from base64 import b64encode
from typing import Any, Final

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.views.decorators.clickjacking import xframe_options_exempt

from core.methods import read_only
from league import selectors
from league.models import Event, League, Stage, StandingsScope
from league.pages.bracket import bracket_boxes
from league.pages.svg import (
    BRACKET_STYLE,
    SlotBox,
    bracket_svg,
    standalone_bracket_svg,
    without_links,
)
from league.pages.views import group_tables, standings_html
from league.services.standings_refresh import standings_table_computed_on_miss

# The downloaded SVG's own policy: nothing loads, nothing runs, and its one style element
# is allowed by its hash alone.
_STYLE_HASH: Final = b64encode(hashlib.sha256(BRACKET_STYLE.encode()).digest()).decode()
SVG_POLICY: Final = f"default-src 'none'; style-src 'sha256-{_STYLE_HASH}'; frame-ancestors 'none'"


def _embed(template: str, context: dict[str, Any]) -> HttpResponse:
    """An embed page: rendered without the request, so that nothing reads or sets a cookie."""
    response = HttpResponse(render_to_string(template, context))
    response["Cache-Control"] = "public, max-age=30"
    return response


def _stage(stage_id: int) -> Stage:
    return get_object_or_404(Stage.objects.select_related("event__league"), pk=stage_id)


def _bracket(stage: Stage) -> list[SlotBox]:
    """The stage's bracket as boxes to draw, without links to the match pages (404 for a stage
    without one: round robin, Swiss, or not drawn yet)."""
    detail = selectors.stage_detail(stage)
    if detail.bracket_format is None:
        raise Http404("This stage has no bracket.")
    entries = selectors.stage_entries([stage.pk])[stage.pk]
    names = {entry.player: entry.name for entry in entries}
    seeds = {entry.player: entry.seed for entry in entries}
    boxes = bracket_boxes(stage.bracket, detail.slots, names, seeds)
    return without_links(boxes)


@read_only
@xframe_options_exempt
def stage_bracket(request: HttpRequest, stage_id: int) -> HttpResponse:
    stage = _stage(stage_id)
    svg = bracket_svg(
        _bracket(stage),
        title=f"Bracket of {stage.name}",
        id_prefix=f"stage-{stage.pk}",
    )
    return _embed(
        "league/embed_bracket.html",
        {
            "title": f"{stage.name} · {stage.event.name}",
            "stage": stage,
            # Every text in the SVG is escaped by bracket_svg.
            "bracket_svg": mark_safe(svg),  # noqa: S308
            "full_page": reverse("league:event", args=[stage.event_id]) + f"#stage-{stage.pk}",
        },
    )


@read_only
@xframe_options_exempt
def stage_standings(request: HttpRequest, stage_id: int) -> HttpResponse:
    """A stage's table; a stage played in groups shows each group's table."""
    stage = _stage(stage_id)
    table = standings_table_computed_on_miss((StandingsScope.STAGE.value, stage.pk))
    tables = (
        [group.html for group in group_tables(selectors.stage_summary(stage), table, stage.format)]
        if stage.played_in_groups
        else [standings_html(table, caption=f"{stage.name}: standings", stage_format=stage.format)]
    )
    return _standings(
        title=f"{stage.name} · {stage.event.name}",
        tables=tables,
        full_page=reverse("league:event", args=[stage.event_id]) + f"#stage-{stage.pk}",
    )


@read_only
@xframe_options_exempt
def event_standings(request: HttpRequest, event_id: int) -> HttpResponse:
    event = get_object_or_404(Event.objects.select_related("league"), pk=event_id)
    table = standings_table_computed_on_miss((StandingsScope.EVENT.value, event.pk))
    return _standings(
        title=event.name,
        tables=[standings_html(table, caption=f"{event.name}: standings")],
        full_page=reverse("league:event", args=[event.pk]),
    )


@read_only
@xframe_options_exempt
def league_standings(request: HttpRequest, slug: str) -> HttpResponse:
    league = get_object_or_404(League, slug=slug)
    table = standings_table_computed_on_miss((StandingsScope.LEAGUE.value, league.pk))
    return _standings(
        title=league.name,
        tables=[standings_html(table, caption=f"{league.name}: league table")],
        full_page=reverse("league:league", args=[league.slug]),
    )


def _standings(*, title: str, tables: list[Any], full_page: str) -> HttpResponse:
    return _embed(
        "league/embed_standings.html",
        {"title": title, "tables": tables, "full_page": full_page},
    )


@read_only
def stage_bracket_svg(request: HttpRequest, stage_id: int) -> HttpResponse:
    """The stage's bracket as an SVG file to download: its own styles inside, no reference
    to anything outside it."""
    stage = _stage(stage_id)
    svg = standalone_bracket_svg(
        _bracket(stage),
        title=f"Bracket of {stage.name}, {stage.event.name}",
        id_prefix=f"stage-{stage.pk}",
    )
    response = HttpResponse(svg, content_type="image/svg+xml; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{svg_file_name(stage)}"'
    response["Content-Security-Policy"] = SVG_POLICY
    return response


def svg_file_name(stage: Stage) -> str:
    """`spring-open-stage-12-bracket.svg`: the league, the stage, ASCII letters and digits."""
    name = f"{stage.event.league.slug}-stage-{stage.pk}-bracket"
    return "".join(c if c.isascii() and (c.isalnum() or c in "-_") else "-" for c in name) + ".svg"
