"""Every write of the notifications, one function per use case (docs/notifications.md): what
league's news becomes (one `Notification` a player, made before anything is sent, under a key
that is unique), sending one (`notification_send`, the job `notifications.send`, retried), the
sweep (tables starting soon, and sends whose job was lost or whose retry is due), and
unsubscribing.

A notification is made only once the change it tells of has committed (league's signals are
sent on commit), and its mail is sent by a job once the notification's own row has: a request
never waits for a mail server, and a rolled-back change mails no one."""

import logging
from datetime import datetime, timedelta

from django.conf import settings
from django.core import signing
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.db.models.functions import Lower
from django.utils import timezone

from core.jobs import enqueue_on_commit, send
from games.models import Match, MatchStatus
from league.models import EventStatus, Registration, RegistrationStatus
from notifications import mails
from notifications.models import Kind, Notification, Status, Unsubscribe

logger = logging.getLogger(__name__)

SEND = "notifications.send"
# A notification still pending this long after it was made lost its job (the broker was down):
# the sweep sends it.
SWEEP_GRACE = timedelta(seconds=60)
CLOSED_EVENT = (EventStatus.FINISHED, EventStatus.CANCELLED)


# --- Making them -------------------------------------------------------------------------------


def _plan(
    kind: str, key: str, registration: Registration, match_id: int | None = None
) -> Notification | None:
    """The notification named `key`, made once (a second call finds it and sends nothing);
    its job enqueued once this commits. None for a registration with no email."""
    if not registration.email:
        return None
    notification, made = Notification.objects.get_or_create(
        key=key,
        defaults={
            "kind": kind,
            "email": registration.email,
            "league_id": registration.event.league_id,
            "registration": registration,
            "match_id": match_id,
        },
    )
    if not made:
        return None
    enqueue_on_commit(SEND, notification.pk)
    return notification


@transaction.atomic
def registration_news(*, registration_id: int, change: str) -> Notification | None:
    """A registration received, approved, refused or moved up (`league.signals`): its holder is
    told once. A sign-up a player made themselves is not "received" again: the mail with its
    private link (`registration.mail_link`) is its receipt; one the organizers made is."""
    registration = Registration.objects.select_related("event").filter(pk=registration_id).first()
    if registration is None or (change == Kind.RECEIVED and not registration.by_organizer):
        return None
    return _plan(change, f"{change}:registration:{registration_id}", registration)


@transaction.atomic
def check_in_news(*, event_id: int, opened_at: datetime) -> list[Notification]:
    """The event's check-in opened: every confirmed player with an email is told, once an
    opening (`opened_at` tells this opening from a later one, after it was moved)."""
    stamp = int(opened_at.timestamp())
    confirmed = Registration.objects.select_related("event").filter(
        event_id=event_id, status=RegistrationStatus.CONFIRMED
    )
    made = [
        _plan(Kind.CHECK_IN_OPENED, f"check_in_opened:registration:{r.pk}:{stamp}", r)
        for r in confirmed.exclude(email="")
    ]
    return [notification for notification in made if notification is not None]


def _seated(match: Match, event_id: int) -> list[Registration]:
    """The confirmed registrations, with an email, of the players seated at an event's match."""
    players = list(match.seats.values_list("player_id", flat=True))
    return list(
        Registration.objects.select_related("event")
        .filter(event_id=event_id, status=RegistrationStatus.CONFIRMED, player_id__in=players)
        .exclude(email="")
    )


@transaction.atomic
def match_news(*, match_id: int) -> list[Notification]:
    """A stage match was seated: each of its registered players is told their table is ready."""
    match = Match.objects.filter(
        pk=match_id, status=MatchStatus.SCHEDULED, event__isnull=False
    ).first()
    if match is None or match.event_id is None:
        return []
    made = [
        _plan(Kind.MATCH_READY, f"match_ready:match:{match_id}:registration:{r.pk}", r, match_id)
        for r in _seated(match, match.event_id)
    ]
    return [notification for notification in made if notification is not None]


def tables_soon(*, now: datetime | None = None) -> int:
    """Tell the registered players of every match still to be played whose planned start is
    within `NOTIFY_TABLE_MINUTES` that their table is up. Once a start: a match moved to
    another time is told of again. How many notifications it made."""
    now = now or timezone.now()
    lead = timedelta(minutes=settings.NOTIFY_TABLE_MINUTES)
    soon = (
        Match.objects.filter(
            status=MatchStatus.SCHEDULED, planned_at__gt=now, planned_at__lte=now + lead
        )
        .exclude(event=None)
        .exclude(event__status__in=CLOSED_EVENT)
    )
    made = 0
    for match in soon:
        if match.planned_at is None or match.event_id is None:  # pragma: no cover - filtered
            continue
        stamp = int(match.planned_at.timestamp())
        with transaction.atomic():
            for registration in _seated(match, match.event_id):
                key = f"table_soon:match:{match.pk}:registration:{registration.pk}:{stamp}"
                made += _plan(Kind.TABLE_SOON, key, registration, match.pk) is not None
    return made


# --- Sending one -------------------------------------------------------------------------------


