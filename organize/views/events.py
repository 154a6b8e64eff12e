"""An event from the organizer's side (docs/organizing.md, "Running an event"): the league's
events and a new one; the event's stages (add, change, delete, start), each round's tables as
they are played, closing and reopening it, and withdrawing a player.

Every page checks `organize.permissions` first and writes through one service; a service's
refusal (a `DomainError`) is shown on the form or as a message, and nothing is saved."""

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST

from core.methods import read_only
from games import services as game_services
from league.errors import EventConflict
from league.models import Event, League, Player, Stage, StageFormat, StageStatus
from league.services import event_close, event_create, event_reopen
from league.services import stages as stage_services
from organize import selectors
from organize.consequences import refusal_of
from organize.forms import page_status
from organize.forms.events import CloseForm, EventForm, StageForm, WithdrawForm, stage_words
from organize.forms.words import page_words
from organize.permissions import require_event, require_league
from organize.selectors import StageRow, TableRow
from scoring.errors import DomainError

# While a stage of the event is played, its tables refresh this often.
LIVE_SECONDS = 15


def organized_event(request: HttpRequest, event_id: int) -> Event:
    """The event, if the user organizes it (403 if not, 404 if there is none)."""
    event = get_object_or_404(Event.objects.select_related("league"), pk=event_id)
    return require_event(request.user, event)


def organized_stage(request: HttpRequest, stage_id: int) -> Stage:
    """The stage with its event and league, if the user organizes its event."""
    stage = get_object_or_404(Stage.objects.select_related("event__league"), pk=stage_id)
    require_event(request.user, stage.event)
    return stage


def _event_url(event_id: int, anchor: str = "") -> str:
    return reverse("organize:event", args=[event_id]) + (f"#{anchor}" if anchor else "")


# --- The league's events ------------------------------------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
def league_events(request: HttpRequest, slug: str) -> HttpResponse:
    """The league's events, newest first, and a new one."""
    league = require_league(request.user, get_object_or_404(League, slug=slug))
    form = EventForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            event = event_create(league=league, **form.cleaned_data)
        except DomainError as error:
            form.refuse(error)
        else:
            messages.success(request, f"{event.name} is created: add its stages.")
            return redirect("organize:event", event.pk)
    events = league.events.order_by("-date", "-pk")
    return render(
        request,
        "organize/events/league_events.html",
        {"league": league, "events": events, "form": form},
        status=page_status(form),
    )


# --- The event ----------------------------------------------------------------------------------


def stage_summary(stage: Stage, stages: dict[int, Stage]) -> str:
    """A stage's options in words: "Round robin in 2 groups, tables of 3", "takes the top 2
    of each group of Groups and the best 1 of the rest"."""
    parts = [stage.get_format_display()]
    if stage.format == StageFormat.ROUND_ROBIN and stage.groups > 1:
        parts[0] += f" in {stage.groups} groups"
    if stage.format == StageFormat.SWISS and stage.rounds:
        parts[0] += f", {stage.rounds} rounds"
    if stage.format != StageFormat.DOUBLE_ELIMINATION:
        parts.append("pairs" if stage.table_size == 2 else f"tables of {stage.table_size}")
    if stage.format == StageFormat.SINGLE_ELIMINATION and stage.table_size > 2:
        parts.append(f"top {stage.advance} of a table go on")
    if stage.third_place and stage.format == StageFormat.SINGLE_ELIMINATION:
        parts.append("a match for third place")
    source = stages.get(stage.source_stage_id or 0)
    if source is not None:
        if stage.source_per_group:
            taken = f"the top {stage.source_per_group} of each group of {source.name}"
            if stage.source_best_rest:
                taken += f" and the best {stage.source_best_rest} of the rest"
        else:
            taken = f"the top {stage.source_top} of {source.name}"
        parts.append(f"takes {taken}")
    return ", ".join(parts)


def table_label(table: TableRow, number: int, *, grouped: bool) -> str:
    """How a table is called on the pages and on the sheet: its number in the round, with its
    group or bracket slot ("Table 3 · group 2", "Table 1 · W2-1")."""
    label = f"Table {number}"
    if table.slot:
        return f"{label} · {table.slot}"
    if grouped:
        return f"{label} · group {table.group}"
    return label


def rounds_view(stage: Stage, tables: list[TableRow]) -> list[dict[str, Any]]:
    """A started stage's tables by round, numbered in each round as the round sheet numbers
    them, with the round's sheet."""
    rounds: dict[int, list[TableRow]] = {}
    for table in tables:
        rounds.setdefault(table.round or 0, []).append(table)
    grouped = stage.groups > 1
    return [
        {
            "number": number,
            "sheet_url": reverse("organize:round_sheet", args=[stage.pk, number]),
            "open": sum(1 for t in round_tables if t.is_open),
            "tables": [
                {"label": table_label(t, n, grouped=grouped), "row": t}
                for n, t in enumerate(round_tables, start=1)
            ],
        }
        for number, round_tables in sorted(rounds.items())
    ]


