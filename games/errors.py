"""Errors of the match lifecycle (the rules themselves raise `scoring.RuleViolation`).

Each carries a stable `code`, a sentence and JSON-able `details`; the API maps each class to
its HTTP status in one place (`api/exceptions.py`)."""

from collections.abc import Mapping
from typing import Any

from scoring.errors import GAME, DomainError


class MatchError(DomainError):
    """A request the match cannot take in its current state. Each subclass is one case with a
    fixed `code`, given where it is declared (`class MatchClosed(MatchError,
    code="match_closed")`), so it is raised with the message and details alone."""

    code = "match_error"

    def __init_subclass__(cls, *, code: str, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls.code = code

    def __init__(self, message: str, *, details: Mapping[str, Any] | None = None) -> None:
        super().__init__(type(self).code, message, details=details)


class MatchClosed(MatchError, code="match_closed"):
    """The match is finished or void: it takes no more turns. A finished one's game is over
    (RULES.md, "Game"), so its error names that rule (`rule`), as the rulebook's errors do."""

    def to_json(self) -> dict[str, Any]:
        body = super().to_json()
        if self.details.get("status") == "finished":
            body["rule"] = GAME
        return body


class TurnLimit(MatchError, code="turn_limit"):
    """The match has played as many turns as its game takes at most (`games.limits`): a
    Yardkle game that long is not a game. Its next turn is refused; an organizer voids it."""


class TurnNumberMismatch(MatchError, code="turn_number_mismatch"):
    """The client believes another turn comes next (a retry after a lost answer, or two
    scorekeepers at one table)."""


class MatchAlreadyStarted(MatchError, code="match_already_started"):
    """A whole result can only be entered for a match with no turns yet."""


class NothingToUndo(MatchError, code="nothing_to_undo"):
    """An undo of a match with no turn to take back."""


class EventClosed(MatchError, code="event_closed"):
    """The match's event is finished or cancelled: it takes no more matches or turns."""

    @classmethod
    def of(cls, event_id: int, status: str, then: str = "") -> "EventClosed":
        """The refusal for event `event_id`, closed as `status` ("finished", "cancelled"),
        with `details.event` and `details.status` as every `event_closed` carries them
        (docs/api.md). `then`: what it says after "Event N is finished: " (default: that it
        takes no more matches or turns, until its organizers reopen it)."""
        return cls(
            f"Event {event_id} is {status}: "
            + (then or "it takes no more matches or turns. Its organizers can reopen it."),
            details={"event": event_id, "status": status},
        )


class TurnUndone(MatchError, code="turn_undone"):
    """A retry of a write whose turn has since been taken back (by its scorekeeper), undone or
    corrected (by an organizer): its first answer no longer stands, and it is not applied
    again."""


class WrongScoreKey(MatchError, code="permission_denied"):
    """A scoring key that does not open the match it was sent for (HTTP 403)."""


class IdempotencyKeyInvalid(MatchError, code="idempotency_key_too_long"):
    """An Idempotency-Key longer than the receipts keep."""


class IdempotencyKeyText(IdempotencyKeyInvalid, code="invalid_text"):
    """An Idempotency-Key holding text no database column can hold (the NUL character)."""


class IdempotencyKeyReused(MatchError, code="idempotency_key_reused"):
    """The same Idempotency-Key came with a different request body."""


class UndoBlocked(MatchError, code="undo_blocked"):
    """Undoing this result would change a later match that has already started."""


class TakeBackNotYours(MatchError, code="take_back_not_yours"):
    """A scorekeeper may take back only a turn they sent themselves (and that no organizer has
    corrected since)."""


class TakeBackTooLate(MatchError, code="take_back_too_late"):
    """A scorekeeper's own last turn is taken back within TAKE_BACK_SECONDS of sending it; after
    that, only an organizer can undo it."""


class MatchNotVoid(MatchError, code="match_not_void"):
    """Un-void of a match that is not void."""


class NoSuchTurn(MatchError, code="no_such_turn"):
    """A turn number the match has not played (a correction names turns 1 to turns_played)."""


class CorrectionBreaksLaterTurn(MatchError, code="correction_breaks_later_turn"):
    """A corrected turn that a later turn, replayed on top of it, no longer fits: the details
    name that turn and the rule it breaks."""


class MatchNotFinished(MatchError, code="match_not_finished"):
    """Something only a finished match has (its analysis) was asked of one still to finish."""


class MatchNotStarted(MatchError, code="match_not_started"):
    """Something only a match with turns has (its win probability) was asked of one with none."""
