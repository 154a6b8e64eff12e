"""An event made and changed (`event_create`, `event_update`: its rules over the league's), and
its status as it is played: running once a match starts, finished with its last stage, closed and
reopened by its organizers."""

from typing import Any

from django.db import connection, transaction

from games.models import OPEN_STATUSES, Match, MatchStatus
from league import models, signals
from league.errors import EventConflict, LeagueError
from league.services import locks
from league.services.organization._common import _assign, _clean_names, _validated_rules
from scoring.json_input import read_rules_object


def event_rules_checked(league: models.League, rules: object) -> dict[str, Any]:
    """An event's `rules` as it may store them: a JSON object (`wrong_type` otherwise, before
    it is laid over the league's) whose options, on top of the league's, make a ruleset of its
    game (`unknown_rule_option`, `invalid_rule_option`). An override is checked only with the
    league's: `entry_minimum` 15000 is right under a league's `target` of 20000."""
    overrides = read_rules_object(rules)
    _validated_rules(league.game, {**league.rules, **overrides})
    return overrides


def ruleset_for_event(event: models.Event) -> dict[str, Any]:
    """The full ruleset of an event's matches: the league's defaults, then the event's."""
    return _validated_rules(event.league.game, event.ruleset())


def event_create(*, league: models.League, **fields: Any) -> models.Event:
    """A new event of `league`; its `rules` (overrides of the league's) are checked by
    `event_rules_checked`."""
    _clean_names(fields, "name", "venue")
    fields["rules"] = event_rules_checked(league, fields.get("rules", {}))
    event = models.Event(league=league, **fields)
    event.save()
    return event


def event_update(*, event: models.Event, **fields: Any) -> models.Event:
    """Change an event; its `rules`, new or kept, are checked by `event_rules_checked`."""
    _clean_names(fields, "name", "venue")
    fields["rules"] = event_rules_checked(event.league, fields.get("rules", event.rules))
    _assign(event, fields)
    event.save()
    return event


# --- An event's status ------------------------------------------------------------------------
# It follows play (docs/api.md, "An event's status"): upcoming until a match of it starts,
# running while it is played, finished once its last stage finishes; its organizers close it
# (finished or cancelled) and reopen it. A closed event takes no more matches, stages or turns
# (`Event.ensure_open`; a match asks through `games.gates`).


CLOSED_STATUSES = (models.EventStatus.FINISHED, models.EventStatus.CANCELLED)


OPEN_MATCH_STATUSES = OPEN_STATUSES


def event_play_started(*, event_id: int) -> None:
    """A match of the event `event_id` took its first turn: an upcoming event is now running.
    Called on every match's first turn, holding that match's lock, so it does not wait for
    the event's row here (`league.services.locks`): an upcoming event is marked now, in one
    statement that neither writes nor locks a running one; one whose row another write holds
    is marked once this transaction has committed."""
    with connection.cursor() as cursor:
        cursor.execute(_MARK_RUNNING, [event_id, event_id])
        marked, status = cursor.fetchone()
    if not marked and status == models.EventStatus.UPCOMING:  # an organizer's write has it
        transaction.on_commit(
            lambda: models.Event.objects.filter(
                pk=event_id, status=models.EventStatus.UPCOMING
            ).update(status=models.EventStatus.RUNNING)
        )


# Marks an upcoming event running unless its row is locked; says whether it did, and the
# status the statement started from.
_MARK_RUNNING = """
WITH free AS (
    SELECT id FROM league_event WHERE id = %s AND status = 'upcoming'
       FOR NO KEY UPDATE SKIP LOCKED
), marked AS (
    UPDATE league_event SET status = 'running' WHERE id IN (SELECT id FROM free) RETURNING id
)
SELECT (SELECT count(*) FROM marked), (SELECT status FROM league_event WHERE id = %s)"""


def event_play_over(*, event_id: int) -> bool:
    """Finish an event whose play is over: it has stages, every one of them has finished, and
    no match of it (in a stage or not) is still to be played or being played. Called when a
    stage finishes and when a match of the event finishes; True when the event finished now.
    An event without stages (casual tables only) is finished by its organizers (`event_close`)."""
    stages = set(models.Stage.objects.filter(event_id=event_id).values_list("status", flat=True))
    if stages != {models.StageStatus.FINISHED}:
        return False
    if Match.objects.filter(event_id=event_id, status__in=OPEN_MATCH_STATUSES).exists():
        return False
    finished = bool(
        models.Event.objects.filter(
            pk=event_id, status__in=(models.EventStatus.UPCOMING, models.EventStatus.RUNNING)
        ).update(status=models.EventStatus.FINISHED)
    )
    if finished:
        signals.send_on_commit(signals.event_finished, models.Event, event_id=event_id)
    return finished


@transaction.atomic
def event_close(*, event_id: int, status: str = models.EventStatus.FINISHED) -> models.Event:
    """Close an event: `finished` (its play is over) or `cancelled` (it did not take place). It
    then takes no more matches, stages, turns, undos or voids (409 `event_closed`) until it is
    reopened. Refused while a match of it is being played (409 `matches_in_progress`, naming
    them): finish or void those first. Matches not started stay unplayed. Closing an event
    again as it already is changes nothing; finished <-> cancelled goes through a reopen
    (`event_closed`)."""
    if status not in CLOSED_STATUSES:
        raise LeagueError(
            "invalid_option",
            f"An event is closed as finished or cancelled, not {status!r}.",
            details={"field": "status", "choices": list(CLOSED_STATUSES)},
        )
    # The event first, as every organizer's write (league.services.locks), then every match
    # of it: a write being stored now that makes a match one being played (a first turn, an
    # undo of a finished match, an unvoid) is waited for and seen; one that waits for its
    # match asks whether the event is open once it has it (games.gates).
    locks.event_first(event_id)
    matches = list(
        Match.objects.select_for_update()
        .filter(event_id=event_id)
        .order_by("pk")
        .values_list("pk", "status")
    )
    event = models.Event.objects.get(pk=event_id)
    if event.status == status:
        return event
    event.ensure_open(then=f"reopen it before closing it as {status}.")
    in_progress = [pk for pk, match_status in matches if match_status == MatchStatus.IN_PROGRESS]
    if in_progress:
        raise EventConflict(
            "matches_in_progress",
            f"Event {event.pk} still has matches being played "
            f"({', '.join(f'#{pk}' for pk in in_progress)}): finish or void them before closing "
            "it.",
            details={"event": event.pk, "matches": in_progress},
        )
    event.status = status
    event.save(update_fields=["status"])
    if status == models.EventStatus.FINISHED:
        signals.send_on_commit(signals.event_finished, models.Event, event_id=event.pk)
    return event


@transaction.atomic
def event_reopen(*, event_id: int) -> models.Event:
    """Reopen a finished or cancelled event (closed by mistake, finished before a result was
    corrected, a cancelled night played after all): it takes matches, stages and turns again.
    It is running when a stage or a match of it has started, upcoming otherwise. An open
    event is left as it is."""
    event = models.Event.objects.select_for_update().get(pk=event_id)
    if not event.is_closed:
        return event
    played = (
        Match.objects.filter(event=event, started_at__isnull=False).exists()
        or models.Stage.objects.filter(event=event)
        .exclude(status=models.StageStatus.DRAFT)
        .exists()
    )
    event.status = models.EventStatus.RUNNING if played else models.EventStatus.UPCOMING
    event.save(update_fields=["status"])
    return event
