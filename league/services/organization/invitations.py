"""An organizer invites a co-organizer by email (`invitation_create`, mailed by
`invitation_mail`), or takes the invitation back (`invitation_revoke`); whoever opens its link
accepts it (`invitation_accept`, or `invitation_accept_new_account` with an account made there)
and organizes the league (docs/organizing.md, "Bringing a co-organizer").

The link's token is a secret: only its SHA-256 is stored (`token_hash`), it is mailed once and
never shown on a page, and every log writes it as `[redacted]` (config/logging.py)."""

import hashlib
import hmac
import logging
import secrets
from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.core.mail import send_mail
from django.core.validators import validate_email
from django.db import IntegrityError, transaction
from django.utils import dateformat, timezone

from league import models
from league.errors import InvitationGone, LeagueError

logger = logging.getLogger(__name__)

# 256 bits: `secrets.token_urlsafe` writes them in 43 characters, which no one guesses.
TOKEN_BYTES = 32
TOKEN_LENGTH = 64  # the longest token a link may hold (the URL converter's bound)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass(frozen=True, slots=True)
class InvitationSent:
    """A new invitation and its link's token, which exists only here: mail it, show it nowhere."""

    invitation: models.OrganizerInvitation
    token: str
    replaced: bool  # an open invitation to the same address was revoked for it


@dataclass(frozen=True, slots=True)
class InvitationAccepted:
    invitation: models.OrganizerInvitation
    league: models.League
    already: bool  # the user organized the league before: the invitation is used all the same


def time_words(moment: object) -> str:
    """A time as the mail and the pages say it, in the site's zone: "12 December 2026, 18:00"."""
    return dateformat.format(timezone.localtime(moment), "j F Y, H:i")  # type: ignore[arg-type]


def invitation_by_token(token: str) -> models.OrganizerInvitation | None:
    """The invitation a link's token opens (in any state), or None."""
    if not token or len(token) > TOKEN_LENGTH:
        return None
    digest = token_hash(token)
    invitation = (
        models.OrganizerInvitation.objects.select_related("league", "invited_by", "accepted_by")
        .filter(token_hash=digest)
        .first()
    )
    # The index finds the row by the digest (a timing there tells nothing of the token); the
    # digests are compared again in constant time, so nothing compares a secret byte by byte.
    if invitation is None or not hmac.compare_digest(invitation.token_hash, digest):
        return None
    return invitation


def ensure_invitation_usable(invitation: models.OrganizerInvitation) -> None:
    """`InvitationGone` (410) unless the invitation still makes an organizer: used already
    (`invitation_used`), revoked or replaced by a newer one (`invitation_revoked`), expired
    (`invitation_expired`)."""
    league = invitation.league
    ask = f"Ask an organizer of {league.name} for a new invitation if you still need one."
    state = invitation.state
    if state == models.InvitationState.ACCEPTED:
        raise InvitationGone(
            "invitation_used",
            f"This invitation to organize {league.name} was accepted already, on "
            f"{time_words(invitation.accepted_at)}: a link works once. {ask}",
            details={"league": league.slug},
        )
    if state == models.InvitationState.REVOKED:
        newer = (
            models.OrganizerInvitation.objects.filter(
                league=league, email__iexact=invitation.email, created_at__gt=invitation.created_at
            )
            .exclude(pk=invitation.pk)
            .exists()
        )
        why = (
            "was replaced by a newer one sent to the same address: open the link of the "
            "latest mail."
            if newer
            else f"was withdrawn by an organizer. {ask}"
        )
        raise InvitationGone(
            "invitation_revoked",
            f"This invitation to organize {league.name} {why}",
            details={"league": league.slug, "replaced": newer},
        )
    if state == models.InvitationState.EXPIRED:
        raise InvitationGone(
            "invitation_expired",
            f"This invitation to organize {league.name} expired on "
            f"{time_words(invitation.expires_at)}. {ask}",
            details={"league": league.slug},
        )


def _checked_email(email: str) -> str:
    email = email.strip()
    try:
        validate_email(email)
    except ValidationError:
        raise LeagueError(
            "invalid_email", "It is not an email address.", details={"field": "email"}
        ) from None
    return email


@transaction.atomic
def invitation_create(*, league: models.League, email: str, invited_by: User) -> InvitationSent:
    """Invite `email` to organize `league`, for `ORGANIZER_INVITATION_DAYS` days. An open
    invitation to the same address (in any case of its letters) is revoked: the newest link is
    the one that works. Refused when an organizer of the league has that address already
    (`already_organizer`). The league's row is locked, as when organizers are added and
    removed."""
    email = _checked_email(email)
    models.League.objects.select_for_update().filter(pk=league.pk).first()
    organizer = league.organizers.filter(email__iexact=email).first()
    if organizer is not None:
        raise LeagueError(
            "already_organizer",
            f"{organizer.get_username()} has the address {email} and already organizes "
            f"{league.name}.",
            details={"field": "email", "user": organizer.get_username()},
        )
    now = timezone.now()
    replaced = (
        models.OrganizerInvitation.objects.open()
        .filter(league=league, email__iexact=email)
        .update(revoked_at=now)
    )
    token = secrets.token_urlsafe(TOKEN_BYTES)
    invitation = models.OrganizerInvitation.objects.create(
        league=league,
        email=email,
        token_hash=token_hash(token),
        invited_by=invited_by,
        expires_at=now + timedelta(days=settings.ORGANIZER_INVITATION_DAYS),
    )
    return InvitationSent(invitation=invitation, token=token, replaced=replaced > 0)


