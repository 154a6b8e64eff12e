"""An event's sign-up and check-in from the organizer's side (docs/organizing.md, "Sign-up and
check-in"): the sign-up's settings, a player added by hand, each registration approved
(linked to the existing player it matches, or as a new player: the organizer chooses),
refused or withdrawn, and the confirmed players checked in.

Every page checks `organize.permissions` first and writes through one service of
`league.services.registration`; a refusal is shown on the form or as a message, nothing
saved."""

from functools import partial
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST

from league.models import Event, Registration, RegistrationStatus, SignUp
from league.services import entrants
from league.services import registration as services
from organize import selectors
from organize.forms import page_status
from organize.forms.registration import RegistrationAddForm, SignUpSettingsForm
from organize.forms.words import page_words
from organize.permissions import require_event
from organize.views.events import organized_event
from scoring.errors import DomainError


def _page_url(event_id: int, anchor: str = "") -> str:
    return reverse("organize:sign_up", args=[event_id]) + (f"#{anchor}" if anchor else "")


def _registration_rows(
    registrations: list[Registration], user: Any
) -> dict[str, list[dict[str, Any]]]:
    """The event's registrations by where they stand, each pending one with the existing
    players it matches that `user` may link it to (the organizer links it to one, or makes a
    new player)."""
    rows: dict[str, list[dict[str, Any]]] = {status: [] for status in RegistrationStatus.values}
    pending = [r for r in registrations if r.status == RegistrationStatus.PENDING]
    candidates = services.candidates_of(pending, by=user)
    for registration in registrations:
        rows[registration.status].append(
            {"registration": registration, "candidates": candidates.get(registration.pk, [])}
        )
    return rows


@login_required
@require_http_methods(["GET", "POST"])
def sign_up(request: HttpRequest, event_id: int) -> HttpResponse:
    """The event's sign-up: its settings (`sign_up_set`), a player added by hand, and every
    registration with what can be done with it."""
    event = organized_event(request, event_id)
    settings = SignUp.objects.filter(event=event).first()
    posted = request.method == "POST"
    form = SignUpSettingsForm(
        request.POST if posted else None, initial=SignUpSettingsForm.initial_of(settings)
    )
    if posted and form.is_valid():
        try:
            settings = services.sign_up_set(event=event, **form.cleaned_data)
        except DomainError as error:
            form.refuse(error)
        else:
            messages.success(request, "The sign-up is saved.")
            return redirect(_page_url(event.pk))
    return _render(request, event, settings, form, RegistrationAddForm())


def _render(
    request: HttpRequest,
    event: Event,
    settings: SignUp | None,
    form: SignUpSettingsForm,
    add_form: RegistrationAddForm,
) -> HttpResponse:
    registrations = list(
        event.registrations.select_related("event__league", "player").order_by("created_at", "pk")
    )
    rows = _registration_rows(registrations, request.user)
    search = request.GET.get("q", "")[:80]
    played_before = request.GET.get("played") == "before"
    check_in_search = request.GET.get("cq", "")[:80]
    for row in rows[RegistrationStatus.CONFIRMED]:
        player = row["registration"].player
        row["shown"] = player is None or selectors.found_by(
            check_in_search, player.display_name, player.handle
        )
    to_check_in = [
        row["registration"].pk
        for row in rows[RegistrationStatus.CONFIRMED]
        if row["shown"] and row["registration"].checked_in_at is None
    ]
    return render(
        request,
        "organize/events/sign_up.html",
        {
            "event": event,
            "league": event.league,
            "sign_up": settings,
            "form": form,
            "add_form": add_form,
            "rows": rows,
            "roster": selectors.roster_to_enter(event, search=search, played_before=played_before),
            "roster_search": search,
            "played_before": played_before,
            "check_in_search": check_in_search,
            "to_check_in": to_check_in,
            "places_taken": services.places_taken(event.pk),
            "public_url": request.build_absolute_uri(reverse("league:sign_up", args=[event.pk])),
        },
        status=page_status(form, add_form),
    )


@login_required
@require_POST
def registration_add(request: HttpRequest, event_id: int) -> HttpResponse | HttpResponseBase:
    """Add a player by hand (`registration_create` as an organizer): after the deadline too,
    with or without an email. They are then approved like any sign-up."""
    event = organized_event(request, event_id)
    add_form = RegistrationAddForm(request.POST)
    if add_form.is_valid():
        try:
            done = services.registration_create(
                event_id=event.pk, by_organizer=True, **add_form.cleaned_data
            )
        except DomainError as error:
            add_form.refuse(error)
        else:
            registration = done.registration
            where = "on the waiting list" if registration.status == "waiting" else "added"
            messages.success(request, f"{registration.display_name} is {where}: approve below.")
            return redirect(_page_url(event.pk, f"registration-{registration.pk}"))
    settings = SignUp.objects.filter(event=event).first()
    form = SignUpSettingsForm(initial=SignUpSettingsForm.initial_of(settings))
    return _render(request, event, settings, form, add_form)


