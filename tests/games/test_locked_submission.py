"""`locked_submission` and its `Submission`: one transaction around a write that may carry an
Idempotency-Key (here a turn, `turn_submit_locked`; a whole result records its answer with
`Submission.record`). A retry gets the first answer and applies nothing; the same key with another
body, or after an organizer undid the turn, is refused; a scoring key that does not open the
match is refused without locking it."""

import threading
import time
from typing import Any

import pytest
from django.db import OperationalError, connection
from django.test.utils import CaptureQueriesContext

from games import services
from games.errors import IdempotencyKeyInvalid, IdempotencyKeyReused, TurnUndone, WrongScoreKey
from games.models import Match, Seat, SubmissionReceipt, Turn
from scoring import RuleViolation
from tests.games.conftest import SCRIPTED_YARDZEE, stored

FIRST, SECOND = SCRIPTED_YARDZEE[0], SCRIPTED_YARDZEE[1]
MISSING = 999_999


def _named(match_id: int, turn: dict[str, Any], seat: int = 0) -> dict[str, Any]:
    """`turn` naming the player of `seat`, as a scorekeeper sends it."""
    players = Seat.objects.filter(match_id=match_id).order_by("order")
    return {"player": players.values_list("player_id", flat=True)[seat], **turn}


def _submit(
    match_id: int,
    turn: dict[str, Any],
    key: str | None,
    *,
    seat: int = 0,
    score_key: str | None = None,
    named: bool = False,
) -> tuple[int, dict[str, Any]]:
    """One turn written as the API writes it (lock, replay or apply and record the answer),
    naming the player of `seat` (`named`: it already does): its status, sequence and points."""
    body = turn if named or match_id == MISSING else _named(match_id, turn, seat)
    with services.locked_submission(match_id=match_id, key=key, score_key=score_key) as submission:
        reply = services.turn_submit_locked(submission, body=body)
    return reply.status_code, {name: reply.body["turn"][name] for name in ("sequence", "points")}


FINGERPRINTS = [
    ("keys_in_another_order", {"a": 1, "b": [1, 2]}, {"b": [1, 2], "a": 1}, True),
    ("another_value", {"a": 1}, {"a": 2}, False),
    ("a_number_or_its_digits", {"a": 1}, {"a": "1"}, False),
    ("dice_in_another_order", {"dice": [1, 2]}, {"dice": [2, 1]}, False),
]


@pytest.mark.parametrize(
    ("one", "other", "same"), [c[1:] for c in FINGERPRINTS], ids=[c[0] for c in FINGERPRINTS]
)
def test_the_same_json_in_any_key_order_is_the_same_request(one, other, same):
    assert (services.request_fingerprint(one) == services.request_fingerprint(other)) is same


@pytest.mark.django_db
def test_the_first_answer_is_stored_with_the_body_fingerprint_and_the_turn_it_stored(zee):
    _submit(zee.pk, FIRST, "k-1")
    _submit(zee.pk, SECOND, "k-2", seat=1)
    receipts = SubmissionReceipt.objects.filter(match=zee).order_by("key")
    assert [
        (r.key, r.status_code, r.response["turn"]["sequence"], r.response["turn"]["points"])
        for r in receipts
    ] == [("k-1", 201, 1, 1), ("k-2", 201, 2, 50)]
    assert [r.turn_sequence for r in receipts] == [1, 2]
    assert receipts[0].fingerprint == services.request_fingerprint(_named(zee.pk, FIRST))


@pytest.mark.django_db
def test_a_retry_with_the_same_key_and_body_gets_the_first_answer_and_applies_nothing(zee):
    first = _submit(zee.pk, FIRST, "k-1")
    before = stored(zee.pk)
    assert _submit(zee.pk, dict(reversed(FIRST.items())), "k-1") == first
    assert stored(zee.pk) == before


