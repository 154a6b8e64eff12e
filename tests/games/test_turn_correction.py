"""Issue 16, item 9: `turn_correct` replaces a turn in the middle of a game without undoing
the turns after it. The later turns are replayed on top: when they all still fit, the old
version is kept as a `TurnCorrection` and the later turns are rescored; when one no longer
fits, the error names it and nothing changes. A finished match whose result changes is
reopened and finished again, so the league follows (or refuses)."""

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

import scoring
from games import services, signals
from games.errors import (
    CorrectionBreaksLaterTurn,
    EventClosed,
    MatchClosed,
    NoSuchTurn,
    TurnNumberMismatch,
    UndoBlocked,
)
from games.models import Match, MatchStatus, SubmissionReceipt, Turn, TurnCorrection
from league.models import EventStatus
from scoring import RuleViolation
from scoring.yardzee import CATEGORIES, UPPER_BOXES
from tests.games.conftest import (
    SCRIPTED_YARDZEE,
    SCRIPTED_YARDZEE_SEATS,
    WHOLE_YARDKLE,
    YARDKLE_SEATS,
    Sent,
    receipt,
    seat_results,
    stored,
)

pytestmark = pytest.mark.django_db

# A close Yardzee game of two seats, one roll a turn, boxes filled in scorecard order: three of
# a face in every upper box (63, the upper bonus exactly; the other two dice are 5 and 6, or 1
# and 2 for fives and sixes) and the same lower boxes, but seat 0 throws one pip more for its
# chance: 245 to 244. Seat 0's fours are turn 7, seat 1's turn 8.
_UPPER_THREES = {
    box: [face] * 3 + ([5, 6] if face < 5 else [1, 2]) for face, box in enumerate(UPPER_BOXES, 1)
} | {
    "three_of_a_kind": [2, 2, 2, 3, 4],
    "four_of_a_kind": [2, 2, 2, 2, 3],
    "full_house": [2, 2, 3, 3, 3],
    "small_straight": [1, 2, 3, 4, 6],
    "large_straight": [1, 2, 3, 4, 5],
    "yardzee": [1, 2, 3, 4, 6],
}
_CHANCE = ([6, 6, 6, 5, 5], [6, 6, 6, 5, 4])
CLOSE_YARDZEE: list[dict[str, Any]] = [
    {"rolls": [{"dice": _UPPER_THREES.get(box) or _CHANCE[seat]}], "category": box}
    for box in CATEGORIES
    for seat in (0, 1)
]
CLOSE_YARDZEE_SEATS = [(245, 1, 0, True, None), (244, 2, 0, True, None)]
# Fours of 8 instead of 12: that seat's upper section falls to 59, below the bonus.
FEWER_FOURS = {"rolls": [{"dice": [4, 4, 5, 5, 6]}], "category": "fours"}


def everything(match_id: int) -> dict[str, Any]:
    """`stored` plus what corrections keep: the correction marks and records."""
    return {
        **stored(match_id),
        "marks": list(
            Turn.objects.filter(match_id=match_id)
            .order_by("sequence")
            .values_list("corrected_by", "corrected_at")
        ),
        "corrections": list(
            TurnCorrection.objects.filter(match_id=match_id).values_list("sequence", "payload")
        ),
    }


def player_of(match: Match, seat: int) -> int:
    return match.seats.get(order=seat).player_id


def as_sent_by(match: Match, sequence: int, turn: dict[str, Any]) -> dict[str, Any]:
    """`turn` naming the player who played turn `sequence` (seat order, two seats)."""
    return {"player": player_of(match, (sequence - 1) % 2), **turn}


@pytest.fixture
def close_zee(zee: Match) -> Match:
    services.result_submit(match_id=zee.pk, turns=CLOSE_YARDZEE)
    zee.refresh_from_db()
    return zee


def correct(match: Match, sequence: int, turn: dict[str, Any], by: Any = None) -> Any:
    return services.turn_correct(
        match_id=match.pk,
        sequence=sequence,
        turn=as_sent_by(match, sequence, turn),
        corrected_by=by,
    )


# --- Later turns still fit: the correction is stored as a new version -----------------------


