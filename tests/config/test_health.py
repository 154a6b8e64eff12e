"""/healthz reports the database and the broker, and answers 503 with a reason when one is down."""

import socket
from collections.abc import Iterator
from typing import Any

import pytest
from django.conf import settings
from django.db.utils import ConnectionHandler
from django.test import Client, override_settings

from config import health


def _closed_port() -> int:
    # A port nothing listens on: bind one, note it, release it.
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _passed(body: dict[str, Any]) -> dict[str, bool]:
    """Each check of a /healthz answer, and whether it passed."""
    return {name: check["ok"] for name, check in body["checks"].items()}


@pytest.mark.django_db
def test_healthz_answers_200_with_database_and_broker_status(client: Client):
    response = client.get("/healthz")
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "ok"
    assert _passed(body) == {"database": True, "broker": True}
    assert response["Cache-Control"].startswith("max-age=0")


@pytest.mark.django_db
def test_healthz_answers_head_as_get_and_refuses_other_methods_with_405():
    # Monitors probe with HEAD (`curl -I`): that was 405, the service seen as down; a POST was
    # Django's HTML 403 "CSRF verification failed". As every read-only page (core/methods.py).
    client = Client(enforce_csrf_checks=True)
    response = client.head("/healthz")
    assert response.status_code == 200
    assert response.content == b""
    for method in (client.post, client.put, client.delete):
        response = method("/healthz")
        assert response.status_code == 405
        assert response["Allow"] == "GET, HEAD"


@pytest.mark.django_db
def test_healthz_answers_503_with_a_reason_when_the_broker_is_down(client: Client):
    with override_settings(CELERY_BROKER_URL=f"redis://127.0.0.1:{_closed_port()}/0"):
        response = client.get("/healthz")
    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "unavailable"
    assert _passed(body) == {"database": True, "broker": False}
    assert body["checks"]["broker"]["detail"].startswith("broker unreachable (")
    assert "127.0.0.1" not in response.content.decode()


@pytest.mark.skipif(not settings.CELERY_BROKER_URL, reason="needs CELERY_BROKER_URL; CI sets it")
def test_broker_check_reaches_the_configured_broker():
    check = health.check_broker()
    assert check.ok, check.detail
    assert check.detail == "redis"


@pytest.fixture
def unreachable_database(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """A second, real connection alias to a PostgreSQL port nothing listens on."""
    handler = ConnectionHandler(
        {
            "default": {
                "ENGINE": "django.db.backends.postgresql",
                "NAME": "nothing",
                "HOST": "127.0.0.1",
                "PORT": str(_closed_port()),
                "OPTIONS": {"connect_timeout": 2},
            }
        }
    )
    monkeypatch.setattr(health, "connections", handler)
    yield "default"
    handler.close_all()


@pytest.mark.django_db
def test_database_check_reports_a_database_that_is_down(unreachable_database: str, caplog):
    """Anyone may ask: the answer names the kind of error, and only the log says where the
    database is (the driver's message gives its host and port)."""
    with caplog.at_level("WARNING", logger="config.health"):
        check = health.check_database(unreachable_database)
    assert check.ok is False
    assert check.detail == "database unreachable (OperationalError; the log has the reason)"
    assert "127.0.0.1" in caplog.text


@pytest.mark.django_db
def test_healthz_answers_503_when_the_database_is_down(unreachable_database: str):
    response = Client().get("/healthz")
    assert response.status_code == 503
    assert response.json()["checks"]["database"]["ok"] is False