@pytest.mark.django_db
def test_the_same_key_with_another_body_is_refused_and_changes_nothing(zee):
    _submit(zee.pk, FIRST, "k-1")
    before = stored(zee.pk)
    with pytest.raises(IdempotencyKeyReused) as refused:
        _submit(zee.pk, SECOND, "k-1")
    assert refused.value.code == "idempotency_key_reused"
    assert refused.value.details == {"idempotency_key": "k-1"}
    assert stored(zee.pk) == before


@pytest.mark.django_db
def test_a_key_belongs_to_its_match(seat):
    """Two tables' phones may make up the same key: each match keeps its own receipts."""
    one, other = seat(), seat()
    _submit(one.pk, FIRST, "same")
    assert _submit(other.pk, SECOND, "same") == (201, {"sequence": 1, "points": 50})
    assert Turn.objects.filter(match=other).count() == 1


@pytest.mark.django_db
def test_a_retry_of_a_turn_undone_since_is_refused_and_not_applied_again(zee):
    _submit(zee.pk, FIRST, "k-1")
    services.turn_undo(match_id=zee.pk, undone_by=None)
    before = stored(zee.pk)
    with pytest.raises(TurnUndone) as refused:
        _submit(zee.pk, FIRST, "k-1")
    assert refused.value.code == "turn_undone"
    assert refused.value.details == {"turn_sequence": 1}
    assert stored(zee.pk) == before


@pytest.mark.django_db
def test_a_refused_write_leaves_no_receipt_so_a_corrected_retry_may_use_the_key(zee):
    with pytest.raises(RuleViolation):
        _submit(zee.pk, {**FIRST, "points": 5}, "k-1")
    assert not SubmissionReceipt.objects.exists()
    assert _submit(zee.pk, FIRST, "k-1") == (201, {"sequence": 1, "points": 1})


@pytest.mark.django_db
def test_without_a_key_nothing_is_replayed_or_kept(zee):
    _submit(zee.pk, FIRST, None)
    _submit(zee.pk, SECOND, None, seat=1)
    assert Turn.objects.filter(match=zee).count() == 2
    assert not SubmissionReceipt.objects.exists()


@pytest.mark.django_db
def test_an_answer_is_recorded_only_after_the_replay_check(zee):
    with (
        pytest.raises(RuntimeError, match="replay must be called before record"),
        services.locked_submission(match_id=zee.pk, key="k-1") as submission,
    ):
        submission.record(201, {})


@pytest.mark.django_db
def test_a_key_as_long_as_the_receipts_keep_is_accepted(zee):
    key = "k" * SubmissionReceipt.KEY_MAX_LENGTH
    _submit(zee.pk, FIRST, key)
    assert SubmissionReceipt.objects.get().key == key


@pytest.mark.django_db
def test_a_longer_key_is_refused_before_anything_is_read(zee):
    length = SubmissionReceipt.KEY_MAX_LENGTH + 1
    body = _named(zee.pk, FIRST)
    with (
        CaptureQueriesContext(connection) as queries,
        pytest.raises(IdempotencyKeyInvalid) as refused,
    ):
        _submit(zee.pk, body, "k" * length, named=True)
    assert refused.value.code == "idempotency_key_too_long"
    assert refused.value.details == {"limit": SubmissionReceipt.KEY_MAX_LENGTH, "length": length}
    assert len(queries) == 0
    assert not Turn.objects.exists()


# --- The scoring key ------------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_matchs_scoring_key_opens_it(zee):
    assert _submit(zee.pk, FIRST, None, score_key=zee.score_key) == (
        201,
        {"sequence": 1, "points": 1},
    )


@pytest.mark.django_db
@pytest.mark.parametrize(
    "score_key",
    [
        "A" * 32,  # shaped like a key
        "a-key with spaces",
        "k" * 65,
        "",
        "nul\x00in-the-key",  # would not even be a query
        "ключ",
    ],
    ids=["well_formed", "spaces", "too_long", "empty", "nul", "not_ascii"],
)
def test_a_scoring_key_that_does_not_open_the_match_is_refused_and_changes_nothing(zee, score_key):
    before = stored(zee.pk)
    with pytest.raises(WrongScoreKey) as refused:
        _submit(zee.pk, FIRST, "k-1", score_key=score_key)
    assert refused.value.code == "permission_denied"
    assert stored(zee.pk) == before


