"""Django's error views (`handler400` to `handler500` in config/urls.py): under /api/ the API's
error shape, `{"code", "message", "details"}`, so that an API client never gets HTML; the pages
keep Django's views and the project's templates.

They answer what Django turns into a response itself, outside DRF's exception handler (which
answers a view's own errors, too many query or form fields among them, `api.exceptions`): a
Host header not in ALLOWED_HOSTS or another suspicious request met outside a view (400), a
PermissionDenied raised outside a view (403), an uncaught error (500, logged by Django with its
traceback). Under DEBUG Django shows its technical pages for a 400 and a 500 instead; a Host
not allowed is refused in the error shape even then (`config.middleware.ApiHostMiddleware`)."""

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.views import defaults

from core.error_shape import bad_request_body, error_body, not_found

API_PREFIX = "/api/"


def is_api(request: HttpRequest) -> bool:
    return request.path.startswith(API_PREFIX)


def bad_request(request: HttpRequest, exception: Exception) -> HttpResponse:
    if is_api(request):
        return JsonResponse(bad_request_body(exception), status=400)
    return defaults.bad_request(request, exception)


def permission_denied(request: HttpRequest, exception: Exception) -> HttpResponse:
    if is_api(request):
        return JsonResponse(
            error_body("permission_denied", "You do not have permission to do this."), status=403
        )
    return defaults.permission_denied(request, exception)


def page_not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    if is_api(request):
        return not_found(request)
    return defaults.page_not_found(request, exception)


def server_error(request: HttpRequest) -> HttpResponse:
    if is_api(request):
        return JsonResponse(
            error_body(
                "server_error",
                "The server failed to answer this request; the error is logged for the organizers.",
            ),
            status=500,
        )
    return defaults.server_error(request)
