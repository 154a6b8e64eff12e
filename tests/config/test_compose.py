"""docker-compose.yml is right for someone with a Docker engine (none runs here): parse it."""

from pathlib import Path
from typing import Any

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
APP_SERVICES = ("web", "worker", "beat")


@pytest.fixture(scope="module")
def services() -> dict[str, Any]:
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    assert "pgdata" in compose["volumes"]
    services: dict[str, Any] = compose["services"]
    return services


def test_compose_defines_postgres_redis_web_worker_and_beat(services):
    assert {"postgres", "redis", "web", "worker", "beat"} <= set(services)


def test_web_worker_and_beat_share_one_image_built_from_the_dockerfile(services):
    images = {services[name]["image"] for name in APP_SERVICES}
    assert images == {"yardleague:latest"}
    assert all(services[name]["build"] == "." for name in APP_SERVICES)
    assert (ROOT / "Dockerfile").is_file()


def test_app_services_run_gunicorn_celery_worker_and_celery_beat(services):
    assert services["web"]["command"][:2] == ["gunicorn", "config.wsgi"]
    assert services["worker"]["command"][:4] == ["celery", "-A", "config", "worker"]
    assert services["beat"]["command"][:4] == ["celery", "-A", "config", "beat"]


def test_web_worker_and_beat_get_the_same_database_and_broker_settings(services):
    keys = ("DATABASE_URL", "CELERY_BROKER_URL", "SECRET_KEY", "DJANGO_SETTINGS_MODULE")
    environments = [{k: services[name]["environment"][k] for k in keys} for name in APP_SERVICES]
    assert environments[0] == environments[1] == environments[2]
    env = environments[0]
    assert env["DATABASE_URL"].startswith("postgres://")
    assert "@postgres:5432/" in env["DATABASE_URL"]
    assert env["CELERY_BROKER_URL"] == "redis://redis:6379/0"
    assert env["DJANGO_SETTINGS_MODULE"] == "config.settings.production"


def test_secrets_come_from_the_environment_not_the_file(services):
    assert services["web"]["environment"]["SECRET_KEY"].startswith("${SECRET_KEY:?")
    assert services["postgres"]["environment"]["POSTGRES_PASSWORD"].startswith(
        "${POSTGRES_PASSWORD:?"
    )


def test_postgres_and_redis_have_healthchecks_and_postgres_keeps_a_volume(services):
    assert "pg_isready" in " ".join(services["postgres"]["healthcheck"]["test"])
    assert "ping" in services["redis"]["healthcheck"]["test"]
    assert any(v.startswith("pgdata:") for v in services["postgres"]["volumes"])
    assert "/healthz" in " ".join(services["web"]["healthcheck"]["test"])
    assert "ping" in " ".join(services["worker"]["healthcheck"]["test"])


def test_app_services_wait_for_healthy_postgres_redis_and_finished_migrations(services):
    for name in APP_SERVICES:
        depends = services[name]["depends_on"]
        assert depends["postgres"]["condition"] == "service_healthy"
        assert depends["redis"]["condition"] == "service_healthy"
        assert depends["migrate"]["condition"] == "service_completed_successfully"
    assert services["migrate"]["command"] == ["python", "manage.py", "migrate", "--noinput"]
