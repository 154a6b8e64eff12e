"""Every write of the webhooks, one function per use case (docs/architecture.md): endpoints,
publishing an event to them, one attempt of a delivery, the sweep.

An event becomes one `Delivery` per endpoint that hears it, with its body fixed then; the job
`webhooks.deliver` makes its attempts (`delivery_attempt`), retried with backoff
(`WEBHOOK_RETRY_SECONDS`); `WEBHOOK_DISABLE_AFTER` failed attempts in a row disable the
endpoint, with the reason kept for its organizers. No secret is ever logged."""

import json
import logging
import time
import unicodedata
from datetime import timedelta
from typing import Any
from urllib.parse import urlunsplit

from django.conf import settings
from django.contrib.auth.models import User
from django.core.serializers.json import DjangoJSONEncoder
from django.db import transaction
from django.utils import timezone

from core.jobs import enqueue_on_commit, send
from games.housekeeping import delete_oldest
from league.models import League
from league.services.organization import unshown_characters
from webhooks import payloads, sender, signing
from webhooks.addresses import normal_host
from webhooks.errors import EndpointConflict, WebhookError
from webhooks.models import (
    OPEN_DELIVERY_STATUSES,
    SUBSCRIBABLE,
    Attempt,
    Delivery,
    DeliveryStatus,
    Endpoint,
    EventType,
    new_secret,
)

logger = logging.getLogger(__name__)

DELIVER = "webhooks.deliver"
MAX_ENDPOINTS = 10  # per league
# A delivery whose retry is this late is sent again by the sweep (its job was lost).
SWEEP_GRACE = timedelta(seconds=60)
PRUNE_BATCH = 1000


# --- Endpoints -----------------------------------------------------------------------------------


def _checked_events(events: Any) -> list[str]:
    if not isinstance(events, list | tuple) or not events:
        raise WebhookError(
            "invalid_events",
            "Choose at least one event to hear of.",
            details={"field": "events", "choices": list(SUBSCRIBABLE)},
        )
    unknown = [event for event in events if event not in SUBSCRIBABLE]
    if unknown:
        raise WebhookError(
            "unknown_event",
            f"There is no webhook event {unknown[0]!r}; choose from {', '.join(SUBSCRIBABLE)}.",
            details={"field": "events", "choices": list(SUBSCRIBABLE)},
        )
    return [event for event in SUBSCRIBABLE if event in events]  # once each, in a fixed order


# As `Endpoint.description` stores it.
DESCRIPTION_LENGTH: int = Endpoint._meta.get_field("description").max_length  # type: ignore[assignment]


def _checked_description(description: Any) -> str:
    """The note as stored: NFC, trimmed; one holding control or invisible characters (a line
    break, a bidirectional override, a zero-width space) is refused (`invalid_description`,
    `details.characters`), as a name is: the organizer pages show it."""
    text = unicodedata.normalize("NFC", str(description or "")).strip()
    refused = unshown_characters(text)
    if refused:
        raise WebhookError(
            "invalid_description",
            f"The note holds invisible or control characters ({', '.join(refused[:5])}); "
            "it is one line of plain text.",
            details={"field": "description", "characters": refused},
        )
    if len(text) > DESCRIPTION_LENGTH:
        raise WebhookError(
            "invalid_description",
            f"The note has at most {DESCRIPTION_LENGTH} characters; this one has {len(text)}.",
            details={"field": "description"},
        )
    return text


def _checked_url(url: Any) -> str:
    """The address an organizer gave, or `invalid_url` / `url_not_allowed` naming its field
    (`details.field`, as `url_taken` does): the check of every attempt has no field."""
    if not isinstance(url, str) or not url.strip():
        raise WebhookError(
            "invalid_url", "Give the endpoint's https:// address.", details={"field": "url"}
        )
    try:
        parts = sender.check_url(url)
    except WebhookError as error:
        raise WebhookError(
            error.code, error.message, details={**error.details, "field": "url"}
        ) from error
    # Stored as it is read and sent: the host as a resolver reads it (`webhooks.addresses`).
    host, _ = normal_host(parts.hostname or "")
    netloc = f"[{host}]" if ":" in host else host
    if parts.port is not None:
        netloc = f"{netloc}:{parts.port}"
    return urlunsplit((parts.scheme, netloc, parts.path, parts.query, ""))


# Why an endpoint an organizer turned off is off (`Endpoint.disabled_reason`).
DISABLED_BY_ORGANIZER = "Disabled by an organizer."


