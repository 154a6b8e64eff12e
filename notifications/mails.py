"""What each notification's mail says (docs/notifications.md): plain text, and in every one the
player's own page and the link that stops further mail.

The player's own page is their registration's private page (`/sign-up/<key>/`): its key is
derived again from the stored seed (`league.services.registration.link_key`), so the mail
carries the link the player already holds, never a new one behind their back. A registration
whose key cannot be derived (made before keys had seeds) gets its event's sign-up page
instead, where signing up again with the same email mails a fresh link."""

from dataclasses import dataclass
from datetime import datetime
from zoneinfo import ZoneInfo

from django.conf import settings
from django.core import signing
from django.core.mail import EmailMessage
from django.urls import reverse
from django.utils import timezone

from games.models import Match, MatchStatus
from league.models import Event, Registration, RegistrationStatus, SignUp
from league.services.registration import link_key
from notifications.models import Kind, Notification

UNSUBSCRIBE_SALT = "notifications.unsubscribe"


@dataclass(frozen=True, slots=True)
class Mail:
    subject: str
    body: str
    to: str
    unsubscribe_url: str

    def message(self) -> EmailMessage:
        """The mail, with the headers a mail client offers its own unsubscribe button with
        (RFC 2369, and RFC 8058's one click: a POST to the same link)."""
        return EmailMessage(
            self.subject,
            self.body,
            None,
            [self.to],
            headers={
                "List-Unsubscribe": f"<{self.unsubscribe_url}>",
                "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
            },
        )


def site(path: str) -> str:
    """An absolute link on this site (`SITE_URL`): a job has no request to build one from."""
    return str(settings.SITE_URL).rstrip("/") + path


def unsubscribe_url(registration: Registration) -> str:
    token = signing.dumps(registration.pk, salt=UNSUBSCRIBE_SALT)
    return site(reverse("notifications:unsubscribe", args=[token]))


def own_page(registration: Registration) -> str:
    """The lines that lead the player to their own page."""
    key = link_key(registration)
    if key is not None:
        link = site(reverse("league:registration", args=[key]))
        return f"Your sign-up's own page (where it stands, check-in, withdrawal):\n{link}\n"
    sign_up = site(reverse("league:sign_up", args=[registration.event_id]))
    return (
        "Your sign-up's own page is the link mailed to you when you signed up. Lost it? Sign "
        f"up again at {sign_up} with the same email address: a new link is mailed to you (the "
        "old one then stops working).\n"
    )


def _when(match: Match) -> str:
    if match.planned_at is None:
        return ""
    local = match.planned_at.astimezone(ZoneInfo(match.display_zone))
    return f"{local:%H:%M} ({match.display_zone}) on {local:%A %d %B}"


def _table(match: Match, registration: Registration) -> str:
    """Where and when, and whom against."""
    others = [
        seat.player.display_name
        for seat in match.seats.select_related("player").order_by("order")
        if seat.player_id != registration.player_id
    ]
    lines = []
    if match.table_label:
        lines.append(f"Table: {match.table_label}")
    when = _when(match)
    if when:
        lines.append(f"Start: {when}")
    if others:
        lines.append(f"Against: {', '.join(others)}")
    lines.append(f"The match's page: {site(reverse('games:match', args=[match.pk]))}")
    return "\n".join(lines) + "\n"


def _check_in_now(event: Event, now: datetime) -> str:
    """For a player confirmed once check-in has opened (its announcement went before them)."""
    sign_up = SignUp.objects.select_related("event").filter(event=event).first()
    if sign_up is None or not sign_up.check_in_window_open(now):
        return ""
    return "Check-in is open now: check in from your sign-up's own page (below).\n"


def _news(notification: Notification, now: datetime) -> tuple[str, str] | None:
    """The subject and the opening of the mail; None when the news no longer stands (the
    registration decided otherwise since, the check-in closed, the match started or void)."""
    registration = notification.registration
    event = registration.event
    status = registration.status
    kind = notification.kind
    if kind == Kind.RECEIVED and registration.is_active:
        where = registration.get_status_display().lower()
        return (
            f"You are signed up for {event.name}",
            f"The organizers of {event.name} signed you up as {registration.display_name}. "
            f"Your sign-up: {where}.\n",
        )
    if kind == Kind.APPROVED and status == RegistrationStatus.CONFIRMED:
        return (
            f"Your place in {event.name} is confirmed",
            f"The organizers confirmed your sign-up for {event.name} "
            f"({event.date:%A %d %B %Y}): see you there, {registration.display_name}.\n"
            + _check_in_now(event, now),
        )
    if kind == Kind.REFUSED and status == RegistrationStatus.REFUSED:
        return (
            f"Your sign-up for {event.name}",
            f"The organizers of {event.name} could not give your sign-up a place.\n",
        )
    if kind == Kind.MOVED_UP and status == RegistrationStatus.PENDING:
        return (
            f"You moved up from the waiting list of {event.name}",
            f"A place freed in {event.name}: your sign-up left the waiting list and now waits "
            "for the organizers' approval.\n",
        )
    if kind == Kind.CHECK_IN_OPENED and status == RegistrationStatus.CONFIRMED:
        sign_up = SignUp.objects.select_related("event").filter(event=event).first()
        if sign_up is None or not sign_up.check_in or event.is_closed:
            return None  # turned off before the mail went
        if sign_up.check_in_closes is not None and sign_up.check_in_closes <= now:
            return None  # over before the mail went
        until = ""
        if sign_up.check_in_closes is not None:
            closes = timezone.localtime(sign_up.check_in_closes)
            until = f" until {closes:%H:%M %Z on %A %d %B}"
        return (
            f"Check-in for {event.name} is open",
            f"Check-in for {event.name} is open{until}: check in from your sign-up's own page "
            "(below), or ask an organizer at the event. A stage seats only the players "
            "checked in.\n",
        )
    match = notification.match
    if match is None or match.status != MatchStatus.SCHEDULED:
        return None
    if kind == Kind.MATCH_READY:
        return (
            f"Your table in {event.name} is ready",
            f"Your next match in {event.name} is drawn.\n\n{_table(match, registration)}",
        )
    if kind == Kind.TABLE_SOON:
        return (
            f"Your table in {event.name} starts soon",
            f"Your match in {event.name} starts soon.\n\n{_table(match, registration)}",
        )
    return None


def compose(notification: Notification, *, now: datetime) -> Mail | None:
    """The notification's mail, or None when its news no longer stands."""
    news = _news(notification, now)
    if news is None:
        return None
    subject, opening = news
    registration = notification.registration
    league = registration.event.league
    stop = unsubscribe_url(registration)
    body = (
        f"Hello {registration.display_name},\n\n{opening}\n{own_page(registration)}\n"
        f"--\nYou get this mail because you signed up for {registration.event.name} "
        f"({league.name}). No more mail from {league.name}, or from any league:\n{stop}\n"
    )
    return Mail(subject=subject, body=body, to=notification.email, unsubscribe_url=stop)
