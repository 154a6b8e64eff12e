"""Check-in: a player checked in, the window announced when it opens (`check_in_sweep`), and a
stage started without the players absent (`absent_dropped`)."""

from datetime import datetime

from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone

from league import signals
from league.models import (
    Event,
    EventStatus,
    Registration,
    RegistrationStatus,
    SignUp,
    Stage,
    StageEntry,
)
from league.services.registration._common import (
    RegistrationConflict,
    _ensure_status,
    _locked_registration,
    _locked_sign_up,
)

CLOSED_STATUSES = (EventStatus.FINISHED, EventStatus.CANCELLED)


@transaction.atomic
def registration_check_in(
    *,
    registration_id: int,
    present: bool = True,
    by_player: bool = False,
    now: datetime | None = None,
) -> Registration:
    """Mark a confirmed player present (or not, `present=False`) for an event using check-in
    (`check_in_off` if it does not). Organizers do so while the event is open; the player
    themselves only within the event's check-in window (`check_in_closed`)."""
    sign_up, registration = _locked_registration(registration_id)
    if not sign_up.check_in:
        raise RegistrationConflict(
            "check_in_off",
            f"{registration.event.name} does not use check-in.",
            details={"event": registration.event_id},
        )
    _ensure_status(registration, RegistrationStatus.CONFIRMED, doing="checked in")
    now = now or timezone.now()
    if by_player and not sign_up.check_in_window_open(now):
        raise RegistrationConflict(
            "check_in_closed",
            "Check-in is not open now: ask an organizer at the event.",
            details={
                "opens": sign_up.check_in_opens.isoformat() if sign_up.check_in_opens else None,
                "closes": sign_up.check_in_closes.isoformat() if sign_up.check_in_closes else None,
            },
        )
    registration.checked_in_at = now if present else None
    registration.save(update_fields=["checked_in_at"])
    return registration


def check_in_sweep(*, now: datetime | None = None) -> int:
    """Announce every check-in window that has opened (its opening time passed, or none set)
    and not closed, of an event still open, that was not announced yet: the sign-up records
    when (`check_in_announced_at`) and `check_in_opened` is sent once this commits. Run by
    Celery beat every minute; safe to run twice, or at once in two processes (a sign-up being
    announced by one is skipped by the other). How many it announced."""
    now = now or timezone.now()
    due = (
        SignUp.objects.filter(check_in=True, check_in_announced_at=None)
        .filter(Q(check_in_opens=None) | Q(check_in_opens__lte=now))
        .filter(Q(check_in_closes=None) | Q(check_in_closes__gt=now))
        .exclude(event__status__in=CLOSED_STATUSES)
        .values_list("event_id", flat=True)
    )
    announced = 0
    for event_id in list(due):
        with transaction.atomic():
            sign_up = _locked_sign_up(event_id)
            if sign_up is None or sign_up.check_in_announced_at is not None:
                continue  # announced meanwhile (another sweep), or gone
            if not sign_up.check_in_window_open(now):
                continue  # changed meanwhile
            sign_up.check_in_announced_at = now
            sign_up.save(update_fields=["check_in_announced_at"])
            signals.send_on_commit(signals.check_in_opened, Event, event_id=event_id, opened_at=now)
            announced += 1
    return announced


def _seeded_again(kept: list[StageEntry], *, above: int) -> None:
    """Seed `kept` (in seed order) 1, 2, 3, ... in two statements however many move. PostgreSQL
    checks a stage's unique seeds row by row within a statement, so the moved entries are
    first lifted above every seed there is (`above`), then brought down to their own."""
    moved = [entry for seed, entry in enumerate(kept, start=1) if entry.seed != seed]
    if not moved:
        return
    StageEntry.objects.filter(pk__in=[entry.pk for entry in moved]).update(seed=F("seed") + above)
    for seed, entry in enumerate(kept, start=1):
        entry.seed = seed
    StageEntry.objects.bulk_update(moved, ["seed"])


def absent_dropped(stage: Stage) -> list[int]:
    """For a stage about to start (its row locked by the caller) of an event using check-in:
    take off its entries the players not checked in (no confirmed registration checked in),
    seed the rest again in the same order, and return who was dropped (also kept on the
    stage, `Stage.dropped`). A stage fed by an earlier one takes its qualifiers as they are;
    an event without check-in changes nothing."""
    if stage.source_stage_id is not None:
        return []
    uses_check_in = SignUp.objects.filter(event_id=stage.event_id, check_in=True).exists()
    if not uses_check_in:
        return []
    present = set(
        Registration.objects.filter(
            event_id=stage.event_id,
            status=RegistrationStatus.CONFIRMED,
            checked_in_at__isnull=False,
        ).values_list("player_id", flat=True)
    )
    entries = list(StageEntry.objects.filter(stage=stage).order_by("seed"))
    dropped = [entry.player_id for entry in entries if entry.player_id not in present]
    if dropped:
        StageEntry.objects.filter(stage=stage, player_id__in=dropped).delete()
        kept = [entry for entry in entries if entry.player_id in present]
        _seeded_again(kept, above=entries[-1].seed)
    stage.dropped = dropped
    stage.save(update_fields=["dropped"])
    return dropped