@transaction.atomic
def endpoint_create(
    *,
    league: League,
    url: str,
    events: list[str],
    description: str = "",
    created_by: User | None = None,
    enabled: bool = True,
) -> Endpoint:
    """A new endpoint of `league`; its secret is on the returned object, shown this once.
    `enabled` False registers it turned off (as an organizer turns one off), to be enabled
    later."""
    # Counts one at a time, and compares addresses one at a time (endpoint_update locks it too).
    League.objects.select_for_update().filter(pk=league.pk).first()
    if Endpoint.objects.filter(league=league).count() >= MAX_ENDPOINTS:
        raise WebhookError(
            "too_many_endpoints",
            f"A league has at most {MAX_ENDPOINTS} webhook endpoints; delete one first.",
            details={"limit": MAX_ENDPOINTS},
        )
    return Endpoint.objects.create(
        league=league,
        url=_unused_url(league, _checked_url(url)),
        events=_checked_events(events),
        description=_checked_description(description),
        created_by=created_by,
        # Registered off, as an organizer turns one off (nothing to fail yet, nothing to log).
        enabled=enabled,
        disabled_at=None if enabled else timezone.now(),
        disabled_reason="" if enabled else DISABLED_BY_ORGANIZER,
    )


def _unused_url(league: League, url: str, endpoint: int | None = None) -> str:
    """`url`, which no other endpoint of the league has: two would be sent every event twice
    (and a registration sent again, as a reloaded page does, would make a second)."""
    others = Endpoint.objects.filter(league=league, url=url)
    if (others.exclude(pk=endpoint) if endpoint is not None else others).exists():
        raise WebhookError(
            "url_taken",
            f"url is taken: another endpoint of {league.name} already has {url}, so every event "
            "would be sent to it twice. Change that endpoint, or delete it first.",
            details={"field": "url"},
        )
    return url


@transaction.atomic
def endpoint_update(*, endpoint_id: int, changes: dict[str, Any]) -> Endpoint:
    """Change an endpoint's address, events or description; `enabled` turns it off or on
    (on again as `endpoint_enable`). The league's row is locked first, as `endpoint_create`
    locks it: two endpoints given one address at once are checked one after the other."""
    league_id = Endpoint.objects.values_list("league_id", flat=True).get(pk=endpoint_id)
    League.objects.select_for_update().filter(pk=league_id).first()
    endpoint = Endpoint.objects.select_for_update().get(pk=endpoint_id)
    fields = []
    if "url" in changes:
        endpoint.url = _unused_url(endpoint.league, _checked_url(changes["url"]), endpoint.pk)
        fields.append("url")
    if "events" in changes:
        endpoint.events = _checked_events(changes["events"])
        fields.append("events")
    if "description" in changes:
        endpoint.description = _checked_description(changes["description"])
        fields.append("description")
    if fields:
        endpoint.save(update_fields=fields)
    if "enabled" in changes and bool(changes["enabled"]) != endpoint.enabled:
        if changes["enabled"]:
            return endpoint_enable(endpoint_id=endpoint.pk)
        _disable(endpoint, DISABLED_BY_ORGANIZER)
    return endpoint


@transaction.atomic
def endpoint_delete(*, endpoint_id: int) -> None:
    """Delete an endpoint and its delivery log."""
    Endpoint.objects.filter(pk=endpoint_id).delete()


@transaction.atomic
def endpoint_enable(*, endpoint_id: int) -> Endpoint:
    """Turn a disabled endpoint on again: it hears of new events, its failures count from zero.
    What failed while it was off is not sent again (it stays in the log)."""
    endpoint = Endpoint.objects.select_for_update().get(pk=endpoint_id)
    endpoint.enabled = True
    endpoint.failures = 0
    endpoint.disabled_at = None
    endpoint.disabled_reason = ""
    endpoint.save(update_fields=["enabled", "failures", "disabled_at", "disabled_reason"])
    return endpoint


@transaction.atomic
def endpoint_secret_rotate(*, endpoint_id: int) -> Endpoint:
    """A new secret for the endpoint, shown this once; every attempt from now on is signed
    with it (also the retries of deliveries made before)."""
    endpoint = Endpoint.objects.select_for_update().get(pk=endpoint_id)
    endpoint.secret = new_secret()
    endpoint.secret_rotated_at = timezone.now()
    endpoint.save(update_fields=["secret", "secret_rotated_at"])
    logger.info("Webhook endpoint %s: its secret was rotated.", endpoint.pk)
    return endpoint


