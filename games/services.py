"""Every write to a match: create, submit a turn, submit a whole result, undo, void, correct.

Each locks the match row (`SELECT ... FOR UPDATE`) before it reads the state, so concurrent
submissions for one match are applied one after another and never lost or counted twice."""

import hashlib
import json
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AnonymousUser, User
from django.db import transaction
from django.db.models import Prefetch, prefetch_related_objects
from django.utils import timezone

import scoring
from games import score_keys, signals, turn_sql
from games.errors import (
    CorrectionBreaksLaterTurn,
    EventClosed,
    IdempotencyKeyInvalid,
    IdempotencyKeyReused,
    IdempotencyKeyText,
    MatchAlreadyStarted,
    MatchClosed,
    MatchNotVoid,
    NoSuchTurn,
    NothingToUndo,
    TakeBackNotYours,
    TakeBackTooLate,
    TurnNumberMismatch,
    TurnUndone,
    WrongScoreKey,
)
from games.housekeeping import delete_oldest
from games.models import (
    Match,
    MatchStatus,
    Seat,
    SubmissionReceipt,
    Turn,
    TurnCorrection,
    TurnUndo,
)
from scoring import RuleViolation
from scoring.errors import DomainError
from scoring.game import Game, TurnResult

UserLike = User | AnonymousUser


@dataclass(frozen=True, slots=True)
class TurnOutcome:
    """A stored turn and the match after it."""

    match: Match
    turn: Turn
    seats: list[Seat]
    game: Game


def _user_or_none(user: UserLike | None) -> User | None:
    return user if isinstance(user, User) else None


def _lock(match_id: int) -> Match:
    """The match, its row locked until the transaction ends (Match.DoesNotExist if none),
    read with its event (whether it still takes play) in the same statement; only the
    match's row is locked."""
    return Match.objects.select_related("event").select_for_update(of=("self",)).get(pk=match_id)


def _require_lock() -> None:
    """`turn_submit_locked` and `result_apply` change a match locked by `locked_submission`
    in the caller's transaction; outside one, the lock would already be gone."""
    if not transaction.get_connection().in_atomic_block:
        raise transaction.TransactionManagementError(
            "Lock the match first (locked_submission): no transaction is open."
        )


def _ensure_open(match: Match) -> None:
    if not match.is_open:
        raise MatchClosed(
            f"Match {match.pk} is {match.get_status_display().lower()}; it takes no more turns.",
            details={"status": match.status},
        )
    if match.status == MatchStatus.SCHEDULED:
        _event_status_now(match)  # a first turn makes it a match being played
    ensure_event_open(match.event)


def _event_status_now(match: Match) -> None:
    """Read the match's event's status again, its lock held. A close locks every match of its
    event, then takes the event, and refuses one being played: a write that waited for the
    match's lock read the event with it as it was before the close. Called before a write
    that makes the match one being played (a first turn, an undo of a finished match, an
    unvoid): one statement, there only."""
    if match.event is not None:
        match.event.refresh_from_db(fields=["status"])


def ensure_event_open(event: Any, *, then: str = "") -> None:
    """EventClosed when `event` (a league Event, or None) is finished or cancelled, with
    `details.event` and `details.status` as every `event_closed` carries them (docs/api.md):
    raise it through here. `then`: what the refusal says after "Event N is finished: "
    (default: that it takes no more matches or turns, until its organizers reopen it)."""
    if event is not None and event.is_closed:
        raise EventClosed(
            f"Event {event.pk} is {event.get_status_display().lower()}: "
            + (then or "it takes no more matches or turns. Its organizers can reopen it."),
            details={"event": event.pk, "status": event.status},
        )


@transaction.atomic
def match_create(
    *,
    game: str,
    player_ids: Sequence[int],
    rules: dict[str, Any] | None = None,
    event_id: int | None = None,
    league_id: int | None = None,
    created_by: UserLike | None = None,
) -> Match:
    """Seat `player_ids` in that order at a new match of `game` under `rules` (options not
    given take the game's defaults, and None all of them; the full ruleset is stored on the
    match). `rules` that are not a JSON object are the rulebook's `wrong_type`."""
    fresh = scoring.new_game(game, len(player_ids), {} if rules is None else rules)
    match = Match.objects.create(
        game=game,
        rules=fresh.rules.to_json(),
        state=fresh.to_json(),
        event_id=event_id,
        league_id=league_id,
        created_by=_user_or_none(created_by),
    )
    Seat.objects.bulk_create(
        Seat(match=match, player_id=player_id, order=order)
        for order, player_id in enumerate(player_ids)
    )
    return match


def _check_player(turn: object, expected: int) -> None:
    """RULES.md, "What a submitted turn must carry": it must be player `expected`'s turn."""
    if not isinstance(turn, dict) or "player" not in turn:
        return
    player = turn["player"]
    if type(player) is not int:
        raise RuleViolation(
            "wrong_type",
            "The turn's player must be a player id (an integer).",
            details={"field": "player"},
        )
    if player != expected:
        raise RuleViolation(
            "not_your_turn",
            f"It is not player {player}'s turn; player {expected} plays next.",
            rule="Game",
            details={"player": player, "expected_player": expected},
        )


