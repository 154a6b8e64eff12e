"""Issue 15, "One error shape": every domain error family has the same constructor and body,
and the API finds each one's status in one table, walking the class hierarchy."""

import threading
from collections.abc import Callable

import pytest
from django.db import OperationalError, transaction

from api.exceptions import STATUS, exception_handler, status_of
from games import errors as game_errors
from league.errors import DrawError, LeagueError, StageConflict, StandingsError
from league.models import Player
from scoring.errors import DomainError, RuleViolation
from tests.threads import run_at_once

FAMILIES = [RuleViolation, LeagueError, StageConflict, DrawError, StandingsError]


@pytest.mark.parametrize("family", FAMILIES)
def test_every_family_takes_code_message_and_details_and_answers_the_one_body(family):
    error = family("some_code", "A sentence.", details={"field": "x"})
    assert isinstance(error, DomainError)
    body = error.to_json()
    assert {key: body[key] for key in ("code", "message", "details")} == {
        "code": "some_code",
        "message": "A sentence.",
        "details": {"field": "x"},
    }
    assert str(error) == "A sentence."


def test_match_errors_carry_their_code_and_the_same_body():
    error = game_errors.EventClosed("Closed.", details={"status": "finished"})
    assert error.to_json() == {
        "code": "event_closed",
        "message": "Closed.",
        "details": {"status": "finished"},
    }


@pytest.mark.parametrize(
    ("error", "status"),
    [
        (RuleViolation("box_filled", "x"), 422),
        (game_errors.MatchClosed("x"), 409),
        (game_errors.IdempotencyKeyReused("x"), 422),  # no entry of its own: MatchError's
        (game_errors.IdempotencyKeyInvalid("x"), 400),
        (LeagueError("invalid_option", "x"), 400),
        (StageConflict("stage_started", "x"), 409),  # more specific than LeagueError
        (DrawError("advance", "x"), 400),
        (StandingsError("unknown_metric", "x"), 400),
    ],
)
def test_the_status_is_the_most_specific_family_in_the_table(error, status):
    assert status_of(error) == status
    assert all(issubclass(family, DomainError) for family in STATUS)


@pytest.mark.django_db(transaction=True)
def test_a_transaction_the_database_undoes_for_another_is_a_write_conflict_to_send_again(
    players,
):
    """Two transactions that each hold a row the other waits for: PostgreSQL undoes one. Its
    request was answered as if the database were down (503 `service_unavailable`, "try again
    shortly"); nothing was stored and it may be sent again at once."""
    barrier = threading.Barrier(2, timeout=5)

    def lock(first: Player, then: Player) -> Callable[[], None]:
        def run() -> None:
            with transaction.atomic():
                Player.objects.select_for_update().filter(pk=first.pk).exists()
                barrier.wait()
                Player.objects.select_for_update().filter(pk=then.pk).exists()

        return run

    _, errors = run_at_once(lock(players[0], players[1]), lock(players[1], players[0]))
    assert len(errors) == 1
    assert isinstance(errors[0], OperationalError)
    answer = exception_handler(errors[0], {})
    assert answer is not None
    assert (answer.status_code, answer.data["code"], answer["Retry-After"]) == (
        503,
        "write_conflict",
        "1",
    )
    down = exception_handler(OperationalError("connection refused"), {})
    assert down is not None
    assert down.data["code"] == "service_unavailable"
