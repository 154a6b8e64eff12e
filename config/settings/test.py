"""The test suite: like dev, with DEBUG off and fast password hashing."""

import os

os.environ.setdefault("SECRET_KEY", "django-insecure-test-only")
os.environ.setdefault("ALLOWED_HOSTS", "testserver,127.0.0.1,localhost")
# Tests play whole games in seconds; the throttle tests set their own low rates.
os.environ.setdefault("THROTTLE_TURNS", "100000/min")
os.environ.setdefault("THROTTLE_LOGIN", "1000/min")
os.environ.setdefault("THROTTLE_ADVICE", "1000/min")
os.environ.setdefault("THROTTLE_SIGN_UP", "1000/min")
# The webhook tests' receiver listens on 127.0.0.1, over plain HTTP.
os.environ.setdefault("WEBHOOK_ALLOW_LOOPBACK", "true")

from config.settings.base import *  # noqa: F403

DEBUG = False
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
# The manifest storage needs collectstatic; tests render pages without it.
STORAGES["staticfiles"] = {  # noqa: F405
    "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
}
# Serve static files straight from the finders: no collectstatic before a test run.
WHITENOISE_USE_FINDERS = True
WHITENOISE_AUTOREFRESH = True