# What a seat holds of a finished match's result: what standings, stages and ratings read.
_SEAT_RESULT = ("total", "placement", "yardzees", "upper_bonus", "yardkles")


def _scored(turn: Turn) -> dict[str, Any]:
    """The turn's sequence, payload, points and bonus, by name: what its undo and its
    correction keep of it, and what the answer to it shows."""
    return {name: getattr(turn, name) for name in ("sequence", "payload", "points", "bonus")}


def _place_seats(match: Match, game: Game, seats: list[Seat]) -> None:
    """Set each seat's result of the finished `game` on it (not yet stored): its total, its
    placement and its game counts (`_seat_results`)."""
    for seat, result in zip(seats, _seat_results(match, game, [s.pk for s in seats]), strict=True):
        seat.total = result.total
        seat.placement = result.placement
        for name, value in result.counts.items():
            setattr(seat, name, value)


def _clear_results(seats: list[Seat]) -> None:
    """Withdraw the result the seats held (stored): on the seats themselves, so the match's
    prefetched seats stay what is stored."""
    for seat in seats:
        for name in _SEAT_RESULT:
            setattr(seat, name, None)
    Seat.objects.bulk_update(seats, _SEAT_RESULT)


def _seat_results(match: Match, game: Game, seat_ids: list[int]) -> list[turn_sql.SeatResult]:
    """Each seat's result of the finished `game` (`seat_ids` in play order): its total, its
    placement and its game counts (`Game.seat_counts`: Yardzees and the upper bonus, or
    Yardkles), kept on the seat so standings never replay a game (docs/standings.md). The
    stored turns are read once, for the counts a game's state does not keep."""
    played: dict[int, list[object]] = {seat_id: [] for seat_id in seat_ids}
    for seat_id, payload in turn_sql.played(match.pk):
        played[seat_id].append(payload)
    return [
        turn_sql.SeatResult(
            seat_id, game.total(order), placement, game.seat_counts(order, played[seat_id])
        )
        for order, (seat_id, placement) in enumerate(zip(seat_ids, game.placements(), strict=True))
    ]


def _seats(match: Match) -> list[Seat]:
    """The match's seats in play order, with their players, in one query. They are kept as
    the match's prefetched `seats`, so what shows the match next (the API's answer to the
    turn) reads them from there instead of querying again, once per seat."""
    prefetch_related_objects(
        [match],
        Prefetch("seats", queryset=Seat.objects.select_related("player").order_by("order")),
    )
    return list(match.seats.all())


# --- The turn pipeline ---------------------------------------------------------------------------
#
# Every writer of turns (the API's turns and results, `turn_submit` for the pages' tests, the
# event import and the demo loader) goes through these steps: the match and its seats locked
# (`_lock_for_turns`, the hand-written `turn_sql.lock`), the turn checked and played on the
# game with the match's next fields and its answer computed once (`_play`), stored by the
# hand-written statement (`_store`, `turn_sql.store`), and the first or last turn settled
# (`_settle_turn`: the seats' results, `match_started`, `match_finished`).


@dataclass(frozen=True, slots=True)
class _Step:
    """One turn played on the game (not yet stored): its seat, what it scored (as `_scored`
    reads it from a stored turn), when, and the answer to it."""

    seat_id: int
    seat_order: int
    scored: dict[str, Any]
    now: datetime
    answer: dict[str, Any]


def _lock_for_turns(match_id: int, score_key: str | None) -> turn_sql.Locked:
    """The match (with its event's status) and its seats in play order, its row locked until
    the transaction ends: one statement. With `score_key` (a caller who has only the table's
    scoring key) the row is found by its id and that key together: a wrong key raises
    WrongScoreKey without locking the row, and a key not even shaped like one never reaches
    the database. No match with this id: Match.DoesNotExist."""
    locked = turn_sql.lock(match_id, score_key) if _may_open(score_key) else None
    if locked is None:
        if score_key is not None and turn_sql.exists(match_id):
            raise WrongScoreKey("This scoring key does not open this match.")
        raise Match.DoesNotExist(f"No match {match_id}.")
    return locked


def _may_open(score_key: str | None) -> bool:
    """A scoring key not even shaped like one never reaches the database."""
    return score_key is None or score_keys.well_formed(score_key)


def _play(
    match: Match,
    game: Game,
    seats: list[tuple[int, int]],
    turn: object,
    *,
    version: int,
    now: datetime,
) -> _Step:
    """Check that `turn` is its player's (`_check_player`) and play it on `game` (RuleViolation:
    the match is unchanged), then set the match's next fields (not stored: its state, turns
    played, status, start and finish, `version`) and build the answer to the turn."""
    seat_order = game.current_player or 0
    seat_id, player = seats[seat_order]
    _check_player(turn, player)
    result = game.play(turn)
    sequence = match.turns_played + 1
    match.turns_played = sequence
    match.version = version
    match.state = game.to_json()
    match.status = MatchStatus.FINISHED if game.is_over else MatchStatus.IN_PROGRESS
    match.started_at = match.started_at or now
    match.finished_at = now if game.is_over else None
    next_seat = game.current_player
    scored: dict[str, Any] = {
        "sequence": sequence,
        "payload": turn,
        "points": result.points,
        "bonus": getattr(result, "bonus", 0),
    }
    answer = turn_answer(
        match_id=match.pk,
        version=version,
        status=match.status,
        **scored,
        seat=seat_order,
        player=player,
        submitted_at=now,
        next_seat=next_seat,
        next_player=None if next_seat is None else seats[next_seat][1],
    )
    return _Step(seat_id, seat_order, scored, now, answer)