@transaction.atomic
def endpoint_ping(*, endpoint_id: int) -> Delivery:
    """Send the endpoint a test event (`ping`), whatever it hears of; refused while it is
    disabled (enable it first)."""
    endpoint = Endpoint.objects.select_for_update().get(pk=endpoint_id)
    if not endpoint.enabled:
        raise EndpointConflict(
            "endpoint_disabled",
            "This endpoint is disabled; enable it before sending it a test event.",
            details={"endpoint": endpoint.pk, "reason": endpoint.disabled_reason},
        )
    data = {"endpoint": endpoint.pk, "message": "A test event, sent on an organizer's request."}
    return _deliveries([endpoint], EventType.PING, data)[0]


def _disable(endpoint: Endpoint, reason: str) -> None:
    """Turn the endpoint off (its row locked by the caller); its open deliveries fail."""
    now = timezone.now()
    endpoint.enabled = False
    endpoint.disabled_at = now
    endpoint.disabled_reason = reason[:300]
    endpoint.save(update_fields=["enabled", "disabled_at", "disabled_reason"])
    Delivery.objects.filter(endpoint=endpoint, status__in=OPEN_DELIVERY_STATUSES).update(
        status=DeliveryStatus.FAILED,
        next_attempt_at=None,
        finished_at=now,
        last_error="not sent: the endpoint is disabled",
    )
    logger.warning("Webhook endpoint %s is disabled: %s", endpoint.pk, reason)


# --- Publishing an event -------------------------------------------------------------------------


def _body(delivery: Delivery, league_id: int, data: dict[str, Any]) -> str:
    return json.dumps(
        {
            "id": str(delivery.uuid),
            "type": delivery.event,
            "created_at": timezone.now(),
            "league": payloads.league(league_id),
            "data": data,
        },
        cls=DjangoJSONEncoder,
        separators=(",", ":"),
    )


def _deliveries(endpoints: list[Endpoint], event: str, data: dict[str, Any]) -> list[Delivery]:
    made = []
    for endpoint in endpoints:
        delivery = Delivery(endpoint=endpoint, event=event)
        delivery.body = _body(delivery, endpoint.league_id, data)
        made.append(delivery)
    Delivery.objects.bulk_create(made)
    for delivery in made:
        enqueue_on_commit(DELIVER, delivery.pk)
    return made


def _listening(league_id: int | None, event: str) -> list[Endpoint]:
    if league_id is None:
        return []
    endpoints = Endpoint.objects.filter(league_id=league_id, enabled=True)
    return [endpoint for endpoint in endpoints if endpoint.hears(event)]


@transaction.atomic
def event_publish(*, league_id: int | None, event: str, data: Any) -> list[Delivery]:
    """One delivery of `event` to every enabled endpoint of the league that hears of it, each
    sent by a job once this commits. `data` is the payload's `data`, or a callable making it
    (called only when some endpoint listens; None from it: nothing to send)."""
    endpoints = _listening(league_id, event)
    if not endpoints:
        return []
    if callable(data):
        data = data()
        if data is None:
            return []
    return _deliveries(endpoints, event, data)


# --- Delivering ----------------------------------------------------------------------------------


def _lease() -> timedelta:
    """How long an attempt holds its delivery: a worker that dies mid-attempt leaves it to the
    sweep once this has passed."""
    return timedelta(seconds=2 * float(settings.WEBHOOK_TIMEOUT_SECONDS) + 30)


def _claim(delivery_id: int) -> tuple[Delivery, int] | None:
    """Take the delivery for one attempt, if it is open and due; its attempt number."""
    now = timezone.now()
    with transaction.atomic():
        delivery = (
            Delivery.objects.select_for_update().select_related("endpoint").filter(pk=delivery_id)
        ).first()
        if delivery is None or delivery.status not in OPEN_DELIVERY_STATUSES:
            return None
        if delivery.next_attempt_at is not None and delivery.next_attempt_at > now + timedelta(
            seconds=1
        ):
            return None  # not due (a retry scheduled later), or an attempt under way
        if not delivery.endpoint.enabled:
            delivery.status = DeliveryStatus.FAILED
            delivery.finished_at = now
            delivery.last_error = "not sent: the endpoint is disabled"
            delivery.save(update_fields=["status", "finished_at", "last_error"])
            return None
        delivery.attempts += 1
        delivery.next_attempt_at = now + _lease()
        delivery.save(update_fields=["attempts", "next_attempt_at"])
        return delivery, delivery.attempts