def test_the_script_of_a_close_game_scores_as_its_comment_says(close_zee):
    assert seat_results(close_zee) == CLOSE_YARDZEE_SEATS


def test_a_corrected_middle_turn_keeps_its_old_version_with_who_and_when(
    close_zee, organizer, player_account
):
    Turn.objects.filter(match=close_zee, sequence=8).update(submitted_by=player_account)
    submitted_at = Turn.objects.get(match=close_zee, sequence=8).submitted_at
    outcome = correct(close_zee, 8, FEWER_FOURS, by=organizer)
    turn = Turn.objects.get(match=close_zee, sequence=8)
    assert (turn.payload, turn.points, turn.bonus) == (as_sent_by(close_zee, 8, FEWER_FOURS), 8, 0)
    assert (turn.submitted_by, turn.submitted_at) == (player_account, submitted_at)
    assert turn.corrected_by == organizer
    assert timezone.now() - turn.corrected_at < timedelta(minutes=1)
    record = TurnCorrection.objects.get(match=close_zee)
    assert record == outcome.correction
    assert (record.turn, record.sequence) == (turn, 8)
    assert (record.payload, record.points, record.bonus) == (CLOSE_YARDZEE[7], 12, 0)
    assert (record.submitted_by, record.submitted_at) == (player_account, submitted_at)
    assert (record.corrected_by, record.corrected_at) == (organizer, turn.corrected_at)
    assert outcome.replayed == 26 - 8
    assert Turn.objects.filter(match=close_zee).count() == 26


def test_the_later_turns_replayed_take_the_upper_bonus_away_and_the_lead_changes(close_zee, sent):
    finished_at = close_zee.finished_at
    correct(close_zee, 7, FEWER_FOURS)
    close_zee.refresh_from_db()
    card = close_zee.scoring_game().scorecard(0)
    assert (card.upper_total, card.upper_bonus, card.total) == (59, 0, 206)
    assert seat_results(close_zee) == [(206, 2, 0, False, None), (244, 1, 0, True, None)]
    assert (close_zee.status, close_zee.finished_at) == (MatchStatus.FINISHED, finished_at)
    cleared = [(None,) * 5] * 2
    assert sent == [
        Sent("match_reopened", close_zee.pk, MatchStatus.IN_PROGRESS, cleared),
        Sent("match_finished", close_zee.pk, MatchStatus.FINISHED, seat_results(close_zee)),
    ]


def test_a_corrected_yardzee_box_rescores_the_later_yardzee_bonuses(zee):
    """Seat 1's Yardzee (turn 2) was five sixes for 50; corrected to a scratch (0), its later
    fives of a kind are still forced jokers, but earn no Yardzee bonus any more."""
    services.result_submit(match_id=zee.pk, turns=SCRIPTED_YARDZEE)
    scratch = {"rolls": [{"dice": [1, 2, 3, 4, 6]}], "category": "yardzee"}
    outcome = correct(zee, 2, scratch)
    later = dict(
        Turn.objects.filter(match=zee, sequence__in=[4, 6]).values_list("sequence", "bonus")
    )
    assert later == {4: 0, 6: 0}
    assert outcome.correction.rescored == [
        {"sequence": 4, "points": 30, "bonus": 100},
        {"sequence": 6, "points": 25, "bonus": 100},
    ]
    assert seat_results(zee) == [SCRIPTED_YARDZEE_SEATS[0], (249, 1, 0, True, None)]


def test_a_correction_in_a_match_in_progress_rebuilds_its_state_and_sends_no_signal(zee, sent):
    for turn in CLOSE_YARDZEE[:10]:
        services.turn_submit(match_id=zee.pk, turn=turn)
    correct(zee, 7, FEWER_FOURS)
    zee.refresh_from_db()
    replayed = scoring.new_game("yardzee", 2, zee.rules)
    for turn in [*CLOSE_YARDZEE[:6], FEWER_FOURS, *CLOSE_YARDZEE[7:10]]:
        replayed.play(turn)
    assert zee.state == replayed.to_json()
    assert (zee.status, zee.turns_played) == (MatchStatus.IN_PROGRESS, 10)
    assert sent == []


