"""Production: secrets and hosts must come from the environment; HTTPS everywhere.
`manage.py check --deploy` passes with no warnings (tests/config/test_settings.py)."""

from django.core.exceptions import ImproperlyConfigured

from config.settings.base import *  # noqa: F403
from config.settings.base import ALLOWED_HOSTS, env

DEBUG = False
# With no host allowed, Django would answer every request 400 (/healthz too): refuse to start.
if not ALLOWED_HOSTS:
    raise ImproperlyConfigured(
        "Set the ALLOWED_HOSTS environment variable: the host names this site answers to, "
        "comma-separated (e.g. league.example.org)"
    )

# The embedded PostgreSQL is for a laptop (and is not installed in the image): name the real one.
if not env.str("DATABASE_URL", default=""):
    raise ImproperlyConfigured(
        "Set the DATABASE_URL environment variable: the PostgreSQL database of this site "
        "(e.g. postgres://user:password@host:5432/name)"
    )

# Behind a TLS-terminating proxy (load balancer, nginx) that sets X-Forwarded-Proto.
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_SSL_REDIRECT = env.bool("SECURE_SSL_REDIRECT", default=True)
# Load balancers probe /healthz over plain HTTP.
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
SESSION_COOKIE_SECURE = env.bool("SESSION_COOKIE_SECURE", default=True)
CSRF_COOKIE_SECURE = env.bool("CSRF_COOKIE_SECURE", default=True)
SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=60 * 60 * 24 * 365)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env.bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", default=True)
SECURE_HSTS_PRELOAD = env.bool("SECURE_HSTS_PRELOAD", default=True)
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
DATABASES["default"]["CONN_MAX_AGE"] = env.int("CONN_MAX_AGE", default=60)  # noqa: F405
# Webhooks never go to this machine's own (loopback) addresses in production (SSRF).
WEBHOOK_ALLOW_LOOPBACK = False
