"""Voiding a match (it no longer counts anywhere; its turns are kept) and taking a void back."""

from typing import Any

from django.db import transaction
from django.utils import timezone

from games import gates, signals
from games.errors import (
    MatchNotVoid,
)
from games.models import (
    Match,
    MatchStatus,
)
from games.services.matches import (
    UserLike,
    _lock,
    _user_or_none,
    ensure_event_open,
)


@transaction.atomic
def match_void(
    *, match_id: int, voided_by: UserLike | None, then: dict[str, Any] | None = None
) -> Match:
    """Void a match: it no longer counts anywhere; its turns are kept for the record. A match
    of a finished or cancelled event is not changed (EventClosed).

    `then` is what the organizer asked to happen next (for a stage match: replay, walkover or
    no result, docs/api.md "Corrections"), passed to the `match_voided` receivers untouched:
    `games` does not know stages."""
    gates.before_organizer_write(match_id)  # its event first: league.services.locks
    match = _lock(match_id)
    if match.status == MatchStatus.VOID:
        return match
    ensure_event_open(match)
    was_finished = match.status == MatchStatus.FINISHED
    match.status = MatchStatus.VOID
    match.version += 1
    match.voided_by = _user_or_none(voided_by)
    match.voided_at = timezone.now()
    match.save(
        update_fields=["status", "version", "voided_by", "voided_at", *_calendar_changed(match)]
    )
    signals.match_voided.send(
        sender=Match,
        match=match,
        was_finished=was_finished,
        then=then or {},
        voided_by=_user_or_none(voided_by),
    )
    return match


@transaction.atomic
def match_unvoid(*, match_id: int, unvoided_by: UserLike | None) -> Match:
    """Take back a void made by mistake: the match is again what its turns make it (finished,
    in progress or scheduled). `match_unvoided` receivers may refuse by raising (a stage whose
    slot has moved on since); a finished match then sends `match_finished` again, so standings
    and stages count it. A match that is not void: MatchNotVoid."""
    gates.before_organizer_write(match_id)  # its event first: league.services.locks
    match = _lock(match_id)
    if match.status != MatchStatus.VOID:
        raise MatchNotVoid(
            f"Match {match.pk} is {match.get_status_display().lower()}, not void.",
            details={"status": match.status},
        )
    ensure_event_open(match)
    game = match.scoring_game()
    if game.is_over:
        match.status = MatchStatus.FINISHED
    else:
        match.status = MatchStatus.IN_PROGRESS if match.turns_played else MatchStatus.SCHEDULED
    match.version += 1
    match.voided_by = None
    match.voided_at = None
    match.save(
        update_fields=["status", "version", "voided_by", "voided_at", *_calendar_changed(match)]
    )
    signals.match_unvoided.send(sender=Match, match=match, unvoided_by=_user_or_none(unvoided_by))
    if match.status == MatchStatus.FINISHED:
        signals.match_finished.send(sender=Match, match=match)
    return match


def _calendar_changed(match: Match) -> list[str]:
    """A scheduled match called off or on again (a void, or its taking back) is a change its
    calendar entry says (docs/pages.md, "Calendar feeds"): a new stamp and a higher SEQUENCE,
    so a calendar app replaces the entry it holds. The fields changed, to save."""
    if match.planned_at is None:
        return []
    match.schedule_changed_at = timezone.now()
    match.schedule_sequence += 1
    return ["schedule_changed_at", "schedule_sequence"]