def test_a_correction_that_leaves_every_result_as_it_was_sends_only_match_corrected(
    close_zee, sent
):
    """No result changed: nothing of standings or ratings follows; the match's analysis, made
    of the turns, is made again (`match_corrected`)."""
    before = stored(close_zee.pk)
    same_aces = {"rolls": [{"dice": [1, 1, 3, 4, 6]}, {"keep": [1, 1], "dice": [1, 1, 1, 6, 6]}]}
    correct(close_zee, 1, {**same_aces, "category": "aces"})
    after = stored(close_zee.pk)
    assert after["match"][2:] == before["match"][2:]  # turns played, started and finished
    assert after["seats"] == before["seats"] == CLOSE_YARDZEE_SEATS
    assert [(s.signal, s.match_id) for s in sent] == [("match_corrected", close_zee.pk)]


def test_sending_the_turn_as_stored_changes_nothing(close_zee, sent):
    correct(close_zee, 8, FEWER_FOURS)
    before = everything(close_zee.pk)
    outcome = correct(close_zee, 8, FEWER_FOURS)
    assert outcome.correction is None
    assert everything(close_zee.pk) == before
    assert len(sent) == 2  # the first correction's


def test_a_second_correction_keeps_who_entered_the_version_it_replaces(close_zee, organizer, staff):
    first = correct(close_zee, 8, FEWER_FOURS, by=organizer).correction
    fewest = {"rolls": [{"dice": [4, 5, 5, 6, 6]}], "category": "fours"}
    second = correct(close_zee, 8, fewest, by=staff).correction
    assert (second.payload, second.points) == (as_sent_by(close_zee, 8, FEWER_FOURS), 8)
    assert (second.submitted_by, second.submitted_at) == (organizer, first.corrected_at)
    assert second.corrected_by == staff
    turn = Turn.objects.get(match=close_zee, sequence=8)
    assert (turn.points, turn.corrected_by) == (4, staff)
    assert [c.pk for c in turn.corrections.all()] == [first.pk, second.pk]


def test_the_receipts_of_the_corrected_turn_and_later_ones_are_marked_undone(zee):
    for turn in CLOSE_YARDZEE[:4]:
        services.turn_submit(match_id=zee.pk, turn=turn)
    for sequence in range(1, 5):
        receipt(zee, f"turn-{sequence}", sequence)
    corrected = correct(zee, 2, {"rolls": [{"dice": [1, 2, 3, 4, 6]}], "category": "aces"})
    undone = dict(SubmissionReceipt.objects.values_list("key", "undone_at"))
    assert undone["turn-1"] is None
    assert {undone[key] for key in ("turn-2", "turn-3", "turn-4")} == {
        corrected.correction.corrected_at
    }


def test_undoing_a_corrected_turn_keeps_its_corrections_for_the_record(zee):
    for turn in CLOSE_YARDZEE[:8]:
        services.turn_submit(match_id=zee.pk, turn=turn)
    correct(zee, 8, FEWER_FOURS)
    services.turn_undo(match_id=zee.pk, undone_by=None)
    record = TurnCorrection.objects.get(match=zee)
    assert (record.turn, record.sequence, record.points) == (None, 8, 12)


# --- Refused: nothing changes ----------------------------------------------------------------


def test_a_correction_a_later_turn_no_longer_fits_names_that_turn_and_changes_nothing(
    finished_zee, sent
):
    """Seat 0's aces (turn 1) corrected into twos: its own twos (turn 3) find the box used."""
    before = everything(finished_zee.pk)
    into_twos = {**SCRIPTED_YARDZEE[0], "category": "twos"}
    with pytest.raises(CorrectionBreaksLaterTurn) as refused:
        correct(finished_zee, 1, into_twos)
    assert refused.value.code == "correction_breaks_later_turn"
    details = refused.value.details
    assert (details["corrected_turn"], details["turn"]) == (1, 3)
    assert details["player"] == player_of(finished_zee, 0)
    assert details["violation"]["code"] == "box_filled"
    assert details["violation"]["rule"] == "Boxes"
    assert "turn 3" in refused.value.message
    assert everything(finished_zee.pk) == before
    assert sent == []


