"""docker-compose.yml is right for someone with a Docker engine (none runs here): parse it, with
the nginx configuration it mounts and gunicorn's config file."""

import json
import re
import runpy
import shutil
import subprocess
from datetime import timedelta
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
# One Celery worker service per group of queues (docs/operations.md, "More than one machine").
WORKER_SERVICES = ("worker-turns", "worker-heavy", "worker-network")
APP_SERVICES = ("web", *WORKER_SERVICES, "beat")


@pytest.fixture(scope="module")
def services() -> dict[str, Any]:
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    assert "pgdata" in compose["volumes"]
    services: dict[str, Any] = compose["services"]
    return services


def test_compose_defines_postgres_redis_web_workers_and_beat(services):
    assert {"postgres", "redis", "web", *WORKER_SERVICES, "beat"} <= set(services)
    workers = [name for name, service in services.items() if _worker_queues(service)]
    assert sorted(workers) == sorted(WORKER_SERVICES)


def test_web_worker_and_beat_share_one_image_built_from_the_dockerfile(services):
    images = {services[name]["image"] for name in APP_SERVICES}
    assert images == {"yardleague:latest"}
    assert all(services[name]["build"] == "." for name in APP_SERVICES)
    assert (ROOT / "Dockerfile").is_file()


def test_app_services_run_gunicorn_celery_worker_and_celery_beat(services):
    assert services["web"]["command"][:2] == ["gunicorn", "config.wsgi"]
    for name in WORKER_SERVICES:
        assert services[name]["command"][:4] == ["celery", "-A", "config", "worker"]
    assert services["beat"]["command"][:4] == ["celery", "-A", "config", "beat"]


def test_web_worker_and_beat_get_the_same_database_and_broker_settings(services):
    keys = ("DATABASE_URL", "CELERY_BROKER_URL", "SECRET_KEY", "DJANGO_SETTINGS_MODULE")
    environments = [{k: services[name]["environment"][k] for k in keys} for name in APP_SERVICES]
    assert all(environment == environments[0] for environment in environments)
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
    for name in WORKER_SERVICES:
        assert "ping" in " ".join(services[name]["healthcheck"]["test"])


def test_each_worker_pings_itself_for_its_health_and_is_restarted_when_it_exits(services):
    for name in WORKER_SERVICES:
        check = " ".join(services[name]["healthcheck"]["test"])
        assert "inspect ping --destination celery@$$HOSTNAME" in check  # itself, by node name
        assert "--hostname" not in services[name]["command"]  # so celery@ its container's name
        assert services[name]["restart"] in ("unless-stopped", "always")


def test_app_services_wait_for_healthy_postgres_redis_and_finished_migrations(services):
    for name in APP_SERVICES:
        depends = services[name]["depends_on"]
        assert depends["postgres"]["condition"] == "service_healthy"
        assert depends["redis"]["condition"] == "service_healthy"
        assert depends["migrate"]["condition"] == "service_completed_successfully"
    assert services["migrate"]["command"] == ["python", "manage.py", "migrate", "--noinput"]


# --- Behind nginx (issue 14, item 6): slow clients, limits, and logs without keys ----------------

NGINX_CONF = ROOT / "deploy" / "nginx" / "yardleague.conf"


def _directives(text: str) -> dict[str, list[str]]:
    """Each nginx directive's values, by name, comments left out (a directive per line here)."""
    found: dict[str, list[str]] = {}
    for line in text.splitlines():
        line = line.split("#", 1)[0].strip()
        if line.endswith(";"):
            name, _, value = line[:-1].partition(" ")
            found.setdefault(name, []).append(value.strip())
    return found


@pytest.fixture(scope="module")
def nginx_conf() -> str:
    return NGINX_CONF.read_text()


def test_only_nginx_publishes_a_port_and_it_waits_for_a_healthy_web(services):
    published = {name for name, service in services.items() if service.get("ports")}
    assert published == {"nginx"}
    nginx = services["nginx"]
    assert nginx["image"].startswith("nginx:")  # the official image
    assert nginx["ports"] == ["8000:80"]
    assert "./deploy/nginx/yardleague.conf:/etc/nginx/conf.d/default.conf:ro" in nginx["volumes"]
    assert nginx["depends_on"]["web"]["condition"] == "service_healthy"
    assert services["web"]["expose"] == ["8000"]


def test_web_counts_nginx_as_the_one_proxy_in_front(services, nginx_conf):
    assert services["web"]["environment"]["NUM_PROXIES"] == "${NUM_PROXIES:-1}"
    headers = _directives(nginx_conf)["proxy_set_header"]
    assert "X-Forwarded-For $proxy_add_x_forwarded_for" in headers
    assert "X-Forwarded-Proto $yardleague_forwarded_proto" in headers
    assert "Host $http_host" in headers


