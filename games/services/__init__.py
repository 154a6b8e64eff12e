"""Every write to a match: create, submit a turn, submit a whole result, undo, void, correct.

Each locks the match row (`SELECT ... FOR UPDATE`) before it reads the state, so concurrent
submissions for one match are applied one after another and never lost or counted twice.

One module a use case:

- `matches`: creating a match, and what every write shares (the lock, whether the match and its
  event still take play, the seats and their results);
- `turns`: the one pipeline every writer of turns goes through (the API, `turn_submit`);
- `results`: a whole game at once, each turn through that pipeline under one lock;
- `scorecards`: a result entered from the paper pad, without turns;
- `undo`: an organizer's undo and the scorekeeper's take-back of the last turn;
- `corrections`: a turn corrected in the middle of a game;
- `voids`: voiding a match and taking the void back;
- `receipts`: the answers kept for an Idempotency-Key, and `locked_submission`.

Callers use the names re-exported here (`from games import services`;
`services.turn_submit(...)`)."""

from games.services.corrections import CorrectionOutcome, turn_correct
from games.services.matches import UserLike, match_create
from games.services.receipts import (
    RECEIPTS_EXPIRE_BATCH,
    Submission,
    locked_submission,
    receipts_expire,
    request_fingerprint,
)
from games.services.results import result_apply, result_submit, turns_submit
from games.services.scorecards import scorecard_apply, scorecard_submit
from games.services.turns import (
    TurnOutcome,
    TurnReply,
    turn_answer,
    turn_number_sent,
    turn_submit,
    turn_submit_locked,
    turn_submit_once,
)
from games.services.undo import turn_take_back, turn_undo
from games.services.voids import match_unvoid, match_void

__all__ = [
    "RECEIPTS_EXPIRE_BATCH",
    "CorrectionOutcome",
    "Submission",
    "TurnOutcome",
    "TurnReply",
    "UserLike",
    "locked_submission",
    "match_create",
    "match_unvoid",
    "match_void",
    "receipts_expire",
    "request_fingerprint",
    "result_apply",
    "result_submit",
    "scorecard_apply",
    "scorecard_submit",
    "turn_answer",
    "turn_correct",
    "turn_number_sent",
    "turn_submit",
    "turn_submit_locked",
    "turn_submit_once",
    "turn_take_back",
    "turn_undo",
    "turns_submit",
]