def _next_turn(
    match: Match, seats: list[tuple[int, int]], turn: object, *, turn_number: int | None
) -> tuple[Game, _Step]:
    """The locked match's next turn checked (the match open, the turn number, the player, the
    rules) and played: the game after it and the step to store."""
    _ensure_open(match)
    _check_turn_number(match, turn_number)
    game = match.scoring_game()
    return game, _play(match, game, seats, turn, version=match.version + 1, now=timezone.now())


def _store(
    match: Match,
    step: _Step,
    *,
    submitted_by: UserLike | None,
    scored_with_key: bool,
    key: str | None = None,
    fingerprint: str | None = None,
) -> turn_sql.Prior | None:
    """Store the played turn, the match's next fields and, with `key`, the answer's receipt:
    one statement (`turn_sql.store`). With a receipt of `key` already stored, nothing is
    written and that receipt is returned."""
    user = _user_or_none(submitted_by)
    return turn_sql.store(
        match=match,
        **step.scored,
        seat_id=step.seat_id,
        submitted_by=user.pk if user is not None else None,
        scored_with_key=scored_with_key,
        now=step.now,
        key=key,
        fingerprint=fingerprint,
        status_code=201,
        response=step.answer,
    )


def _settle_turn(match: Match, game: Game, seats: list[tuple[int, int]], *, started: bool) -> None:
    """After the turns stored: when the game is over, the seats' totals, placements and game
    counts (`seats` in play order; the stored turns read once, for the counts a game's state
    does not keep, and every seat stored in one statement), then `match_started` for the
    match's first turn and `match_finished` for its last."""
    if game.is_over:
        turn_sql.finish(_seat_results(match, game, [seat_id for seat_id, _ in seats]))
    if started:
        signals.match_started.send(sender=Match, match=match)
    if game.is_over:
        signals.match_finished.send(sender=Match, match=match)


def _outcome(
    match: Match,
    game: Game,
    seats: list[tuple[int, int]],
    step: _Step,
    *,
    submitted_by: UserLike | None,
    scored_with_key: bool,
) -> TurnOutcome:
    """The stored turn and the match after it, as rows built from what was stored (no read)."""
    rows = [
        Seat(pk=seat_id, match=match, player_id=player, order=order)
        for order, (seat_id, player) in enumerate(seats)
    ]
    turn = Turn(
        match=match,
        seat=rows[step.seat_order],
        **step.scored,
        submitted_by=_user_or_none(submitted_by),
        submitted_at=step.now,
        scored_with_key=scored_with_key,
    )
    return TurnOutcome(match=match, turn=turn, seats=rows, game=game)


@transaction.atomic
def turn_submit(
    *,
    match_id: int,
    turn: object,
    submitted_by: UserLike | None = None,
    turn_number: int | None = None,
    scored_with_key: bool = False,
) -> TurnOutcome:
    """Validate one turn with the rulebook and store it with the new state, in one transaction:
    the API's pipeline (`turn_submit_locked`) for a caller with the turn already parsed (the
    event import, the demo loader): who submitted it, the 1-based turn number the caller
    believes comes next (another raises TurnNumberMismatch with the expected one, nothing
    stored), whether it came with the match's scoring key (`turn_take_back`). A turn that
    names no player is checked by the rulebook alone."""
    match, seats = _lock_for_turns(match_id, None)
    started = match.status == MatchStatus.SCHEDULED
    game, step = _next_turn(match, seats, turn, turn_number=turn_number)
    _store(match, step, submitted_by=submitted_by, scored_with_key=scored_with_key)
    _settle_turn(match, game, seats, started=started)
    return _outcome(
        match, game, seats, step, submitted_by=submitted_by, scored_with_key=scored_with_key
    )


def result_submit(
    *, match_id: int, turns: object, submitted_by: UserLike | None = None
) -> TurnOutcome:
    """A whole game's turns at once, all or nothing: every turn valid and the game over, or
    a RuleViolation naming the first bad turn's index and nothing stored."""
    with locked_submission(match_id=match_id, key=None) as submission:
        return result_apply(submission=submission, turns=turns, submitted_by=submitted_by)


