"""A league's organizer pages: create a league, its settings (name, game, rules, league
points, tiebreak order with a live preview of what each metric means) and its organizers
(added by username, removed, invited by email; the invitation's own page, which its link opens,
is league.pages.invitations).

Each view checks the one permission rule (`organize.permissions`), parses a form and calls one
service; a refusal is shown on the form with its sentence, status 400, nothing saved. A saved
form redirects (with a message) so that a reload does not send it again."""

from dataclasses import dataclass

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST

from core.methods import read_only
from league import standings
from league.models import League, OrganizerInvitation
from league.services import organization
from organize.forms import page_status
from organize.forms.leagues import (
    InvitationForm,
    InvitationRevokeForm,
    LeagueCreateForm,
    LeagueSettingsForm,
    OrganizerAddForm,
    OrganizerRemoveForm,
    TiebreakForm,
)
from organize.forms.words import page_words
from organize.permissions import require_league
from scoring.errors import DomainError

# The refusals of a tiebreak order (league.standings.errors.CODES): shown on its fieldset.
TIEBREAK_CODES = frozenset(
    {"tiebreak_order", "unknown_metric", "duplicate_metric", "metric_not_for_game"}
)


def _league(request: HttpRequest, slug: str) -> League:
    return require_league(request.user, get_object_or_404(League, slug=slug))


# --- A new league ------------------------------------------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
def league_new(request: HttpRequest) -> HttpResponse:
    """Any signed-in user may start a league (as `POST leagues/`); they organize it."""
    form = LeagueCreateForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            league = organization.league_create(
                created_by=request.user,  # type: ignore[arg-type]
                **form.cleaned_data,
            )
        except DomainError as error:
            form.refuse(error)
        else:
            messages.success(request, f"{league.name} is created, and you organize it.")
            return redirect("organize:league", league.slug)
    return render(request, "organize/leagues/new.html", {"form": form}, status=page_status(form))


# --- Settings ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class MetricLine:
    """One place of a tiebreak order as the preview shows it."""

    place: int
    key: str
    label: str
    description: str
    low_first: bool


@dataclass(frozen=True, slots=True)
class TiebreakPreview:
    lines: tuple[MetricLine, ...]
    problem: str


def tiebreak_preview(order: list[str], game: str) -> TiebreakPreview:
    """What an order means: each metric with its description, and the standings' refusal of
    the order, if any (the sentence the save would show)."""
    lines = tuple(
        MetricLine(place, key, metric.label, metric.description, not metric.descending)
        for place, key in enumerate(order, start=1)
        if (metric := standings.METRICS.get(key)) is not None
    )
    try:
        standings.validate_tiebreak_order(order, game=game)
    except standings.StandingsError as error:
        return TiebreakPreview(lines, page_words(error))
    return TiebreakPreview(lines, "")


def _settings_page(
    request: HttpRequest,
    league: League,
    *,
    settings_form: LeagueSettingsForm | None = None,
    tiebreak_form: TiebreakForm | None = None,
    add_form: OrganizerAddForm | None = None,
    remove_form: OrganizerRemoveForm | None = None,
    invite_form: InvitationForm | None = None,
    revoke_form: InvitationRevokeForm | None = None,
) -> HttpResponse:
    if settings_form is None:
        settings_form = LeagueSettingsForm(league=league, game_settled=league.game_is_settled())
    tiebreak_form = tiebreak_form or TiebreakForm(game=league.game, order=league.tiebreak)
    order = tiebreak_form.chosen() if tiebreak_form.is_bound else list(league.tiebreak)
    context = {
        "league": league,
        "form": settings_form,
        "rule_fields": [settings_form[name] for name in settings_form.rule_fields],
        "point_fields": [settings_form[name] for name in settings_form.point_fields],
        "tiebreak_form": tiebreak_form,
        "preview": tiebreak_preview(order, league.game),
        "organizers": list(league.organizers.order_by("username")),
        "add_form": add_form or OrganizerAddForm(),
        "remove_form": remove_form,
        "invitations": list(
            OrganizerInvitation.objects.pending()
            .filter(league=league)
            .select_related("invited_by")
            .order_by("created_at", "id")
        ),
        "invite_form": invite_form or InvitationForm(),
        "revoke_form": revoke_form,
    }
    forms = (settings_form, tiebreak_form, add_form, remove_form, invite_form, revoke_form)
    return render(request, "organize/leagues/settings.html", context, status=page_status(*forms))


@login_required
@require_http_methods(["GET", "POST"])
def league_settings(request: HttpRequest, slug: str) -> HttpResponse:
    league = _league(request, slug)
    if request.method == "GET":
        return _settings_page(request, league)
    settings_form = LeagueSettingsForm(
        request.POST, league=league, game_settled=league.game_is_settled()
    )
    tiebreak_form = TiebreakForm(request.POST, game=league.game)
    if all([settings_form.is_valid(), tiebreak_form.is_valid()]):  # both, for all their errors
        try:
            organization.league_update(
                league=league, **settings_form.changes(), tiebreak=tiebreak_form.order()
            )
        except DomainError as error:
            (tiebreak_form if error.code in TIEBREAK_CODES else settings_form).refuse(error)
        else:
            messages.success(request, f"The settings of {league.name} are saved.")
            return redirect("organize:league", league.slug)
    return _settings_page(request, league, settings_form=settings_form, tiebreak_form=tiebreak_form)