def test_a_corrected_turn_that_breaks_a_rule_itself_is_refused_with_the_rule(finished_zee):
    before = everything(finished_zee.pk)
    into_aces = {**SCRIPTED_YARDZEE[2], "category": "aces"}  # turn 1 filled seat 0's aces
    with pytest.raises(RuleViolation) as refused:
        correct(finished_zee, 3, into_aces)
    assert refused.value.code == "box_filled"
    assert refused.value.details["turn"] == 3
    assert refused.value.message.startswith("Turn 3: ")
    assert everything(finished_zee.pk) == before


def test_a_correction_cannot_give_the_turn_to_another_player(finished_zee):
    before = everything(finished_zee.pk)
    turn = {"player": player_of(finished_zee, 0), **SCRIPTED_YARDZEE[1]}
    with pytest.raises(RuleViolation) as refused:
        services.turn_correct(match_id=finished_zee.pk, sequence=2, turn=turn, corrected_by=None)
    assert refused.value.code == "not_your_turn"
    assert refused.value.details == {
        "player": player_of(finished_zee, 0),
        "expected_player": player_of(finished_zee, 1),
        "turn": 2,
    }
    assert everything(finished_zee.pk) == before


@pytest.mark.parametrize(
    ("turn", "error", "code"),
    [
        ([1, 2, 3], RuleViolation, "wrong_type"),
        (SCRIPTED_YARDZEE[1], RuleViolation, "missing_key"),  # no player named
        ({"turn_number": 3, **SCRIPTED_YARDZEE[1]}, TurnNumberMismatch, "turn_number_mismatch"),
    ],
    ids=["not-an-object", "no-player", "other-turn-number"],
)
def test_a_malformed_correction_is_refused(finished_zee, turn, error, code):
    before = everything(finished_zee.pk)
    with pytest.raises(error) as refused:
        services.turn_correct(match_id=finished_zee.pk, sequence=2, turn=turn, corrected_by=None)
    assert refused.value.code == code
    assert everything(finished_zee.pk) == before


def test_a_turn_number_equal_to_the_corrected_turn_is_accepted_and_not_stored(close_zee):
    body = {"turn_number": 8, **as_sent_by(close_zee, 8, FEWER_FOURS)}
    services.turn_correct(match_id=close_zee.pk, sequence=8, turn=body, corrected_by=None)
    assert "turn_number" not in Turn.objects.get(match=close_zee, sequence=8).payload


@pytest.mark.parametrize("sequence", [0, 27, 1000])
def test_a_turn_the_match_has_not_played_is_refused(finished_zee, sequence):
    before = everything(finished_zee.pk)
    with pytest.raises(NoSuchTurn) as refused:
        correct(finished_zee, sequence, SCRIPTED_YARDZEE[0])
    assert refused.value.code == "no_such_turn"
    assert refused.value.details == {"turn": sequence, "turns_played": 26}
    assert everything(finished_zee.pk) == before


def test_a_match_without_turns_has_no_turn_to_correct(zee):
    with pytest.raises(NoSuchTurn):
        correct(zee, 1, SCRIPTED_YARDZEE[0])


def test_a_void_match_is_not_corrected(finished_zee):
    services.match_void(match_id=finished_zee.pk, voided_by=None)
    before = everything(finished_zee.pk)
    with pytest.raises(MatchClosed) as refused:
        correct(finished_zee, 1, {**SCRIPTED_YARDZEE[0], "rolls": [{"dice": [1, 1, 2, 4, 6]}]})
    assert refused.value.details == {"status": MatchStatus.VOID}
    assert everything(finished_zee.pk) == before


@pytest.mark.parametrize("status", [EventStatus.FINISHED, EventStatus.CANCELLED])
def test_a_match_of_a_closed_event_is_not_corrected(event_zee, yardzee_event, status):
    services.result_submit(match_id=event_zee.pk, turns=CLOSE_YARDZEE)
    yardzee_event.status = status
    yardzee_event.save()
    before = everything(event_zee.pk)
    with pytest.raises(EventClosed):
        correct(event_zee, 7, FEWER_FOURS)
    assert everything(event_zee.pk) == before


