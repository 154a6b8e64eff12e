"""A registration made: a player signs up, or the organizers add one (`registration_create`),
and its private link mailed (`mail_link`)."""

import logging
from dataclasses import dataclass
from datetime import datetime

from django.core.mail import send_mail
from django.core.validators import validate_email
from django.db import IntegrityError, transaction

from league.errors import LeagueError
from league.models import Event, Registration, RegistrationStatus, SignUp
from league.models.registration import ACTIVE
from league.services.organization import check_handle, checked_name, folded, passes
from league.services.registration._common import (
    CLOSED_THEN,
    RegistrationConflict,
    _changed,
    _locked_sign_up,
    places_taken,
)
from league.services.registration.keys import _issued_key, key_hash
from league.services.registration.sign_up import closed_because

logger = logging.getLogger(__name__)

EMAIL_LENGTH = 254


@dataclass(frozen=True, slots=True)
class SignedUp:
    """A registration and the key of its private link (shown once, stored hashed): a new one,
    or (`already`) one the same email had signed up, with a new key (its old link no longer
    opens it)."""

    registration: Registration
    key: str
    already: bool = False


def _checked_email(email: str, *, required: bool) -> str:
    email = email.strip()
    if not email:
        if required:
            raise LeagueError(
                "invalid_email",
                "Give an email address: the organizers write to it (it is never shown to "
                "anyone else).",
                details={"field": "email"},
            )
        return ""
    if not passes(email, validate_email, longest=EMAIL_LENGTH):
        raise LeagueError(
            "invalid_email", "This is not an email address.", details={"field": "email"}
        )
    return email


def _checked_handle(handle: str) -> str:
    """The handle as stored (lowercased), checked as it was written (a refusal quotes it so)."""
    handle = handle.strip()
    if handle:
        check_handle(handle)
    return handle.lower()


def _ensure_not_registered(event_id: int, name: str, email: str) -> None:
    """`already_registered` when an active registration of the event has this email, or a
    name that looks the same."""
    active = Registration.objects.filter(event_id=event_id, status__in=ACTIVE)
    if email and active.filter(email__iexact=email).exists():
        raise RegistrationConflict(
            "already_registered",
            "This email address is already signed up for this event.",
            details={"field": "email"},
        )
    key = folded(name)
    for other in active.values_list("display_name", flat=True):
        if folded(other) == key:
            raise RegistrationConflict(
                "already_registered",
                f"{other!r} is already signed up for this event; two names that look alike "
                "would be confused. Add something to tell them apart.",
                details={"field": "display_name"},
            )


@transaction.atomic
def registration_create(
    *,
    event_id: int,
    display_name: str,
    email: str = "",
    handle: str = "",
    by_organizer: bool = False,
    now: datetime | None = None,
) -> SignedUp:
    """Sign a player up for an event, or (`by_organizer`) add them as its organizers do. A
    player needs the sign-up open and before its deadline, the event not closed
    (`registration_closed`), and a contact email (`invalid_email`); an organizer adds players
    whenever the event is open, with or without an email. The name follows the names' rules
    (`invalid_name`); the email, and a name that looks the same, are taken once per event
    (`already_registered`, 409). Beyond the cap the registration joins the waiting list
    (`status` "waiting"): `event_full` is never an error."""
    event = Event.objects.select_related("league").get(pk=event_id)
    sign_up = _locked_sign_up(event_id)
    if by_organizer:
        event.ensure_open(then=CLOSED_THEN)
        if sign_up is None:  # the organizers take sign-ups themselves: the event now has one
            sign_up = SignUp.objects.create(event=event, open=False)
    elif sign_up is None or not sign_up.takes_sign_ups(now):
        because = closed_because(sign_up, now)
        raise RegistrationConflict(
            "registration_closed",
            f"{event.name} takes no sign-ups now: {because}.",
            details={"event": event.pk},
        )
    name = checked_name(display_name)
    email = _checked_email(email, required=not by_organizer)
    handle = _checked_handle(handle)
    if by_organizer:
        _ensure_not_registered(event_id, name, email)
    else:
        # A player's sign-up tells nothing of who else signed up: the same email gets its
        # registration's link again (a new key), by mail as a new one does, and a name like
        # another's is for the organizers to tell apart when they approve it.
        mine = Registration.objects.filter(
            event_id=event_id, status__in=ACTIVE, email__iexact=email
        ).first()
        if mine is not None:
            return _new_key(mine)
    full = sign_up.cap is not None and places_taken(event_id) >= sign_up.cap
    key, seed = _issued_key()
    try:
        with transaction.atomic():
            registration = Registration.objects.create(
                event=event,
                display_name=name,
                email=email,
                handle=handle,
                by_organizer=by_organizer,
                status=RegistrationStatus.WAITING if full else RegistrationStatus.PENDING,
                key_hash=key_hash(key),
                key_seed=seed,
            )
    except IntegrityError:  # the same email, committed between the check and the insert
        if not by_organizer:
            mine = Registration.objects.filter(
                event_id=event_id, status__in=ACTIVE, email__iexact=email
            ).first()
            if mine is not None:
                return _new_key(mine)
        raise RegistrationConflict(
            "already_registered",
            "This email address is already signed up for this event.",
            details={"field": "email"},
        ) from None
    _changed(registration, "received")
    return SignedUp(registration, key)


def _new_key(registration: Registration) -> SignedUp:
    """The registration with a new key for its private link (the old one opens it no more)."""
    key, seed = _issued_key()
    Registration.objects.filter(pk=registration.pk).update(key_hash=key_hash(key), key_seed=seed)
    registration.key_hash, registration.key_seed = key_hash(key), seed
    return SignedUp(registration, key, already=True)


def mail_link(done: SignedUp, *, link: str) -> None:
    """Send a player's sign-up its private link (`link`, the registration's page with its key),
    once the transaction commits: the link goes to the address, never to the screen that
    asked, so a sign-up tells no one whether an address had signed up before."""
    registration = done.registration
    event = registration.event
    if done.already:
        opening = (
            f"You are signed up for {event.name} already, as {registration.display_name}. "
            "Here is a new link to your sign-up; the one sent before no longer opens it."
        )
    else:
        opening = (
            f"You signed up for {event.name} as {registration.display_name}. "
            "The organizers confirm each sign-up."
        )
    body = (
        f"{opening}\n\nYour sign-up's own page (where it stands, check-in, withdrawal):\n"
        f"{link}\n\nKeep this link to yourself: whoever holds it can withdraw you.\n"
    )
    subject = f"Your sign-up for {event.name}"
    transaction.on_commit(lambda: _send(subject, body, registration.email), robust=True)


def _send(subject: str, body: str, address: str) -> None:
    try:
        send_mail(subject, body, None, [address])
    except Exception:  # a mail server down loses this mail, not the sign-up: logged
        logger.warning("Could not mail a sign-up's link to its address.", exc_info=True)
