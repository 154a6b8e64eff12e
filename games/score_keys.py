"""Scoring keys as clients present them: the limit on wrong keys per client address, and the
cookie a table's private link leaves on the phone that opened it, and the short code of a
table's printed link.

A wrong key is answered without reading or locking the match it names (the API looks the
match up by id and key together), and an address that sends too many wrong keys in a minute
gets 429s until the minute is over, so keys cannot be guessed by brute force. The counts live
in the cache (Redis in production, shared by every web process); a cache that cannot be
reached lets requests through, like the other rate limits."""

import hashlib
import logging
import re
import secrets

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest
from redis.exceptions import RedisError
from rest_framework.throttling import BaseThrottle

logger = logging.getLogger(__name__)

# A key is `secrets.token_urlsafe(24)`: 32 URL-safe characters. Anything else is wrong
# without a look at the database (and never reaches it: a NUL would not even be a query).
_KEY_SHAPE = re.compile(r"[A-Za-z0-9_-]{1,64}")
WINDOW_SECONDS = 60


def well_formed(key: str | None) -> bool:
    return key is not None and _KEY_SHAPE.fullmatch(key) is not None


def client_address(request: HttpRequest) -> str:
    """The client's address as the rate limits see it (the last NUM_PROXIES entries of
    X-Forwarded-For are trusted proxies; see config/settings/base.py)."""
    return str(BaseThrottle().get_ident(request))  # type: ignore[arg-type]


def failures_key(request: HttpRequest) -> str:
    """The cache key of this client address's count of wrong keys."""
    return f"score-key-failures:{client_address(request)}"


def failures_seen(request: HttpRequest, failures: int) -> None:
    """The count of wrong keys as already read for this request (the API's rate limit reads
    it in its own round trip to Redis), so that `too_many_failures` need not read it again."""
    plain: HttpRequest = getattr(request, "_request", request)
    plain._score_key_failures = failures  # type: ignore[attr-defined]


def too_many_failures(request: HttpRequest) -> bool:
    """Whether this client address has sent SCORE_KEY_FAILURES wrong keys this minute."""
    seen: int | None = getattr(request, "_score_key_failures", None)
    if seen is not None:
        return seen >= settings.SCORE_KEY_FAILURES
    try:
        failures = cache.get(failures_key(request), 0)
    except (RedisError, OSError):
        logger.warning("Rate-limit cache unreachable; scoring-key failures not counted.")
        return False
    return int(failures) >= settings.SCORE_KEY_FAILURES


def record_failure(request: HttpRequest) -> None:
    """Count one wrong key from this client address (the count expires with its minute)."""
    counter = failures_key(request)
    try:
        cache.add(counter, 0, WINDOW_SECONDS)
        cache.incr(counter)
    except ValueError:  # expired between add and incr: start the minute again
        cache.set(counter, 1, WINDOW_SECONDS)
    except (RedisError, OSError):
        logger.warning("Rate-limit cache unreachable; scoring-key failures not counted.")


def cookie_name(match_id: int) -> str:
    """The cookie that holds a match's key once its private link was opened on a device."""
    return f"score-key-{match_id}"


# A table's short link (`/t/<match>/<code>`, printed on the round sheet) carries ten characters
# of Crockford's base32 read from the key instead of the key's 32: typed from paper on a phone,
# any case, with or without its dash, O read as 0 and I or L as 1. Fifty bits, behind the same
# limit on wrong keys, cannot be guessed; the code never reveals the key it is read from.
_CROCKFORD = "0123456789abcdefghjkmnpqrstvwxyz"
_READ_AS = str.maketrans({"o": "0", "i": "1", "l": "1", "-": None, " ": None})
SHORT_CODE_LENGTH = 10


def short_code(key: str) -> str:
    """The short code of a scoring key, shown in two groups of five (`k7m2q-x9pab`)."""
    number = int.from_bytes(hashlib.sha256(b"short link:" + key.encode()).digest()[:8], "big")
    number >>= 64 - 5 * SHORT_CODE_LENGTH
    letters = [_CROCKFORD[(number >> (5 * i)) & 31] for i in reversed(range(SHORT_CODE_LENGTH))]
    return "".join(letters[:5]) + "-" + "".join(letters[5:])


def short_code_opens(key: str, typed: str) -> bool:
    """Whether `typed` is the short code of `key`, as a person may type it."""
    given = typed.lower().translate(_READ_AS)
    if len(given) != SHORT_CODE_LENGTH or not given.isascii():
        return False
    return secrets.compare_digest(given, short_code(key).replace("-", ""))
