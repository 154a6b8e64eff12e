"""Sign-up and check-in of an event (docs/organizing.md, "Sign-up and check-in"): whether it
takes registrations, until when and how many, and whether a stage seats only the players
checked in; and each registration, from the sign-up to the organizer's decision."""

from datetime import datetime

from django.db import models
from django.db.models.functions import Lower
from django.utils import timezone

from league.models.organization import Event, Player


class SignUp(models.Model):
    """An event's sign-up: open to players until `deadline` (or until the organizers close it),
    at most `cap` places (the rest wait in line), and, with `check_in`, a stage started seats
    only the players checked in. An event without one takes no sign-ups and seats whoever its
    stages name, as before."""

    event = models.OneToOneField(Event, on_delete=models.CASCADE, related_name="sign_up")
    open = models.BooleanField(default=True, help_text="Whether players may sign up now.")
    deadline = models.DateTimeField(null=True, blank=True, help_text="Sign-ups end then.")
    cap = models.PositiveIntegerField(
        null=True, blank=True, help_text="Places; sign-ups beyond them join the waiting list."
    )
    check_in = models.BooleanField(
        default=False, help_text="A stage started seats only the players checked in."
    )
    check_in_opens = models.DateTimeField(
        null=True, blank=True, help_text="From then players may check themselves in."
    )
    check_in_closes = models.DateTimeField(
        null=True, blank=True, help_text="Players check themselves in until then."
    )
    check_in_announced_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text="When the opening of its check-in was announced (`check_in_opened`); cleared "
        "when check-in is turned on again or its opening moved, to be announced again.",
    )

    def __str__(self) -> str:
        return f"sign-up of {self.event}"

    def takes_sign_ups(self, now: datetime | None = None) -> bool:
        """Whether a player may sign up now: open, before its deadline, the event not closed."""
        return not self.closed_because(now)

    def closed_because(self, now: datetime | None = None) -> str:
        """Why players cannot sign up themselves now, as the pages and refusals end a
        sentence with it ("... takes no sign-ups now: the deadline has passed"); empty when
        they can."""
        if self.event.is_closed:
            return f"{self.event.name} is {self.event.get_status_display().lower()}"
        if not self.open:
            return "the sign-up is closed"
        if self.deadline is not None and (now or timezone.now()) >= self.deadline:
            return "the deadline has passed"
        return ""

    def check_in_window_open(self, now: datetime | None = None) -> bool:
        """Whether players may check themselves in now."""
        now = now or timezone.now()
        if not self.check_in or self.event.is_closed:
            return False
        opened = self.check_in_opens is None or self.check_in_opens <= now
        return opened and (self.check_in_closes is None or now < self.check_in_closes)


class RegistrationStatus(models.TextChoices):
    PENDING = "pending", "Waiting for approval"
    WAITING = "waiting", "On the waiting list"
    CONFIRMED = "confirmed", "Confirmed"
    REFUSED = "refused", "Refused"
    WITHDRAWN = "withdrawn", "Withdrawn"


# A registration holding a place (the cap counts them), and one still in the event at all.
HOLDING_PLACE = (RegistrationStatus.PENDING, RegistrationStatus.CONFIRMED)
ACTIVE = (*HOLDING_PLACE, RegistrationStatus.WAITING)


class Registration(models.Model):
    """One sign-up for an event: the name and contact email given (the email is for the
    organizers only: no public page or public API answer shows it), the handle if one was
    given, and where it stands. Once confirmed it names its `player` (a new one, or an
    existing player the organizer linked it to), who is then on the league's roster. Its
    holder keeps a private link (`key_hash` is the SHA-256 of its key) to see it, check in
    and withdraw; the key is derived from `key_seed` and the site's secret, so the
    notifications can put the same link in every mail (`registration.link_key`)."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="registrations")
    display_name = models.CharField(max_length=80)
    email = models.EmailField(blank=True)
    handle = models.CharField(max_length=40, blank=True)
    status = models.CharField(
        max_length=16, choices=RegistrationStatus.choices, default=RegistrationStatus.PENDING
    )
    player = models.ForeignKey(
        Player, on_delete=models.PROTECT, null=True, blank=True, related_name="registrations"
    )
    by_organizer = models.BooleanField(default=False, help_text="Added by an organizer.")
    key_hash = models.CharField(max_length=64, unique=True)
    key_seed = models.CharField(
        max_length=32,
        blank=True,
        help_text="What its key is derived from with the site's SECRET_KEY, so that a mail can "
        "carry the private link again without the key stored (empty: an older key, random).",
    )
    checked_in_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    decided_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        # The waiting list moves up in this order: first signed up, first in.
        ordering = ["event", "created_at", "id"]
        indexes = [models.Index(fields=["event", "status"])]
        constraints = [
            models.UniqueConstraint(
                fields=["event", "player"],
                condition=models.Q(status="confirmed"),
                name="registration_player_once",
            ),
            models.UniqueConstraint(
                Lower("email"),
                "event",
                condition=models.Q(status__in=["pending", "waiting", "confirmed"])
                & ~models.Q(email=""),
                name="registration_email_once",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.display_name} for {self.event} ({self.status})"

    @property
    def is_active(self) -> bool:
        return self.status in ACTIVE
