"""One error shape for every failure: `{"code", "message", "details"}` (plus `rule` for a broken
game rule). Domain errors are mapped to HTTP statuses here and nowhere else."""

from typing import Any

from django.conf import settings
from django.core.exceptions import (
    ObjectDoesNotExist,
    RequestDataTooBig,
    SuspiciousOperation,
)
from django.db import OperationalError
from django.http import Http404
from rest_framework import exceptions, status
from rest_framework.renderers import BrowsableAPIRenderer, JSONRenderer
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from api.parsers import DuplicateKey, InvalidText
from core.error_shape import bad_request_body, error_body, too_large_body
from games import errors as game_errors
from league import errors as league_errors
from league.errors import (
    DrawError,
    EventConflict,
    ImportRefused,
    LeagueConflict,
    LeagueError,
    StageConflict,
    StandingsError,
)
from scoring.errors import DomainError, RuleViolation
from scoring.json_input import key_name
from scoring.pad import PadInvalid
from webhooks.errors import EndpointConflict, WebhookError

# The HTTP status of each domain error family, found by walking the error's class hierarchy:
# the most specific class listed wins (a StageConflict is a LeagueError, but 409).
STATUS: dict[type[DomainError], int] = {
    DomainError: 400,
    RuleViolation: 422,
    game_errors.MatchError: 422,
    game_errors.MatchClosed: 409,
    game_errors.EventClosed: 409,
    game_errors.TurnUndone: 409,
    game_errors.TurnNumberMismatch: 409,
    game_errors.MatchAlreadyStarted: 409,
    game_errors.NothingToUndo: 409,
    game_errors.TakeBackNotYours: 409,
    game_errors.TakeBackTooLate: 409,
    game_errors.UndoBlocked: 409,
    game_errors.CorrectionBreaksLaterTurn: 409,
    game_errors.NoSuchTurn: 404,
    game_errors.MatchNotVoid: 409,
    game_errors.MatchNotFinished: 409,
    game_errors.MatchNotStarted: 409,
    game_errors.WrongScoreKey: 403,
    game_errors.IdempotencyKeyInvalid: 400,
    LeagueError: 400,
    league_errors.LeagueForbidden: 403,
    StageConflict: 409,
    EventConflict: 409,
    league_errors.RoundNotFound: 404,
    LeagueConflict: 409,
    league_errors.InvitationGone: 410,
    ImportRefused: 422,
    PadInvalid: 422,
    DrawError: 400,
    StandingsError: 400,
    WebhookError: 400,
    EndpointConflict: 409,
}


def status_of(error: DomainError) -> int:
    for cls in type(error).__mro__:
        if cls in STATUS:
            return STATUS[cls]
    return 400  # unreachable: every DomainError reaches DomainError itself


# A sentence of a validation error at most this long: DRF's own messages repeat the value
# sent ('"..." is not a valid choice.'), and a fuzzed value or key can be any size.
MESSAGE_LENGTH = 500


def _cut(detail: Any) -> Any:
    """DRF's nested validation errors with every key (`key_name`) and sentence cut short."""
    if isinstance(detail, dict):
        return {key_name(key): _cut(value) for key, value in detail.items()}
    if isinstance(detail, list):
        return [_cut(item) for item in detail]
    text = str(detail)
    return text if len(text) <= MESSAGE_LENGTH else text[: MESSAGE_LENGTH - 3] + "..."


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
    if isinstance(exc, DomainError):
        return Response(exc.to_json(), status=status_of(exc))
    if isinstance(exc, RequestDataTooBig):  # a body sent without a length, read past the limit
        return Response(too_large_body(settings.DATA_UPLOAD_MAX_MEMORY_SIZE), status=413)
    if isinstance(exc, SuspiciousOperation):  # too many fields in the query or the body
        return Response(bad_request_body(exc), status=400)
    if isinstance(exc, ObjectDoesNotExist | Http404):
        return Response(error_body("not_found", "Not found."), status=404)
    if isinstance(exc, OperationalError):
        if met_another_write(exc):
            return Response(
                error_body(
                    "write_conflict",
                    "This request met another that changed the same things at the same moment, "
                    "and was undone: nothing was stored. Send it again.",
                ),
                status=503,
                headers={"Retry-After": "1"},
            )
        # The database is unreachable or restarting: nothing was stored; the client may retry.
        return Response(
            error_body("service_unavailable", "The database is unavailable; try again shortly."),
            status=503,
            headers={"Retry-After": "5"},
        )
    return None


# PostgreSQL's deadlock_detected and serialization_failure: the database undid the transaction
# because of another one at the same moment, not because it is down.
_CONFLICT_STATES = frozenset({"40P01", "40001"})


def met_another_write(error: OperationalError) -> bool:
    """Whether the database undid this transaction for another one at the same moment (a
    deadlock it broke, or a serialization failure) rather than being unreachable."""
    return getattr(error.__cause__, "sqlstate", None) in _CONFLICT_STATES


def _takes_method(context: dict[str, Any]) -> bool:
    """Whether the view of `context` has a handler for the request's method. DRF checks
    credentials before it looks for one, so a method no path takes (DELETE on a league) would
    be refused for want of credentials, 401 or 403, where a signed-in organizer gets 405."""
    view, request = context.get("view"), context.get("request")
    if view is None or request is None:
        return True
    method = str(request.method).lower()
    return method in view.http_method_names and hasattr(view, method)


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """DRF's handler, in the one error shape, and always as JSON: a `?format=csv` (or an
    `Accept: text/csv`) that fails gets the error as JSON, not a CSV of it (the browsable
    API's page, for a browser, shows the same JSON)."""
    response = _error_response(exc, context)
    request = context.get("request")
    if response is not None and request is not None:
        renderer = getattr(request, "accepted_renderer", None)
        if not isinstance(renderer, JSONRenderer | BrowsableAPIRenderer):
            request.accepted_renderer = JSONRenderer()
            request.accepted_media_type = JSONRenderer.media_type
    return response


def _error_response(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, exceptions.NotAuthenticated | exceptions.PermissionDenied) and not (
        _takes_method(context)
    ):
        exc = exceptions.MethodNotAllowed(context["request"].method)
    response = _domain_response(exc)
    if response is not None:
        return response
    response = drf_exception_handler(exc, context)
    if response is None or not isinstance(exc, exceptions.APIException):
        return response
    if isinstance(exc, InvalidText | DuplicateKey):
        body = error_body(exc.default_code, str(exc.detail))
    elif isinstance(exc, exceptions.ParseError):
        body = error_body("malformed_json", f"The request body is not valid JSON: {exc.detail}")
    elif isinstance(exc, exceptions.ValidationError):
        fields = _cut(exc.detail)
        body = error_body("invalid", _first_message(fields), {"fields": fields})
    else:
        code = exc.get_codes()
        body = error_body(
            code if isinstance(code, str) else exc.default_code, _first_message(exc.detail)
        )
    if response.status_code == status.HTTP_404_NOT_FOUND:
        body["code"] = "not_found"
    response.data = body
    return response
