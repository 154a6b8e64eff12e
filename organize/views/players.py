"""A league's roster pages: the players, add one, import a CSV of them, rename one, merge two
that are one person entered twice.

Each view checks the one permission rule (`organize.permissions`: the league's organizers and
staff), parses a form and calls one service; a refusal is shown on the form with its sentence,
status 400, nothing saved. A player's own page is found through the league's roster: a
player of no roster the organizer runs is not found (404)."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_http_methods

from league.errors import LeagueError
from league.models import League, Player
from league.pages.words import about_field
from league.services import organization
from league.services.organization import NewPlayer
from organize.forms import page_status
from organize.forms.players import (
    PlayerAddForm,
    PlayerImportForm,
    PlayerMergeForm,
    PlayerRenameForm,
    row_problem,
)
from organize.forms.words import page_words
from organize.permissions import require_league
from scoring.errors import DomainError


def _league(request: HttpRequest, slug: str) -> League:
    return require_league(request.user, get_object_or_404(League, slug=slug))


def _added(created: list[Player]) -> str:
    if len(created) == 1:
        return f"{created[0].display_name} (@{created[0].handle}) is on the roster."
    return f"{len(created)} players are added to the roster."


def _create(request: HttpRequest, league: League, players: list[NewPlayer]) -> HttpResponse:
    """Add the players (all or none: the service's LeagueError goes to the caller's form),
    say so, and go back to the roster."""
    created = organization.players_create(league=league, players=players)
    messages.success(request, _added(created))
    return redirect("organize:players", league.slug)


@login_required
@require_http_methods(["GET", "POST"])
def roster(request: HttpRequest, slug: str) -> HttpResponse:
    """The roster, each player with their matches (a duplicate often has none), and the form
    that adds one player."""
    league = _league(request, slug)
    form = PlayerAddForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            return _create(request, league, [form.new_player()])
        except LeagueError as error:
            if "rows" not in error.details:
                form.refuse(error)
            for problem in error.details.get("rows", []):
                field = problem.get("field")
                form.add_error(field, about_field(problem["message"], field))
    players = league.players.with_counts().order_by("display_name", "pk")
    context = {"league": league, "players": players, "form": form}
    return render(request, "organize/players/roster.html", context, status=page_status(form))


@login_required
@require_http_methods(["GET", "POST"])
def players_import(request: HttpRequest, slug: str) -> HttpResponse:
    """Players from CSV (pasted or uploaded), all or none: each row that cannot be added is
    listed with its row number and why."""
    league = _league(request, slug)
    form = PlayerImportForm(request.POST or None, request.FILES or None)
    problems: list[dict[str, object]] = []
    if request.method == "POST" and form.is_valid():
        try:
            return _create(request, league, form.rows)
        except LeagueError as error:
            form.add_error(None, page_words(error))
            by_row = {row.row: row for row in form.rows}
            problems = [
                {**row_problem(problem), "name": by_row[problem["row"]].display_name}
                for problem in error.details.get("rows", [])
            ]
    context = {"league": league, "form": form, "problems": problems}
    return render(request, "organize/players/import.html", context, status=page_status(form))


@login_required
@require_http_methods(["GET", "POST"])
def player_rename(request: HttpRequest, slug: str, player_id: int) -> HttpResponse:
    league = _league(request, slug)
    player = get_object_or_404(league.players.all(), pk=player_id)
    form = PlayerRenameForm(request.POST or None, initial={"display_name": player.display_name})
    if request.method == "POST" and form.is_valid():
        old_name = player.display_name
        try:
            organization.player_update(
                player=player, display_name=form.cleaned_data["display_name"]
            )
        except DomainError as error:
            form.refuse(error)
        else:
            if player.display_name == old_name:  # the same name, as the service stores it
                messages.info(request, f"{old_name} is already the name: nothing changed.")
            else:
                messages.success(request, f"{old_name} is now {player.display_name}.")
            return redirect("organize:players", league.slug)
    other_leagues = list(player.leagues.exclude(pk=league.pk).order_by("name"))
    return render(
        request,
        "organize/players/rename.html",
        {"league": league, "player": player, "form": form, "other_leagues": other_leagues},
        status=page_status(form),
    )


@login_required
@require_http_methods(["GET", "POST"])
def players_merge(request: HttpRequest, slug: str) -> HttpResponse:
    """Merge a duplicate into the player kept, in two steps: choose the two, then confirm on a
    page that says what each has played and what will happen. A merge the service refuses
    (`player_merge_check`, the merge's own checks) is refused at the first step, on the form:
    no confirmation is shown for it."""
    league = _league(request, slug)
    roster_players = list(league.players.order_by("display_name", "pk"))
    form = PlayerMergeForm(request.POST or None, roster=roster_players)
    pair: list[Player] = []
    if request.method == "POST" and form.is_valid():
        chosen = {p.pk: p for p in league.players.with_counts().filter(pk__in=_ids(form))}
        keep, remove = chosen[form.cleaned_data["keep"]], chosen[form.cleaned_data["remove"]]
        if form.cleaned_data["confirmed"]:
            try:
                merged = organization.player_merge(
                    league=league, keep=keep, remove=remove, by=request.user
                )
            except DomainError as error:
                form.refuse(error)
            else:
                messages.success(
                    request,
                    f"{merged.removed_name} is merged into {merged.kept.display_name}: "
                    f"{merged.seats} match{'' if merged.seats == 1 else 'es'} and "
                    f"{merged.stage_entries} stage "
                    f"entr{'y' if merged.stage_entries == 1 else 'ies'} moved. "
                    "The standings and ratings are being counted again.",
                )
                return redirect("organize:players", league.slug)
        else:
            try:  # the same checks the merge makes, so no confirmation is shown for a refusal
                organization.player_merge_check(
                    league=league, keep=keep, remove=remove, by=request.user
                )
            except DomainError as error:
                form.refuse(error)
            else:
                pair = [keep, remove]
    return render(
        request,
        "organize/players/merge.html",
        {"league": league, "form": form, "pair": pair},
        status=page_status(form),
    )


def _ids(form: PlayerMergeForm) -> list[int]:
    return [form.cleaned_data["keep"], form.cleaned_data["remove"]]
