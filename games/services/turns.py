"""Turns: the one pipeline every writer of turns goes through (issue 36; docs/architecture.md, "The
flow of one turn").

The match and its seats are locked (`locked_submission` or `turn_submit`: `turn_sql.lock`), the
turn is checked and played on the game with the match's next fields and its answer computed once
(`_play`), stored by the hand-written statement (`_store`: `turn_sql.store`, with the answer's
receipt for an Idempotency-Key), and the first or last turn settled (`_settle_turn`: the seats'
results, `match_started`, `match_finished`). The API's turn (`turn_submit_locked`, its caller
checked inside `locked_submission`), `turn_submit` (the event import, the demo loader) and a
whole result (`games.services.results`) all take these steps."""

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone

from games import signals, turn_sql
from games.errors import (
    TurnLimit,
    TurnNumberMismatch,
)
from games.limits import turn_limit
from games.models import (
    Match,
    MatchStatus,
    Seat,
    Turn,
)
from games.services.matches import (
    UserLike,
    _check_player,
    _ensure_open,
    _lock_for_turns,
    _require_lock,
    _seat_results,
    _user_or_none,
)
from games.services.receipts import (
    Submission,
    _check_replay,
    locked_submission,
    request_fingerprint,
)
from scoring import RuleViolation
from scoring.errors import DomainError
from scoring.game import Game


@dataclass(frozen=True, slots=True)
class TurnOutcome:
    """A stored turn and the match after it (`turn_submit`, `result_apply`): the turn and the
    seats are rows built from what was stored, not read back (the turn without its id)."""

    match: Match
    turn: Turn
    seats: list[Seat]
    game: Game


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


# --- The pipeline's steps ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Step:
    """One turn played on the game (not yet stored): its seat, what it scored (as `_scored`
    reads it from a stored turn), when, and the answer to it."""

    seat_id: int
    seat_order: int
    scored: dict[str, Any]
    now: datetime
    answer: dict[str, Any]


def _next_turn(
    match: Match, seats: list[tuple[int, int]], turn: object, *, turn_number: int | None
) -> tuple[Game, _Step]:
    """The locked match's next turn checked (the match open, the turn number, the player, the
    rules) and played: the game after it and the step to store."""
    _ensure_open(match)
    _check_turn_number(match, turn_number)
    game = match.scoring_game()
    return game, _play(match, game, seats, turn, version=match.version + 1, now=timezone.now())


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
    if not game.is_over:  # a game over is refused by its rules (`game_over`)
        _check_turn_limit(match, game, len(seats))
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


def _check_turn_limit(match: Match, game: Game, players: int) -> None:
    """TurnLimit when the match, its game not over, has played as many turns as its game
    takes at most (`games.limits`)."""
    limit = turn_limit(match.game, players, game.rules.to_json())  # the match's, as played
    if match.turns_played >= limit:
        raise TurnLimit(
            f"Match {match.pk} has played {match.turns_played} turns, as many as a game of "
            f"{match.game} with {players} players takes ({limit}): a game that long is not a "
            "game. Its organizers can void it.",
            details={"turns_played": match.turns_played, "limit": limit},
        )


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
    match's first turn, `turns_stored` always, and `match_finished` for its last."""
    if game.is_over:
        turn_sql.finish(_seat_results(match, game, [seat_id for seat_id, _ in seats]))
    if started:
        signals.match_started.send(sender=Match, match=match)
    signals.turns_stored.send(sender=Match, match=match)
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
