"""Sign-up and check-in of an event (docs/organizing.md, "Sign-up and check-in").

An event's organizers open its sign-up (`sign_up_set`): until a deadline, with an optional cap
of places and a waiting list beyond it, and optionally check-in. Players sign up
(`registration_create`: a name, a contact email, maybe a handle) or the organizers add them;
the organizers approve (`registration_approve`: linked to an existing player it matches, or a
new player, never merged behind anyone's back) or refuse. A refusal or a withdrawal frees a
place, and the first on the waiting list moves up. With check-in, a stage started seats only
the players checked in (`absent_dropped`, called by `stages.stage_start`).

Every write locks the event's sign-up row first, so places are counted one writer at a time.
A registration received, approved, refused or moved up is sent on commit as
`league.signals.registration_changed`, and an opened check-in window as `check_in_opened` by
`check_in_sweep` (beat): the notifications and webhooks hear of them (docs/notifications.md)."""

import base64
import hashlib
import logging
import secrets
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.core.mail import send_mail
from django.core.validators import validate_email
from django.db import IntegrityError, transaction
from django.db.models import F, Q
from django.db.models.functions import Lower
from django.utils import timezone
from django.utils.crypto import salted_hmac

from league import signals
from league.errors import EventConflict, LeagueError, LeagueForbidden
from league.models import (
    Event,
    EventStatus,
    League,
    Player,
    Registration,
    RegistrationStatus,
    SignUp,
    Stage,
    StageEntry,
    StageStatus,
)
from league.models.registration import ACTIVE, HOLDING_PLACE
from league.selectors import entered_stages
from league.services import locks
from league.services.organization import (
    check_handle,
    checked_name,
    folded,
    free_handle,
    handle_from_name,
    handles_in_use,
    passes,
    player_create,
)
from league.services.organization._common import _ensure_name_free

logger = logging.getLogger(__name__)

EMAIL_LENGTH = 254
CLOSED_STATUSES = (EventStatus.FINISHED, EventStatus.CANCELLED)
# What a closed event's `event_closed` says of its sign-up (every write here checks it).
CLOSED_THEN = "its sign-up takes no more changes. Its organizers can reopen it."


class RegistrationConflict(EventConflict):
    """The registration cannot do this in its current state (HTTP 409)."""


# --- Keys ---------------------------------------------------------------------------------------


