"""Middleware of the project.

- Refuse a request to the API whose Host header is not allowed, in the API's error shape, also
  under DEBUG.
- Refuse oversized request bodies before anything reads them: 413 with the API's error shape
  (Django would only notice once the body is read, and answer with an HTML 400).
- A page whose database cannot be reached answers 503 "briefly unavailable", not a 500 (the API
  does the same in its exception handler).
- Every response carries a strict Content-Security-Policy: scripts, styles and connections from
  this origin only, nothing inline (docs/operations.md, "Headers"). A page made to be framed
  by other sites (Django's `xframe_options_exempt`: the embeds, `league.pages.embeds`) gets the
  same policy with `frame-ancestors *`; every other page may be framed by no one."""

import logging
from collections.abc import Callable

from django.conf import settings
from django.core.exceptions import DisallowedHost
from django.db import OperationalError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render

from config.errors import bad_request, is_api
from core.error_shape import too_large_body

logger = logging.getLogger(__name__)


def too_large_response(limit: int) -> JsonResponse:
    return JsonResponse(too_large_body(limit), status=413)


class ApiHostMiddleware:
    """A request under /api/ whose Host header is not in ALLOWED_HOSTS: 400 `disallowed_host`
    in the API's error shape, checked first. Without DEBUG Django's own check, further in,
    ends at `config.errors.bad_request` with the same answer; under DEBUG (`make run`) it
    would show its technical page, settings and all, to an API client."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if is_api(request):
            try:
                request.get_host()
            except DisallowedHost as error:
                return bad_request(request, error)
        return self.get_response(request)


class RequestSizeLimitMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        try:
            length = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            length = 0
        if limit is not None and length > limit:
            return too_large_response(limit)
        return self.get_response(request)


class DatabaseUnavailableMiddleware:
    """A view that fails because the database is down or restarting: 503 with Retry-After."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not isinstance(exception, OperationalError):
            return None
        logger.warning("Database unavailable for %s: %s", request.path, exception)
        response = render(request, "503.html", status=503)
        response["Retry-After"] = "5"
        return response


# Nothing inline: no <script> blocks, no on*= handlers, no style="..." or <style> (the pages
# load site.css, live.js and the score/ modules). data: images are the admin's and Swagger
# UI's icons.
CONTENT_SECURITY_POLICY = "; ".join(
    (
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "object-src 'none'",
        "base-uri 'self'",
        "frame-ancestors 'none'",
        "form-action 'self'",
    )
)
# The embeds' policy: the same, but any site may frame them.
EMBEDDABLE_POLICY = CONTENT_SECURITY_POLICY.replace("frame-ancestors 'none'", "frame-ancestors *")


class ContentSecurityPolicyMiddleware:
    """Sets Content-Security-Policy on every response that has none of its own: the embeds'
    (`EMBEDDABLE_POLICY`) on one exempt from X-Frame-Options, the site's otherwise."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        embeddable = getattr(response, "xframe_options_exempt", False)
        response.setdefault(
            "Content-Security-Policy",
            EMBEDDABLE_POLICY if embeddable else CONTENT_SECURITY_POLICY,
        )
        return response