def result_apply(
    *, submission: "Submission", turns: object, submitted_by: UserLike | None = None
) -> TurnOutcome:
    """`result_submit` for a match the caller has already locked (`locked_submission`): each
    turn goes through the turn's pipeline (`_play`) under the one lock, every one checked
    before the first is stored (`_store`, one statement a turn), then the game settled once.
    The whole result is one write of the match: its version moves by one."""
    _require_lock()
    match, seats = submission.match, submission.seats
    _ensure_open(match)
    if match.turns_played:
        raise MatchAlreadyStarted(
            f"Match {match.pk} already has {match.turns_played} turns; submit the rest one by one.",
            details={"turns_played": match.turns_played},
        )
    if not isinstance(turns, list) or not turns:
        raise RuleViolation(
            "wrong_type", "A result is a non-empty list of turns.", details={"field": "turns"}
        )
    started = match.status == MatchStatus.SCHEDULED
    game = match.scoring_game()
    version, now = match.version + 1, timezone.now()
    steps = []
    for index, turn in enumerate(turns):
        try:
            steps.append(_play(match, game, seats, turn, version=version, now=now))
        except RuleViolation as violation:
            raise violation.at_turn(index) from violation
    if not game.is_over:
        raise RuleViolation(
            "game_not_finished",
            f"The {len(turns)} turns do not finish the game; "
            f"seat {game.current_player} would play next.",
            rule="Game",
            details={"turns": len(turns), "next_seat": game.current_player},
        )
    for step in steps:
        _store(match, step, submitted_by=submitted_by, scored_with_key=False)
    _settle_turn(match, game, seats, started=started)
    return _outcome(match, game, seats, steps[-1], submitted_by=submitted_by, scored_with_key=False)


@transaction.atomic
def turn_undo(
    *, match_id: int, undone_by: UserLike | None, then: dict[str, Any] | None = None
) -> TurnUndo:
    """Remove the last turn, keeping an audit record of it; the state is rebuilt from the
    remaining turns. Undoing the last turn of a finished match reopens it (`match_reopened`:
    a receiver may refuse by raising, e.g. when a later bracket match has started; `then=`
    carries what the organizer confirmed, e.g. re-seeding later stages). A match of a
    finished or cancelled event is not changed (EventClosed)."""
    match = _lock(match_id)
    turns = _turns_to_take_back(match, "undo")
    return _remove_last_turn(match, turns, undone_by=undone_by, then=then or {})


def _ensure_changeable(match: Match) -> None:
    """The turns of a void match (MatchClosed) or of a match of a finished or cancelled event
    (EventClosed) are not changed."""
    if match.status == MatchStatus.VOID:
        raise MatchClosed(f"Match {match.pk} is void.", details={"status": match.status})
    if match.status == MatchStatus.FINISHED:
        _event_status_now(match)  # an undo (or a correction) may reopen it
    ensure_event_open(match.event)


def _turns_to_take_back(match: Match, action: str) -> list[Turn]:
    """Every turn of the locked `match` in order, with its seat, for removing the last one
    (`action` names it: "undo", "take back"); NothingToUndo when it has none."""
    _ensure_changeable(match)
    turns = list(match.turns.select_related("seat").order_by("sequence"))
    if not turns:
        raise NothingToUndo(f"Match {match.pk} has no turn to {action}.")
    return turns


def _remove_last_turn(
    match: Match,
    turns: list[Turn],
    *,
    undone_by: UserLike | None,
    then: dict[str, Any],
    taken_back: bool = False,
) -> TurnUndo:
    """Move the last of `turns` (every turn of the locked match, in order) to a TurnUndo and
    rebuild the state from the others; a finished match is reopened (`match_reopened`)."""
    last = turns.pop()
    was_finished = match.status == MatchStatus.FINISHED
    record = TurnUndo.objects.create(
        match=match,
        **_scored(last),
        seat_order=last.seat.order,
        player_id=last.seat.player_id,
        submitted_by_id=last.submitted_by_id,
        submitted_at=last.submitted_at,
        undone_by=_user_or_none(undone_by),
        match_was_finished=was_finished,
        taken_back=taken_back,
    )
    last.delete()
    # A retry of the write that stored this turn must not get its old answer back.
    SubmissionReceipt.objects.filter(
        match=match, turn_sequence__gte=last.sequence, undone_at__isnull=True
    ).update(undone_at=timezone.now())
    seats = _seats(match)
    game = scoring.new_game(match.game, len(seats), match.rules)
    for turn in turns:
        game.play(turn.payload)
    match.state = game.to_json()
    match.turns_played = len(turns)
    match.status = MatchStatus.IN_PROGRESS if turns else MatchStatus.SCHEDULED
    if not turns:  # not started after all: its next first turn starts it again
        match.started_at = None
    match.finished_at = None
    match.version += 1
    match.save(
        update_fields=["state", "turns_played", "status", "started_at", "finished_at", "version"]
    )
    if was_finished:
        _clear_results(seats)
        signals.match_reopened.send(sender=Match, match=match, then=then)
    return record


