"""Signals `league` sends about what it finished or recomputed, for the apps above it (webhooks)
to react to without `league` knowing them.

Each is sent once the transaction that made the change has committed (never if it rolls back),
so a receiver sees the change stored and cannot undo it; a receiver's error is logged, not
raised (`transaction.on_commit(..., robust=True)`)."""

from functools import partial
from typing import Any

from django.db import transaction
from django.dispatch import Signal

stage_finished = Signal()
"""A stage finished (`stage_id=`): its final ranking is stored."""

event_finished = Signal()
"""An event finished (`event_id=`): its last stage finished, the last match of it ended, or its
organizers closed it as finished."""

standings_changed = Signal()
"""A refresh stored a new version of a standings table (`table_id=`, `scope=`, `scope_id=`,
`league_id=`, `version=`, the mark it was computed from)."""


registration_changed = Signal()
"""A registration was made or decided (`registration_id=`, `change=`: one of
`REGISTRATION_CHANGES`): received, approved, refused, or moved up from the waiting list."""

REGISTRATION_CHANGES = ("received", "approved", "refused", "moved_up")

check_in_opened = Signal()
"""An event's check-in window opened (`event_id=`, `opened_at=`: when the sweep announced it,
the stamp that tells one opening from the next). Sent once an opening by
`league.services.registration.check_in_sweep`."""

match_ready = Signal()
"""A stage match was seated with its players (`match_id=`): it is ready to be played."""


def send_on_commit(signal: Signal, sender: type[Any], **kwargs: Any) -> None:
    """Send `signal` once the current transaction commits (at once outside one)."""
    transaction.on_commit(partial(signal.send_robust, sender, **kwargs), robust=True)