def _claim(notification_id: int, now: datetime) -> tuple[Notification, mails.Mail] | None:
    """Take the notification for its one send, if it is pending and due: its mail. One that
    is unsubscribed, or whose news no longer stands, is closed unsent (`skipped`)."""
    with transaction.atomic():
        notification = (
            Notification.objects.select_for_update(of=("self",), skip_locked=True)
            .select_related("registration__event__league", "registration__player", "match")
            .filter(pk=notification_id)
            .first()
        )
        if notification is None or notification.status != Status.PENDING:
            return None  # sent, being sent (never twice), or given up
        due = notification.next_attempt_at
        if due is not None and due > now + timedelta(seconds=1):
            return None  # a retry due later
        if unsubscribed(notification.email, notification.league_id):
            _skipped(notification, "unsubscribed")
            return None
        mail = mails.compose(notification, now=now)
        if mail is None:
            _skipped(notification, "no longer so when it was to be sent")
            return None
        notification.status = Status.SENDING
        notification.attempts += 1
        notification.subject = mail.subject[:200]
        notification.save(update_fields=["status", "attempts", "subject"])
    return notification, mail


def _skipped(notification: Notification, why: str) -> None:
    notification.status = Status.SKIPPED
    notification.last_error = why
    notification.next_attempt_at = None
    notification.save(update_fields=["status", "last_error", "next_attempt_at"])


def notification_send(*, notification_id: int, now: datetime | None = None) -> float | None:
    """Send the notification's mail if it is pending and due; the seconds until its retry when
    the mail server failed and it may be tried again (`NOTIFY_RETRY_SECONDS`), None otherwise.
    Safe to run twice: the row is claimed (`sending`) before the mail goes, so a second run
    finds it taken and sends nothing."""
    now = now or timezone.now()
    claimed = _claim(notification_id, now)
    if claimed is None:
        return None
    notification, mail = claimed
    try:
        mail.message().send()
    except Exception as error:  # an SMTP error, a refused connection: tried again
        return _failed(notification.pk, error)
    Notification.objects.filter(pk=notification.pk).update(
        status=Status.SENT, sent_at=timezone.now(), next_attempt_at=None, last_error=""
    )
    return None


@transaction.atomic
def _failed(notification_id: int, error: Exception) -> float | None:
    notification = Notification.objects.select_for_update().get(pk=notification_id)
    delays = [float(seconds) for seconds in settings.NOTIFY_RETRY_SECONDS]
    notification.last_error = f"{type(error).__name__}: {error}"[:300]
    retry_in: float | None = None
    if notification.attempts <= len(delays):
        retry_in = delays[notification.attempts - 1]
        notification.status = Status.PENDING
        notification.next_attempt_at = timezone.now() + timedelta(seconds=retry_in)
    else:
        notification.status = Status.FAILED
        notification.next_attempt_at = None
    notification.save(update_fields=["status", "last_error", "next_attempt_at"])
    logger.warning(
        "Notification %s, attempt %d: %s.",
        notification.pk,
        notification.attempts,
        notification.last_error,
    )
    return retry_in


def notifications_sweep(*, now: datetime | None = None) -> dict[str, int]:
    """Run by Celery beat every minute: tell the players whose table is up soon, and send the
    pending notifications whose job was lost or whose retry is due (without a broker, a retry
    waits for this). Safe to run twice."""
    now = now or timezone.now()
    made = tables_soon(now=now)
    due = list(
        Notification.objects.filter(status=Status.PENDING)
        .filter(
            Q(next_attempt_at__lte=now) | Q(next_attempt_at=None, created_at__lte=now - SWEEP_GRACE)
        )
        .values_list("pk", flat=True)
    )
    for notification_id in due:
        send(SEND, (notification_id,))
    return {"tables_soon": made, "sent_again": len(due)}


# --- Unsubscribing -----------------------------------------------------------------------------


def unsubscribed(email: str, league_id: int) -> bool:
    """Whether `email` asked for no more mail from this league, or from every league."""
    return (
        Unsubscribe.objects.annotate(address=Lower("email"))
        .filter(address=email.lower())
        .filter(Q(league_id=league_id) | Q(league=None))
        .exists()
    )


def registration_of_token(token: str) -> Registration | None:
    """The registration an unsubscribe link was made for, or None (a token not ours)."""
    try:
        registration_id = signing.loads(token, salt=mails.UNSUBSCRIBE_SALT)
    except signing.BadSignature:
        return None
    if type(registration_id) is not int:
        return None
    return Registration.objects.select_related("event__league").filter(pk=registration_id).first()


def unsubscribe(*, email: str, league_id: int | None) -> Unsubscribe:
    """No more mail to `email` from the league (`league_id` None: from every league). Safe to
    ask twice: the second finds the first."""
    address = email.strip().lower()
    same = Unsubscribe.objects.filter(email=address)
    same = same.filter(league=None) if league_id is None else same.filter(league_id=league_id)
    try:
        with transaction.atomic():
            return same.first() or Unsubscribe.objects.create(email=address, league_id=league_id)
    except IntegrityError:  # the same, stored at once by another request
        return same.get()
