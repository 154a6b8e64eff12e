"""Errors of the match lifecycle (the rules themselves raise `scoring.RuleViolation`).

Each carries a stable `code`, a sentence and JSON-able `details`; the API maps each class to
its HTTP status in one place (`api/exceptions.py`)."""

from collections.abc import Mapping
from typing import Any

from scoring.errors import DomainError


class MatchError(DomainError):
    """A request the match cannot take in its current state. Each subclass is one case with a
    fixed `code` (a class attribute), so it is raised with the message and details alone."""

    code = "match_error"

    def __init__(self, message: str, *, details: Mapping[str, Any] | None = None) -> None:
        super().__init__(type(self).code, message, details=details)


class MatchClosed(MatchError):
    """The match is finished or void: it takes no more turns."""

    code = "match_closed"


class TurnNumberMismatch(MatchError):
    """The client believes another turn comes next (a retry after a lost answer, or two
    scorekeepers at one table)."""

    code = "turn_number_mismatch"


class MatchAlreadyStarted(MatchError):
    """A whole result can only be entered for a match with no turns yet."""

    code = "match_already_started"


class NothingToUndo(MatchError):
    code = "nothing_to_undo"


class EventClosed(MatchError):
    """The match's event is finished or cancelled: it takes no more matches or turns."""

    code = "event_closed"


class TurnUndone(MatchError):
    """A retry of a write whose turn an organizer has since undone: its first answer no
    longer stands, and it is not applied again."""

    code = "turn_undone"


class WrongScoreKey(MatchError):
    """A scoring key that does not open the match it was sent for (HTTP 403)."""

    code = "permission_denied"


class IdempotencyKeyInvalid(MatchError):
    """An Idempotency-Key longer than the receipts keep."""

    code = "idempotency_key_too_long"


class IdempotencyKeyReused(MatchError):
    """The same Idempotency-Key came with a different request body."""

    code = "idempotency_key_reused"


class UndoBlocked(MatchError):
    """Undoing this result would change a later match that has already started."""

    code = "undo_blocked"


class TakeBackNotYours(MatchError):
    """A scorekeeper may take back only a turn they sent themselves (and that no organizer has
    corrected since)."""

    code = "take_back_not_yours"


class TakeBackTooLate(MatchError):
    """A scorekeeper's own last turn is taken back within TAKE_BACK_SECONDS of sending it; after
    that, only an organizer can undo it."""

    code = "take_back_too_late"


class MatchNotVoid(MatchError):
    """Un-void of a match that is not void."""

    code = "match_not_void"


class NoSuchTurn(MatchError):
    """A turn number the match has not played (a correction names turns 1 to turns_played)."""

    code = "no_such_turn"


class CorrectionBreaksLaterTurn(MatchError):
    """A corrected turn that a later turn, replayed on top of it, no longer fits: the details
    name that turn and the rule it breaks."""

    code = "correction_breaks_later_turn"


class MatchNotFinished(MatchError):
    """Something only a finished match has (its analysis) was asked of one still to finish."""

    code = "match_not_finished"
