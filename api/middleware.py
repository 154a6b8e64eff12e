"""A request's query parameters are held to what it takes, as a list's are (`api.filters`): an
unknown one is refused (400 `invalid`, named in `details.fields`), never ignored. A client that
sends `POST matches/1/turns/5/correct/?reseed_later_stage=true` (a typo) learns it at once
rather than finding the option not applied (issue 37, item 9).

Every request takes `key` (a match's scoring key, also sent as the X-Score-Key header) and
`format`; a few take more, listed by method and route name in PARAMETERS, as the OpenAPI
schema documents them (`tests/api/test_query_parameters.py` keeps the two equal). The lists
(`<name>-list` routes) are checked by their filter backend, which knows their filters.
Checked before the view runs, so a refusal changes nothing."""

from collections.abc import Callable
from typing import Any

from django.http import HttpRequest, HttpResponse, JsonResponse

from core.error_shape import error_body, not_found
from scoring.json_input import key_name

API_PREFIX = "/api/"
ALWAYS = frozenset({"key", "format"})
PAGE = frozenset({"limit", "offset"})

# (method, route name: api/urls.py, the router's "<basename>-<url_name>") -> what else it takes.
PARAMETERS: dict[tuple[str, str], frozenset[str]] = {
    ("GET", "match-turns"): PAGE,
    ("GET", "league-players"): PAGE,
    ("GET", "stage-stage-standings"): frozenset({"group"}),
    ("POST", "match-turn-correct"): frozenset({"reseed_later_stages"}),
}
# The schema's own pages, which the schema does not list: drf-spectacular's parameters.
OWN = {
    ("GET", "schema"): frozenset({"lang", "version"}),
    ("GET", "docs"): frozenset({"script"}),  # the Swagger UI's start-up script
}


def takes(method: str, route: str | None) -> frozenset[str]:
    """The query parameters a `method` request to `route` takes."""
    method = "GET" if method == "HEAD" else method
    more = PARAMETERS.get((method, route or "")) or OWN.get((method, route or ""))
    return ALWAYS | (more or frozenset())


def unknown_parameters_body(unknown: list[str], known: frozenset[str]) -> dict[str, Any]:
    sentence = f"No such query parameter; this request takes {', '.join(sorted(known))}."
    fields = {key_name(name): [sentence] for name in unknown}
    return error_body("invalid", f"{key_name(unknown[0])}: {sentence}", {"fields": fields})


class QueryParametersMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_view(
        self,
        request: HttpRequest,
        view: Callable[..., Any],
        args: tuple[Any, ...],
        kwargs: dict[str, Any],
    ) -> HttpResponse | None:
        if not request.path.startswith(API_PREFIX) or request.method == "OPTIONS":
            return None
        if view is not_found:
            return None  # a path no route has stays a 404
        match = request.resolver_match
        route = match.url_name if match is not None else None
        if route and route.endswith("-list") and request.method in ("GET", "HEAD"):
            return None  # a list's filter backend checks its own
        known = takes(str(request.method), route)
        if unknown := [name for name in request.GET if name not in known]:
            return JsonResponse(unknown_parameters_body(unknown, known), status=400)
        return None
