"""Rate limits per client: token logins (against password guessing) and turn submissions
(against a runaway client). Counts live in the cache: set CACHE_URL to Redis so every web
process shares them. A cache that cannot be reached lets requests through (and says so in the
log): a Redis outage must not take scoring down with it."""

import hashlib
import logging
import time

from redis.exceptions import RedisError
from rest_framework.request import Request
from rest_framework.throttling import SimpleRateThrottle
from rest_framework.views import APIView

from api.permissions import presented_score_key

logger = logging.getLogger(__name__)
# While the cache is down, say so once a minute per process, not on every request.
WARN_EVERY = 60.0
_last_warning: dict[str, float] = {}


class FailOpenRateThrottle(SimpleRateThrottle):
    """A rate limit that allows the request when its counters cannot be read or written."""

    def allow_request(self, request: Request, view: APIView) -> bool:
        try:
            return super().allow_request(request, view)
        except (RedisError, OSError):
            now, scope = time.monotonic(), str(self.scope)
            if now - _last_warning.get(scope, -WARN_EVERY) >= WARN_EVERY:
                _last_warning[scope] = now
                logger.warning("Rate-limit cache unreachable; %s allowed unthrottled.", self.scope)
            return True


class LoginRateThrottle(FailOpenRateThrottle):
    """Token logins per client address."""

    scope = "login"

    def get_cache_key(self, request: Request, view: APIView) -> str:
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}


class TurnRateThrottle(FailOpenRateThrottle):
    """Turn and result submissions per client: the signed-in user, else the scoring key
    presented, else the client address. A key gets a budget of its own so that the tables of
    one venue (one address behind its router) do not share one; a client inventing a fresh
    key for every request gains nothing by it, since wrong keys are limited per address
    (`games.score_keys`, checked before the match is even read)."""

    scope = "turns"

    def get_cache_key(self, request: Request, view: APIView) -> str:
        if request.user and request.user.is_authenticated:
            ident = f"user-{request.user.pk}"
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