def _tables_context(event: Event, stage_rows: list[StageRow]) -> dict[str, Any]:
    started = [row.stage for row in stage_rows if row.stage.status != StageStatus.DRAFT]
    tables = selectors.stage_tables([stage.pk for stage in started])
    played = [{"stage": stage, "rounds": rounds_view(stage, tables[stage.pk])} for stage in started]
    return {
        "event": event,
        "played": played,
        "live": not event.is_closed and any(t.is_open for rows in tables.values() for t in rows),
        "live_seconds": LIVE_SECONDS,
    }


def _unfinished_source(stage: Stage, stages: dict[int, Stage]) -> Stage | None:
    source = stages.get(stage.source_stage_id or 0)
    if source is None or source.status == StageStatus.FINISHED:
        return None
    return source


@read_only
@login_required
def event_page(request: HttpRequest, event_id: int) -> HttpResponse:
    """The event's organizer page: its stages and what can be done with each, every round's
    tables (refreshing while played), closing and reopening, withdrawing a player. A fixed
    number of queries, whatever the size of the event."""
    event = organized_event(request, event_id)
    stage_rows = selectors.event_stages(event)
    by_id = {row.stage.pk: row.stage for row in stage_rows}
    stages = [
        {
            "stage": row.stage,
            "entrants": row.entrants,
            "summary": stage_summary(row.stage, by_id),
            # A fed stage starts once its source has finished (`source_not_finished`): until
            # then the page says so instead of offering a Start that can only be refused.
            "waits_for": _unfinished_source(row.stage, by_id),
        }
        for row in stage_rows
    ]
    return render(
        request,
        "organize/events/event.html",
        {**_tables_context(event, stage_rows), "stages": stages, "league": event.league},
    )


@read_only
@login_required
def event_tables(request: HttpRequest, event_id: int) -> HttpResponse:
    """The event page's tables alone, for the page to refresh them while they are played."""
    event = organized_event(request, event_id)
    return render(
        request,
        "organize/events/_tables.html",
        _tables_context(event, selectors.event_stages(event)),
    )


# --- Stages -------------------------------------------------------------------------------------


def _stage_form_kwargs(
    request: HttpRequest, event: Event, stage: Stage | None = None
) -> dict[str, Any]:
    roster = list(
        event.league.players.order_by("display_name", "pk").values_list("pk", "display_name")
    )
    return {
        "roster": roster,
        "stages": selectors.event_stages(event),
        "stage": stage,
        "refresh_url": f"{request.path}?refresh=1",
    }


def _stage_form(
    request: HttpRequest, kwargs: dict[str, Any], initial: dict[str, Any] | None = None
) -> StageForm:
    """Asked again after a change of format, source or seeding (`refresh`: by htmx, or the
    button shown without scripts, which posts the form), the form as it stands, nothing
    saved; or as posted; or fresh."""
    data = request.POST if request.method == "POST" else request.GET
    if data.get("refresh"):
        return StageForm.refreshed(data, **kwargs)
    if request.method == "POST":
        return StageForm(request.POST, **kwargs)
    return StageForm(initial=initial, **kwargs)


def _stage_form_page(
    request: HttpRequest,
    event: Event,
    stage: Stage | None,
    form: StageForm,
    save: Callable[[dict[str, Any]], tuple[int, str]],
    *,
    default_players: str = "",
) -> HttpResponse:
    """The stage form (a new stage, or `stage` changed): a valid POST's options go to `save`,
    which answers the stage saved and the message that says so; a service's refusal is shown
    on the form, and nothing is saved."""
    if request.method == "POST" and form.is_valid():
        try:
            saved, done = save(form.stage_options())
        except DomainError as error:
            form.refuse(error)
        else:
            messages.success(request, done)
            return redirect(_event_url(event.pk, f"stage-{saved}"))
    return render(
        request,
        "organize/events/stage_form.html",
        {
            "event": event,
            "form": form,
            "stage": stage,
            "league": event.league,
            "default_players": default_players,
        },
        status=page_status(form),
    )


@login_required
@require_http_methods(["GET", "POST"])
def stage_add(request: HttpRequest, event_id: int) -> HttpResponse:
    """Add a stage (a draft) to the event, with every option the API takes, checked by
    `stage_create` exactly as there."""
    event = organized_event(request, event_id)

    def add(options: dict[str, Any]) -> tuple[int, str]:
        stage = stage_services.stage_create(event_id=event.pk, **options)
        return stage.pk, f"{stage.name} is added. Start it when its players are here."

    players, said = selectors.expected_players(event)
    form = _stage_form(
        request, _stage_form_kwargs(request, event), initial={"participants": players}
    )
    return _stage_form_page(request, event, None, form, add, default_players=said)


