"""`turn_submit_once`: one turn as the API takes it, in one short transaction (issue 22), by
the one turn pipeline and the hand-written statements of `games.turn_sql` (issue 36)."""

from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import services, signals, turn_sql
from games.errors import IdempotencyKeyReused, MatchClosed, TurnNumberMismatch, WrongScoreKey
from games.models import Match, MatchStatus, SubmissionReceipt, Turn
from scoring import RuleViolation
from tests.games.conftest import (
    SCRIPTED_YARDZEE,
    SCRIPTED_YARDZEE_SEATS,
    WHOLE_YARDKLE,
    YARDKLE_SEATS,
    seat_results,
    stored,
)

pytestmark = pytest.mark.django_db


def _send(
    match: Match, turns: list[dict[str, Any]], *, keyed: bool = True, number: bool = True
) -> list[services.TurnReply]:
    """Send `turns` in order, naming their players (and turn numbers) as the phone page does."""
    seats = list(match.seats.order_by("order").values_list("player_id", flat=True))
    replies = []
    for index, turn in enumerate(turns):
        body = {"player": seats[index % len(seats)], **turn}
        if number:
            body["turn_number"] = index + 1
        replies.append(
            services.turn_submit_once(
                match_id=match.pk, body=body, key=f"k-{index}" if keyed else None
            )
        )
    return replies


def _body(match: Match, index: int, turn: dict[str, Any]) -> dict[str, Any]:
    seats = list(match.seats.order_by("order").values_list("player_id", flat=True))
    return {"player": seats[index % len(seats)], **turn, "turn_number": index + 1}


def test_a_whole_yardzee_game_stores_what_the_rules_say(zee, connect):
    started: list[int] = []
    connect(signals.match_started, lambda sender, match, **_: started.append(match.pk))
    replies = _send(zee, SCRIPTED_YARDZEE)
    assert [r.status_code for r in replies] == [201] * len(SCRIPTED_YARDZEE)
    last = replies[-1].body
    assert last["match"] == {
        "id": zee.pk,
        "version": len(SCRIPTED_YARDZEE),
        "status": "finished",
        "turns_played": len(SCRIPTED_YARDZEE),
        "next_seat": None,
        "next_player": None,
    }
    zee.refresh_from_db()
    assert zee.status == MatchStatus.FINISHED
    assert zee.version == zee.turns_played == len(SCRIPTED_YARDZEE)
    assert zee.started_at is not None
    assert zee.finished_at is not None
    assert seat_results(zee) == SCRIPTED_YARDZEE_SEATS
    assert started == [zee.pk]
    assert SubmissionReceipt.objects.filter(match=zee).count() == len(SCRIPTED_YARDZEE)


def test_the_answer_is_the_turn_stored_and_whose_turn_is_next(zee):
    reply = _send(zee, SCRIPTED_YARDZEE[:1])[0]
    row = Turn.objects.select_related("seat").get(match=zee)
    second = zee.seats.get(order=1)
    assert reply.body == {
        "turn": {
            "sequence": 1,
            "seat": 0,
            "player": row.seat.player_id,
            "points": row.points,
            "bonus": 0,
            "payload": row.payload,
            "submitted_at": row.submitted_at.isoformat().replace("+00:00", "Z"),
        },
        "match": {
            "id": zee.pk,
            "version": 1,
            "status": "in_progress",
            "turns_played": 1,
            "next_seat": 1,
            "next_player": second.player_id,
        },
    }
    assert "turn_number" not in row.payload
    assert SubmissionReceipt.objects.get(match=zee).response == reply.body


def test_yardkle_counts_come_from_the_turns(kle, sent):
    turns = WHOLE_YARDKLE.turns(kle)
    _send(kle, turns, keyed=False)
    assert seat_results(kle) == YARDKLE_SEATS
    assert [(s.signal, s.status, s.seats) for s in sent] == [
        ("match_finished", MatchStatus.FINISHED, YARDKLE_SEATS)
    ]


