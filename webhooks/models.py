"""An organizer's webhook endpoints, and the log of what was sent to them (docs/api.md,
"Webhooks")."""

import secrets
import uuid

from django.conf import settings
from django.db import models


class EventType(models.TextChoices):
    MATCH_FINISHED = "match.finished", "Match finished"
    MATCH_UPSET = "match.upset", "Match won by a player given under 20% at its start"
    STAGE_FINISHED = "stage.finished", "Stage finished"
    STANDINGS_CHANGED = "standings.changed", "Standings changed"
    EVENT_FINISHED = "event.finished", "Event finished"
    REGISTRATION_RECEIVED = "registration.received", "Registration received"
    REGISTRATION_APPROVED = "registration.approved", "Registration approved"
    REGISTRATION_REFUSED = "registration.refused", "Registration refused"
    REGISTRATION_MOVED_UP = "registration.moved_up", "Registration moved up from the waiting list"
    CHECK_IN_OPENED = "checkin.opened", "Check-in opened"
    MATCH_READY = "match.ready", "Match ready to play"
    PING = "ping", "Test event"


# What an endpoint may subscribe to; `ping` is only ever sent on request, to one endpoint.
SUBSCRIBABLE = tuple(choice for choice in EventType.values if choice != EventType.PING)

SECRET_PREFIX = "whsec_"  # noqa: S105  (a prefix that says what the value is)


def new_secret() -> str:
    return SECRET_PREFIX + secrets.token_urlsafe(32)


class Endpoint(models.Model):
    """An HTTPS address of a league's organizers that hears of the events it subscribes to.
    Its secret signs every delivery; it is shown once, when made or rotated, and never again."""

    league = models.ForeignKey(
        "league.League", on_delete=models.CASCADE, related_name="webhook_endpoints"
    )
    url = models.URLField(max_length=500)
    description = models.CharField(max_length=200, blank=True)
    events = models.JSONField(help_text="The event types it hears of (EventType values).")
    secret = models.CharField(max_length=100, default=new_secret)
    enabled = models.BooleanField(default=True)
    failures = models.PositiveIntegerField(
        default=0, help_text="Failed attempts in a row; at WEBHOOK_DISABLE_AFTER it is disabled."
    )
    disabled_at = models.DateTimeField(null=True, blank=True)
    disabled_reason = models.CharField(max_length=300, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    secret_rotated_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["pk"]

    def __str__(self) -> str:
        return self.url

    def __repr__(self) -> str:  # never the secret
        return f"<Endpoint {self.pk} {self.url}>"

    def hears(self, event: str) -> bool:
        return event in self.events


class DeliveryStatus(models.TextChoices):
    PENDING = "pending", "Pending"
    RETRYING = "retrying", "Retrying"
    DELIVERED = "delivered", "Delivered"
    FAILED = "failed", "Failed"


OPEN_DELIVERY_STATUSES = (DeliveryStatus.PENDING, DeliveryStatus.RETRYING)


class Delivery(models.Model):
    """One event sent to one endpoint: the body exactly as signed (every attempt sends the same
    bytes under the same delivery id), and where its attempts stand."""

    uuid = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    endpoint = models.ForeignKey(Endpoint, on_delete=models.CASCADE, related_name="deliveries")
    event = models.CharField(max_length=32, choices=EventType.choices)
    body = models.TextField(help_text="The JSON body, exactly as signed and sent.")
    status = models.CharField(
        max_length=16, choices=DeliveryStatus.choices, default=DeliveryStatus.PENDING
    )
    attempts = models.PositiveSmallIntegerField(default=0)
    next_attempt_at = models.DateTimeField(
        null=True, blank=True, help_text="When it is due (or, while an attempt runs, its lease)."
    )
    last_status_code = models.PositiveSmallIntegerField(null=True, blank=True)
    last_error = models.CharField(max_length=300, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-pk"]
        indexes = [
            models.Index(fields=["status", "next_attempt_at"], name="delivery_due"),
            models.Index(fields=["finished_at"], name="delivery_finished"),
        ]
        verbose_name_plural = "deliveries"

    def __str__(self) -> str:
        return f"{self.event} {self.uuid}"


class Attempt(models.Model):
    """One HTTP request of a delivery: the status code it got, or the error it met (a timeout,
    a refused connection, an address not allowed), and the start of the answer."""

    delivery = models.ForeignKey(Delivery, on_delete=models.CASCADE, related_name="attempt_log")
    number = models.PositiveSmallIntegerField()
    at = models.DateTimeField(auto_now_add=True)
    status_code = models.PositiveSmallIntegerField(null=True, blank=True)
    error = models.CharField(max_length=300, blank=True)
    duration_ms = models.PositiveIntegerField(default=0)
    response_excerpt = models.CharField(
        max_length=500, blank=True, help_text="The first characters of the answer's body."
    )

    class Meta:
        ordering = ["delivery", "number"]
        constraints = [
            models.UniqueConstraint(fields=["delivery", "number"], name="attempt_number_once")
        ]

    def __str__(self) -> str:
        return f"{self.delivery_id} #{self.number}"

    @property
    def ok(self) -> bool:
        return self.status_code is not None and 200 <= self.status_code < 300