@login_required
@require_http_methods(["GET", "POST"])
def stage_edit(request: HttpRequest, stage_id: int) -> HttpResponse:
    """Change a stage not started yet (`stage_update`, the API's PATCH)."""
    stage = organized_stage(request, stage_id)
    event = stage.event
    seeds = list(stage.entries.order_by("seed").values_list("player_id", "seed"))
    form = _stage_form(
        request,
        _stage_form_kwargs(request, event, stage),
        initial=StageForm.initial_of(stage, seeds),
    )

    def change(options: dict[str, Any]) -> tuple[int, str]:
        stage_services.stage_update(stage_id=stage.pk, changes=options)
        return stage.pk, f"{form.cleaned_data['name']} is changed."

    return _stage_form_page(request, event, stage, form, change)


@login_required
@require_http_methods(["GET", "POST"])
def stage_delete(request: HttpRequest, stage_id: int) -> HttpResponse:
    """Delete a stage not started, after a confirmation (`stage_delete`). The confirmation
    rehearses the deletion first (run and rolled back): one the service refuses (a stage
    started, one another stage takes its players from, a closed event) is shown with its
    reason and no button to confirm."""
    stage = organized_stage(request, stage_id)
    names = _stage_names(stage.event_id)
    if request.method == "POST":
        try:
            stage_services.stage_delete(stage_id=stage.pk)
        except DomainError as error:
            messages.error(request, stage_words(error, names, stage.pk))
        else:
            messages.success(request, f"{stage.name} is deleted.")
        return redirect(_event_url(stage.event_id))
    refused = refusal_of(lambda: stage_services.stage_delete(stage_id=stage.pk))
    return render(
        request,
        "organize/events/stage_delete.html",
        {
            "stage": stage,
            "event": stage.event,
            "league": stage.event.league,
            "refused": stage_words(refused, names, stage.pk) if refused else None,
        },
    )


def _stage_names(event_id: int) -> dict[int, str]:
    return dict(Stage.objects.filter(event_id=event_id).values_list("pk", "name"))


@login_required
@require_POST
def stage_start(request: HttpRequest, stage_id: int) -> HttpResponseBase:
    """Draw the stage and seat its first tables (`stage_start`); at an event using check-in,
    say who was dropped for not checking in."""
    stage = organized_stage(request, stage_id)
    try:
        started = stage_services.stage_start(stage_id=stage.pk)
    except DomainError as error:
        messages.error(request, stage_words(error, _stage_names(stage.event_id), stage.pk))
    else:
        messages.success(request, f"{stage.name} has started: its tables are seated.")
        if started.dropped:  # an event using check-in: who was not there
            names = Player.objects.filter(pk__in=started.dropped).order_by("display_name", "pk")
            messages.warning(
                request,
                f"Not checked in, so dropped from {stage.name}: "
                f"{', '.join(p.display_name for p in names)}.",
            )
    return redirect(_event_url(stage.event_id, f"stage-{stage.pk}"))


# --- Closing and reopening ----------------------------------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
def event_close_page(request: HttpRequest, event_id: int) -> HttpResponse:
    """Close the event as finished or cancelled (`event_close`). While matches of it are
    being played it is refused, and the page lists them: finish or void them first."""
    event = organized_event(request, event_id)
    form = CloseForm(request.POST or None)
    in_progress: list[TableRow] = []
    if request.method == "POST" and form.is_valid():
        try:
            event_close(event_id=event.pk, status=form.cleaned_data["status"])
        except EventConflict as error:
            form.refuse(error)
            in_progress = selectors.event_matches(event, error.details.get("matches", []))
        except DomainError as error:
            form.refuse(error)
        else:
            messages.success(request, f"{event.name} is closed.")
            return redirect("organize:event", event.pk)
    return render(
        request,
        "organize/events/close.html",
        {"event": event, "league": event.league, "form": form, "in_progress": in_progress},
        status=page_status(form),
    )


@login_required
@require_POST
def event_reopen_page(request: HttpRequest, event_id: int) -> HttpResponseBase:
    """Reopen a finished or cancelled event (`event_reopen`)."""
    event = organized_event(request, event_id)
    if not event.is_closed:  # a second submit, or a page left open: nothing to reopen
        messages.info(request, f"{event.name} is not closed: there is nothing to reopen.")
        return redirect("organize:event", event.pk)
    try:
        event = event_reopen(event_id=event.pk)
    except DomainError as error:
        messages.error(request, page_words(error))
    else:
        messages.success(request, f"{event.name} is open again ({event.get_status_display()}).")
    return redirect("organize:event", event.pk)


# --- Withdrawals --------------------------------------------------------------------------------


