"""Signals `games` sends so that `league` (which `games` never imports) can react.

All are sent inside the transaction that made the change, with `sender=Match` and `match=`.
A receiver that must not let the change happen raises (e.g. `games.errors.UndoBlocked`); the
transaction then rolls back. Work that can wait is enqueued by receivers on commit."""

from django.dispatch import Signal

match_started = Signal()
"""A turn was stored in a match that had none (scheduled -> in progress, or straight to
finished by a whole result, and then `match_finished` follows). Not sent on later turns."""

turns_stored = Signal()
"""One turn or more was stored (a turn, a whole game's turns, an import's replay); sent after
`match_started` and before `match_finished` when they are sent. Not sent for a result entered
from the paper pad (no turns). Its receivers only enqueue work (the live win probability)."""

match_finished = Signal()
"""The last turn was played: seats hold totals and placements."""

match_reopened = Signal()
"""A finished match's last turn was undone: its result no longer stands. `then=` (a dict,
maybe empty) carries what the organizer confirmed with the undo. Also sent when a corrected
turn changes a finished match's result; `match_finished` then follows with the new one."""

match_corrected = Signal()
"""A turn of a finished match was corrected and its result stands as it was (no
`match_reopened` / `match_finished`): what was rolled or chosen changed, so what was made from
the turns themselves (a play analysis) must be made again."""

match_voided = Signal()
"""The match was voided; `was_finished=` says whether a result had stood, `then=` what the
organizer asked to happen next (a dict, maybe empty), `voided_by=` who (a User or None)."""

match_unvoided = Signal()
"""A void was taken back (`unvoided_by=`); its status is again what its turns make it. When
that is finished, `match_finished` follows."""
