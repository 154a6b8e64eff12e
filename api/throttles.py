"""Rate limits per client: token logins (against password guessing) and turn submissions
(against a runaway client). Counts live in the cache: set CACHE_URL to Redis so every web
process shares them. A cache that cannot be reached lets requests through (and says so in the
log): a Redis outage must not take scoring down with it.

The rule is DRF's `SimpleRateThrottle`'s: a request is refused when the client already has
`num_requests` requests within the last `duration` seconds. On Redis each check is one round
trip (a small Lua script that drops the expired times, counts and records the request), on one
Redis client kept per cache connection; DRF's way costs two round trips and builds a Redis
client for each (docs/benchmarks.md). Other caches (the test suite's memory cache) take DRF's
own path, the same rule."""

import hashlib
import logging
import time
import weakref
from typing import Any

from django.core.cache import caches
from django.core.cache.backends.redis import RedisCache
from redis import Redis
from redis.commands.core import Script
from redis.exceptions import RedisError
from rest_framework.request import Request
from rest_framework.throttling import SimpleRateThrottle
from rest_framework.views import APIView

from api.permissions import presented_score_key
from games import score_keys

logger = logging.getLogger(__name__)
# While the cache is down, say so once a minute per process, not on every request.
WARN_EVERY = 60.0
_last_warning: dict[str, float] = {}

# KEYS[1]: the client's times, newest first (a Redis list); KEYS[2], if given: a counter read
# in the same round trip (the wrong scoring keys of the client's address). ARGV: now, duration,
# num_requests. Returns {allowed (1 or 0), the oldest time kept, how many are kept, KEYS[2]'s}.
_CHECK = """
local now, duration, limit = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local oldest = redis.call('LINDEX', KEYS[1], -1)
while oldest and tonumber(oldest) <= now - duration do
  redis.call('RPOP', KEYS[1])
  oldest = redis.call('LINDEX', KEYS[1], -1)
end
local kept = redis.call('LLEN', KEYS[1])
local counter = false
if KEYS[2] then counter = redis.call('GET', KEYS[2]) end
if kept >= limit then
  return {0, oldest, kept, counter}
end
redis.call('LPUSH', KEYS[1], ARGV[1])
redis.call('EXPIRE', KEYS[1], math.ceil(duration))
return {1, oldest, kept, counter}
"""

# One client and script per cache connection (Django's Redis cache builds a client per call).
_scripts: "weakref.WeakKeyDictionary[Any, Script]" = weakref.WeakKeyDictionary()


def _script(backend: RedisCache) -> Script:
    connection = backend._cache
    script = _scripts.get(connection)
    if script is None:
        client: Redis = connection.get_client(write=True)
        script = _scripts[connection] = client.register_script(_CHECK)
    return script


class FailOpenRateThrottle(SimpleRateThrottle):
    """A rate limit that allows the request when its counters cannot be read or written."""

    # Set by DRF's __init__ from the rate (not in its stubs).
    num_requests: int
    duration: int
    # On Redis: the oldest time kept and how many, as the check found them (what `wait` reads).
    _kept: tuple[float, int] | None = None

    def allow_request(self, request: Request, view: APIView) -> bool:
        try:
            backend = caches["default"]
            if isinstance(backend, RedisCache):
                return self._allow_on_redis(backend, request, view)
            return super().allow_request(request, view)
        except (RedisError, OSError):
            now, scope = time.monotonic(), str(self.scope)
            if now - _last_warning.get(scope, -WARN_EVERY) >= WARN_EVERY:
                _last_warning[scope] = now
                logger.warning("Rate-limit cache unreachable; %s allowed unthrottled.", self.scope)
            return True

    def counter_key(self, request: Request) -> str | None:
        """A counter of the cache's to read in the same round trip (its raw key), if any."""
        return None

    def counter_read(self, request: Request, value: int) -> None:
        """What `counter_key`'s counter held (0 when it did not exist)."""

    def _allow_on_redis(self, backend: RedisCache, request: Request, view: APIView) -> bool:
        if self.rate is None:
            return True
        self.key = self.get_cache_key(request, view)
        if self.key is None:
            return True
        keys = [backend.make_key("rate:" + self.key)]
        counter = self.counter_key(request)
        if counter is not None:
            keys.append(backend.make_key(counter))
        self.now = self.timer()
        allowed, oldest, kept, value = _script(backend)(
            keys=keys, args=[repr(self.now), self.duration, self.num_requests]
        )
        if counter is not None:
            self.counter_read(request, int(value or 0))
        self._kept = (float(oldest) if oldest else self.now, int(kept))
        return bool(allowed)

    def wait(self) -> float | None:
        """Seconds until the next request would be allowed, as DRF computes them."""
        if self._kept is None:
            return super().wait()
        oldest, kept = self._kept
        available = self.num_requests - kept + 1
        if available <= 0:
            return None
        return float(self.duration - (self.now - oldest)) / available


class LoginRateThrottle(FailOpenRateThrottle):
    """Token logins per client address."""

    scope = "login"

    def get_cache_key(self, request: Request, view: APIView) -> str:
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}


class TurnRateThrottle(FailOpenRateThrottle):
    """Turn and result submissions per match and client: a signed-in user (an organizer
    scoring several tables from one account) has a budget at each match, a scoring key
    presented has its own (a key opens one match), and anyone else shares their address's.
    A key gets a budget of its own so that the tables of one venue (one address behind its
    router) do not share one; a client inventing a fresh
    key for every request gains nothing by it, since wrong keys are limited per address
    (`games.score_keys`, checked before the match is even read). On Redis, the count of that
    address's wrong keys is read in the limit's own round trip, for the view's check."""

    scope = "turns"

    def counter_key(self, request: Request) -> str | None:
        if (request.user and request.user.is_authenticated) or not presented_score_key(request):
            return None
        return score_keys.failures_key(request)

    def counter_read(self, request: Request, value: int) -> None:
        score_keys.failures_seen(request, value)

    def get_cache_key(self, request: Request, view: APIView) -> str:
        if request.user and request.user.is_authenticated:
            ident = f"user-{request.user.pk}-match-{view.kwargs.get('pk', '')}"
        elif key := presented_score_key(request):
            ident = "key-" + hashlib.sha256(key.encode()).hexdigest()[:24]
        else:
            ident = self.get_ident(request)
        return self.cache_format % {"scope": self.scope, "ident": ident}


class AdviceRateThrottle(FailOpenRateThrottle):
    """Advice requests per client address (the endpoint is public and costs a solve)."""

    scope = "advice"

    def get_cache_key(self, request: Request, view: APIView) -> str:
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}