def key_hash(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


# What a key is derived under (with the site's SECRET_KEY): only these links use it.
KEY_SALT = "league.registration.key"


def _derived_key(seed: str) -> str:
    """The key a seed stands for: 24 bytes of HMAC-SHA256 under SECRET_KEY, URL-safe (32
    characters, as `secrets.token_urlsafe(24)` gave before)."""
    digest = salted_hmac(KEY_SALT, seed, algorithm="sha256").digest()[:24]
    return base64.urlsafe_b64encode(digest).decode()


def _issued_key() -> tuple[str, str]:
    """A new key for a private link, and the seed it is derived from (stored; the key never
    is: a copy of the database alone opens no registration)."""
    seed = secrets.token_urlsafe(16)
    return _derived_key(seed), seed


def link_key(registration: Registration) -> str | None:
    """The key of the registration's private link as it stands, derived again from its seed,
    so that a mail carries the link the player already has (never a new one behind their
    back). None when it cannot be: a key made before keys had seeds, or SECRET_KEY changed
    since (the key derived then no longer matches the stored hash)."""
    if not registration.key_seed:
        return None
    key = _derived_key(registration.key_seed)
    return key if secrets.compare_digest(key_hash(key), registration.key_hash) else None


def registration_by_key(key: str) -> Registration | None:
    """The registration a private link's key opens, or None."""
    if not key or len(key) > 64:
        return None
    return (
        Registration.objects.select_related("event__league", "player")
        .filter(key_hash=key_hash(key))
        .first()
    )


# --- The event's sign-up ------------------------------------------------------------------------


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


# --- Signing up ---------------------------------------------------------------------------------


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


def closed_because(sign_up: SignUp | None, now: datetime | None = None) -> str:
    """Why players cannot sign up themselves for the event of `sign_up` now (the event has
    none: None), to end a sentence with; empty when they can (`SignUp.closed_because`)."""
    return "it has no sign-up" if sign_up is None else sign_up.closed_because(now)


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


# --- Matching a registration with the players there are ------------------------------------------


@dataclass(frozen=True, slots=True)
class Candidate:
    """An existing player a registration may be: matched by `email` (a registration of theirs,
    confirmed before, gave the same one), `handle`, or `name` (on the league's roster)."""

    player: Player
    by: tuple[str, ...]


def registration_candidates(registration: Registration, *, by: Any = None) -> list[Candidate]:
    """The existing players this registration matches, for its organizers to choose from: by
    the email a confirmed registration of theirs gave (in any league), by handle, and by a
    name that looks the same on the league's roster. With `by` (the organizer who chooses),
    only the players `by` may link it to (`linkable`); without, every match."""
    return candidates_of([registration], by=by)[registration.pk]


def linkable(league: League, user: Any, player_ids: Iterable[int]) -> set[int]:
    """Of `player_ids`, the players `user` may link a registration of `league` to: one on
    `league`'s roster or on none, or one `user` may already change (an organizer of a league
    whose roster they are on, or staff), as `POST leagues/{slug}/players/` has it. Being on a
    roster lets its organizers rename a player, so a sign-up naming someone's handle or email
    must not hand another league's player to whoever approves it. `user` None (a command, the
    demo): all of them. Two queries, however many players."""
    ids = set(player_ids)
    if user is None or not ids:
        return ids
    players = Player.objects.filter(pk__in=ids)
    free = players.filter(Q(leagues=league) | Q(leagues=None)).values_list("pk", flat=True)
    return set(free) | set(players.changeable_by(user).values_list("pk", flat=True))


def candidates_of(
    registrations: Sequence[Registration], *, by: Any = None
) -> dict[int, list[Candidate]]:
    """`registration_candidates` of several registrations of one event, by registration id
    (with `by`, only the players `by` may link them to): a fixed number of queries, however
    many there are."""
    if not registrations:
        return {}
    emails = {r.email.lower() for r in registrations if r.email}
    by_email: dict[str, list[Player]] = {}
    confirmed = (
        Registration.objects.annotate(email_key=Lower("email"))
        .filter(email_key__in=emails, status=RegistrationStatus.CONFIRMED)
        .select_related("player")
        .order_by("player_id")
    )
    for row in confirmed if emails else ():
        if row.player is not None and row.player not in by_email.get(row.email_key, []):
            by_email.setdefault(row.email_key, []).append(row.player)
    handles = {r.handle for r in registrations if r.handle}
    # In any case of its letters: a registration's handle is lowercased, a player's may not be.
    lowered = Player.objects.annotate(lowered=Lower("handle"))
    by_handle = (
        {p.handle.lower(): p for p in lowered.filter(lowered__in=handles)} if handles else {}
    )
    league = registrations[0].event.league
    by_name: dict[str, list[Player]] = {}
    for player in league.players.all():
        by_name.setdefault(folded(player.display_name), []).append(player)
    answer = {}
    for registration in registrations:
        found: dict[int, tuple[Player, list[str]]] = {}
        matched = (
            ("email", by_email.get(registration.email.lower(), []) if registration.email else []),
            (
                "handle",
                [by_handle[registration.handle]] if registration.handle in by_handle else [],
            ),
            ("name", by_name.get(folded(registration.display_name), [])),
        )
        for reason, players in matched:
            for player in players:
                found.setdefault(player.pk, (player, []))[1].append(reason)
        answer[registration.pk] = [Candidate(player, tuple(how)) for player, how in found.values()]
    if by is not None:
        allowed = linkable(league, by, {c.player.pk for found in answer.values() for c in found})
        answer = {pk: [c for c in found if c.player.pk in allowed] for pk, found in answer.items()}
    return answer


# --- The organizers' decision --------------------------------------------------------------------


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


def _new_player(registration: Registration) -> Player:
    """A new player from a registration: the handle they gave when no one has it, else one
    made from their name; on the league's roster (`name_taken` when a name there looks the
    same: link the registration to that player, or tell the two apart)."""
    handle = registration.handle
    base = handle_from_name(registration.display_name)
    taken = handles_in_use([handle] if handle else [], [base])
    if not handle or handle in taken:
        handle = free_handle(base, taken)
    return player_create(
        display_name=registration.display_name,
        handle=handle,
        league=registration.event.league,
        handle_free=True,  # chosen among the handles in use, just read
    )


def _is_candidate(registration: Registration, player_id: int) -> bool:
    return any(c.player.pk == player_id for c in registration_candidates(registration))


@transaction.atomic
def registration_approve(
    *,
    registration_id: int,
    player_id: int | None = None,
    new_player: bool = False,
    by: Any = None,
) -> Registration:
    """Confirm a registration waiting for approval: linked to an existing player (`player_id`:
    one it matches, or a player on the league's roster) or as a new player (`new_player`). A
    registration that matches existing players needs that choice (`player_match`, 409,
    `details.candidates`): two people are never merged, nor one split in two, behind anyone's
    back. A player is confirmed once per event (`already_registered`); the confirmed player
    joins the league's roster. Only a pending registration is approved (`registration_decided`;
    one on the waiting list moves up when a place frees: `on_waiting_list`).

    A player on other leagues' rosters is linked only when `by` (the approving organizer) may
    already change them (`linkable`; `permission_denied`, 403: make a new player instead), and
    `player_match` offers only the matches `by` may link; when there are none, `{}` makes a new
    player, as for a registration that matches no one. `by` None (a command, the demo) checks
    nothing."""
    _sign_up, registration = _locked_registration(registration_id)
    if registration.status == RegistrationStatus.WAITING:
        raise RegistrationConflict(
            "on_waiting_list",
            f"{registration.display_name} is on the waiting list: they move up when a place "
            "frees (refuse or withdraw someone, or raise the cap).",
            details={"registration": registration.pk},
        )
    _ensure_status(registration, RegistrationStatus.PENDING, doing="approved")
    league = registration.event.league
    if player_id is not None:
        player = Player.objects.filter(pk=player_id).first()
        on_roster = league.players.filter(pk=player_id).exists()
        if player is None or not (on_roster or _is_candidate(registration, player_id)):
            raise LeagueError(
                "unknown_player",
                f"Player {player_id} is neither a match of this registration nor on the roster "
                f"of {league.name}.",
                details={"field": "player", "player": player_id},
            )
        if registration.event.registrations.filter(
            player=player, status=RegistrationStatus.CONFIRMED
        ).exists():
            raise RegistrationConflict(
                "already_registered",
                f"{player.display_name} is already confirmed for this event.",
                details={"field": "player", "player": player.pk},
            )
        if not on_roster and player.pk not in linkable(league, by, [player.pk]):
            raise LeagueForbidden(
                "permission_denied",
                f"{player.display_name} plays in leagues you do not organize: only their "
                "organizers may put them on another roster. Make a new player of this "
                "registration instead.",
                details={"field": "player", "player": player.pk},
            )
        if not on_roster:
            _ensure_name_free(league, player.display_name, exclude=[player.pk])
            league.players.add(player)
    elif new_player:
        player = _new_player(registration)
    else:
        candidates_found = registration_candidates(registration, by=by)
        if candidates_found:
            raise RegistrationConflict(
                "player_match",
                f"{registration.display_name} may be a player there is already: link the "
                "registration to one of them, or make a new player.",
                details={
                    "candidates": [
                        {"player": c.player.pk, "display_name": c.player.display_name, "by": c.by}
                        for c in candidates_found
                    ]
                },
            )
        player = _new_player(registration)
    registration.player = player
    registration.status = RegistrationStatus.CONFIRMED
    registration.decided_at = timezone.now()
    registration.save(update_fields=["player", "status", "decided_at"])
    _changed(registration, "approved")
    return registration


@transaction.atomic
def registration_refuse(*, registration_id: int) -> Registration:
    """Refuse a registration waiting for approval or on the waiting list, while the event is
    open (`event_closed`). A place it held goes to the first on the waiting list."""
    sign_up, registration = _locked_registration(registration_id)
    _ensure_status(
        registration, RegistrationStatus.PENDING, RegistrationStatus.WAITING, doing="refused"
    )
    registration.status = RegistrationStatus.REFUSED
    registration.decided_at = timezone.now()
    registration.save(update_fields=["status", "decided_at"])
    _changed(registration, "refused")
    _move_up(sign_up)
    return registration


@transaction.atomic
def registration_withdraw(*, registration_id: int, by_player: bool = False) -> Registration:
    """The player is out (they withdrew, or an organizer took them off): from any active
    state, while the event is open (`event_closed`). A place it held goes to the first on the
    waiting list. A confirmed player stays on the league's roster (their record is theirs) but
    is no longer checked in. The player themselves (`by_player`) cannot leave while entered in
    a running stage (`still_playing`): their tables need an organizer's withdrawal, which
    settles them (docs/organizing.md, "Withdrawing a player")."""
    sign_up, registration = _locked_registration(registration_id)
    _ensure_status(registration, *ACTIVE, doing="withdrawn")
    if by_player:
        _ensure_not_playing(registration)
    registration.status = RegistrationStatus.WITHDRAWN
    registration.checked_in_at = None
    registration.decided_at = timezone.now()
    registration.save(update_fields=["status", "checked_in_at", "decided_at"])
    _move_up(sign_up)
    return registration


def _ensure_not_playing(registration: Registration) -> None:
    """Refuse (`still_playing`) while the registration's player is entered, and not withdrawn,
    in a stage of its event that is running."""
    if registration.player_id is None:
        return
    playing = entered_stages(registration.event_id, registration.player_id, (StageStatus.RUNNING,))
    if playing:
        names = ", ".join(name for _, name in playing)
        raise RegistrationConflict(
            "still_playing",
            f"You are playing in {names} of {registration.event.name}: ask an organizer to "
            "withdraw you, so that your tables are settled.",
            details={"stages": [stage_id for stage_id, _ in playing]},
        )


# --- Check-in -----------------------------------------------------------------------------------


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
