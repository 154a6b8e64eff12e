"""One error shape for every failure: `{"code", "message", "details"}` (plus `rule` for a broken
game rule). Domain errors are mapped to HTTP statuses here and nowhere else."""

from typing import Any

from django.conf import settings
from django.core.exceptions import ObjectDoesNotExist, RequestDataTooBig
from django.db import OperationalError
from django.http import Http404, HttpRequest, JsonResponse
from django.views.decorators.csrf import csrf_exempt
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from api.parsers import InvalidText
from games import errors as game_errors
from league.draw import DrawError
from league.services import LeagueError
from league.services.stages import StageConflict
from league.standings import StandingsError
from scoring import RuleViolation

CONFLICTS = (
    game_errors.MatchClosed,
    game_errors.EventClosed,
    game_errors.TurnUndone,
    game_errors.TurnNumberMismatch,
    game_errors.MatchAlreadyStarted,
    game_errors.NothingToUndo,
    game_errors.UndoBlocked,
)


def error_body(code: str, message: str, details: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"code": code, "message": message, "details": details or {}}


def _first_message(detail: Any) -> str:
    """The first human sentence inside DRF's nested validation errors."""
    if isinstance(detail, dict):
        for field, value in detail.items():
            message = _first_message(value)
            return message if field == "non_field_errors" else f"{field}: {message}"
    if isinstance(detail, list) and detail:
        return _first_message(detail[0])
    return str(detail)


def _domain_response(exc: Exception) -> Response | None:
    if isinstance(exc, RuleViolation):
        body = error_body(exc.code, exc.message, exc.details)
        body["rule"] = exc.rule
        return Response(body, status=422)
    if isinstance(exc, game_errors.IdempotencyKeyInvalid):
        return Response(error_body(exc.code, exc.message, exc.details), status=400)
    if isinstance(exc, CONFLICTS):
        return Response(error_body(exc.code, exc.message, exc.details), status=409)
    if isinstance(exc, game_errors.MatchError):
        return Response(error_body(exc.code, exc.message, exc.details), status=422)
    if isinstance(exc, StageConflict):
        return Response(error_body(exc.code, exc.message, exc.details), status=409)
    if isinstance(exc, LeagueError):
        return Response(error_body(exc.code, exc.message, exc.details), status=400)
    if isinstance(exc, RequestDataTooBig):  # a body sent without a length, read past the limit
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        return Response(
            error_body(
                "request_too_large",
                f"The request body is larger than {limit} bytes.",
                {"limit": limit},
            ),
            status=413,
        )
    if isinstance(exc, DrawError | StandingsError):
        return Response(error_body(exc.code, exc.message), status=400)
    if isinstance(exc, ObjectDoesNotExist | Http404):
        return Response(error_body("not_found", "Not found."), status=404)
    if isinstance(exc, OperationalError):
        # The database is unreachable or restarting: nothing was stored; the client may retry.
        return Response(
            error_body("service_unavailable", "The database is unavailable; try again shortly."),
            status=503,
            headers={"Retry-After": "5"},
        )
    return None


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    response = _domain_response(exc)
    if response is not None:
        return response
    response = drf_exception_handler(exc, context)
    if response is None or not isinstance(exc, exceptions.APIException):
        return response
    if isinstance(exc, InvalidText):
        body = error_body("invalid_text", str(exc.detail))
    elif isinstance(exc, exceptions.ParseError):
        body = error_body("malformed_json", f"The request body is not valid JSON: {exc.detail}")
    elif isinstance(exc, exceptions.ValidationError):
        body = error_body("invalid", _first_message(exc.detail), {"fields": exc.detail})
    else:
        code = exc.get_codes()
        body = error_body(
            code if isinstance(code, str) else exc.default_code, _first_message(exc.detail)
        )
    if response.status_code == status.HTTP_404_NOT_FOUND:
        body["code"] = "not_found"
    response.data = body
    return response


@csrf_exempt  # a 404 changes nothing; without this a stray POST gets Django's HTML CSRF page
def not_found(request: HttpRequest, *args: Any, **kwargs: Any) -> JsonResponse:
    """Any path under /api/v1/ that no route matches: a 404 in the error shape, not HTML."""
    return JsonResponse(error_body("not_found", "Not found."), status=404)