@pytest.mark.django_db
def test_a_key_not_shaped_like_one_is_never_looked_up(zee):
    with CaptureQueriesContext(connection) as queries, pytest.raises(WrongScoreKey):
        _submit(zee.pk, FIRST, None, score_key="not a key!")
    assert not [q for q in queries if "score_key" in q["sql"]], queries.captured_queries


@pytest.mark.django_db
@pytest.mark.parametrize("score_key", [None, "A" * 32, "not a key!"])
def test_a_match_that_does_not_exist_raises_does_not_exist_with_or_without_a_key(score_key):
    with pytest.raises(Match.DoesNotExist):
        _submit(MISSING, FIRST, None, score_key=score_key)


# --- Row locks ----------------------------------------------------------------------------------


def _lock_waiters() -> int:
    """How many connections to the test database wait for a lock."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity "
            "WHERE datname = current_database() AND wait_event_type = 'Lock'"
        )
        return int(cursor.fetchone()[0])


class Holder(threading.Thread):
    """Another request: locks the match in its own connection and transaction, runs `inside`
    while it holds the lock, and commits once `release` is set."""

    def __init__(self, match_id: int, inside: Any = None) -> None:
        super().__init__()
        self.match_id = match_id
        self.inside = inside or (lambda submission: None)
        self.holding = threading.Event()
        self.release = threading.Event()
        self.error: BaseException | None = None

    def run(self) -> None:
        try:
            with services.locked_submission(match_id=self.match_id, key="same") as submission:
                self.inside(submission)
                self.holding.set()
                self.release.wait(10)
        except BaseException as error:  # reported by the test
            self.error = error
        finally:
            self.holding.set()
            connection.close()


@pytest.mark.django_db(transaction=True)
def test_a_wrong_scoring_key_is_refused_at_once_while_another_request_holds_the_match(zee):
    """Guessed keys cannot queue behind the scorekeepers of a real table: the right key
    waits for the lock (here it gives up after lock_timeout); a wrong one does not."""
    holder = Holder(zee.pk)
    holder.start()
    assert holder.holding.wait(10)
    try:
        with connection.cursor() as cursor:
            cursor.execute("SET lock_timeout = '300ms'")
        with pytest.raises(WrongScoreKey):
            _submit(zee.pk, FIRST, None, score_key="A" * 32)
        with pytest.raises(OperationalError, match="lock timeout"):
            _submit(zee.pk, FIRST, None, score_key=zee.score_key)
    finally:
        with connection.cursor() as cursor:
            cursor.execute("RESET lock_timeout")
        holder.release.set()
        holder.join(10)
    assert holder.error is None


@pytest.mark.django_db(transaction=True)
def test_a_retry_that_waited_for_the_lock_gets_the_answer_the_first_request_stored(zee):
    """The receipt is read after the lock is held, so a retry queued behind the first request
    sees what that request committed while it waited."""

    body = _named(zee.pk, FIRST)

    def write(submission: services.Submission) -> None:
        reply = services.turn_submit_locked(submission, body=body)
        assert not reply.replayed

    holder = Holder(zee.pk, inside=write)
    holder.start()
    assert holder.holding.wait(10)
    retry: dict[str, Any] = {}

    def send_retry() -> None:
        try:
            retry["answer"] = _submit(zee.pk, body, "same", named=True)
        finally:
            connection.close()

    retrying = threading.Thread(target=send_retry)
    retrying.start()
    deadline = time.monotonic() + 10
    while _lock_waiters() == 0 and time.monotonic() < deadline:
        time.sleep(0.01)
    assert _lock_waiters() == 1  # the retry is queued behind the first request
    holder.release.set()
    holder.join(10)
    retrying.join(10)
    assert holder.error is None
    assert retry["answer"] == (201, {"sequence": 1, "points": 1})
    assert Turn.objects.filter(match=zee).count() == 1