@transaction.atomic
def turn_take_back(
    *,
    match_id: int,
    turn_number: object = None,
    score_key: str | None = None,
    taken_back_by: UserLike | None = None,
) -> TurnUndo:
    """The scorekeeper who sent the last turn takes it back, before the next player has
    started (docs/api.md, "Taking back your own last turn"): a tap on the wrong box, seen at
    once. It is an undo (a TurnUndo, `taken_back`), allowed only when all of these hold, else
    nothing changes:

    - the caller sent that turn: with the match's scoring key (`score_key`, which must open
      the match: WrongScoreKey) or signed in as `taken_back_by`; a turn an organizer has
      corrected since is no longer theirs (TakeBackNotYours);
    - it is the last turn (`turn_number`, when sent, names it: a positive integer, as with a
      turn, `wrong_type` otherwise; TurnNumberMismatch when another turn is last, e.g. when
      the next player's turn has been entered meanwhile);
    - it did not finish the match: withdrawing a result is for organizers (MatchClosed);
    - it was sent at most TAKE_BACK_SECONDS ago (TakeBackTooLate)."""
    match = _lock(match_id) if score_key is None else _lock_by_key(match_id, score_key)
    turn_number = turn_number_sent(turn_number)
    turns = _turns_to_take_back(match, "take back")
    last = turns[-1]
    if turn_number is not None and turn_number != last.sequence:
        raise TurnNumberMismatch(
            f"Turn {turn_number} is not the last turn of match {match.pk}; turn {last.sequence} "
            "is. Only the last turn can be taken back.",
            details={"turn_number": turn_number, "expected": last.sequence},
        )
    if match.status == MatchStatus.FINISHED:
        raise MatchClosed(
            f"Turn {last.sequence} finished match {match.pk}, and its result stands: only an "
            "organizer can undo it (which withdraws the result).",
            details={"status": match.status, "turn": last.sequence},
        )
    user = _user_or_none(taken_back_by)
    if score_key is not None:
        sent_by_caller = last.scored_with_key
    else:
        sent_by_caller = user is not None and last.submitted_by_id == user.pk
    if not sent_by_caller or last.corrected_at is not None:
        raise TakeBackNotYours(
            f"Turn {last.sequence} was not sent by you"
            + (" as it stands: an organizer corrected it" if last.corrected_at else "")
            + "; ask an organizer to undo it.",
            details={"turn": last.sequence},
        )
    window = timedelta(seconds=settings.TAKE_BACK_SECONDS)
    if timezone.now() - last.submitted_at > window:
        raise TakeBackTooLate(
            f"Turn {last.sequence} was sent more than {settings.TAKE_BACK_SECONDS} seconds ago; "
            "ask an organizer to undo it.",
            details={"turn": last.sequence, "seconds": settings.TAKE_BACK_SECONDS},
        )
    return _remove_last_turn(match, turns, undone_by=user, then={}, taken_back=True)


@transaction.atomic
def match_void(
    *, match_id: int, voided_by: UserLike | None, then: dict[str, Any] | None = None
) -> Match:
    """Void a match: it no longer counts anywhere; its turns are kept for the record. A match
    of a finished or cancelled event is not changed (EventClosed).

    `then` is what the organizer asked to happen next (for a stage match: replay, walkover or
    no result, docs/api.md "Corrections"), passed to the `match_voided` receivers untouched:
    `games` does not know stages."""
    match = _lock(match_id)
    if match.status == MatchStatus.VOID:
        return match
    ensure_event_open(match.event)
    was_finished = match.status == MatchStatus.FINISHED
    match.status = MatchStatus.VOID
    match.version += 1
    match.save(update_fields=["status", "version", *_calendar_changed(match)])
    signals.match_voided.send(
        sender=Match,
        match=match,
        was_finished=was_finished,
        then=then or {},
        voided_by=_user_or_none(voided_by),
    )
    return match


@transaction.atomic
def match_unvoid(*, match_id: int, unvoided_by: UserLike | None) -> Match:
    """Take back a void made by mistake: the match is again what its turns make it (finished,
    in progress or scheduled). `match_unvoided` receivers may refuse by raising (a stage whose
    slot has moved on since); a finished match then sends `match_finished` again, so standings
    and stages count it. A match that is not void: MatchNotVoid."""
    match = _lock(match_id)
    if match.status != MatchStatus.VOID:
        raise MatchNotVoid(
            f"Match {match.pk} is {match.get_status_display().lower()}, not void.",
            details={"status": match.status},
        )
    _event_status_now(match)
    ensure_event_open(match.event)
    game = match.scoring_game()
    if game.is_over:
        match.status = MatchStatus.FINISHED
    else:
        match.status = MatchStatus.IN_PROGRESS if match.turns_played else MatchStatus.SCHEDULED
    match.version += 1
    match.save(update_fields=["status", "version", *_calendar_changed(match)])
    signals.match_unvoided.send(sender=Match, match=match, unvoided_by=_user_or_none(unvoided_by))
    if match.status == MatchStatus.FINISHED:
        signals.match_finished.send(sender=Match, match=match)
    return match


def _calendar_changed(match: Match) -> list[str]:
    """A scheduled match called off or on again (a void, or its taking back) is a change its
    calendar entry says (docs/pages.md, "Calendar feeds"): a new stamp and a higher SEQUENCE,
    so a calendar app replaces the entry it holds. The fields changed, to save."""
    if match.planned_at is None:
        return []
    match.schedule_changed_at = timezone.now()
    match.schedule_sequence += 1
    return ["schedule_changed_at", "schedule_sequence"]


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


