"""The mails sent to players, one row a notification, and the addresses that asked for none
(docs/notifications.md)."""

from django.db import models
from django.db.models.functions import Lower


class Kind(models.TextChoices):
    RECEIVED = "received", "Registration received"
    APPROVED = "approved", "Registration approved"
    REFUSED = "refused", "Registration refused"
    MOVED_UP = "moved_up", "Moved up from the waiting list"
    CHECK_IN_OPENED = "check_in_opened", "Check-in opened"
    MATCH_READY = "match_ready", "Table ready"
    TABLE_SOON = "table_soon", "Table starting soon"


class Status(models.TextChoices):
    PENDING = "pending", "Pending"
    SENDING = "sending", "Sending"
    SENT = "sent", "Sent"
    FAILED = "failed", "Failed"
    SKIPPED = "skipped", "Not sent"


class Notification(models.Model):
    """One mail to one player about one thing that happened. Its `key` names that thing (the
    kind, the registration or match, and what tells one occurrence from the next): it is
    unique, and the row is made before anything is sent, so the same news is never mailed
    twice however often the event repeats or its job runs. A claimed row (`sending`) is never
    claimed again: a worker that dies while sending loses that mail rather than send it twice."""

    key = models.CharField(max_length=160, unique=True)
    kind = models.CharField(max_length=20, choices=Kind.choices)
    email = models.EmailField()
    league = models.ForeignKey(
        "league.League", on_delete=models.CASCADE, related_name="notifications"
    )
    registration = models.ForeignKey(
        "league.Registration", on_delete=models.CASCADE, related_name="notifications"
    )
    match = models.ForeignKey(
        "games.Match",
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="notifications",
    )
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.PENDING)
    attempts = models.PositiveSmallIntegerField(default=0)
    next_attempt_at = models.DateTimeField(
        null=True, blank=True, help_text="When a failed send is tried again."
    )
    last_error = models.CharField(max_length=300, blank=True)
    subject = models.CharField(max_length=200, blank=True, help_text="As sent.")
    created_at = models.DateTimeField(auto_now_add=True)
    sent_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-pk"]
        indexes = [models.Index(fields=["status", "next_attempt_at"], name="notification_due")]

    def __str__(self) -> str:
        return f"{self.kind} to registration {self.registration_id} ({self.status})"


class Unsubscribe(models.Model):
    """An address that asked for no more mail from one league, or (`league` empty) from every
    league. Stored lowercased; the link in every mail makes it."""

    email = models.EmailField()
    league = models.ForeignKey(
        "league.League",
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="unsubscribes",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                Lower("email"), "league", nulls_distinct=False, name="unsubscribe_once"
            )
        ]

    def __str__(self) -> str:
        return f"{self.email} from {self.league or 'every league'}"
