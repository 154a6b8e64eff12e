"""WSGI entry point (gunicorn config.wsgi). Production settings unless told otherwise."""

import os

from django.core.wsgi import get_wsgi_application

from config.chunked import ChunkedBodies

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.production")

application = ChunkedBodies(get_wsgi_application())
