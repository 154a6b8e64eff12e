"""Settings come from the environment; production settings pass `check --deploy` cleanly."""

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.config.django_process import ROOT, django_process, production_environment


def _manage(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if k not in {"SECRET_KEY", "DEBUG"}}
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env={**clean, **env},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_production_settings_pass_check_deploy_with_no_warnings():
    result = _manage(
        "check",
        "--deploy",
        "--fail-level",
        "WARNING",
        **production_environment(),
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues (0 silenced)." in result.stdout


def test_production_settings_refuse_to_start_without_a_secret_key():
    result = _manage(
        "check",
        DJANGO_SETTINGS_MODULE="config.settings.production",
        ALLOWED_HOSTS="league.example.org",
    )
    assert result.returncode != 0
    assert "SECRET_KEY" in result.stderr


def test_a_missing_secret_key_is_one_line_naming_it_not_a_traceback():
    result = _manage(
        "migrate",
        DJANGO_SETTINGS_MODULE="config.settings.production",
        ALLOWED_HOSTS="league.example.org",
    )
    assert result.returncode == 1
    assert result.stderr == (
        "Configuration error (config.settings.production): "
        "Set the SECRET_KEY environment variable\n"
    )


@pytest.mark.parametrize(
    ("variable", "value", "message"),
    [
        ("DATABASE_URL", "postgres//league:s3cret@db/yards", "not a database URL"),
        ("DATABASE_URL", "postgres://league:s3cret@db:port/yards", "its port is not a number"),
        ("DATABASE_URL", "", "Set the DATABASE_URL environment variable"),
        ("DATABASE_URL", "sqlite:////tmp/yards.sqlite3", "runs on PostgreSQL only"),
        ("DATABASE_URL", "mysql://league:s3cret@db/yards", "runs on PostgreSQL only"),
        ("CELERY_BROKER_URL", "s3cret@127.0.0.1:6379", "not a broker URL"),
        ("CELERY_BROKER_URL", "redis://:s3cret@redis:port/0", "its port is not a number"),
        ("CELERY_BROKER_URL", "reddis://:s3cret@redis:6379/0", "scheme 'reddis' unknown"),
        ("CACHE_URL", "redis//:s3cret@redis:6379/1", "not a cache URL"),
        ("EMAIL_URL", "smtp//user:s3cret@mail.example.org", "not a mail URL"),
        ("CONN_MAX_AGE", "a minute", "CONN_MAX_AGE='a minute' is not a whole number"),
        ("STANDINGS_SWEEP_SECONDS", "x", "STANDINGS_SWEEP_SECONDS='x' is not a number"),
        ("WEBHOOK_RETRY_SECONDS", "10,x", "not a comma-separated list of numbers"),
        # A typo never reads as false: HTTPS would be off without a word.
        ("SECURE_SSL_REDIRECT", "ture", "SECURE_SSL_REDIRECT='ture' is not true or false"),
        # DRF would raise on every throttled request: a 500 on every turn.
        ("THROTTLE_TURNS", "lots", "THROTTLE_TURNS='lots' is not a rate"),
        ("TIME_ZONE", "Mars/Base", "not a time zone"),
        ("LOG_LEVEL", "LOUD", "LOG_LEVEL='LOUD' is none of"),
        ("LOG_FORMAT", "xml", "LOG_FORMAT='xml' is none of text, json"),
    ],
)
def test_an_unusable_variable_stops_the_start_with_one_line_naming_it(
    variable: str, value: str, message: str
):
    # compose runs `manage.py migrate` first: its log is where an operator looks.
    result = _manage("migrate", **production_environment(**{variable: value}))
    assert result.returncode == 1
    assert result.stderr.startswith("Configuration error (config.settings.production): ")
    assert variable in result.stderr
    assert message in result.stderr
    assert "Traceback" not in result.stderr
    assert len(result.stderr.splitlines()) == 1
    assert "s3cret" not in result.stderr  # a URL's password is never repeated


@pytest.mark.parametrize(
    ("variable", "value"),
    [
        ("CELERY_BROKER_URL", "redis://127.0.0.1:6399/0"),  # unreachable: /healthz says so
        ("CELERY_BROKER_URL", "sqla+postgresql://league@db/yards"),
        ("SECURE_SSL_REDIRECT", "False"),
        ("THROTTLE_TURNS", "300/minute"),
        ("LOG_LEVEL", "debug"),
    ],
)
def test_usable_variables_are_taken(variable: str, value: str):
    result = _manage("check", **production_environment(**{variable: value}))
    assert result.returncode == 0, result.stderr


@pytest.mark.parametrize("hosts", [None, "", " , "])
def test_production_settings_refuse_to_start_without_allowed_hosts(hosts: str | None):
    # With none, Django answers every request 400, /healthz included: say so at start instead.
    environment = production_environment()
    del environment["ALLOWED_HOSTS"]
    if hosts is not None:
        environment["ALLOWED_HOSTS"] = hosts
    result = django_process("", environment)
    assert result.returncode != 0
    assert "Set the ALLOWED_HOSTS environment variable" in result.stderr


def test_host_and_origin_lists_may_have_spaces_after_their_commas():
    result = django_process(
        "from django.conf import settings as s; print(s.ALLOWED_HOSTS, s.CSRF_TRUSTED_ORIGINS)",
        production_environment(
            ALLOWED_HOSTS="a.example, b.example ,",
            CSRF_TRUSTED_ORIGINS="https://a.example, https://b.example",
        ),
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == (
        "['a.example', 'b.example'] ['https://a.example', 'https://b.example']"
    )


def test_settings_read_database_broker_hosts_and_time_zone_from_the_environment():
    code = (
        "from django.conf import settings as s;"
        "print(s.DATABASES['default']['ENGINE'], s.DATABASES['default']['NAME'],"
        " s.CELERY_BROKER_URL, s.CELERY_TASK_ALWAYS_EAGER, s.ALLOWED_HOSTS,"
        " s.CSRF_TRUSTED_ORIGINS, s.TIME_ZONE, s.USE_TZ, s.DEBUG)"
    )
    environment = {
        "DATABASE_URL": "postgres://league@db.internal:5432/yards",
        "CELERY_BROKER_URL": "redis://cache.internal:6379/3",
        "ALLOWED_HOSTS": "a.example,b.example",
        "CSRF_TRUSTED_ORIGINS": "https://a.example",
        "TIME_ZONE": "Europe/Berlin",
        "DEBUG": "false",
    }
    result = django_process(code, production_environment(**environment))
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == [
        "django.db.backends.postgresql",
        "yards",
        "redis://cache.internal:6379/3",
        "False",
        "['a.example',",
        "'b.example']",
        "['https://a.example']",
        "Europe/Berlin",
        "True",
        "False",
    ]


def test_without_database_url_the_default_is_the_embedded_postgresql_under_var():
    result = django_process(
        "from django.conf import settings as s; d = s.DATABASES['default'];"
        "print(d['ENGINE'], d['NAME'], d['EMBEDDED_POSTGRES_DIR'], s.CELERY_TASK_ALWAYS_EAGER)",
        {
            **{
                k: v
                for k, v in os.environ.items()
                if k not in {"DATABASE_URL", "CELERY_BROKER_URL", "EMBEDDED_POSTGRES_DIR"}
            },
            "DJANGO_SETTINGS_MODULE": "config.settings.dev",
        },
    )
    assert result.returncode == 0, result.stderr
    engine, name, directory, eager = result.stdout.split()
    assert engine == "config.embedded_postgres"
    assert name == "yardleague"
    assert Path(directory) == ROOT / "var" / "postgres"
    assert eager == "True"


def test_no_secret_is_committed_in_settings():
    for path in (ROOT / "config" / "settings").glob("*.py"):
        text = path.read_text()
        for line in text.splitlines():
            if "SECRET_KEY" in line and "setdefault" in line:
                # Only throwaway development/test keys may have defaults.
                assert "django-insecure" in line, f"{path.name}: {line}"
    assert "setdefault" not in (ROOT / "config" / "settings" / "production.py").read_text()


def _log_line(log_format: str) -> str:
    result = django_process(
        "import logging; logging.getLogger('yardleague.check').warning('turn %s stored', 7)",
        {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings.dev", "LOG_FORMAT": log_format},
    )
    assert result.returncode == 0, result.stderr
    return result.stderr.strip().splitlines()[-1]


def test_log_lines_carry_a_timestamp_level_and_logger():
    line = _log_line("text")
    assert re.match(
        r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d+ WARNING yardleague.check turn 7 stored$", line
    )


def test_log_format_json_writes_one_json_object_per_line():
    record = json.loads(_log_line("json"))
    assert record["level"] == "WARNING"
    assert record["logger"] == "yardleague.check"
    assert record["message"] == "turn 7 stored"
    assert record["time"]


def test_no_log_line_holds_a_scoring_key(caplog):
    """Issue 14, item 9: a request line with the private link's `?key=` is logged redacted."""
    import logging

    from config.logging import RedactScoringKeys

    record = logging.LogRecord(
        "django.server",
        logging.INFO,
        __file__,
        1,
        '"%s" %s',
        ("GET /matches/3/score/?key=s3cr3t-K_y&x=1 HTTP/1.1", "302"),
        None,
    )
    assert RedactScoringKeys().filter(record)
    assert "s3cr3t" not in record.getMessage()
    assert "key=[redacted]&x=1" in record.getMessage()
    handler_filters = logging.getLogger().handlers[0].filters
    assert any(isinstance(f, RedactScoringKeys) for f in handler_filters)


@pytest.mark.parametrize(
    ("line", "logged"),
    [
        ("GET /t/12/Ab3dE_fG9x HTTP/1.1", "GET /t/12/[redacted] HTTP/1.1"),
        ("GET /t/12/Ab3dE_fG9x/ HTTP/1.1", "GET /t/12/[redacted]/ HTTP/1.1"),
        ("GET /sign-up/Zk-9_aB/ HTTP/1.1", "GET /sign-up/[redacted]/ HTTP/1.1"),
        ("POST /sign-up/Zk-9_aB/check-in/", "POST /sign-up/[redacted]/check-in/"),
        ("Not Found: /sign-up/Zk-9_aB/", "Not Found: /sign-up/[redacted]/"),
        ("GET /invitations/Zk-9_aB/ HTTP/1.1", "GET /invitations/[redacted]/ HTTP/1.1"),
        ("Gone: /invitations/Zk-9_aB/", "Gone: /invitations/[redacted]/"),
        # No secret in these: an invitation's page at its clean address, the organizer pages'.
        ("GET /invitations/ HTTP/1.1", "GET /invitations/ HTTP/1.1"),
        (
            "POST /organize/leagues/x/invitations/revoke/",
            "POST /organize/leagues/x/invitations/revoke/",
        ),
        # No secret in these: the public sign-up form, a static file.
        ("GET /events/5/sign-up/ HTTP/1.1", "GET /events/5/sign-up/ HTTP/1.1"),
        ("GET /static/t/1/x.css HTTP/1.1", "GET /static/t/1/x.css HTTP/1.1"),
    ],
)
def test_no_log_line_holds_a_short_link_code_a_sign_up_key_or_an_invitation_token(
    line: str, logged: str
):
    import logging

    from config.logging import RedactScoringKeys

    record = logging.LogRecord(
        "django.server", logging.INFO, __file__, 1, '"%s" %s', (line, "200"), None
    )
    assert RedactScoringKeys().filter(record)
    assert record.getMessage() == f'"{logged}" 200'


@pytest.mark.parametrize(
    ("url", "worker", "expected"),
    [
        ("redis://127.0.0.1:6379/5", "gw0", "redis://127.0.0.1:6379/5"),
        ("redis://127.0.0.1:6379/5", "gw1", "redis://127.0.0.1:6379/6"),
        ("redis://127.0.0.1:6379", "gw1", "redis://127.0.0.1:6379/1"),
        ("rediss://:secret@cache:6380/2", "gw3", "rediss://:secret@cache:6380/5"),
        ("redis://127.0.0.1:6379/5", "", "redis://127.0.0.1:6379/5"),
        ("amqp://guest@127.0.0.1//", "gw1", "amqp://guest@127.0.0.1//"),
    ],
)
def test_each_parallel_test_process_takes_its_own_redis_database(
    url: str, worker: str, expected: str
):
    """`make test` runs two pytest-xdist processes: a real Celery worker that one starts must
    never take the other's jobs (docs/development.md, Parallel runs)."""
    from config.settings.test import _broker_of_this_worker

    assert _broker_of_this_worker(url, worker) == expected