def _lock_by_key(match_id: int, score_key: str) -> Match:
    """`_lock` for the holder of a scoring key: the row is found (and locked) only with the
    right key. A key that is not even shaped like one never reaches the database."""
    found = None
    if score_keys.well_formed(score_key):
        found = (
            Match.objects.select_related("event")
            .select_for_update(of=("self",))
            .filter(pk=match_id, score_key=score_key)
            .first()
        )
    if found is None:
        if Match.objects.filter(pk=match_id).exists():
            raise WrongScoreKey("This scoring key does not open this match.")
        raise Match.DoesNotExist(f"No match {match_id}.")
    return found


# --- One turn as the API takes it ----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TurnReply:
    """The answer to one turn request: its HTTP status and body. A replay (the same
    Idempotency-Key and body again) carries the first answer, stored with its receipt."""

    status_code: int
    body: dict[str, Any]
    replayed: bool = False


def turn_answer(
    *,
    match_id: int,
    version: int,
    status: str,
    sequence: int,
    seat: int,
    player: int,
    payload: object,
    points: int,
    bonus: int,
    submitted_at: datetime,
    next_seat: int | None,
    next_player: int | None,
) -> dict[str, Any]:
    """The turn's answer (docs/api.md, "Submitting a turn"): the stored turn with its points,
    and the match's version, status and whose turn is next. Built as plain JSON: the whole
    scorecard is `GET matches/{id}/`'s."""
    return {
        "turn": {
            "sequence": sequence,
            "seat": seat,
            "player": player,
            "points": points,
            "bonus": bonus,
            "payload": payload,
            "submitted_at": _iso(submitted_at),
        },
        "match": {
            "id": match_id,
            "version": version,
            "status": status,
            "turns_played": sequence,
            "next_seat": next_seat,
            "next_player": next_player,
        },
    }


def _iso(moment: datetime) -> str:
    """A time as the API writes every time (DRF's ISO 8601, UTC as `Z`)."""
    text = moment.isoformat()
    return text[:-6] + "Z" if text.endswith("+00:00") else text


def turn_number_sent(value: object) -> int | None:
    """A `turn_number` as a client sent it (with a turn, a correction or a take-back): None
    when left out (or null), else a positive JSON integer, never "2", true or 2.0 (`wrong_type`,
    422: not a number is no mismatch). Whether it is the right turn is each caller's check."""
    if value is None:
        return None
    if type(value) is int and value >= 1:
        return value
    raise RuleViolation(
        "wrong_type", "turn_number must be a positive integer.", details={"field": "turn_number"}
    )


def _turn_body(body: object) -> tuple[dict[str, Any], int | None]:
    """The turn as stored (without `turn_number`) and the `turn_number` sent, if any."""
    if not isinstance(body, dict):
        raise RuleViolation("wrong_type", "A turn is a JSON object.")
    turn = dict(body)
    turn_number = turn_number_sent(turn.pop("turn_number", None))
    if "player" not in turn:
        raise RuleViolation(
            "missing_key",
            "A turn must name its player (the player whose turn it is).",
            details={"field": "player"},
        )
    return turn, turn_number


def _check_turn_number(match: Match, turn_number: int | None) -> None:
    expected = match.turns_played + 1
    if turn_number is not None and turn_number != expected:
        raise TurnNumberMismatch(
            f"Turn {turn_number} was sent, but turn {expected} comes next in match {match.pk}.",
            details={"turn_number": turn_number, "expected": expected},
        )


def turn_submit_locked(
    submission: Submission,
    *,
    body: object,
    presented_key: str | None = None,
    submitted_by: UserLike | None = None,
) -> TurnReply:
    """One turn as the API receives it (docs/api.md, "Submitting a turn"), for the match of
    `submission` (`locked_submission`: locked, and the caller checked): the turn parsed, the
    rules apply it, and the turn, the match's new state and, with the submission's
    Idempotency-Key, the answer's receipt are stored in one statement (`games.turn_sql`). A
    request whose key has a receipt gets the first answer back and changes nothing (the same
    key with another body: IdempotencyKeyReused; a turn undone since: TurnUndone), even when
    the turn would now be refused. `presented_key` is the scoring key the caller sent with
    it, if any (`Turn.scored_with_key`)."""
    _require_lock()
    match, seats, key = submission.match, submission.seats, submission.key
    fingerprint = request_fingerprint(body) if key is not None else None
    started = match.status == MatchStatus.SCHEDULED
    try:
        turn, turn_number = _turn_body(body)
        game, step = _next_turn(match, seats, turn, turn_number=turn_number)
    except DomainError:
        # A retry of a turn stored since (its turn number has passed, or it finished the
        # match) gets the first answer, not the refusal.
        prior = turn_sql.find_receipt(match.pk, key) if key is not None else None
        if prior is None or key is None:
            raise
        return _replay(prior, key=key, fingerprint=fingerprint)
    prior = _store(
        match,
        step,
        submitted_by=submitted_by,
        scored_with_key=match.opens_with(presented_key),
        key=key,
        fingerprint=fingerprint,
    )
    if prior is not None and key is not None:
        return _replay(prior, key=key, fingerprint=fingerprint)
    _settle_turn(match, game, seats, started=started)
    return TurnReply(201, step.answer)


