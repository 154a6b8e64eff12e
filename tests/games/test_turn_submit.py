"""`turn_submit`: one turn checked by the rulebook and stored with the new state;
the last turn records the result and sends `match_finished`; every refusal is its own error
class and code, and changes nothing."""

from collections.abc import Callable
from typing import Any

import pytest
from django.db.transaction import TransactionManagementError

import scoring
from games import services, signals
from games.errors import EventClosed, MatchClosed, MatchError, TurnNumberMismatch
from games.models import Match, MatchStatus, Turn
from league.models import EventStatus
from league.services.organization import event_close
from scoring import RuleViolation
from tests.games.conftest import (
    SCRIPTED_YARDZEE,
    SCRIPTED_YARDZEE_SEATS,
    WHOLE_GAMES,
    Sent,
    seat_results,
    stored,
)
from tests.playing import simulated_turns

pytestmark = pytest.mark.django_db


def _named(match: Match, turn: dict[str, Any], seat: int = 0) -> dict[str, Any]:
    """`turn` naming the player of `seat`, as a scorekeeper sends it."""
    return {"player": match.seats.get(order=seat).player_id, **turn}


def test_a_turn_is_stored_as_submitted_with_its_seat_points_and_submitter(zee, organizer):
    turn = _named(zee, SCRIPTED_YARDZEE[0])
    outcome = services.turn_submit(match_id=zee.pk, turn=turn, submitted_by=organizer)
    row = Turn.objects.get(match=zee)
    assert (row.sequence, row.seat.order, row.payload, row.points, row.bonus) == (
        1,
        0,
        turn,
        1,  # one ace in 1 2 2 4 6
        0,
    )
    assert row.submitted_by == organizer
    kept = ("sequence", "seat_id", "payload", "points", "bonus", "submitted_by_id")
    assert [getattr(outcome.turn, name) for name in kept] == [getattr(row, name) for name in kept]
    assert outcome.turn.submitted_at == row.submitted_at
    assert [seat.order for seat in outcome.seats] == [0, 1]


def test_a_yardzee_bonus_is_stored_apart_from_the_points_of_the_box(zee):
    for turn in SCRIPTED_YARDZEE[:4]:
        services.turn_submit(match_id=zee.pk, turn=turn)
    # Turn 4: seat 1's second five sixes, a forced joker in sixes.
    assert Turn.objects.values_list("points", "bonus").get(match=zee, sequence=4) == (30, 100)


def test_the_match_keeps_the_rulebook_state_after_every_turn(zee):
    local = scoring.new_game("yardzee", 2, {})
    started_at = None
    for number, turn in enumerate(simulated_turns(zee, seed=4)[:5], start=1):
        outcome = services.turn_submit(match_id=zee.pk, turn=turn)
        local.play(turn)
        zee.refresh_from_db()
        assert zee.state == local.to_json()
        assert outcome.game.to_json() == local.to_json()
        assert (zee.turns_played, zee.status, zee.finished_at) == (
            number,
            MatchStatus.IN_PROGRESS,
            None,
        )
        started_at = started_at or zee.started_at
        assert zee.started_at == started_at is not None  # set by the first turn, then kept


def test_a_turn_that_names_no_player_is_checked_by_the_rulebook_alone(zee):
    services.turn_submit(match_id=zee.pk, turn=SCRIPTED_YARDZEE[0])
    assert Turn.objects.get(match=zee).payload == SCRIPTED_YARDZEE[0]


def test_the_turn_number_that_comes_next_is_accepted(zee):
    services.turn_submit(match_id=zee.pk, turn=SCRIPTED_YARDZEE[0], turn_number=1)
    services.turn_submit(match_id=zee.pk, turn=SCRIPTED_YARDZEE[1], turn_number=2)
    assert list(Turn.objects.values_list("sequence", flat=True)) == [1, 2]


def _second_seat(match: Match, turn: dict[str, Any]) -> dict[str, Any]:
    return {**turn, "player": match.seats.get(order=1).player_id}


def _points(claimed: int) -> Callable[[Match, dict[str, Any]], dict[str, Any]]:
    return lambda match, turn: {**turn, "points": claimed}


REFUSED_TURNS: list[tuple[Any, ...]] = [
    # (id, the first turn changed by, turn_number, error class, code, details expected)
    ("points_mismatch", _points(12), None, RuleViolation, "points_mismatch", None),
    (
        "not_your_turn",
        _second_seat,
        None,
        RuleViolation,
        "not_your_turn",
        lambda match: (
            {"player": match.seats.get(order=1).player_id}
            | {"expected_player": match.seats.get(order=0).player_id}
        ),
    ),
    (
        "player_not_an_id",
        lambda match, turn: {**turn, "player": "7"},
        None,
        RuleViolation,
        "wrong_type",
        lambda match: {"field": "player"},
    ),
    (
        "player_a_boolean",
        lambda match, turn: {**turn, "player": True},
        None,
        RuleViolation,
        "wrong_type",
        lambda match: {"field": "player"},
    ),
    (
        "turn_number_ahead",
        lambda match, turn: turn,
        2,
        TurnNumberMismatch,
        "turn_number_mismatch",
        lambda match: {"turn_number": 2, "expected": 1},
    ),
    ("not_a_turn", lambda match, turn: [turn], None, RuleViolation, "wrong_type", None),
]


