"""`/healthz`: is this web process able to serve? Checks the database and the task broker.

200 when every check passes, 503 with the failing check's reason otherwise. Used by load
balancers, docker-compose healthchecks and the CI smoke run. Anyone may ask, so a failing
check names only the kind of error; its whole text (hosts, ports, users) goes to the log."""

import logging
from dataclasses import asdict, dataclass

from django.conf import settings
from django.db import DatabaseError, connections
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache

from config.celery import app as celery_app
from core.methods import read_only

BROKER_TIMEOUT_SECONDS = 2

logger = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Check:
    ok: bool
    detail: str


def check_database(alias: str = "default") -> Check:
    try:
        with connections[alias].cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except DatabaseError as exc:
        return _failed("database", exc)
    return Check(ok=True, detail=connections[alias].vendor)


def check_broker(broker_url: str | None = None) -> Check:
    url = settings.CELERY_BROKER_URL if broker_url is None else broker_url
    if not url:
        return Check(ok=True, detail="no broker configured: tasks run in-process")
    try:
        with celery_app.connection_for_write(url) as conn:
            conn.ensure_connection(
                max_retries=1, interval_start=0, interval_step=0, timeout=BROKER_TIMEOUT_SECONDS
            )
            # The kind of broker ("redis"), not the transport class that settings name for it.
            kind = str(conn.transport.driver_type)
    except Exception as exc:  # kombu raises transport-specific errors; any of them means down
        return _failed("broker", exc)
    return Check(ok=True, detail=kind)


def _failed(what: str, error: Exception) -> Check:
    logger.warning("Health check: %s unreachable: %s", what, error)
    return Check(
        ok=False, detail=f"{what} unreachable ({type(error).__name__}; the log has the reason)"
    )


@never_cache
@read_only  # GET and HEAD (monitors probe with either); 405 for any other method
def healthz(request: HttpRequest) -> JsonResponse:
    checks = {"database": check_database(), "broker": check_broker()}
    healthy = all(check.ok for check in checks.values())
    return JsonResponse(
        {
            "status": "ok" if healthy else "unavailable",
            "checks": {name: asdict(check) for name, check in checks.items()},
        },
        status=200 if healthy else 503,
    )
