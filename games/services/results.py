"""A whole game's turns at once, all or nothing: each turn through the turn's pipeline
(`games.services.turns`) under one lock, every one checked before any is stored, then all
stored in one statement (`turn_sql.store_all`)."""

from django.utils import timezone

from games import turn_sql
from games.errors import (
    MatchAlreadyStarted,
)
from games.models import (
    Match,
    MatchStatus,
)
from games.services.matches import UserLike, _ensure_open, _require_lock, _user_or_none
from games.services.receipts import Submission, locked_submission
from games.services.turns import TurnOutcome, _outcome, _play, _settle_turn, _Step
from scoring import RuleViolation
from scoring.game import Game


def result_submit(
    *, match_id: int, turns: object, submitted_by: UserLike | None = None
) -> TurnOutcome:
    """A whole game's turns at once, all or nothing: every turn valid and the game over, or
    a RuleViolation naming the first bad turn's index and nothing stored."""
    with locked_submission(match_id=match_id, key=None) as submission:
        return result_apply(submission=submission, turns=turns, submitted_by=submitted_by)


def result_apply(
    *, submission: Submission, turns: object, submitted_by: UserLike | None = None
) -> TurnOutcome:
    """`result_submit` for a match the caller has already locked (`locked_submission`): each
    turn goes through the turn's pipeline (`_play`: checked, played, the match's next fields
    and the answer) under the one lock, every one before any is stored; then all the turns and
    the match are stored in one statement (`turn_sql.store_all`) and the game settled once.
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
    game, steps = _apply_turns(match, seats, turns, submitted_by=submitted_by, whole=True)
    return _outcome(match, game, seats, steps[-1], submitted_by=submitted_by, scored_with_key=False)


def turns_submit(
    *, match_id: int, turns: list[object], submitted_by: UserLike | None = None
) -> TurnOutcome:
    """Some of a match's next turns at once, all or nothing, whether or not they finish the
    game: each through the turn's pipeline (`_play`) under one lock, then all stored in one
    statement. For a caller that replays turns (the event import): its cost is one statement
    per match however many turns, where a turn at a time is one per turn (and a savepoint,
    which PostgreSQL slows down past 64 in a transaction). A turn refused raises with
    `details.turn` its index in `turns`; nothing is stored."""
    if not turns:
        raise RuleViolation("wrong_type", "No turn was given.", details={"field": "turns"})
    with locked_submission(match_id=match_id, key=None) as submission:
        match, seats = submission.match, submission.seats
        _ensure_open(match)
        game, steps = _apply_turns(match, seats, turns, submitted_by=submitted_by, whole=False)
        return _outcome(
            match, game, seats, steps[-1], submitted_by=submitted_by, scored_with_key=False
        )


def _apply_turns(
    match: Match,
    seats: list[tuple[int, int]],
    turns: list[object],
    *,
    submitted_by: UserLike | None,
    whole: bool,
) -> tuple[Game, list[_Step]]:
    """Play `turns` on the locked match (each checked before any is stored; RuleViolation or
    MatchError at the first refused, with its index), then store them and the match in one
    statement and settle the game. `whole`: they must finish it (`game_not_finished`)."""
    started = match.status == MatchStatus.SCHEDULED
    game = match.scoring_game()
    version, now = match.version + 1, timezone.now()
    steps = []
    for index, turn in enumerate(turns):
        try:
            steps.append(_play(match, game, seats, turn, version=version, now=now))
        except RuleViolation as violation:
            if whole:
                raise violation.at_turn(index) from violation
            # the turn refused, as the match numbers it
            raise violation.of_turn(match.turns_played + 1) from violation
    if whole and not game.is_over:
        raise RuleViolation(
            "game_not_finished",
            f"The {len(turns)} turns do not finish the game; "
            f"seat {game.current_player} would play next.",
            rule="Game",
            details={"turns": len(turns), "next_seat": game.current_player},
        )
    user = _user_or_none(submitted_by)
    turn_sql.store_all(
        match=match,
        turns=[turn_sql.Played(**step.scored, seat_id=step.seat_id) for step in steps],
        submitted_by=user.pk if user is not None else None,
        now=now,
    )
    _settle_turn(match, game, seats, started=started)
    return game, steps
