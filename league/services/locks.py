"""The order every write takes its locks in (docs/architecture.md, "Locks"), so that two
writes at once wait for each other instead of deadlocking.

1. **An organizer's write takes its event's lock first**: a PostgreSQL advisory lock keyed
   (EVENT_LOCK, event id), held until its transaction ends. Every service an organizer calls
   on an event's stages, matches, sign-ups or schedule, and every write of a match an
   organizer makes (void, unvoid, undo, correction: `games.gates`), starts there, so organizer
   writes of one event run one after the other, whatever they lock next (two organizers
   starting a stage, withdrawing a player and voiding a match with its later stages re-seeded
   at once got 503s). It is not the event's row: play writes that row too (its status when
   its play starts or ends), and must not wait for an organizer holding it.
2. Then, as play does: **a match, then its stage, then the event's row**. Play (a turn, a whole
   result, a take-back, and the stage's advance when a match finishes) takes its match, then
   its stage, and writes the event's row last (its status when its play starts or ends); it
   never takes the event's lock. An organizer's write that
   takes the event's row early (`stages._common._locked_event`, to add, change, delete or start a
   stage) waits for no match after it.
3. Seats, turns and entries last, with their match or stage.
4. The pages' versions at the very end of the commit, under each league's page lock in
   ascending order (league migration 0024): a write only marks the pages it changes."""

from django.db import connection

from games.models import Match
from league.models import Stage, StageMatch

# The advisory lock's first key: its own number among the project's (league.services.ratings
# has another), then the event's id.
EVENT_LOCK = 0x4C4556  # "LEV"
_LOCK_EVENT = "SELECT pg_advisory_xact_lock(%s, %s)"


def event_first(event_id: int | None) -> None:
    """Take the event's lock (its id; None: no event, nothing to lock)."""
    if event_id is None:
        return
    objid = (event_id + 2**31) % 2**32 - 2**31  # a 32-bit key: ids 2**32 apart share it
    with connection.cursor() as cursor:
        cursor.execute(_LOCK_EVENT, [EVENT_LOCK, objid])


def event_of_stage_first(stage_id: int) -> None:
    event_first(Stage.objects.filter(pk=stage_id).values_list("event_id", flat=True).first())


def event_of_stage_match_first(stage_match_id: int) -> None:
    found = StageMatch.objects.filter(pk=stage_match_id).values_list("stage__event_id", flat=True)
    event_first(found.first())


def event_of_match_first(match_id: int) -> None:
    """For a write of a match an organizer makes (`games.gates`): its event, if it has one.
    A match's event never changes, so it is read before any lock."""
    event_first(Match.objects.filter(pk=match_id).values_list("event_id", flat=True).first())


__all__ = [
    "event_first",
    "event_of_match_first",
    "event_of_stage_first",
    "event_of_stage_match_first",
]