def turn_submit_once(
    *,
    match_id: int,
    body: object,
    key: str | None,
    score_key: str | None = None,
    presented_key: str | None = None,
    submitted_by: UserLike | None = None,
) -> TurnReply:
    """One turn as the API receives it, in one short transaction, for a caller with nothing
    to check between the lock and the write: `locked_submission` (the match read and locked
    by its id, and with `score_key` by that key too), then `turn_submit_locked`. A caller
    who checks who asks (the API) opens `locked_submission` itself and checks inside."""
    with locked_submission(match_id=match_id, key=key, score_key=score_key) as submission:
        return turn_submit_locked(
            submission, body=body, presented_key=presented_key, submitted_by=submitted_by
        )


def _replay(prior: Any, *, key: str, fingerprint: str | None) -> TurnReply:
    _check_replay(prior, key=key, fingerprint=fingerprint)
    return TurnReply(prior.status_code, prior.response, replayed=True)


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


# --- Correcting a turn in the middle of a game ---------------------------------------------------


@dataclass(frozen=True, slots=True)
class CorrectionOutcome:
    """A corrected turn, the version it replaced (`correction`; None when the turn sent is the
    one stored, and nothing changed), how many later turns were replayed on top of it, and the
    match after it."""

    match: Match
    turn: Turn
    correction: TurnCorrection | None
    replayed: int
    seats: list[Seat]
    game: Game


@transaction.atomic
def turn_correct(
    *,
    match_id: int,
    sequence: int,
    turn: object,
    corrected_by: UserLike | None,
    then: dict[str, Any] | None = None,
) -> CorrectionOutcome:
    """Replace turn `sequence` (1-based) of a match with `turn` without undoing the turns after
    it: the game is replayed from its start with the earlier turns as stored, the corrected
    one, then every later turn as stored. When all of them still fit the rules (RULES.md, the
    whole rulebook: a corrected box can fill one a later turn used, or change a later Yardzee
    bonus, joker or upper bonus; a corrected Yardkle bank can change who is on the board or
    when the final round starts), the replaced version is kept as a `TurnCorrection`, the turn
    holds the new one, later turns are rescored and the state rebuilt. Otherwise nothing
    changes: the corrected turn's own RuleViolation (with `details.turn`), or
    CorrectionBreaksLaterTurn naming the first later turn that no longer fits.

    The corrected turn names its player, who must be the one who played it (`not_your_turn`);
    `turn_number`, if sent, must be `sequence`. The same turn as stored changes nothing.
    Receipts of writes that stored this turn or a later one are marked undone, as an undo
    marks them: their first answers no longer stand.

    A finished match whose result (any seat's total, placement or game counts) the correction
    changes withdraws it and finishes again, as an undo and a replay would: `match_reopened`
    (a receiver may refuse, e.g. UndoBlocked while a later bracket match fed by it has
    started; then nothing changes), then `match_finished`, so stages, standings and ratings
    follow. A finished match whose result stands as it was sends `match_corrected` (its
    turns changed, so its play analysis is made again). A void match (MatchClosed) or a match
    of a finished or cancelled event (EventClosed) is not changed."""
    match = _lock(match_id)
    _ensure_changeable(match)
    if not 1 <= sequence <= match.turns_played:
        raise NoSuchTurn(
            f"Match {match.pk} has no turn {sequence}; it has played {match.turns_played}.",
            details={"turn": sequence, "turns_played": match.turns_played},
        )
    body = _corrected_body(turn, sequence)
    turns = list(match.turns.select_related("seat").order_by("sequence"))
    seats = _seats(match)
    target = turns[sequence - 1]
    if body == target.payload:
        return CorrectionOutcome(match, target, None, 0, seats, match.scoring_game())
    game = scoring.new_game(match.game, len(seats), match.rules)
    for earlier in turns[: sequence - 1]:
        game.play(earlier.payload)
    seat = next(seat for seat in seats if seat.pk == target.seat_id)
    _check_corrected_player(body, seat, sequence)
    try:
        corrected = game.play(body)
    except RuleViolation as violation:
        raise RuleViolation(
            violation.code,
            f"Turn {sequence}: {violation.message}",
            rule=violation.rule,
            details={**violation.details, "turn": sequence},
        ) from violation
    later_results = [_replay_later(game, seats, later, sequence) for later in turns[sequence:]]
    record = _store_correction(
        match=match,
        target=target,
        body=body,
        corrected=corrected,
        later=list(zip(turns[sequence:], later_results, strict=True)),
        corrected_by=_user_or_none(corrected_by),
    )
    # A retry of a write that stored this turn or a later one must not get its old answer.
    SubmissionReceipt.objects.filter(
        match=match, turn_sequence__gte=sequence, undone_at__isnull=True
    ).update(undone_at=record.corrected_at)
    _settle_correction(match, game, seats, then=then or {})
    return CorrectionOutcome(match, target, record, len(later_results), seats, game)


