"""Rate limits per client: token logins (against password guessing) and turn submissions
(against a runaway client). Counts live in the cache: set CACHE_URL to Redis so every web
process shares them."""

import hashlib

from rest_framework.request import Request
from rest_framework.throttling import SimpleRateThrottle
from rest_framework.views import APIView

from api.permissions import presented_score_key


class LoginRateThrottle(SimpleRateThrottle):
    """Token logins per client address."""

    scope = "login"

    def get_cache_key(self, request: Request, view: APIView) -> str:
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}


class TurnRateThrottle(SimpleRateThrottle):
    """Turn and result submissions per client: the signed-in user, else the scoring key
    presented, else the client address."""

    scope = "turns"

    def get_cache_key(self, request: Request, view: APIView) -> str:
        if request.user and request.user.is_authenticated:
            ident = f"user-{request.user.pk}"
        elif key := presented_score_key(request):
            ident = "key-" + hashlib.sha256(key.encode()).hexdigest()[:24]
        else:
            ident = self.get_ident(request)
        return self.cache_format % {"scope": self.scope, "ident": ident}