def test_nginx_reads_requests_whole_with_time_and_size_limits(nginx_conf):
    from django.conf import settings

    directives = _directives(nginx_conf)
    assert directives["proxy_pass"] == ["http://yardleague_web"]
    assert directives["server"] == ["web:8000 resolve"]
    assert directives["listen"] == ["80 default_server"]
    assert directives["proxy_request_buffering"] == ["on"]
    assert directives["proxy_buffering"] == ["on"]
    for name in ("client_header_timeout", "client_body_timeout", "send_timeout"):
        assert directives[name] == ["10s"], name
    assert directives["keepalive_timeout"] == ["15s"]
    # The same limit as Django's, refused with the same error as the API's.
    assert settings.DATA_UPLOAD_MAX_MEMORY_SIZE == 1024 * 1024
    assert directives["client_max_body_size"] == ["1m"]
    assert directives["error_page"] == ["413 @request_too_large"]
    assert f'"limit": {settings.DATA_UPLOAD_MAX_MEMORY_SIZE}' in nginx_conf


def test_the_nginx_access_log_has_no_query_string_and_no_referer(nginx_conf):
    directives = _directives(nginx_conf)
    assert directives["access_log"] == ["/dev/stdout yardleague"]
    log_format = nginx_conf[nginx_conf.index("log_format yardleague") :]
    log_format = log_format[: log_format.index(";")]
    # The path ($uri), through the map that redacts a short link's code and a sign-up's key.
    assert "$yardleague_logged_uri" in log_format
    logged = nginx_conf[nginx_conf.index("map $uri $yardleague_logged_uri") :]
    assert re.search(r"default\s+\$uri;", logged[: logged.index("\n}")])
    for leaky in (
        "$request ",
        '$request"',
        "$request_uri",
        "$args",
        "$query_string",
        "$is_args",
        "$http_referer",
        "$arg_",
    ):
        assert leaky not in log_format, leaky


GUNICORN_CONF = ["--config", "config/gunicorn.conf.py"]


def _dockerfile_cmd() -> list[str]:
    line = next(
        line for line in (ROOT / "Dockerfile").read_text().splitlines() if line.startswith("CMD ")
    )
    command: list[str] = json.loads(line.removeprefix("CMD "))
    return command


def test_web_and_the_image_run_gunicorn_with_the_config_file(services):
    for command in (services["web"]["command"], _dockerfile_cmd()):
        assert command[:2] == ["gunicorn", "config.wsgi"]
        at = command.index("--config")
        assert command[at : at + 2] == GUNICORN_CONF
        assert not any(part.startswith("--access-log") for part in command), command


def test_the_gunicorn_access_log_has_the_path_but_no_query_string_or_referer():
    from gunicorn.config import Config  # type: ignore[import-untyped]
    from gunicorn.glogging import Logger  # type: ignore[import-untyped]

    values = {
        name: value
        for name, value in runpy.run_path(str(ROOT / "config" / "gunicorn.conf.py")).items()
        if not name.startswith("__")
    }
    config = Config()
    assert set(values) <= set(config.settings)  # nothing gunicorn would not know
    for name, value in values.items():
        config.set(name, value)
    assert config.accesslog == "-"
    environ = {
        "REQUEST_METHOD": "GET",
        "RAW_URI": "/matches/7/score/?key=SECRET-QUERY",
        "PATH_INFO": "/matches/7/score/",
        "QUERY_STRING": "key=SECRET-QUERY",
        "SERVER_PROTOCOL": "HTTP/1.1",
        "HTTP_REFERER": "https://league.example.org/matches/7/score/?key=SECRET-REFERER",
        "HTTP_USER_AGENT": "phone",
        "REMOTE_ADDR": "10.0.0.2",
    }
    answer = SimpleNamespace(status="200 OK", sent=512, headers=[])
    atoms = Logger(config).atoms(answer, SimpleNamespace(headers=[]), environ, timedelta(0, 0, 900))
    line = config.access_log_format % atoms
    assert '"GET /matches/7/score/ HTTP/1.1" 200 512' in line
    assert "SECRET" not in line


def _dockerfile_runs() -> list[str]:
    """The Dockerfile's instructions in order, continuation lines joined."""
    text = (ROOT / "Dockerfile").read_text().replace("\\\n", " ")
    return [line.strip() for line in text.splitlines() if line.strip() and line[0] != "#"]