def test_a_retry_after_the_match_finished_gets_the_first_answer(zee):
    """The finishing turn's answer was lost: its retry is answered from the receipt, not
    refused because the match it finished takes no more turns."""
    replies = _send(zee, SCRIPTED_YARDZEE)
    before = stored(zee.pk)
    body = _body(zee, len(SCRIPTED_YARDZEE) - 1, SCRIPTED_YARDZEE[-1])
    again = services.turn_submit_once(
        match_id=zee.pk, body=body, key=f"k-{len(SCRIPTED_YARDZEE) - 1}"
    )
    assert again == services.TurnReply(201, replies[-1].body, replayed=True)
    assert stored(zee.pk) == before


def test_a_retry_of_an_earlier_turn_gets_its_answer_not_a_turn_number_mismatch(zee):
    replies = _send(zee, SCRIPTED_YARDZEE[:3])
    again = services.turn_submit_once(
        match_id=zee.pk, body=_body(zee, 0, SCRIPTED_YARDZEE[0]), key="k-0"
    )
    assert again.body == replies[0].body
    assert again.replayed
    with pytest.raises(TurnNumberMismatch):
        services.turn_submit_once(
            match_id=zee.pk, body=_body(zee, 0, SCRIPTED_YARDZEE[0]), key="another"
        )


def test_a_key_reused_with_another_body_is_refused_even_when_that_body_would_apply(zee):
    """Without a turn number the second body is a legal next turn: still refused, not stored."""
    _send(zee, SCRIPTED_YARDZEE[:1], number=False)
    before = stored(zee.pk)
    body = _body(zee, 1, SCRIPTED_YARDZEE[1])
    del body["turn_number"]
    with pytest.raises(IdempotencyKeyReused):
        services.turn_submit_once(match_id=zee.pk, body=body, key="k-0")
    assert stored(zee.pk) == before


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ([1, 2], "wrong_type"),
        ({"rolls": [{"dice": [1, 1, 1, 1, 1]}], "category": "aces"}, "missing_key"),
        ({"player": 1, "turn_number": 0}, "wrong_type"),
    ],
)
def test_a_bad_body_is_refused_and_changes_nothing(zee, body, code):
    before = stored(zee.pk)
    with pytest.raises(RuleViolation) as refused:
        services.turn_submit_once(match_id=zee.pk, body=body, key="k")
    assert refused.value.code == code
    assert stored(zee.pk) == before


def test_a_caller_refused_between_the_lock_and_the_write_stores_nothing_and_sees_no_replay(zee):
    """The API checks who asks on the locked match, inside `locked_submission`, before the
    write: a refusal there ends the transaction with nothing read of the key's receipt."""
    _send(zee, SCRIPTED_YARDZEE[:1])
    before = stored(zee.pk)
    seen = []

    def refuse() -> None:
        with services.locked_submission(match_id=zee.pk, key="k-0") as submission:
            seen.append((submission.match.pk, submission.match.turns_played))
            raise PermissionError("not yours")

    with CaptureQueriesContext(connection) as captured, pytest.raises(PermissionError):
        refuse()
    assert seen == [(zee.pk, 1)]
    # The lock alone: inside the test's transaction BEGIN and ROLLBACK are a savepoint, its
    # rollback and its release.
    assert len(captured) == 4
    assert stored(zee.pk) == before


def test_the_scoring_key_opens_its_match_only(zee, seat):
    other = seat()
    body = _body(zee, 0, SCRIPTED_YARDZEE[0])
    with pytest.raises(WrongScoreKey):
        services.turn_submit_once(match_id=zee.pk, body=body, key=None, score_key=other.score_key)
    with pytest.raises(WrongScoreKey):
        services.turn_submit_once(match_id=zee.pk, body=body, key=None, score_key="short")
    with pytest.raises(Match.DoesNotExist):
        services.turn_submit_once(match_id=10**9, body=body, key=None, score_key=zee.score_key)
    reply = services.turn_submit_once(
        match_id=zee.pk,
        body=body,
        key=None,
        score_key=zee.score_key,
        presented_key=zee.score_key,
    )
    assert reply.status_code == 201
    assert Turn.objects.get(match=zee).scored_with_key is True


