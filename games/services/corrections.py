"""Correcting a turn in the middle of a game: the turns after it are replayed on top of the
corrected one, rescored, and kept only if they all still fit the rules."""

from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

import scoring
from games import gates, signals
from games.errors import (
    CorrectionBreaksLaterTurn,
    NoSuchTurn,
    TurnNumberMismatch,
)
from games.models import (
    Match,
    MatchStatus,
    Seat,
    SubmissionReceipt,
    Turn,
    TurnCorrection,
)
from games.services.matches import (
    _SEAT_RESULT,
    UserLike,
    _check_player,
    _clear_results,
    _ensure_changeable,
    _lock,
    _place_seats,
    _scored,
    _seats,
    _user_or_none,
)
from games.services.turns import turn_number_sent
from scoring import RuleViolation
from scoring.game import Game, TurnResult


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
    gates.before_organizer_write(match_id)  # its event first: league.services.locks
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
        raise violation.of_turn(sequence) from violation
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
