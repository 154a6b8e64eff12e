"""`turn_take_back`: the scorekeeper who sent the last turn takes it back themselves, before
the next turn is entered, within TAKE_BACK_SECONDS, and never a turn that finished the match.
Every refusal changes nothing."""

from datetime import timedelta

import pytest
from django.utils import timezone

from games import errors, services
from games.models import Match, MatchStatus, Turn, TurnUndo
from tests.games.conftest import SCRIPTED_YARDZEE, stored

pytestmark = pytest.mark.django_db


def _by_key(match: Match, count: int, start: int = 0) -> None:
    for turn in SCRIPTED_YARDZEE[start : start + count]:
        services.turn_submit(match_id=match.pk, turn=turn, scored_with_key=True)


def test_the_key_holder_takes_back_the_last_turn_they_sent(zee):
    _by_key(zee, 3)
    undone = services.turn_take_back(match_id=zee.pk, turn_number=3, score_key=zee.score_key)
    zee.refresh_from_db()
    assert (undone.sequence, undone.taken_back, undone.undone_by) == (3, True, None)
    assert zee.turns_played == 2
    assert list(zee.turns.values_list("sequence", flat=True)) == [1, 2]
    # The same seat plays turn 3 again.
    assert zee.scoring_game().current_player == 0


def test_a_signed_in_scorekeeper_takes_back_the_turn_they_sent(zee, organizer):
    services.turn_submit(match_id=zee.pk, turn=SCRIPTED_YARDZEE[0], submitted_by=organizer)
    undone = services.turn_take_back(match_id=zee.pk, taken_back_by=organizer)
    assert (undone.sequence, undone.taken_back, undone.undone_by) == (1, True, organizer)
    zee.refresh_from_db()
    assert (zee.status, zee.turns_played) == (MatchStatus.SCHEDULED, 0)


def test_a_turn_sent_without_the_key_is_not_the_key_holders(zee, organizer):
    services.turn_submit(match_id=zee.pk, turn=SCRIPTED_YARDZEE[0], submitted_by=organizer)
    before = stored(zee.pk)
    with pytest.raises(errors.TakeBackNotYours) as refused:
        services.turn_take_back(match_id=zee.pk, score_key=zee.score_key)
    assert refused.value.details == {"turn": 1}
    assert stored(zee.pk) == before


def test_a_turn_sent_with_the_key_is_not_a_signed_in_users(zee, organizer):
    _by_key(zee, 1)
    with pytest.raises(errors.TakeBackNotYours):
        services.turn_take_back(match_id=zee.pk, taken_back_by=organizer)
    with pytest.raises(errors.TakeBackNotYours):
        services.turn_take_back(match_id=zee.pk, taken_back_by=None)


def test_another_users_turn_is_not_theirs(zee, organizer, player_account):
    services.turn_submit(match_id=zee.pk, turn=SCRIPTED_YARDZEE[0], submitted_by=organizer)
    with pytest.raises(errors.TakeBackNotYours):
        services.turn_take_back(match_id=zee.pk, taken_back_by=player_account)


def test_only_the_last_turn_once_the_next_player_has_entered_theirs(zee, organizer):
    _by_key(zee, 1)
    services.turn_submit(match_id=zee.pk, turn=SCRIPTED_YARDZEE[1], submitted_by=organizer)
    before = stored(zee.pk)
    with pytest.raises(errors.TurnNumberMismatch) as refused:
        services.turn_take_back(match_id=zee.pk, turn_number=1, score_key=zee.score_key)
    assert refused.value.details == {"turn_number": 1, "expected": 2}
    # Without a number the last turn is meant: not the key holder's.
    with pytest.raises(errors.TakeBackNotYours):
        services.turn_take_back(match_id=zee.pk, score_key=zee.score_key)
    assert stored(zee.pk) == before


def _second_turn_entered_ago(zee: Match, seconds: int) -> None:
    """Turns 1 and 2 entered with the score key, turn 2 `seconds` ago."""
    _by_key(zee, 2)
    Turn.objects.filter(match=zee, sequence=2).update(
        submitted_at=timezone.now() - timedelta(seconds=seconds)
    )


