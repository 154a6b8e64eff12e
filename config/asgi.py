"""ASGI entry point. Production settings unless told otherwise; request logs redacted however the
server is started (`config.logging.guard_request_logs`)."""

import os

from django.core.asgi import get_asgi_application

from config.logging import guard_request_logs

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.production")

application = get_asgi_application()
guard_request_logs()
