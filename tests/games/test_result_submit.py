"""`result_submit` / `result_apply`: a whole game at once, all or nothing. Every turn valid and
the game over, or the first bad turn named by its index and nothing stored."""

from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import services
from games.errors import EventClosed, MatchAlreadyStarted, MatchClosed
from games.models import Match, MatchStatus, Turn
from league.models import EventStatus
from scoring import RuleViolation
from tests.games.conftest import SCRIPTED_YARDZEE, WHOLE_GAMES, Sent, seat_results, stored
from tests.playing import simulated_turns

pytestmark = pytest.mark.django_db


def test_every_turn_is_stored_in_order_with_its_seat_and_the_last_is_returned(zee, organizer):
    outcome = services.result_submit(
        match_id=zee.pk, turns=SCRIPTED_YARDZEE, submitted_by=organizer
    )
    rows = list(Turn.objects.filter(match=zee).order_by("sequence"))
    assert [(row.sequence, row.seat.order, row.payload) for row in rows] == [
        (number, (number - 1) % 2, turn) for number, turn in enumerate(SCRIPTED_YARDZEE, start=1)
    ]
    assert {row.submitted_by_id for row in rows} == {organizer.pk}
    assert (outcome.turn.sequence, outcome.match.turns_played) == (26, 26)


@pytest.mark.parametrize("whole", WHOLE_GAMES)
def test_a_whole_result_finishes_the_match_with_each_seats_result_and_counts(request, whole, sent):
    """The Yardkles are counted from the stored turns, so they must be stored first."""
    match = request.getfixturevalue(whole.fixture)
    turns = whole.turns(match)
    services.result_submit(match_id=match.pk, turns=turns)
    match.refresh_from_db()
    assert (match.status, match.turns_played) == (MatchStatus.FINISHED, len(turns))
    assert match.started_at is not None
    assert match.finished_at is not None
    assert seat_results(match) == whole.seats
    assert sent == [Sent("match_finished", match.pk, MatchStatus.FINISHED, whole.seats)]


def _with(index: int, **changes: Any) -> list[dict[str, Any]]:
    turns = [dict(turn) for turn in SCRIPTED_YARDZEE]
    turns[index] = {**turns[index], **changes}
    return turns


REFUSED_RESULTS: list[tuple[str, object, str, dict[str, Any]]] = [
    # (id, turns, code, details expected (at least these))
    ("not_a_list", {"turns": SCRIPTED_YARDZEE}, "wrong_type", {"field": "turns"}),
    ("empty", [], "wrong_type", {"field": "turns"}),
    ("bad_points_in_turn_5", _with(4, points=99), "points_mismatch", {"turn_index": 4}),
    ("box_filled_in_turn_3", _with(2, category="aces"), "box_filled", {"turn_index": 2}),
    ("too_many_turns", [*SCRIPTED_YARDZEE, SCRIPTED_YARDZEE[0]], "game_over", {"turn_index": 26}),
    (
        "game_not_over",
        SCRIPTED_YARDZEE[:-1],
        "game_not_finished",
        {"turns": 25, "next_seat": 1},
    ),
]


@pytest.mark.parametrize(
    ("turns", "code", "details"),
    [case[1:] for case in REFUSED_RESULTS],
    ids=[case[0] for case in REFUSED_RESULTS],
)
def test_a_refused_result_names_its_problem_and_stores_no_turn(zee, sent, turns, code, details):
    before = stored(zee.pk)
    with pytest.raises(RuleViolation) as refused:
        services.result_submit(match_id=zee.pk, turns=turns)
    assert refused.value.code == code
    assert refused.value.details.items() >= details.items()
    assert stored(zee.pk) == before
    assert sent == []


def test_a_bad_turn_is_named_by_its_number_and_index(zee):
    with pytest.raises(RuleViolation) as refused:
        services.result_submit(match_id=zee.pk, turns=_with(4, points=99))
    assert refused.value.message.startswith("Turn 5 (index 4): ")


def test_a_turn_of_the_wrong_player_is_refused_with_its_index(zee):
    first = zee.seats.get(order=0).player_id
    turns = _with(1, player=first)
    with pytest.raises(RuleViolation) as refused:
        services.result_submit(match_id=zee.pk, turns=turns)
    assert refused.value.code == "not_your_turn"
    assert refused.value.details["turn_index"] == 1
    assert not Turn.objects.exists()


def test_a_match_with_turns_already_played_takes_no_whole_result(zee, play):
    play(zee, turns=3)
    before = stored(zee.pk)
    with pytest.raises(MatchAlreadyStarted) as refused:
        services.result_submit(match_id=zee.pk, turns=SCRIPTED_YARDZEE)
    assert refused.value.code == "match_already_started"
    assert refused.value.details == {"turns_played": 3}
    assert stored(zee.pk) == before


def test_a_finished_match_takes_no_second_result(finished_zee):
    before = stored(finished_zee.pk)
    with pytest.raises(MatchClosed):
        services.result_submit(match_id=finished_zee.pk, turns=SCRIPTED_YARDZEE)
    assert stored(finished_zee.pk) == before


@pytest.mark.parametrize("status", [EventStatus.FINISHED, EventStatus.CANCELLED])
def test_a_finished_or_cancelled_event_takes_no_result(event_zee, yardzee_event, status):
    yardzee_event.status = status
    yardzee_event.save()
    with pytest.raises(EventClosed) as refused:
        services.result_submit(match_id=event_zee.pk, turns=SCRIPTED_YARDZEE)
    assert refused.value.details == {"event": yardzee_event.pk, "status": status}
    assert not Turn.objects.exists()
    assert Match.objects.get(pk=event_zee.pk).status == MatchStatus.SCHEDULED


def test_a_whole_result_is_the_same_statements_however_many_turns_and_seats(seat):
    """Every turn goes through the turn's pipeline, and all are stored in one statement: the
    lock (with the seats), the turns and the match, the turns read for the game counts, the
    seats' results; then the league's `match_finished` receiver looks for the match's stage
    (and the savepoint and its release of the test's transaction)."""
    counts = []
    for count in (2, 4):
        match = seat("yardzee", count)
        turns = simulated_turns(match, seed=3)
        with CaptureQueriesContext(connection) as captured:
            services.result_submit(match_id=match.pk, turns=turns)
        counts.append(len(captured))
        assert Turn.objects.filter(match=match).count() == len(turns) == 13 * count
    assert counts == [7, 7]
