"""The project's management commands that work on the database (config/commands.py): on a
database not migrated, or one that cannot be reached, they stop at once with one line saying
so (CommandError, exit 1), never a traceback from their first query, and change nothing."""

import os
import socket
import subprocess
import sys

import psycopg
import pytest

from tests.config.django_process import ROOT

COMMANDS = [
    ["recompute_standings", "--check"],
    ["recompute_ratings"],
    ["analyse_matches", "--check"],
    ["export_event", "1"],
    ["import_event", "event.json", "--league", "night"],
    ["load_demo"],
    ["load_webhook_demo"],
    ["seed_season", "--factor", "1", "--force"],
]


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _tables(database_url: str) -> list[str]:
    with psycopg.connect(database_url) as db:
        found = db.execute("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")
        return [name for (name,) in found.fetchall()]


def _manage(args: list[str], database_url: str) -> subprocess.CompletedProcess[str]:
    environment = {
        **{k: v for k, v in os.environ.items() if k not in {"CELERY_BROKER_URL", "SECRET_KEY"}},
        "DJANGO_SETTINGS_MODULE": "config.settings.dev",
        "DATABASE_URL": database_url,
    }
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


@pytest.mark.parametrize("args", COMMANDS, ids=" ".join)
def test_a_command_on_a_database_not_migrated_says_to_migrate(
    args: list[str], empty_database_url: str
):
    result = _manage(args, empty_database_url)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "Traceback" not in result.stderr
    assert result.stderr.startswith("CommandError: The database has ")
    assert "run `manage.py migrate` first" in result.stderr
    assert _tables(empty_database_url) == []  # nothing written


@pytest.mark.parametrize("args", [["recompute_standings", "--check"], ["load_demo"]], ids=" ".join)
def test_a_command_without_its_database_says_it_cannot_reach_it(args: list[str]):
    result = _manage(args, f"postgres://postgres@127.0.0.1:{_closed_port()}/yardleague")
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    assert result.stderr.startswith("CommandError: Cannot reach the database: ")
    assert "127.0.0.1" in result.stderr
