"""The test suite: like dev, with DEBUG off and fast password hashing."""

import os
from urllib.parse import urlsplit, urlunsplit

os.environ.setdefault("SECRET_KEY", "django-insecure-test-only")
os.environ.setdefault("ALLOWED_HOSTS", "testserver,127.0.0.1,localhost")
# Tests play whole games in seconds; the throttle tests set their own low rates.
os.environ.setdefault("THROTTLE_TURNS", "100000/min")
os.environ.setdefault("THROTTLE_LOGIN", "1000/min")
os.environ.setdefault("THROTTLE_ADVICE", "1000/min")
os.environ.setdefault("THROTTLE_SIGN_UP", "1000/min")
# The webhook tests' receiver listens on 127.0.0.1, over plain HTTP.
os.environ.setdefault("WEBHOOK_ALLOW_LOOPBACK", "true")
# The links in the notifications' mails, as the test client's pages have them.
os.environ.setdefault("SITE_URL", "http://testserver")


def _broker_of_this_worker(url: str, worker: str) -> str:
    """Under pytest-xdist (`make test` runs two processes) each process takes the Redis database
    after the last one's: "redis://h:6379/5" stays 5 for gw0 and is 6 for gw1. A real Celery
    worker that one process starts then never takes the other's jobs (pytest-django likewise
    gives each process its own test database)."""
    parts = urlsplit(url)
    if not parts.scheme.startswith("redis") or not worker.startswith("gw"):
        return url
    db = int(parts.path.strip("/") or 0) + int(worker[2:])
    return urlunsplit(parts._replace(path=f"/{db}"))


if os.environ.get("CELERY_BROKER_URL"):
    os.environ["CELERY_BROKER_URL"] = _broker_of_this_worker(
        os.environ["CELERY_BROKER_URL"], os.environ.get("PYTEST_XDIST_WORKER", "")
    )

from config.settings.base import *  # noqa: E402, F403

DEBUG = False
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
# The manifest storage needs collectstatic; tests render pages without it.
STORAGES["staticfiles"] = {  # noqa: F405
    "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
}
# Serve static files straight from the finders: no collectstatic before a test run.
WHITENOISE_USE_FINDERS = True
WHITENOISE_AUTOREFRESH = True

# A stage's projection runs after every result a test finishes: a hundredth of the runs keeps the
# suite's time down (the simulator's own tests choose their runs).
STAGE_PROJECTION_RUNS = 20
# With tasks run in-process, a turn's forecast (and the stage projection a forecast brings)
# would run inside every turn a test stores, the bulk of the tests that play whole days: the
# tests of the live figures switch it on (tests/conftest.py, `live_forecasts`).
FORECAST_EACH_TURN = False