def delivery_attempt(*, delivery_id: int) -> float | None:
    """Make one attempt of the delivery if it is due; the seconds until its retry when it
    failed and may be retried, None otherwise (delivered, given up, or not due). Safe to run
    twice: a delivery that is done or not due is left alone."""
    claimed = _claim(delivery_id)
    if claimed is None:
        return None
    delivery, number = claimed
    endpoint = delivery.endpoint
    body = delivery.body.encode()
    headers = signing.headers(
        secret=endpoint.secret,
        delivery_id=str(delivery.uuid),
        event=delivery.event,
        timestamp=int(time.time()),
        body=body,
    )
    outcome = sender.post(endpoint.url, body, headers)
    return _record(delivery.pk, number, outcome)


@transaction.atomic
def _record(delivery_id: int, number: int, outcome: sender.Outcome) -> float | None:
    delivery = Delivery.objects.select_for_update().get(pk=delivery_id)
    endpoint = Endpoint.objects.select_for_update().get(pk=delivery.endpoint_id)
    now = timezone.now()
    Attempt.objects.create(
        delivery=delivery,
        number=number,
        status_code=outcome.status_code,
        error=outcome.error[:300],
        duration_ms=outcome.duration_ms,
        response_excerpt=outcome.excerpt[:500],
    )
    delivery.last_status_code = outcome.status_code
    delivery.last_error = "" if outcome.ok else outcome.summary()[:300]
    retry_in: float | None = None
    if outcome.ok:
        delivery.status = DeliveryStatus.DELIVERED
        delivery.finished_at = now
        delivery.next_attempt_at = None
        if endpoint.failures:
            endpoint.failures = 0
            endpoint.save(update_fields=["failures"])
    else:
        logger.info(
            "Webhook delivery %s to endpoint %s, attempt %d: %s.",
            delivery.uuid,
            endpoint.pk,
            number,
            outcome.summary(),
        )
        endpoint.failures += 1
        endpoint.save(update_fields=["failures"])
        delays = [float(seconds) for seconds in settings.WEBHOOK_RETRY_SECONDS]
        if number <= len(delays) and endpoint.failures < settings.WEBHOOK_DISABLE_AFTER:
            retry_in = delays[number - 1]
            delivery.status = DeliveryStatus.RETRYING
            delivery.next_attempt_at = now + timedelta(seconds=retry_in)
        else:
            delivery.status = DeliveryStatus.FAILED
            delivery.finished_at = now
            delivery.next_attempt_at = None
    delivery.save()
    if not outcome.ok and endpoint.enabled and endpoint.failures >= settings.WEBHOOK_DISABLE_AFTER:
        _disable(
            endpoint,
            f"Disabled after {endpoint.failures} failed attempts in a row; the last: "
            f"{outcome.summary()}.",
        )
    return retry_in


def deliveries_sweep() -> int:
    """Send again the open deliveries whose job was lost (the broker was down when they were
    made, a worker died, a retry was left by a process without a worker): those due for more
    than `SWEEP_GRACE`. Run by Celery beat; how many it sent."""
    overdue = timezone.now() - SWEEP_GRACE
    ids = list(
        Delivery.objects.filter(status__in=OPEN_DELIVERY_STATUSES, endpoint__enabled=True)
        .filter(next_attempt_at__lte=overdue)
        .values_list("pk", flat=True)
    ) + list(
        Delivery.objects.filter(
            status=DeliveryStatus.PENDING, next_attempt_at=None, created_at__lte=overdue
        ).values_list("pk", flat=True)
    )
    for delivery_id in ids:
        send(DELIVER, (delivery_id,))
    return len(ids)


def deliveries_prune(*, batch: int = PRUNE_BATCH) -> int:
    """Forget the deliveries (with their attempts) finished more than `WEBHOOK_LOG_DAYS` ago,
    oldest first, `batch` at a time, each batch its own statement. Run hourly by Celery beat;
    safe to run twice. How many deliveries went."""
    cutoff = timezone.now() - timedelta(days=settings.WEBHOOK_LOG_DAYS)
    old = Delivery.objects.filter(finished_at__lt=cutoff)
    return delete_oldest(old, by="finished_at", batch=batch)
