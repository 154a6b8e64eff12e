"""The one error shape of the API, `{"code", "message", "details"}`, and the bodies of what
Django refuses before a view runs (a body too large, a suspicious request, a path no route
matches). `api.exceptions` maps the domain's errors to it; `config`'s error views and
middleware answer Django's own refusals with it, so neither needs the other."""

from typing import Any

from django.core.exceptions import DisallowedHost, TooManyFieldsSent
from django.http import HttpRequest, JsonResponse
from django.views.decorators.csrf import csrf_exempt


def error_body(code: str, message: str, details: dict[str, Any] | None = None) -> dict[str, Any]:
    """The one error shape, also for errors raised outside the domain (middleware, 404s)."""
    return {"code": code, "message": message, "details": details or {}}


def too_large_body(limit: int) -> dict[str, Any]:
    return error_body(
        "request_too_large", f"The request body is larger than {limit} bytes.", {"limit": limit}
    )


def bad_request_body(exception: Exception) -> dict[str, Any]:
    """The body of a request Django refuses as suspicious (a SuspiciousOperation)."""
    if isinstance(exception, DisallowedHost):
        return error_body(
            "disallowed_host", "The request's Host header names a site this server does not serve."
        )
    if isinstance(exception, TooManyFieldsSent):
        return error_body("too_many_fields", "The request has too many query or form fields.")
    return error_body("bad_request", "The request was refused as malformed.")


@csrf_exempt  # a 404 changes nothing; without this a stray POST gets Django's HTML CSRF page
def not_found(request: HttpRequest, *args: Any, **kwargs: Any) -> JsonResponse:
    """Any path under /api/v1/ that no route matches: a 404 in the error shape, not HTML."""
    return JsonResponse(error_body("not_found", "Not found."), status=404)