def test_the_image_holds_the_strategy_tables_that_analysis_reads(services):
    # Without them every finished Yardzee match's analysis job fails (StrategyTableMissing) and
    # the sweep warns every minute; a container cannot write them (/app belongs to root, and a
    # `compose run` container is gone after it) so the image must be built with them.
    instructions = _dockerfile_runs()
    build = next(
        (i for i, line in enumerate(instructions) if "manage.py build_strategy" in line), None
    )
    assert build is not None, "the Dockerfile never runs manage.py build_strategy"
    copy = next(i for i, line in enumerate(instructions) if line.startswith("COPY . "))
    user = next(i for i, line in enumerate(instructions) if line.startswith("USER "))
    assert copy < build < user
    assert "--force" not in instructions[build]
    # Read where the settings read them by default (<project>/var/strategy): nothing moves them.
    for name in APP_SERVICES:
        assert "STRATEGY_DIR" not in services[name]["environment"]
    assert "STRATEGY_DIR" not in " ".join(instructions)
    # Built from the image's own rules, never copied from a developer's var/.
    assert "var" in (ROOT / ".dockerignore").read_text().split()


# --- More than one machine (issue 41): web replicas, workers per queue ------------------------


def _worker_queues(service: dict[str, Any]) -> list[str]:
    """The queues a Celery worker service takes (its `-Q`); [] for any other service."""
    command = service.get("command") or []
    if command[:4] != ["celery", "-A", "config", "worker"]:
        return []
    assert "-Q" in command, f"{command}: a worker without -Q takes every queue"
    return list(command[command.index("-Q") + 1].split(","))


def _concurrency(command: list[str]) -> int:
    return int(command[command.index("--concurrency") + 1])


def test_the_worker_services_take_every_queue_of_the_settings_once(services):
    from django.conf import settings

    taken = [queue for service in services.values() for queue in _worker_queues(service)]
    assert sorted(taken) == sorted(queue.name for queue in settings.CELERY_TASK_QUEUES)
    assert len(taken) == len(set(taken)), taken  # no queue on two services
    assert sorted(set(settings.JOB_QUEUES.values()) | {settings.CELERY_TASK_DEFAULT_QUEUE}) == (
        sorted(taken)
    )


def test_the_worker_services_run_the_queues_and_concurrency_docs_operations_gives(services):
    """docs/operations.md, "More than one machine", names each worker's queues and its
    concurrency in one `celery ... worker -Q ... --concurrency N` line each: compose runs
    exactly those."""
    text = (ROOT / "docs" / "operations.md").read_text()
    section = text[text.index("## More than one machine") :]
    section = section[: section.index("\n## ", 1)]
    documented = {
        queues: int(concurrency)
        for queues, concurrency in re.findall(
            r"celery -A config worker -Q (\S+) --concurrency (\d+)", section
        )
    }
    composed = {
        ",".join(_worker_queues(services[name])): _concurrency(services[name]["command"])
        for name in WORKER_SERVICES
    }
    assert composed == documented


def test_web_scales_to_replicas_that_nginx_round_robins_by_docker_dns(services, nginx_conf):
    """`docker compose up --scale web=3`: web has no host port and no fixed container name
    (either would stop a second replica from starting), and nginx's upstream is the name `web`
    looked up again in Docker's DNS (`resolve`), with the default balancing: round robin."""
    web = services["web"]
    assert "ports" not in web
    assert "container_name" not in web
    directives = _directives(nginx_conf)
    assert directives["server"] == ["web:8000 resolve"]
    assert directives["resolver"] == ["127.0.0.11 valid=10s ipv6=off"]
    assert directives["zone"] == ["yardleague_web 64k"]  # `resolve` needs the shared zone
    for other in ("hash", "ip_hash", "least_conn", "random", "sticky"):
        assert other not in directives, other


@pytest.mark.skipif(
    not Path(shutil.which("nginx") or "/usr/sbin/nginx").exists(),
    reason="needs Debian's nginx (apt-get install nginx)",
)
def test_nginx_accepts_the_configuration_with_three_upstreams(tmp_path):
    """`nginx -t` on deploy/nginx/yardleague.conf as the system tests run it: its `listen` and
    its upstream's `server` (a Docker DNS name, and `resolve`, which Debian's nginx 1.22 lacks:
    1.27.3 or later, as in compose's nginx image) pointed at three local ports."""
    from tests.system.proxy import NGINX, nginx_config

    config = nginx_config(prefix=tmp_path, listen=18000, upstreams=[18001, 18002, 18003])
    done = subprocess.run(
        [NGINX, "-t", "-p", str(tmp_path), "-c", str(config), "-e", str(tmp_path / "error.log")],
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert done.returncode == 0, done.stderr
    assert "syntax is ok" in done.stderr
