"""Issue 15, "One error shape": every domain error family has the same constructor and body,
and the API finds each one's status in one table, walking the class hierarchy."""

import pytest

from api.exceptions import STATUS, status_of
from games import errors as game_errors
from league.errors import DrawError, LeagueError, StageConflict, StandingsError
from scoring.errors import DomainError, RuleViolation

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
