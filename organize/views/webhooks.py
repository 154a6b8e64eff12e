"""A league's webhook pages (docs/organizing.md, "Webhooks"): its endpoints with a form to add
one, and an endpoint's page with its delivery log and what an organizer does with it (test,
enable, turn off, rotate the secret, delete).

A secret is shown once, on the page that answers its creation or rotation (never carried in a
message or the session); every other page shows only that there is one."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_http_methods, require_POST

from league.models import League
from organize.forms import page_status
from organize.forms.webhooks import EndpointForm
from organize.forms.words import page_words
from organize.permissions import require_league
from scoring.errors import DomainError
from webhooks import selectors, services
from webhooks.models import Endpoint

LOG_PAGE = 25
STEPS = frozenset({"test", "enable", "disable", "rotate", "delete"})


def _league(request: HttpRequest, slug: str) -> League:
    return require_league(request.user, get_object_or_404(League, slug=slug))


def _endpoint(request: HttpRequest, slug: str, endpoint_id: int) -> Endpoint:
    league = _league(request, slug)
    return get_object_or_404(
        Endpoint.objects.select_related("league"), pk=endpoint_id, league=league
    )


def _secret_page(request: HttpRequest, endpoint: Endpoint, *, rotated: bool) -> HttpResponse:
    response = render(
        request,
        "organize/webhooks/secret.html",
        {"league": endpoint.league, "endpoint": endpoint, "rotated": rotated},
    )
    response["Cache-Control"] = "no-store"
    return response


@login_required
@require_http_methods(["GET", "POST"])
def webhooks(request: HttpRequest, slug: str) -> HttpResponse:
    league = _league(request, slug)
    form = EndpointForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            endpoint = services.endpoint_create(
                league=league,
                url=form.cleaned_data["url"],
                events=form.cleaned_data["events"],
                description=form.cleaned_data["description"],
                created_by=request.user,  # type: ignore[arg-type]
            )
        except DomainError as error:
            form.refuse(error)
        else:
            return _secret_page(request, endpoint, rotated=False)
    context = {
        "league": league,
        "endpoints": list(selectors.league_endpoints(league.pk)),
        "form": form,
    }
    return render(request, "organize/webhooks/list.html", context, status=page_status(form))


@login_required
@require_http_methods(["GET"])
def endpoint_page(request: HttpRequest, slug: str, endpoint_id: int) -> HttpResponse:
    endpoint = _endpoint(request, slug, endpoint_id)
    log = Paginator(selectors.endpoint_deliveries(endpoint.pk), LOG_PAGE)
    page = log.get_page(request.GET.get("page"))
    context = {"league": endpoint.league, "endpoint": endpoint, "page": page}
    return render(request, "organize/webhooks/endpoint.html", context)


@login_required
@require_POST
def endpoint_action(request: HttpRequest, slug: str, endpoint_id: int, step: str) -> HttpResponse:
    """One button of an endpoint's page: test, enable, disable, rotate, delete."""
    if step not in STEPS:
        raise Http404("No such action.")
    endpoint = _endpoint(request, slug, endpoint_id)
    back = redirect("organize:webhook", endpoint.league.slug, endpoint.pk)
    try:
        if step == "test":
            services.endpoint_ping(endpoint_id=endpoint.pk)
            messages.success(request, "A test event was sent; its delivery is in the log below.")
        elif step == "enable":
            services.endpoint_enable(endpoint_id=endpoint.pk)
            messages.success(request, "The endpoint is enabled again.")
        elif step == "disable":
            services.endpoint_update(endpoint_id=endpoint.pk, changes={"enabled": False})
            messages.success(request, "The endpoint is turned off: nothing is sent to it.")
        elif step == "rotate":
            rotated = services.endpoint_secret_rotate(endpoint_id=endpoint.pk)
            return _secret_page(request, rotated, rotated=True)
        elif step == "delete":
            services.endpoint_delete(endpoint_id=endpoint.pk)
            messages.success(request, f"The endpoint {endpoint.url} is deleted, with its log.")
            return redirect("organize:webhooks", endpoint.league.slug)
    except DomainError as error:
        messages.error(request, page_words(error))
    return back
