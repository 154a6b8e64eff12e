"""Signals `games` sends so that `league` (which `games` never imports) can react.

All are sent inside the transaction that made the change, with `sender=Match` and `match=`.
A receiver that must not let the change happen raises (e.g. `games.errors.UndoBlocked`); the
transaction then rolls back. Work that can wait is enqueued by receivers on commit."""

from django.dispatch import Signal

match_started = Signal()
"""A turn was stored in a match that had none (scheduled -> in progress, or straight to
finished by a whole result, and then `match_finished` follows). Not sent on later turns."""

match_finished = Signal()
"""The last turn was played: seats hold totals and placements."""

match_reopened = Signal()
"""A finished match's last turn was undone: its result no longer stands. Also sent when a
corrected turn changes a finished match's result; `match_finished` then follows with the new
one."""

match_voided = Signal()
"""The match was voided; `was_finished=` says whether a result had stood."""
