"""Signing in for the API: a token for a username and password."""

from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.views import APIView

from api.throttles import LoginRateThrottle


class TokenLoginView(ObtainAuthToken):
    """`{"username", "password"}` -> `{"token"}`; rate-limited per client address."""

    throttle_classes = [LoginRateThrottle]
    # DRF's ObtainAuthToken names its own parsers; this one takes the project's, like every view.
    parser_classes = APIView.parser_classes  # DEFAULT_PARSER_CLASSES, as APIView reads them