# What the last withdrawal changed, kept in the session until the page shows it once.
WITHDRAWN_KEY = "organize:withdrawn"


def withdrawal_view(
    withdrawal: stage_services.Withdrawal, stages: dict[int, Stage]
) -> dict[str, Any]:
    """What a withdrawal changed in one stage, as the page says it (plain values: it is kept
    in the session until shown)."""
    stage = stages.get(withdrawal.stage)
    return {
        "stage": stage.name if stage else f"Stage {withdrawal.stage}",
        "removed_from_draft": withdrawal.removed_from_draft,
        "walkovers": len(withdrawal.walkovers),
        "replayed": [item["match"] for item in withdrawal.replayed],
        "in_progress": list(withdrawal.in_progress),
    }


def withdrawal_fingerprint(changes: list[dict[str, Any]]) -> str:
    """What a withdrawal does, as the organizer checked it: the new matches of the tables that
    play on are counted, not named (a rehearsal's are rolled back, so each check numbers them
    anew)."""
    return game_services.request_fingerprint(
        [{**change, "replayed": len(change["replayed"])} for change in changes]
    )


def withdrawal_preview(
    name: str, player: int, stage: int | None, changes: list[dict[str, Any]]
) -> dict[str, Any]:
    """The preview the page shows, with the fingerprint its confirmation sends back."""
    return {
        "name": name,
        "player": player,
        "stage": stage,
        "changes": changes,
        "checked": withdrawal_fingerprint(changes),
    }


class _NotAsChecked(Exception):
    """A confirmed withdrawal would do other than what was checked: it is rolled back."""

    def __init__(self, changes: list[dict[str, Any]]) -> None:
        super().__init__("The withdrawal does other than what was checked.")
        self.changes = changes


@login_required
@require_http_methods(["GET", "POST"])
def withdraw(request: HttpRequest, event_id: int) -> HttpResponse:
    """Withdraw a player from every stage of the event still to finish (`event_withdraw`) or
    from one stage (`stage_withdraw`). The form's choice is first rehearsed (run and rolled
    back) and the page says what it would do; the confirmation (`confirm=1`, with the
    fingerprint of what was checked) withdraws them, unless it would now do something else (a
    table started or finished meanwhile: it is rolled back and the page shows what it does
    now), and the page then says what changed: tables decided as walkovers, tables that play on
    without them, their matches being played (left to finish or void)."""
    event = organized_event(request, event_id)
    stage_rows = selectors.event_stages(event)
    form = WithdrawForm(
        request.POST or None,
        entrants=selectors.event_entrants(event),
        stages=stage_rows,
    )
    stages = {row.stage.pk: row.stage for row in stage_rows}
    preview, stale = None, None
    if request.method == "POST" and form.is_valid():
        player, stage_id = form.cleaned_data["player"], form.cleaned_data["stage"]
        name = form.player_names.get(player, f"Player {player}")

        def act() -> list[stage_services.Withdrawal]:
            if stage_id is None:
                return stage_services.event_withdraw(
                    event_id=event.pk, player_id=player, by=request.user
                )
            return [
                stage_services.stage_withdraw(stage_id=stage_id, player_id=player, by=request.user)
            ]

        if request.POST.get("confirm") != "1":
            seen: list[list[stage_services.Withdrawal]] = []
            if (refusal := refusal_of(lambda: seen.append(act()))) is not None:
                form.refuse(refusal)
            else:
                would = [withdrawal_view(w, stages) for w in seen[0]]
                preview = withdrawal_preview(name, player, stage_id, would)
        else:
            try:
                with transaction.atomic():
                    done = [withdrawal_view(w, stages) for w in act()]
                    if withdrawal_fingerprint(done) != request.POST.get("checked"):
                        raise _NotAsChecked(done)
            except _NotAsChecked as changed:
                preview = withdrawal_preview(name, player, stage_id, changed.changes)
                stale = (
                    "What it does has changed since it was checked (a table started or "
                    "finished meanwhile), and nothing was done: this is what it does now."
                    if request.POST.get("checked")
                    else "Nothing was done: check what it does first. This is what it does."
                )
            except DomainError as error:
                form.refuse(error)
            else:
                request.session[WITHDRAWN_KEY] = {"event": event.pk, "changes": done}
                messages.success(request, f"{name} is withdrawn.")
                return redirect("organize:withdraw", event.pk)
    shown = request.session.pop(WITHDRAWN_KEY, None) if request.method == "GET" else None
    changes = shown["changes"] if shown and shown.get("event") == event.pk else None
    return render(
        request,
        "organize/events/withdraw.html",
        {
            "event": event,
            "league": event.league,
            "form": form,
            "changes": changes,
            "preview": preview,
            "stale": stale,
        },
        status=page_status(form),
    )