@pytest.mark.parametrize(
    ("change", "turn_number", "error", "code", "details"),
    [case[1:] for case in REFUSED_TURNS],
    ids=[case[0] for case in REFUSED_TURNS],
)
def test_a_refused_turn_raises_its_error_and_changes_nothing(
    zee, change, turn_number, error, code, details
):
    before = stored(zee.pk)
    with pytest.raises(error) as refused:
        services.turn_submit(
            match_id=zee.pk,
            turn=change(zee, _named(zee, SCRIPTED_YARDZEE[0])),
            turn_number=turn_number,
        )
    assert refused.value.code == code
    if details is not None:
        assert refused.value.details == details(zee)
    assert stored(zee.pk) == before


def test_a_turn_for_a_match_that_does_not_exist_raises_does_not_exist(db):
    with pytest.raises(Match.DoesNotExist):
        services.turn_submit(match_id=999_999, turn=SCRIPTED_YARDZEE[0])


def _void(match: Match) -> None:
    services.match_void(match_id=match.pk, voided_by=None)


def _finish(match: Match) -> None:
    services.result_submit(match_id=match.pk, turns=SCRIPTED_YARDZEE)


@pytest.mark.parametrize(
    ("close", "status"), [(_finish, MatchStatus.FINISHED), (_void, MatchStatus.VOID)]
)
def test_a_finished_or_void_match_takes_no_turn(zee, close, status):
    close(zee)
    before = stored(zee.pk)
    with pytest.raises(MatchClosed) as refused:
        services.turn_submit(match_id=zee.pk, turn=SCRIPTED_YARDZEE[0])
    assert refused.value.code == "match_closed"
    assert refused.value.details == {"status": status}
    assert stored(zee.pk) == before


@pytest.mark.parametrize("status", [EventStatus.UPCOMING, EventStatus.RUNNING])
def test_an_event_still_open_takes_turns(event_zee, yardzee_event, status):
    yardzee_event.status = status
    yardzee_event.save()
    services.turn_submit(match_id=event_zee.pk, turn=SCRIPTED_YARDZEE[0])
    assert Turn.objects.filter(match=event_zee).count() == 1


@pytest.mark.parametrize("status", [EventStatus.FINISHED, EventStatus.CANCELLED])
def test_a_finished_or_cancelled_event_takes_no_turn(event_zee, yardzee_event, status):
    # An event closes only with none of its matches being played (event_close refuses, and
    # locks them all first), so the match it leaves is one not started: its first turn is
    # refused. (A match being played asks no one: its event is open.)
    event_close(event_id=yardzee_event.pk, status=status)
    before = stored(event_zee.pk)
    with pytest.raises(EventClosed) as refused:
        services.turn_submit(match_id=event_zee.pk, turn=SCRIPTED_YARDZEE[0])
    assert refused.value.code == "event_closed"
    assert refused.value.details == {"event": yardzee_event.pk, "status": status}
    assert stored(event_zee.pk) == before


@pytest.mark.parametrize("whole", WHOLE_GAMES)
def test_the_last_turn_records_each_seats_total_placement_and_game_counts(request, whole):
    """Yardzee keeps Yardzees and the upper bonus, Yardkle its Yardkles; the other game's
    counts stay empty (docs/standings.md: standings never replay a game)."""
    match = request.getfixturevalue(whole.fixture)
    *before_last, last = whole.turns(match)
    for turn in before_last:
        services.turn_submit(match_id=match.pk, turn=turn)
    assert seat_results(match) == [(None,) * 5] * 2
    services.turn_submit(match_id=match.pk, turn=last)
    match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED
    assert match.finished_at is not None
    assert seat_results(match) == whole.seats


def test_match_finished_is_sent_once_by_the_last_turn_with_the_result_stored(zee, sent):
    for turn in SCRIPTED_YARDZEE[:-1]:
        services.turn_submit(match_id=zee.pk, turn=turn)
    assert sent == []
    services.turn_submit(match_id=zee.pk, turn=SCRIPTED_YARDZEE[-1])
    assert sent == [Sent("match_finished", zee.pk, MatchStatus.FINISHED, SCRIPTED_YARDZEE_SEATS)]


def test_a_receiver_that_refuses_the_finish_takes_the_last_turn_back(zee, refuse):
    for turn in SCRIPTED_YARDZEE[:-1]:
        services.turn_submit(match_id=zee.pk, turn=turn)
    before = stored(zee.pk)
    refuse(signals.match_finished, MatchError("not now"))
    with pytest.raises(MatchError):
        services.turn_submit(match_id=zee.pk, turn=SCRIPTED_YARDZEE[-1])
    assert stored(zee.pk) == before


# --- The lock: `turn_submit_locked` and `result_apply` trust their caller to hold it ----------


def _unlocked(match: Match) -> services.Submission:
    """A submission of `match` read outside `locked_submission`: no lock held."""
    seats = list(match.seats.order_by("order").values_list("pk", "player_id"))
    return services.Submission(match, seats, None)


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    "apply",
    [
        lambda match: services.turn_submit_locked(
            _unlocked(match), body={"player": match.seats.get(order=0).player_id}
        ),
        lambda match: services.result_apply(submission=_unlocked(match), turns=SCRIPTED_YARDZEE),
    ],
    ids=["turn_submit_locked", "result_apply"],
)
def test_applying_outside_a_transaction_is_refused_before_anything_changes(players, apply):
    """With no transaction open there is no row lock to hold, so the write is refused
    instead of running unserialised."""
    match = services.match_create(game="yardzee", player_ids=[p.pk for p in players[:2]])
    before = stored(match.pk)
    with pytest.raises(TransactionManagementError):
        apply(Match.objects.get(pk=match.pk))
    assert stored(match.pk) == before
