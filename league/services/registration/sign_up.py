"""The event's sign-up: its settings (`sign_up_set`), the waiting list, why it is closed."""

from datetime import datetime

from django.db import transaction
from django.db.models import Q

from league.errors import LeagueError
from league.models import Event, Registration, RegistrationStatus, SignUp
from league.services.registration._common import CLOSED_THEN, _locked_sign_up, _move_up


@transaction.atomic
def sign_up_set(
    *,
    event: Event,
    open: bool = True,
    deadline: datetime | None = None,
    cap: int | None = None,
    check_in: bool = False,
    check_in_opens: datetime | None = None,
    check_in_closes: datetime | None = None,
) -> SignUp:
    """Open (or change, or close with `open=False`) the event's sign-up. A cap of at least 1;
    a check-in window that closes after it opens. A cap raised lets the first on the waiting
    list move up; a cap lowered below the places taken keeps everyone who holds one (the next
    sign-ups wait). A closed event takes no change (`event_closed`)."""
    event.ensure_open(then=CLOSED_THEN)
    if cap is not None and cap < 1:
        raise LeagueError(
            "invalid_option",
            "A cap is at least 1 place; leave it empty for no cap.",
            details={"field": "cap"},
        )
    if check_in_opens and check_in_closes and check_in_closes <= check_in_opens:
        raise LeagueError(
            "invalid_option",
            "Check-in must close after it opens.",
            details={"field": "check_in_closes"},
        )
    sign_up = _locked_sign_up(event.pk)
    if sign_up is None:
        # The event's first: its row locked while it is made, so that a second sent at once
        # (a form sent twice) waits, then finds this one and changes it.
        Event.objects.select_for_update().filter(pk=event.pk).first()
        sign_up = _locked_sign_up(event.pk) or SignUp(event=event)
    if check_in and (not sign_up.check_in or check_in_opens != sign_up.check_in_opens):
        # Check-in turned on, or its opening moved: announced again when it opens.
        sign_up.check_in_announced_at = None
    sign_up.open, sign_up.deadline, sign_up.cap = open, deadline, cap
    sign_up.check_in = check_in
    sign_up.check_in_opens, sign_up.check_in_closes = check_in_opens, check_in_closes
    sign_up.save()
    _move_up(sign_up)
    return sign_up


def waiting_position(registration: Registration) -> int | None:
    """Where a registration on the waiting list stands in it (1: next to move up)."""
    if registration.status != RegistrationStatus.WAITING:
        return None
    ahead = Registration.objects.filter(
        event_id=registration.event_id, status=RegistrationStatus.WAITING
    ).filter(
        Q(created_at__lt=registration.created_at)
        | Q(created_at=registration.created_at, pk__lt=registration.pk)
    )
    return ahead.count() + 1


def closed_because(sign_up: SignUp | None, now: datetime | None = None) -> str:
    """Why players cannot sign up themselves for the event of `sign_up` now (the event has
    none: None), to end a sentence with; empty when they can (`SignUp.closed_because`)."""
    return "it has no sign-up" if sign_up is None else sign_up.closed_because(now)
