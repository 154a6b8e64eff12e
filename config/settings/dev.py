"""Local development (`make run`): DEBUG on, a throwaway key, the embedded PostgreSQL and
in-process tasks by default. Any setting can still be overridden from the environment."""

import os

# A development-only key so `make run` needs no set-up; production refuses to start without one.
os.environ.setdefault("SECRET_KEY", "django-insecure-dev-only-never-use-in-production")
os.environ.setdefault("DEBUG", "true")
os.environ.setdefault("ALLOWED_HOSTS", "127.0.0.1,localhost,[::1]")

from config.settings.base import *  # noqa: F403

WHITENOISE_USE_FINDERS = True
WHITENOISE_AUTOREFRESH = True

# Tasks run in-process here: one INFO line per task would drown the server's own log.
LOGGING["loggers"]["celery.app.trace"] = {"level": "WARNING"}  # noqa: F405