def test_a_closed_match_is_refused(zee):
    services.match_void(match_id=zee.pk, voided_by=None)
    with pytest.raises(MatchClosed):
        services.turn_submit_once(match_id=zee.pk, body=_body(zee, 0, SCRIPTED_YARDZEE[0]), key="k")


def test_every_write_of_the_services_moves_the_version(zee):
    _send(zee, SCRIPTED_YARDZEE[:2])
    versions = [Match.objects.get(pk=zee.pk).version]
    services.turn_undo(match_id=zee.pk, undone_by=None)
    versions.append(Match.objects.get(pk=zee.pk).version)
    services.match_void(match_id=zee.pk, voided_by=None)
    versions.append(Match.objects.get(pk=zee.pk).version)
    services.match_unvoid(match_id=zee.pk, unvoided_by=None)
    versions.append(Match.objects.get(pk=zee.pk).version)
    assert versions == [2, 3, 4, 5]


def test_a_turn_is_four_statements_with_or_without_a_key(zee):
    """Inside the test's transaction BEGIN and COMMIT are a savepoint and its release."""
    _send(zee, SCRIPTED_YARDZEE[:1])  # the first turn also sends match_started
    counts: list[int] = []
    for index, key in enumerate([None, "k"], start=1):
        body = _body(zee, index, SCRIPTED_YARDZEE[index])
        with CaptureQueriesContext(connection) as captured:
            services.turn_submit_once(match_id=zee.pk, body=body, key=key)
        counts.append(len(captured))
    assert counts == [4, 4]


def test_the_last_turn_reads_the_turns_once_and_stores_every_seat_at_once(zee):
    """Its seats come with the lock: no query reads them again, and one statement stores
    every seat's total, placement and counts (not one per seat, nor an ORM bulk update)."""
    _send(zee, SCRIPTED_YARDZEE[:-1])
    last = len(SCRIPTED_YARDZEE) - 1
    body = _body(zee, last, SCRIPTED_YARDZEE[last])
    with CaptureQueriesContext(connection) as captured:
        services.turn_submit_once(match_id=zee.pk, body=body, key="last")
    # Django's query log has no text for a statement prepared on the server (turn_sql's).
    prepared = [q for q in captured if q["sql"] is None]
    logged = [q["sql"] for q in captured if q["sql"] is not None]
    assert len(prepared) == 4  # the lock (with the seats), the store, the turns, the seats
    assert not [sql for sql in logged if "games_seat" in sql or "games_turn" in sql]
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT statement FROM pg_prepared_statements WHERE statement LIKE %s",
            ["%UPDATE games_seat%"],
        )
        assert len(cursor.fetchall()) == 1
    assert seat_results(zee) == SCRIPTED_YARDZEE_SEATS


def test_the_turns_two_statements_are_prepared_once_per_connection(zee):
    _send(zee, SCRIPTED_YARDZEE[:3])  # each with a key
    for index in (3, 4):
        body = _body(zee, index, SCRIPTED_YARDZEE[index])
        services.turn_submit_once(match_id=zee.pk, body=body, key=None)
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT split_part(btrim(statement, E' \\n'), ' ', 1), generic_plans + custom_plans"
            " FROM pg_prepared_statements ORDER BY prepare_time"
        )
        prepared = cursor.fetchall()
    # The lock on five turns, the store with a key on three and without one on two; nothing
    # else (Django's own statements bind on the client).
    assert prepared == [("SELECT", 5), ("WITH", 3), ("WITH", 2)]


def test_the_columns_turn_sql_reads_are_in_the_models_order():
    names = [f.attname for f in Match._meta.concrete_fields]
    assert [name for name in names if name in turn_sql.MATCH_FIELDS] == list(turn_sql.MATCH_FIELDS)
