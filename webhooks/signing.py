"""How a delivery is signed (docs/api.md, "Verifying a delivery"): HMAC-SHA256, keyed with the
endpoint's secret, over `"<timestamp>.<raw body>"`, sent as `t=<timestamp>,v1=<hex digest>`.
The timestamp inside the signed text lets a receiver refuse an old delivery replayed."""

import hashlib
import hmac

SIGNATURE_HEADER = "Yard-Webhook-Signature"
ID_HEADER = "Yard-Webhook-Id"
EVENT_HEADER = "Yard-Webhook-Event"
TIMESTAMP_HEADER = "Yard-Webhook-Timestamp"
USER_AGENT = "YardLeague-Webhooks/1"


def digest(secret: str, timestamp: int, body: bytes) -> str:
    signed = str(timestamp).encode() + b"." + body
    return hmac.new(secret.encode(), signed, hashlib.sha256).hexdigest()


def signature(secret: str, timestamp: int, body: bytes) -> str:
    return f"t={timestamp},v1={digest(secret, timestamp, body)}"


def headers(
    *, secret: str, delivery_id: str, event: str, timestamp: int, body: bytes
) -> dict[str, str]:
    """The headers of one attempt of a delivery."""
    return {
        "Content-Type": "application/json",
        "User-Agent": USER_AGENT,
        ID_HEADER: delivery_id,
        EVENT_HEADER: event,
        TIMESTAMP_HEADER: str(timestamp),
        SIGNATURE_HEADER: signature(secret, timestamp, body),
    }


def verify(secret: str, header: str, body: bytes, *, now: int, tolerance: int = 300) -> bool:
    """What a receiver does (docs/api.md): the signature matches and is recent. Used by the
    tests' receiver; the docs show the same in a few lines of plain Python."""
    fields = dict(part.split("=", 1) for part in header.split(",") if "=" in part)
    try:
        timestamp = int(fields["t"])
    except (KeyError, ValueError):
        return False
    if abs(now - timestamp) > tolerance:
        return False
    return hmac.compare_digest(digest(secret, timestamp, body), fields.get("v1", ""))
