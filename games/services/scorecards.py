"""A match's result entered from its paper pad (docs/rules.md, "What a pad can show"): a table
that played on the printed pad, or whose phone died, types the pad in as it is, and the match
is finished from it without turns.

The pad is checked by the rulebook (`scoring.pad`: every cell no legal game writes is named,
with its rule, and nothing is stored), then the match's state becomes the finished game the
pad shows (a Yardzee game's scorecards; a Yardkle game's scores, turns and final round), so
everything downstream reads it as any finished match: its seats' totals, placements and game
counts, `match_started` and `match_finished` (standings, brackets, ratings, webhooks). The pad
itself is kept on the match (`Match.pad`), and the pages and the API say the result is "from
the pad" where turns would be shown."""

from typing import Any

from django.utils import timezone

import scoring
from games import limits, signals, turn_sql
from games.errors import MatchAlreadyStarted
from games.models import GameName, Match, MatchStatus
from games.services.matches import UserLike, _ensure_open, _require_lock, _user_or_none
from games.services.receipts import Submission, locked_submission
from scoring import pad as pads
from scoring.game import Game
from scoring.yardkle import YardkleRules
from scoring.yardzee import YardzeeRules


def scorecard_submit(*, match_id: int, pad: object, submitted_by: UserLike | None = None) -> Match:
    """Finish a match not started from its pad (a list of columns, one a seat in seat order:
    Yardzee `{"boxes": {box: points}, "yardzee_bonus_count": n}`, Yardkle `{"turns": [banked
    totals in order, 0 for a Yardkle]}`). Refused: a pad no legal game writes (`pad_invalid`,
    422, `details.errors` naming every cell and its rule), a match with turns
    (`match_already_started`), a finished or void match, a closed event; nothing is stored."""
    with locked_submission(match_id=match_id, key=None) as submission:
        return scorecard_apply(submission=submission, pad=pad, submitted_by=submitted_by)


def scorecard_apply(
    *, submission: Submission, pad: object, submitted_by: UserLike | None = None
) -> Match:
    """`scorecard_submit` for a match the caller has already locked (`locked_submission`)."""
    _require_lock()
    match, seats = submission.match, submission.seats
    _ensure_open(match)
    if match.turns_played:
        raise MatchAlreadyStarted(
            f"Match {match.pk} has {match.turns_played} turns played here: finish it turn by "
            "turn, or void it and enter the pad at the match seated in its place.",
            details={"turns_played": match.turns_played},
        )
    game, counts = _game_of(match, pad, len(seats))
    now = timezone.now()
    match.state = game.to_json()
    match.status = MatchStatus.FINISHED
    match.started_at = match.started_at or now
    match.finished_at = now
    match.pad = pad
    match.pad_by = _user_or_none(submitted_by)
    match.version += 1
    match.save(
        update_fields=["state", "status", "started_at", "finished_at", "pad", "pad_by", "version"]
    )
    turn_sql.finish(
        [
            turn_sql.SeatResult(seat_id, game.total(order), placement, counts[order])
            for order, ((seat_id, _player), placement) in enumerate(
                zip(seats, game.placements(), strict=True)
            )
        ]
    )
    signals.match_started.send(sender=Match, match=match)
    signals.match_finished.send(sender=Match, match=match)
    return match


def _game_of(match: Match, pad: object, players: int) -> tuple[Game, list[dict[str, Any]]]:
    """The finished game the pad shows, and each seat's game counts (docs/standings.md);
    `PadInvalid` when no legal game writes it."""
    head = {"game": match.game, "version": match.state["version"], "rules": match.rules}
    if match.game == GameName.YARDZEE:
        found = pads.yardzee_pad_result(pad, YardzeeRules.from_json(match.rules), players=players)
        state: dict[str, Any] = {
            **head,
            "scorecards": [
                {"boxes": dict(card.boxes), "yardzee_bonus_count": card.yardzee_bonus_count}
                for card in found.scorecards
            ],
        }
        game: Game = scoring.GAMES[match.game].from_json({**match.state, **state})
        return game, [game.seat_counts(seat, []) for seat in range(players)]
    turns = limits.turn_limit(match.game, players, match.rules)
    kept = pads.yardkle_pad_result(
        pad, YardkleRules.from_json(match.rules), turn_limit=turns, players=players
    )
    state = {
        **head,
        "scores": list(kept.totals),
        "turns_played": kept.turns_played,
        "final_round_by": kept.final_round_by,
    }
    game = scoring.GAMES[match.game].from_json({**match.state, **state})
    columns: list[Any] = list(pad) if isinstance(pad, list | tuple) else []
    return game, [{"yardkles": list(column["turns"]).count(0)} for column in columns]
