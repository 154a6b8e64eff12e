"""What the sign-up's writes share: the locks (the event first, then its sign-up; a registration
with its sign-up), the waiting list moving up, the signal sent on commit, the conflict."""

from league import signals
from league.errors import EventConflict
from league.models import Registration, RegistrationStatus, SignUp
from league.models.registration import HOLDING_PLACE
from league.services import locks

# What a closed event's `event_closed` says of its sign-up (every write here checks it).
CLOSED_THEN = "its sign-up takes no more changes. Its organizers can reopen it."


class RegistrationConflict(EventConflict):
    """The registration cannot do this in its current state (HTTP 409)."""


def _locked_sign_up(event_id: int) -> SignUp | None:
    """The event's sign-up, locked, after the event itself (`league.services.locks`: every
    write of a sign-up or a registration takes the event first)."""
    locks.event_first(event_id)
    return (
        SignUp.objects.select_for_update()
        .select_related("event__league")
        .filter(event_id=event_id)
        .first()
    )


def places_taken(event_id: int) -> int:
    """Registrations holding a place: waiting for approval or confirmed."""
    return Registration.objects.filter(event_id=event_id, status__in=HOLDING_PLACE).count()


def _move_up(sign_up: SignUp) -> list[Registration]:
    """While places are free, the first on the waiting list moves up to wait for approval, in
    the order they signed up."""
    free = None if sign_up.cap is None else sign_up.cap - places_taken(sign_up.event_id)
    waiting = Registration.objects.filter(
        event_id=sign_up.event_id, status=RegistrationStatus.WAITING
    ).order_by("created_at", "pk")
    moved = list(waiting if free is None else waiting[: max(free, 0)])
    for registration in moved:
        registration.status = RegistrationStatus.PENDING
        registration.save(update_fields=["status"])
        _changed(registration, "moved_up")
    return moved


def _changed(registration: Registration, change: str) -> None:
    """Tell the apps above (notifications, webhooks) once this commits."""
    signals.send_on_commit(
        signals.registration_changed, Registration, registration_id=registration.pk, change=change
    )


def _locked_registration(registration_id: int) -> tuple[SignUp, Registration]:
    """The event, the registration's sign-up, then the registration, all locked (in that order
    always),
    while its event is open: every change to a registration is `event_closed` once the event
    is finished or cancelled."""
    event_id = Registration.objects.values_list("event_id", flat=True).get(pk=registration_id)
    sign_up = _locked_sign_up(event_id)
    registration = (
        Registration.objects.select_for_update()
        .select_related("event__league")
        .get(pk=registration_id)
    )
    assert sign_up is not None  # noqa: S101 - a registration's event always has a sign-up
    registration.event.ensure_open(then=CLOSED_THEN)
    return sign_up, registration


def _ensure_status(registration: Registration, *allowed: str, doing: str) -> None:
    if registration.status not in allowed:
        raise RegistrationConflict(
            "registration_decided",
            f"{registration.display_name}'s registration is "
            f"{registration.get_status_display().lower()}: it cannot be {doing}.",
            details={"registration": registration.pk, "status": registration.status},
        )