def test_too_late_after_the_window(zee, settings):
    settings.TAKE_BACK_SECONDS = 120
    _second_turn_entered_ago(zee, 121)
    before = stored(zee.pk)
    with pytest.raises(errors.TakeBackTooLate) as refused:
        services.turn_take_back(match_id=zee.pk, score_key=zee.score_key)
    assert refused.value.details == {"turn": 2, "seconds": 120}
    assert stored(zee.pk) == before


def test_just_inside_the_window(zee, settings):
    settings.TAKE_BACK_SECONDS = 120
    _second_turn_entered_ago(zee, 110)
    assert services.turn_take_back(match_id=zee.pk, score_key=zee.score_key).sequence == 2


def test_a_turn_that_finished_the_match_stands(zee):
    _by_key(zee, len(SCRIPTED_YARDZEE))
    zee.refresh_from_db()
    assert zee.status == MatchStatus.FINISHED
    before = stored(zee.pk)
    with pytest.raises(errors.MatchClosed) as refused:
        services.turn_take_back(match_id=zee.pk, score_key=zee.score_key)
    assert refused.value.details == {"status": "finished", "turn": len(SCRIPTED_YARDZEE)}
    assert "only an organizer" in refused.value.message
    assert stored(zee.pk) == before


def test_a_turn_an_organizer_corrected_is_no_longer_the_scorekeepers(zee, organizer):
    _by_key(zee, 1)
    services.turn_correct(
        match_id=zee.pk,
        sequence=1,
        turn={
            **SCRIPTED_YARDZEE[0],
            "category": "chance",
            "player": zee.seats.get(order=0).player_id,
        },
        corrected_by=organizer,
    )
    with pytest.raises(errors.TakeBackNotYours) as refused:
        services.turn_take_back(match_id=zee.pk, score_key=zee.score_key)
    assert "corrected" in refused.value.message


def test_a_void_match_and_an_empty_one(zee):
    with pytest.raises(errors.NothingToUndo):
        services.turn_take_back(match_id=zee.pk, score_key=zee.score_key)
    _by_key(zee, 1)
    services.match_void(match_id=zee.pk, voided_by=None)
    with pytest.raises(errors.MatchClosed):
        services.turn_take_back(match_id=zee.pk, score_key=zee.score_key)


def test_a_wrong_key_opens_nothing(zee, seat):
    other = seat("yardzee")
    _by_key(zee, 1)
    with pytest.raises(errors.WrongScoreKey):
        services.turn_take_back(match_id=zee.pk, score_key=other.score_key)
    with pytest.raises(Match.DoesNotExist):
        services.turn_take_back(match_id=zee.pk + 1000, score_key=zee.score_key)
    assert not TurnUndo.objects.exists()


def test_a_retry_of_the_taken_back_turns_submission_is_refused(zee):
    """The receipt of the write that stored the turn is marked undone, as for an undo."""
    body = {"player": zee.seats.get(order=0).player_id, **SCRIPTED_YARDZEE[0]}
    sent = {"match_id": zee.pk, "body": body, "key": "k-1", "presented_key": zee.score_key}
    services.turn_submit_once(**sent)
    services.turn_take_back(match_id=zee.pk, score_key=zee.score_key)
    with pytest.raises(errors.TurnUndone):
        services.turn_submit_once(**sent)


def test_an_organizer_refused_a_take_back_is_told_to_undo_not_to_ask_an_organizer(
    seat, organizer, player_account
):
    # issue 37, item 9: an organizer taking back a turn sent with the key was told to "ask an
    # organizer"; a scorekeeper without the right still is.
    zee = seat("yardzee", created_by=organizer)  # who seats a casual match organizes it
    _by_key(zee, 1)
    with pytest.raises(errors.TakeBackNotYours) as refused:
        services.turn_take_back(match_id=zee.pk, taken_back_by=organizer)
    assert "ask an organizer" not in refused.value.message
    assert f"undo it instead (POST matches/{zee.pk}/undo/)" in refused.value.message
    with pytest.raises(errors.TakeBackNotYours) as refused:
        services.turn_take_back(match_id=zee.pk, taken_back_by=player_account)
    assert refused.value.message.endswith("; ask an organizer to undo it.")
