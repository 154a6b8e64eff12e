"""The answers kept for an `Idempotency-Key`, and the transaction around a write that may carry one
(`locked_submission`): a retry gets the first answer and applies nothing."""

import hashlib
import json
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from games.errors import (
    IdempotencyKeyInvalid,
    IdempotencyKeyReused,
    IdempotencyKeyText,
    TurnUndone,
)
from games.housekeeping import delete_oldest
from games.models import (
    Match,
    SubmissionReceipt,
)
from games.services.matches import _lock_for_turns


def request_fingerprint(data: object) -> str:
    """A stable fingerprint of a parsed request body: the same JSON in any key order or
    spacing is the same request."""
    canonical = json.dumps(data, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(canonical.encode()).hexdigest()


def _check_replay(receipt: Any, *, key: str, fingerprint: str | None) -> None:
    """A receipt found for `key` (a SubmissionReceipt or `turn_sql.Prior`) may be replayed
    only for the same request body (IdempotencyKeyReused) and while the turn it stored stands
    (TurnUndone)."""
    if receipt.fingerprint != fingerprint:
        raise IdempotencyKeyReused(
            "This Idempotency-Key was already used with a different request body.",
            details={"idempotency_key": key},
        )
    if receipt.undone_at is not None:
        raise TurnUndone(
            f"The turn this request stored (turn {receipt.turn_sequence}) has since been taken "
            "back, undone or corrected; the request is not applied again. Reload the match.",
            details={"turn_sequence": receipt.turn_sequence},
        )


class Submission:
    """What `locked_submission` yields: the locked match and its seats in play order (seat id,
    player id), the Idempotency-Key of the request, and for a whole result the first answer
    to that key if there was one (`replay`) and a place to store this answer (`record`); a
    turn's receipt is looked up and stored by its own statements (`turn_submit_locked`)."""

    def __init__(self, match: Match, seats: list[tuple[int, int]], key: str | None) -> None:
        self.match = match
        self.seats = seats
        self.key = key
        self.fingerprint: str | None = None

    def replay(self, fingerprint: str) -> SubmissionReceipt | None:
        """The first answer to this key with this request body (`request_fingerprint`), if
        there was one; the same key with another body raises IdempotencyKeyReused. Call it
        once the caller may see the match's answers (after the permission check), and before
        the write: `record` stores this fingerprint with the answer."""
        self.fingerprint = fingerprint
        if self.key is None:
            return None
        # Its own statement, after the lock is held: a subquery of the locking statement would
        # read from the snapshot taken before it waited for the lock, and miss the receipt
        # the transaction it waited for had just stored (tests/api/test_concurrency.py).
        receipt = SubmissionReceipt.objects.filter(match_id=self.match.pk, key=self.key).first()
        if receipt is not None:
            _check_replay(receipt, key=self.key, fingerprint=fingerprint)
        return receipt

    def record(self, status_code: int, response: dict[str, Any]) -> None:
        if self.key is None:
            return
        if self.fingerprint is None:
            raise RuntimeError("Submission.replay must be called before record.")
        SubmissionReceipt.objects.create(
            match_id=self.match.pk,
            key=self.key,
            fingerprint=self.fingerprint,
            status_code=status_code,
            response=response,
            turn_sequence=self.match.turns_played,
        )


def _idempotency_key(key: str | None) -> str | None:
    """The Idempotency-Key as kept (an empty header is no key); a key longer than the
    receipts keep is refused before anything is read."""
    key = key or None
    if key is not None and "\x00" in key:  # PostgreSQL text cannot hold it: a 500 otherwise
        raise IdempotencyKeyText(
            "An Idempotency-Key cannot hold the NUL character (\\u0000).",
            details={"field": "Idempotency-Key"},
        )
    if key is not None and len(key) > SubmissionReceipt.KEY_MAX_LENGTH:
        raise IdempotencyKeyInvalid(
            f"An Idempotency-Key has at most {SubmissionReceipt.KEY_MAX_LENGTH} characters; "
            f"this one has {len(key)}.",
            details={"limit": SubmissionReceipt.KEY_MAX_LENGTH, "length": len(key)},
        )
    return key


@contextmanager
def locked_submission(
    *, match_id: int, key: str | None, score_key: str | None = None
) -> Iterator[Submission]:
    """One transaction around a write to a match that may carry an `Idempotency-Key`: a turn
    (`turn_submit_locked`), a whole result (`result_apply`), a take-back.

    The match is read with its seats and its row locked first (`_lock_for_turns`:
    Match.DoesNotExist if there is none), so two requests with the same key are serialised:
    the second finds the first's receipt and applies nothing. The caller checks who asks on
    the locked match inside the block, before the write (raising refuses, and nothing is
    written). The write uses the locked match, so it is read once. The answer is recorded in
    the same transaction as the write, so either both are stored or neither. A key longer
    than the receipts keep is refused before anything is read.

    With `score_key` (a caller who has only the table's scoring key) the match is read by its
    id and that key together: a wrong key raises WrongScoreKey without locking the row, so
    guessed keys cannot queue behind the scorekeepers of a real table."""
    key = _idempotency_key(key)
    with transaction.atomic():
        match, seats = _lock_for_turns(match_id, score_key)
        yield Submission(match, seats, key)


# Expired receipts are deleted this many at a time, each batch in its own short transaction.
RECEIPTS_EXPIRE_BATCH = 1000


def receipts_expire(*, batch: int = RECEIPTS_EXPIRE_BATCH) -> int:
    """Forget the answers kept for `Idempotency-Key`s once they are older than
    IDEMPOTENCY_RECEIPT_HOURS (default 24): a retry after that is a new request (docs/api.md,
    "Retries"). Oldest first, `batch` at a time, each batch its own statement, so that no
    delete holds many rows or a long transaction beside the turns being stored; found by the
    index on `created_at`. Run hourly by Celery beat (`games.receipts_expire`); safe to run
    twice. Returns how many receipts went."""
    cutoff = timezone.now() - timedelta(hours=settings.IDEMPOTENCY_RECEIPT_HOURS)
    expired = SubmissionReceipt.objects.filter(created_at__lt=cutoff)
    return delete_oldest(expired, by="created_at", batch=batch)
