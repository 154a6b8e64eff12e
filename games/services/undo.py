"""Removing a match's last turn: an organizer's undo, or the scorekeeper's own take-back of the turn
they just sent. Each keeps the removed turn as a `TurnUndo` and rebuilds the state."""

from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

import scoring
from games import gates, signals
from games.errors import (
    MatchClosed,
    NothingToUndo,
    TakeBackNotYours,
    TakeBackTooLate,
    TurnNumberMismatch,
)
from games.models import (
    Match,
    MatchStatus,
    SubmissionReceipt,
    Turn,
    TurnUndo,
)
from games.services.matches import (
    UserLike,
    _clear_results,
    _ensure_changeable,
    _lock,
    _lock_by_key,
    _scored,
    _seats,
    _user_or_none,
)
from games.services.turns import turn_number_sent


@transaction.atomic
def turn_undo(
    *, match_id: int, undone_by: UserLike | None, then: dict[str, Any] | None = None
) -> TurnUndo:
    """Remove the last turn, keeping an audit record of it; the state is rebuilt from the
    remaining turns. Undoing the last turn of a finished match reopens it (`match_reopened`:
    a receiver may refuse by raising, e.g. when a later bracket match has started; `then=`
    carries what the organizer confirmed, e.g. re-seeding later stages). A match of a
    finished or cancelled event is not changed (EventClosed)."""
    gates.before_organizer_write(match_id)  # its event first: league.services.locks
    match = _lock(match_id)
    turns = _turns_to_take_back(match, "undo")
    return _remove_last_turn(match, turns, undone_by=undone_by, then=then or {})


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
    user = _user_or_none(taken_back_by)
    if match.status == MatchStatus.FINISHED:
        raise MatchClosed(
            f"Turn {last.sequence} finished match {match.pk}, and its result stands: "
            + _who_undoes(match, user, "which withdraws the result"),
            details={"status": match.status, "turn": last.sequence},
        )
    if score_key is not None:
        sent_by_caller = last.scored_with_key
    else:
        sent_by_caller = user is not None and last.submitted_by_id == user.pk
    if not sent_by_caller or last.corrected_at is not None:
        raise TakeBackNotYours(
            f"Turn {last.sequence} was not sent by you"
            + (" as it stands: an organizer corrected it" if last.corrected_at else "")
            + "; "
            + _who_undoes(match, user),
            details={"turn": last.sequence},
        )
    window = timedelta(seconds=settings.TAKE_BACK_SECONDS)
    if timezone.now() - last.submitted_at > window:
        raise TakeBackTooLate(
            f"Turn {last.sequence} was sent more than {settings.TAKE_BACK_SECONDS} seconds ago; "
            + _who_undoes(match, user),
            details={"turn": last.sequence, "seconds": settings.TAKE_BACK_SECONDS},
        )
    return _remove_last_turn(match, turns, undone_by=user, then={}, taken_back=True)


def _who_undoes(match: Match, user: UserLike | None, what: str = "") -> str:
    """The end of a take-back's refusal: who can undo the turn instead. An organizer of the
    match is told to undo it themselves, not to ask an organizer."""
    aside = f" ({what})" if what else ""
    if user is not None and match.is_organizer(user):
        return (
            f"you organize this match, so undo it instead{aside} (POST matches/{match.pk}/undo/)."
        )
    return f"only an organizer can undo it{aside}." if what else "ask an organizer to undo it."