@read_only
@login_required
def league_tiebreak(request: HttpRequest, slug: str) -> HttpResponse:
    """The live preview of a tiebreak order being chosen (htmx swaps it in on every change):
    what each metric means, in order, and what is wrong with the order, if anything."""
    league = _league(request, slug)
    order = TiebreakForm(request.GET, game=league.game).chosen()
    return render(
        request,
        "organize/leagues/_tiebreak_preview.html",
        {"preview": tiebreak_preview(order, league.game)},
    )


# --- Organizers --------------------------------------------------------------------------------


@login_required
@require_POST
def organizer_add(request: HttpRequest, slug: str) -> HttpResponse:
    league = _league(request, slug)
    form = OrganizerAddForm(request.POST)
    if form.is_valid():
        try:
            organization.league_organizer_add(league=league, user=form.user)
        except DomainError as error:
            form.refuse(error)
        else:
            messages.success(request, f"{form.user.get_username()} now organizes {league.name}.")
            return redirect("organize:league", league.slug)
    return _settings_page(request, league, add_form=form)


@login_required
@require_POST
def organizer_remove(request: HttpRequest, slug: str) -> HttpResponse:
    """Remove an organizer, yourself included while another remains: you then lose the
    league's pages (unless you are staff) and land on My leagues. The last one stays, and so
    does the league's owner. The first POST asks to confirm (a page naming who and what they
    lose); the confirmed one removes."""
    league = _league(request, slug)
    form = OrganizerRemoveForm(request.POST, league=league)
    if form.is_valid() and request.POST.get("confirmed") != "yes":
        user = form.cleaned_data["user"]
        if user.pk == league.owner_id:
            form.add_error(
                None,
                f"{user.get_username()} made {league.name} and owns it: no "
                "organizer removes its owner.",
            )
            return _settings_page(request, league, remove_form=form)
        return render(
            request,
            "organize/leagues/organizer_remove.html",
            {"league": league, "removed": user, "yourself": user.pk == request.user.pk},
        )
    if form.is_valid():
        user = form.cleaned_data["user"]
        try:
            organization.league_organizer_remove(league=league, user=user)
        except DomainError as error:
            form.refuse(error)
        else:
            if user.pk == request.user.pk and not league.is_organizer(request.user):
                messages.success(request, f"You no longer organize {league.name}.")
                return redirect("organize:home")
            messages.success(request, f"{user.get_username()} no longer organizes {league.name}.")
            return redirect("organize:league", league.slug)
    return _settings_page(request, league, remove_form=form)


# --- Invitations by email ------------------------------------------------------------------------


@login_required
@require_POST
def invitation_add(request: HttpRequest, slug: str) -> HttpResponse:
    """Invite a co-organizer by email: the link goes to the address, never to this page (its
    token is shown nowhere), and replaces an open invitation to the same address."""
    league = _league(request, slug)
    form = InvitationForm(request.POST)
    if form.is_valid():
        try:
            sent = organization.invitation_create(
                league=league,
                email=form.cleaned_data["email"],
                invited_by=request.user,  # type: ignore[arg-type]
            )
        except DomainError as error:
            form.refuse(error)
        else:
            link = request.build_absolute_uri(reverse("league:invitation_link", args=[sent.token]))
            organization.invitation_mail(sent, link=link)
            email = sent.invitation.email
            before = "; the link sent before no longer opens" if sent.replaced else ""
            messages.success(
                request,
                f"An invitation to organize {league.name} is mailed to {email}{before}. Its "
                f"link works once, until {organization.time_words(sent.invitation.expires_at)}.",
            )
            return redirect(reverse("organize:league", args=[league.slug]) + "#organizers-heading")
    return _settings_page(request, league, invite_form=form)


@login_required
@require_POST
def invitation_revoke(request: HttpRequest, slug: str) -> HttpResponse:
    """Revoke an open invitation: its link opens nothing from then on. The first POST asks to
    confirm (a page naming the address); the confirmed one revokes."""
    league = _league(request, slug)
    form = InvitationRevokeForm(request.POST, league=league)
    if form.is_valid() and request.POST.get("confirmed") != "yes":
        return render(
            request,
            "organize/leagues/invitation_revoke.html",
            {"league": league, "invitation": form.cleaned_data["invitation"]},
        )
    if form.is_valid():
        invitation = form.cleaned_data["invitation"]
        try:
            organization.invitation_revoke(league=league, invitation_id=invitation.pk)
        except DomainError as error:
            form.refuse(error)
        else:
            messages.success(
                request,
                f"The invitation to {invitation.email} is revoked: its link no longer opens.",
            )
            return redirect(reverse("organize:league", args=[league.slug]) + "#organizers-heading")
    return _settings_page(request, league, revoke_form=form)
