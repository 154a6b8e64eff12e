"""Stages of an event: draw them, seat their matches, and advance them as results come in.

The draw itself is pure (`league.draw`, docs/draw.md); these services load rows, run it, and
save what it returns. Locks are always taken match first, then stage, so a finishing match and
an organizer's forfeit never deadlock.

One module a use case:

- `drafts`: a stage made, changed or deleted before it starts, its options checked;
- `start`: a stage started: the players a fed stage takes from its source, and the draw;
- `advance`: a running stage brought up to date with its results, and what each format does
  (`FORMATS`);
- `voids`: a stage match voided or forfeited, or its result withdrawn (an undo, a correction);
- `withdrawals`: a player withdrawn from a stage or an event, and a draft's kept entries;
- `_common`: what they share: the locks, the standings marks, the players withdrawn.

Callers use the names re-exported here (`from league.services import stages`;
`stages.stage_start(...)`)."""

from league.services.stages._common import withdrawn_players
from league.services.stages.advance import (
    FORMATS,
    DoubleEliminationRules,
    EliminationRules,
    StageFormatRules,
    SwissRules,
    format_of,
    stage_advance,
)
from league.services.stages.drafts import STAGE_OPTIONS, stage_create, stage_delete, stage_update
from league.services.stages.start import stage_start
from league.services.stages.voids import (
    blocking_matches,
    stage_forfeit,
    stage_match_unvoided,
    stage_match_voided,
    stage_result_withdrawn,
)
from league.services.stages.withdrawals import (
    KeptEntry,
    Withdrawal,
    draft_entries_keep,
    entry_withdraw,
    event_withdraw,
    stage_withdraw,
)

__all__ = [
    "FORMATS",
    "STAGE_OPTIONS",
    "DoubleEliminationRules",
    "EliminationRules",
    "KeptEntry",
    "StageFormatRules",
    "SwissRules",
    "Withdrawal",
    "blocking_matches",
    "draft_entries_keep",
    "entry_withdraw",
    "event_withdraw",
    "format_of",
    "stage_advance",
    "stage_create",
    "stage_delete",
    "stage_forfeit",
    "stage_match_unvoided",
    "stage_match_voided",
    "stage_result_withdrawn",
    "stage_start",
    "stage_update",
    "stage_withdraw",
    "withdrawn_players",
]
