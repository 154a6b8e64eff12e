"""`match_void`: the match no longer counts anywhere, its turns are kept for the record, and
`match_voided` says whether a result had stood; voiding twice changes nothing more."""

import pytest

from games import services, signals
from games.errors import MatchError
from games.models import Match, MatchStatus
from tests.games.conftest import SCRIPTED_YARDZEE, SCRIPTED_YARDZEE_SEATS, Sent, stored

pytestmark = pytest.mark.django_db


def _play(match: Match, turns: int) -> None:
    for turn in SCRIPTED_YARDZEE[:turns]:
        services.turn_submit(match_id=match.pk, turn=turn)


VOIDED = [
    # (id, turns played first, whether a result had stood, seats kept)
    ("scheduled", 0, False, [(None,) * 5] * 2),
    ("in_progress", 3, False, [(None,) * 5] * 2),
    ("finished", 26, True, SCRIPTED_YARDZEE_SEATS),
]


@pytest.mark.parametrize(
    ("turns", "was_finished", "seats"), [case[1:] for case in VOIDED], ids=[c[0] for c in VOIDED]
)
def test_a_voided_match_keeps_its_turns_and_says_whether_a_result_stood(
    zee, organizer, sent, turns, was_finished, seats
):
    _play(zee, turns)
    sent.clear()
    before = stored(zee.pk)
    returned = services.match_void(match_id=zee.pk, voided_by=organizer)
    assert returned.status == MatchStatus.VOID
    after = stored(zee.pk)
    # Only the status changes: the turns, the seats' result and the state are kept.
    assert after["match"][0] == MatchStatus.VOID
    assert {**after, "match": after["match"][1:]} == {**before, "match": before["match"][1:]}
    assert sent == [Sent("match_voided", zee.pk, MatchStatus.VOID, seats, was_finished)]


def test_voiding_a_void_match_again_changes_nothing_and_sends_nothing(zee, sent):
    services.match_void(match_id=zee.pk, voided_by=None)
    before = stored(zee.pk)
    again = services.match_void(match_id=zee.pk, voided_by=None)
    assert again.status == MatchStatus.VOID
    assert stored(zee.pk) == before
    assert [s.signal for s in sent] == ["match_voided"]


def test_a_receiver_that_refuses_the_void_leaves_the_match_as_it_was(finished_zee, refuse):
    refuse(signals.match_voided, MatchError("not now"))
    before = stored(finished_zee.pk)
    with pytest.raises(MatchError):
        services.match_void(match_id=finished_zee.pk, voided_by=None)
    assert stored(finished_zee.pk) == before


def test_voiding_a_match_that_does_not_exist_raises_does_not_exist(db):
    with pytest.raises(Match.DoesNotExist):
        services.match_void(match_id=999_999, voided_by=None)