def test_a_receiver_that_refuses_the_changed_result_leaves_everything_as_it_was(close_zee, refuse):
    receipt(close_zee, "the-result", 26)
    refuse(signals.match_reopened, UndoBlocked("A later bracket match has started."))
    before = everything(close_zee.pk)
    with pytest.raises(UndoBlocked):
        correct(close_zee, 7, FEWER_FOURS)
    assert everything(close_zee.pk) == before


# --- Yardkle -----------------------------------------------------------------------------------
# The simulated game (YARDKLE_SEED, target 3,000): seat 0 enters with 750 at turn 3 and banks
# 350 at turn 5; seat 1 enters with 600 at turn 2, ends turn 4 in a Yardkle after setting
# aside 1, 5 and 5, and reaches 3,400 at turn 8; seat 0's last turn (9) is a Yardkle.

NO_POINTS = [{"dice": [2, 2, 3, 4, 6, 6], "set_aside": []}]


@pytest.fixture
def finished_kle(kle: Match) -> Match:
    services.result_submit(match_id=kle.pk, turns=WHOLE_YARDKLE.turns(kle))
    kle.refresh_from_db()
    assert seat_results(kle) == YARDKLE_SEATS
    return kle


def test_a_yardkle_corrected_into_a_bank_rescores_the_total_and_the_yardkle_count(
    finished_kle, sent
):
    stored_turn = Turn.objects.get(match=finished_kle, sequence=4).payload
    banked = {"throws": stored_turn["throws"][:2], "end": "bank"}
    outcome = correct(finished_kle, 4, banked)
    assert Turn.objects.get(match=finished_kle, sequence=4).points == 200
    assert outcome.replayed == 5
    assert seat_results(finished_kle) == [YARDKLE_SEATS[0], (3600, 1, None, None, 0)]
    assert [s.signal for s in sent] == ["match_reopened", "match_finished"]


def test_a_yardkle_correction_that_leaves_the_target_unreached_reopens_the_match(
    finished_kle, sent
):
    """Seat 1's entry (600 at turn 2) was a Yardkle: it enters with 650 at turn 6 and ends
    on 2,800, so nobody has reached the target after turn 9 and the game goes on."""
    correct(finished_kle, 2, {"throws": NO_POINTS, "end": "yardkle"})
    finished_kle.refresh_from_db()
    assert (finished_kle.status, finished_kle.finished_at) == (MatchStatus.IN_PROGRESS, None)
    game = finished_kle.scoring_game()
    assert (game.total(0), game.total(1), game.current_player) == (1400, 2800, 1)
    assert seat_results(finished_kle) == [(None,) * 5] * 2
    assert [s.signal for s in sent] == ["match_reopened"]


def test_a_yardkle_correction_that_takes_away_an_entry_breaks_the_next_small_bank(finished_kle):
    """Without seat 0's entry of 750 (turn 3), its bank of 350 at turn 5 is below the entry
    minimum of 500."""
    before = everything(finished_kle.pk)
    with pytest.raises(CorrectionBreaksLaterTurn) as refused:
        correct(finished_kle, 3, {"throws": NO_POINTS, "end": "yardkle"})
    assert refused.value.details["turn"] == 5
    assert refused.value.details["violation"]["code"] == "bank_below_entry_minimum"
    assert everything(finished_kle.pk) == before


# --- The match page -----------------------------------------------------------------------------


def test_the_match_page_marks_a_corrected_turn_with_who_when_and_what_it_was(
    client, close_zee, organizer
):
    correct(close_zee, 7, FEWER_FOURS, by=organizer)
    page = client.get(f"/matches/{close_zee.pk}/?turns=1").content.decode()
    line = page.split('id="turn-7"')[1].split("</details>")[0]
    assert "Fours 8" in line
    assert '<span class="tag corrected">corrected</span>' in line
    assert f"Corrected by {organizer.username} on <time" in line
    assert "Entered before as Fours 12." in line
    assert "corrected" not in page.split('id="turn-8"')[1].split("</details>")[0]