def _organized(request: HttpRequest, registration_id: int) -> Registration:
    registration = get_object_or_404(
        Registration.objects.select_related("event__league"), pk=registration_id
    )
    require_event(request.user, registration.event)
    return registration


class _Garbled(Exception):
    """A posted action field that is none of the values the page's buttons send."""


def _approve(request: HttpRequest, registration: Registration) -> str:
    choice = request.POST.get("player", "")
    approve = partial(
        services.registration_approve, registration_id=registration.pk, by=request.user
    )
    if choice == "new":
        done = approve(new_player=True)
    elif choice.isascii() and choice.isdigit() and len(choice) <= 18:
        done = approve(player_id=int(choice))
    elif not choice:  # no one to choose between: the page sends no choice
        done = approve()
    else:
        raise _Garbled("choose the player it is, or a new player.")
    assert done.player is not None  # noqa: S101 - a confirmed registration names its player
    return (
        f"{done.display_name} is confirmed as {done.player.display_name} (@{done.player.handle})."
    )


@login_required
@require_POST
def registration_action(request: HttpRequest, registration_id: int, step: str) -> HttpResponseBase:
    """Approve (`player`: an existing player's id, or "new"), refuse, withdraw, or check in
    (`present`: "1" or "0") one registration; the page then says what changed. Any other
    `player` or `present` changes nothing and says so."""
    registration = _organized(request, registration_id)
    name = registration.display_name
    try:
        if step == "approve":
            message = _approve(request, registration)
        elif step == "refuse":
            services.registration_refuse(registration_id=registration.pk)
            message = f"{name} is refused."
        elif step == "withdraw":
            services.registration_withdraw(registration_id=registration.pk)
            message = f"{name} is withdrawn."
            if entered := selectors.stages_still_entered(
                registration.event_id, registration.player_id
            ):
                # The sign-up's withdrawal seats no one and forfeits nothing: say where they
                # still play, and what takes them off those tables.
                messages.warning(
                    request,
                    f"{name} is still entered in {', '.join(entered)}: withdrawing the sign-up "
                    "does not take them off its tables; “Withdraw a player” on the event's page "
                    "does.",
                )
        else:
            asked = request.POST.get("present", "1")
            if asked not in ("0", "1"):
                raise _Garbled("check in (present 1) or undo a check-in (present 0).")
            present = asked == "1"
            services.registration_check_in(registration_id=registration.pk, present=present)
            message = f"{name} is {'checked in' if present else 'no longer checked in'}."
    except DomainError as error:
        messages.error(request, f"{name}: {page_words(error)}")
    except _Garbled as garbled:
        messages.error(request, f"{name}: nothing changed; {garbled}")
    else:
        messages.success(request, message)
    return redirect(_page_url(registration.event_id, f"registration-{registration.pk}"))


@login_required
@require_POST
def roster_enter(request: HttpRequest, event_id: int) -> HttpResponseBase:
    """Enter the players ticked (or every one shown) from the league's roster at once
    (`league.services.entrants.roster_enter`): confirmed, or on the waiting list when full."""
    event = organized_event(request, event_id)
    ids = _ids(request.POST.getlist("player"))
    if not ids:
        messages.error(request, "Tick the players to enter, or enter every one shown.")
        return redirect(_page_url(event.pk, "roster-heading"))
    try:
        done = entrants.roster_enter(event_id=event.pk, player_ids=ids, by=request.user)
    except DomainError as error:
        messages.error(request, error.message)
        return redirect(_page_url(event.pk, "roster-heading"))
    said = [f"{len(done.confirmed)} entered and confirmed"]
    if done.waiting:
        said.append(f"{len(done.waiting)} on the waiting list (the event is full)")
    if done.already:
        said.append(f"{len(done.already)} already signed up, left as they were")
    messages.success(request, "; ".join(said) + ".")
    return redirect(_page_url(event.pk, "confirmed-heading"))


@login_required
@require_POST
def check_in_all(request: HttpRequest, event_id: int) -> HttpResponseBase:
    """Check in every confirmed player shown (`league.services.entrants.check_in_all`)."""
    event = organized_event(request, event_id)
    try:
        done = entrants.check_in_all(
            event_id=event.pk, registration_ids=_ids(request.POST.getlist("registration"))
        )
    except DomainError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, f"{len(done)} player{'s' if len(done) != 1 else ''} checked in.")
    return redirect(_page_url(event.pk, "confirmed-heading"))


def _ids(values: list[str]) -> list[int]:
    """The ids posted (what is not an id is passed over: a form only sends ids)."""
    return [int(value) for value in values if value.isdigit() and len(value) < 12]
