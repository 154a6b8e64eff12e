"""`turn_undo`: the last turn moves to an audit record and the state is rebuilt from the turns
left; undoing the last turn of a finished match reopens it, clears the result its seats held
and sends `match_reopened`, which a receiver may refuse."""

from datetime import timedelta

import pytest
from django.utils import timezone

from games import services, signals
from games.errors import MatchClosed, NothingToUndo, UndoBlocked
from games.models import Match, MatchStatus, SubmissionReceipt, Turn, TurnUndo
from tests.games.conftest import (
    SCRIPTED_YARDZEE,
    SCRIPTED_YARDZEE_SEATS,
    WHOLE_GAMES,
    Sent,
    receipt,
    seat_results,
    stored,
)
from tests.playing import simulated_turns

pytestmark = pytest.mark.django_db

NO_RESULT = [(None,) * 5] * 2


def test_the_undone_turn_is_kept_in_an_audit_record(zee, player_account, organizer):
    for turn in SCRIPTED_YARDZEE[:3]:
        services.turn_submit(match_id=zee.pk, turn=turn, submitted_by=player_account)
    last = Turn.objects.get(match=zee, sequence=3)
    returned = services.turn_undo(match_id=zee.pk, undone_by=organizer)
    record = TurnUndo.objects.get(match=zee)
    assert returned.pk == record.pk
    assert (record.sequence, record.seat_order, record.player_id) == (
        3,
        0,
        zee.seats.get(order=0).player_id,
    )
    assert (record.payload, record.points, record.bonus) == (SCRIPTED_YARDZEE[2], 4, 0)
    assert (record.submitted_by, record.submitted_at) == (player_account, last.submitted_at)
    assert record.undone_by == organizer
    assert record.match_was_finished is False


def test_the_state_is_rebuilt_from_the_turns_left(zee, play):
    play(zee, turns=2)
    after_two = stored(zee.pk)
    services.turn_submit(match_id=zee.pk, turn=simulated_turns(zee)[2])
    services.turn_undo(match_id=zee.pk, undone_by=None)
    assert {**stored(zee.pk), "undos": []} == after_two
    assert Match.objects.get(pk=zee.pk).status == MatchStatus.IN_PROGRESS


def test_undoing_the_only_turn_leaves_a_scheduled_match(zee, play):
    fresh_state = zee.state
    play(zee, turns=1)
    services.turn_undo(match_id=zee.pk, undone_by=None)
    zee.refresh_from_db()
    assert (zee.status, zee.turns_played, zee.state) == (MatchStatus.SCHEDULED, 0, fresh_state)


def _undo(match: Match) -> None:
    services.turn_undo(match_id=match.pk, undone_by=None)


def _void(match: Match) -> None:
    services.match_void(match_id=match.pk, voided_by=None)


@pytest.mark.parametrize(
    ("turns", "then", "error", "code", "details"),
    [
        pytest.param(1, _undo, NothingToUndo, "nothing_to_undo", None, id="without-turns"),
        pytest.param(
            2, _void, MatchClosed, "match_closed", {"status": MatchStatus.VOID}, id="void"
        ),
    ],
)
def test_a_match_without_turns_or_void_has_no_turn_undone(
    zee, play, turns, then, error, code, details
):
    play(zee, turns=turns)
    then(zee)
    before = stored(zee.pk)
    with pytest.raises(error) as refused:
        _undo(zee)
    assert refused.value.code == code
    if details is not None:
        assert refused.value.details == details
    assert stored(zee.pk) == before


def test_undoing_a_turn_of_a_match_in_progress_sends_no_signal(zee, play, sent):
    play(zee, turns=2)
    services.turn_undo(match_id=zee.pk, undone_by=None)
    assert sent == []


@pytest.mark.parametrize("whole", WHOLE_GAMES)
def test_undoing_the_last_turn_of_a_finished_match_reopens_it_and_clears_its_result(
    request, sent, whole
):
    match = request.getfixturevalue(whole.fixture)
    turns = whole.turns(match)
    services.result_submit(match_id=match.pk, turns=turns)
    assert seat_results(match) == whole.seats
    record = services.turn_undo(match_id=match.pk, undone_by=None)
    match.refresh_from_db()
    assert (match.status, match.finished_at) == (MatchStatus.IN_PROGRESS, None)
    assert match.turns_played == len(turns) - 1
    assert seat_results(match) == NO_RESULT
    assert record.match_was_finished is True
    assert sent[1:] == [Sent("match_reopened", match.pk, MatchStatus.IN_PROGRESS, NO_RESULT)]


def test_a_reopened_match_finishes_again_with_its_last_turn(finished_zee, sent):
    services.turn_undo(match_id=finished_zee.pk, undone_by=None)
    services.turn_submit(match_id=finished_zee.pk, turn=SCRIPTED_YARDZEE[-1])
    finished_zee.refresh_from_db()
    assert finished_zee.status == MatchStatus.FINISHED
    assert seat_results(finished_zee) == SCRIPTED_YARDZEE_SEATS
    assert [s.signal for s in sent] == ["match_reopened", "match_finished"]


def test_a_receiver_that_refuses_the_reopening_leaves_the_result_standing(finished_zee, refuse):
    receipt(finished_zee, "the-result", 26)
    refuse(signals.match_reopened, UndoBlocked("A later bracket match has started."))
    before = stored(finished_zee.pk)
    with pytest.raises(UndoBlocked):
        services.turn_undo(match_id=finished_zee.pk, undone_by=None)
    assert stored(finished_zee.pk) == before


def test_the_receipts_of_the_undone_turn_are_marked_and_earlier_ones_are_not(zee, play):
    """A retry of the write that stored the undone turn must not get its old answer back
    (`Submission.replay` raises TurnUndone); writes of earlier turns still stand."""
    play(zee, turns=2)
    receipt(zee, "turn-1", 1)
    receipt(zee, "turn-2", 2)
    services.turn_undo(match_id=zee.pk, undone_by=None)
    undone = dict(SubmissionReceipt.objects.values_list("key", "undone_at"))
    assert undone["turn-1"] is None
    assert timezone.now() - undone["turn-2"] < timedelta(minutes=1)


def test_a_receipt_keeps_the_time_of_the_first_undo_that_marked_it(zee, play):
    play(zee, turns=2)
    receipt(zee, "turn-2", 2)
    services.turn_undo(match_id=zee.pk, undone_by=None)
    first = SubmissionReceipt.objects.get().undone_at
    services.turn_undo(match_id=zee.pk, undone_by=None)
    assert SubmissionReceipt.objects.get().undone_at == first
