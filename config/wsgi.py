"""WSGI entry point (gunicorn config.wsgi). Production settings unless told otherwise. However
the server is started, the loggers a request's address reaches redact its secrets
(`config.logging.guard_request_logs`)."""

import os

from django.core.wsgi import get_wsgi_application

from config.chunked import ChunkedBodies
from config.logging import guard_request_logs

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.production")

application = ChunkedBodies(get_wsgi_application())
guard_request_logs()  # after Django's LOGGING is applied, which may replace the loggers' set-up