def invitation_mail(sent: InvitationSent, *, link: str) -> None:
    """Mail the invitation's link (`link`, the page of its token) to its address once the
    transaction commits. A mail server that is down loses the mail, not the invitation: it is
    logged (without the link), and inviting again sends a new one."""
    invitation = sent.invitation
    league = invitation.league
    inviter = invitation.invited_by.get_username() if invitation.invited_by else "An organizer"
    body = (
        f"{inviter} invites you to organize {league.name} on Yard League with them: its "
        "events, players and settings.\n\n"
        f"Open this link to accept, with your account or a new one:\n{link}\n\n"
        f"It works once, until {time_words(invitation.expires_at)}. Keep it to yourself: whoever "
        "opens it first becomes an organizer. If you did not expect it, ignore this mail.\n"
    )
    subject = f"Organize {league.name} on Yard League"
    address = invitation.email
    transaction.on_commit(lambda: _send(subject, body, address), robust=True)


def _send(subject: str, body: str, address: str) -> None:
    try:
        send_mail(subject, body, None, [address])
    except Exception:  # a mail server down loses this mail, not the invitation: logged
        logger.warning("Could not mail an organizer's invitation to its address.", exc_info=True)


@transaction.atomic
def invitation_revoke(*, league: models.League, invitation_id: int) -> models.OrganizerInvitation:
    """Take back an invitation of `league`: its link opens nothing from then on. One already
    accepted or revoked is `InvitationGone` (`invitation_used`, `invitation_revoked`), and so
    is one of another league (`no_such_invitation`, as if there were none)."""
    models.League.objects.select_for_update().filter(pk=league.pk).first()
    invitation = (
        models.OrganizerInvitation.objects.select_for_update()
        .filter(league=league, pk=invitation_id)
        .first()
    )
    if invitation is None:
        raise InvitationGone(
            "no_such_invitation",
            f"{league.name} has no such invitation.",
            details={"invitation": invitation_id},
        )
    invitation.league = league
    if invitation.state != models.InvitationState.EXPIRED:
        ensure_invitation_usable(invitation)
    invitation.revoked_at = timezone.now()
    invitation.save(update_fields=["revoked_at"])
    return invitation


@transaction.atomic
def invitation_accept(*, token: str, user: User) -> InvitationAccepted:
    """`user` organizes the league of the invitation `token` opens, which is used from then on.
    `InvitationGone` (410) when it is used, revoked or expired (`ensure_invitation_usable`),
    or when no invitation has this token (`no_such_invitation`); nothing changes then. A user
    who organizes the league already uses it all the same (`already`). The league's row is
    locked first, then the invitation's, in the order `invitation_create` takes them."""
    found = invitation_by_token(token)
    if found is None:
        raise InvitationGone("no_such_invitation", "No invitation has this link.")
    league = models.League.objects.select_for_update().get(pk=found.league_id)
    invitation = models.OrganizerInvitation.objects.select_for_update().get(pk=found.pk)
    invitation.league = league
    ensure_invitation_usable(invitation)
    already = league.organizers.filter(pk=user.pk).exists()
    if not already:
        league.organizers.add(user)
    invitation.accepted_at = timezone.now()
    invitation.accepted_by = user
    invitation.save(update_fields=["accepted_at", "accepted_by"])
    return InvitationAccepted(invitation=invitation, league=league, already=already)


@transaction.atomic
def invitation_accept_new_account(*, token: str, username: str, password: str) -> User:
    """A new account, with the invitation's address, that accepts the invitation `token`
    opens, all or nothing: an invitation that no longer opens makes no account. The username
    must be free in any case of its letters (`username_taken`); the password is the one the
    page checked with the site's validators."""
    found = invitation_by_token(token)
    if found is None:
        raise InvitationGone("no_such_invitation", "No invitation has this link.")
    ensure_invitation_usable(found)
    taken = LeagueError(
        "username_taken",
        f"Someone has the username {username!r} already; choose another.",
        details={"field": "username"},
    )
    if User.objects.filter(username__iexact=username).exists():
        raise taken
    try:
        with transaction.atomic():
            user = User.objects.create_user(username=username, email=found.email, password=password)
    except IntegrityError:  # made by another request since the check
        raise taken from None
    invitation_accept(token=token, user=user)
    return user