def _corrected_body(turn: object, sequence: int) -> dict[str, Any]:
    """The corrected turn as it is stored: a JSON object naming its player, without the
    `turn_number` a client may send with it (which must then be the corrected turn's)."""
    if not isinstance(turn, dict):
        raise RuleViolation("wrong_type", "A corrected turn is a JSON object, as a turn is.")
    body = dict(turn)
    turn_number = turn_number_sent(body.pop("turn_number", None))
    if turn_number is not None and turn_number != sequence:
        raise TurnNumberMismatch(
            f"turn_number {turn_number} was sent to correct turn {sequence}.",
            details={"turn_number": turn_number, "expected": sequence},
        )
    if "player" not in body:
        raise RuleViolation(
            "missing_key",
            "A corrected turn must name its player (the player who played it).",
            details={"field": "player"},
        )
    return body


def _check_corrected_player(turn: dict[str, Any], seat: Seat, sequence: int) -> None:
    """A correction changes what was rolled and scored, never who played the turn."""
    try:
        _check_player(turn, seat.player_id)
    except RuleViolation as violation:
        if violation.code != "not_your_turn":
            raise
        raise RuleViolation(
            "not_your_turn",
            f"Turn {sequence} was player {seat.player_id}'s, not player {turn['player']}'s; a "
            "correction keeps the player who played it.",
            rule=violation.rule,
            details={**violation.details, "turn": sequence},
        ) from violation


def _replay_later(game: Game, seats: list[Seat], later: Turn, corrected: int) -> TurnResult:
    """Play a later turn as stored on top of the correction: its result, or
    CorrectionBreaksLaterTurn when it no longer fits."""
    try:
        return game.play(later.payload)
    except RuleViolation as violation:
        player = next(seat.player_id for seat in seats if seat.pk == later.seat_id)
        raise CorrectionBreaksLaterTurn(
            f"With turn {corrected} corrected, turn {later.sequence} (player {player}) no "
            f"longer fits: {violation.message} Nothing was changed.",
            details={
                "corrected_turn": corrected,
                "turn": later.sequence,
                "player": player,
                "violation": violation.to_json(),
            },
        ) from violation


def _store_correction(
    *,
    match: Match,
    target: Turn,
    body: dict[str, Any],
    corrected: TurnResult,
    later: list[tuple[Turn, TurnResult]],
    corrected_by: User | None,
) -> TurnCorrection:
    """Keep the replaced version, store the new one on the turn, and rescore later turns."""
    rescored = [
        row
        for row, result in later
        if (row.points, row.bonus) != (result.points, getattr(result, "bonus", 0))
    ]
    record = TurnCorrection.objects.create(
        match=match,
        turn=target,
        **_scored(target),
        # Who entered the replaced version: the submitter, or the previous correction's author.
        submitted_by_id=target.corrected_by_id if target.corrected_at else target.submitted_by_id,
        submitted_at=target.corrected_at or target.submitted_at,
        corrected_by=corrected_by,
        rescored=[
            {"sequence": row.sequence, "points": row.points, "bonus": row.bonus} for row in rescored
        ],
    )
    target.payload = body
    target.points = corrected.points
    target.bonus = getattr(corrected, "bonus", 0)
    target.corrected_by = corrected_by
    target.corrected_at = record.corrected_at
    target.save(update_fields=["payload", "points", "bonus", "corrected_by", "corrected_at"])
    results = {row.pk: result for row, result in later}
    for row in rescored:
        row.points = results[row.pk].points
        row.bonus = getattr(results[row.pk], "bonus", 0)
    if rescored:
        Turn.objects.bulk_update(rescored, ["points", "bonus"])
    return record


def _settle_correction(
    match: Match, game: Game, seats: list[Seat], *, then: dict[str, Any]
) -> None:
    """Store the replayed state and, when the result changed, tell the league as an undo and
    a replay would: the result that stood is withdrawn (`match_reopened`, with `then=`: what
    the organizer confirmed, as for an undo), then the new one counts (`match_finished`). A
    match finished before and after keeps its `finished_at` (when it was played); with the
    same result it sends `match_corrected`."""
    was_finished = match.status == MatchStatus.FINISHED
    finished_at = match.finished_at
    stood = [tuple(getattr(seat, name) for name in _SEAT_RESULT) for seat in seats]
    placed = None
    if game.is_over:
        _place_seats(match, game, seats)
        placed = [tuple(getattr(seat, name) for name in _SEAT_RESULT) for seat in seats]
    match.state = game.to_json()
    match.version += 1
    match.save(update_fields=["state", "version"])
    if placed == stood:
        # Finished with the same result: every table and bracket already counts it.
        if was_finished:
            signals.match_corrected.send(sender=Match, match=match)
        return
    if was_finished:
        _clear_results(seats)
        match.status = MatchStatus.IN_PROGRESS
        match.finished_at = None
        match.save(update_fields=["status", "finished_at"])
        signals.match_reopened.send(sender=Match, match=match, then=then)
    if placed is None:
        return
    for seat, values in zip(seats, placed, strict=True):
        for name, value in zip(_SEAT_RESULT, values, strict=True):
            setattr(seat, name, value)
    Seat.objects.bulk_update(seats, _SEAT_RESULT)
    match.status = MatchStatus.FINISHED
    match.finished_at = finished_at or timezone.now()
    match.save(update_fields=["status", "finished_at"])
    signals.match_finished.send(sender=Match, match=match)
