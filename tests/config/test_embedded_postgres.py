"""The embedded PostgreSQL (config/embedded_postgres) as `make run` and a newcomer use it, in a
data directory of the test's own: started by its first use, reachable at the URL it gives,
stopped by `stop`, and stopped by `serve` when the command it ran ends."""

import os
import subprocess
import sys
from pathlib import Path

import psycopg

from tests.config.django_process import ROOT


def _embedded(data: Path, *args: str) -> subprocess.CompletedProcess[str]:
    environment = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    return subprocess.run(
        [sys.executable, "-m", "config.embedded_postgres", *args],
        cwd=ROOT,
        env={**environment, "EMBEDDED_POSTGRES_DIR": str(data)},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_the_server_starts_on_first_use_serves_the_projects_database_and_stops(tmp_path):
    data = tmp_path / "pg"
    assert _embedded(data, "status").stdout.startswith("not running")
    url = _embedded(data, "url").stdout.strip()
    try:
        assert url.startswith("postgres://postgres@/yardleague?host=")
        assert _embedded(data, "status").stdout.startswith("running in")
        with psycopg.connect(url) as db:
            found = db.execute("SELECT current_database(), inet_server_port()").fetchone()
        assert found == ("yardleague", None)  # on its socket, no TCP port taken
    finally:
        stopped = _embedded(data, "stop")
    assert stopped.stdout.startswith("stopped the server in")
    assert _embedded(data, "status").stdout.startswith("not running")
    assert _embedded(data, "stop").stdout.startswith("no server running")


def test_serve_stops_the_server_when_its_command_ends(tmp_path):
    data = tmp_path / "pg"
    connect = (
        "import subprocess, sys, psycopg;"
        "url = subprocess.check_output([sys.executable, '-m', 'config.embedded_postgres', 'url'],"
        " text=True).strip();"
        "psycopg.connect(url).close()"
    )
    served = _embedded(data, "serve", sys.executable, "-c", connect)
    assert served.returncode == 0, served.stderr
    assert "Stopped the embedded PostgreSQL" in served.stderr
    assert _embedded(data, "status").stdout.startswith("not running")


def test_a_command_it_does_not_know_is_refused_with_its_usage(tmp_path):
    refused = _embedded(tmp_path / "pg", "restart")
    assert refused.returncode == 2
    assert refused.stderr.startswith("usage: python -m config.embedded_postgres")
    assert not (tmp_path / "pg").exists()  # nothing started, nothing made


def test_a_handle_list_cut_short_by_an_interrupted_run_does_not_stop_the_next_start(tmp_path):
    """pgserver writes its list of handles in place: a run stopped while writing it leaves it
    empty, and pgserver then fails reading it at every start. The start mends it first."""
    data = tmp_path / "pg"
    url = _embedded(data, "url").stdout.strip()
    try:
        assert url
        (data / ".handle_pids.json").write_text("")
        again = _embedded(data, "url")
        assert again.returncode == 0, again.stderr
        assert again.stdout.strip() == url
    finally:
        _embedded(data, "stop")


def test_mend_handle_list_leaves_a_good_or_missing_list_alone(tmp_path):
    from config.embedded_postgres import mend_handle_list

    assert mend_handle_list(tmp_path) is False  # none yet
    (tmp_path / ".handle_pids.json").write_text("[12, 34]")
    assert mend_handle_list(tmp_path) is False
    assert (tmp_path / ".handle_pids.json").read_text() == "[12, 34]"
    (tmp_path / ".handle_pids.json").write_text("[12, 3")
    assert mend_handle_list(tmp_path) is True
    assert (tmp_path / ".handle_pids.json").read_text() == "[]"


def test_serve_ends_at_once_when_its_whole_group_gets_sigterm(tmp_path):
    """As `.ci/run` stops `make run`: SIGTERM to the process group reaches the command and
    `serve` at once. `serve` waits for the command and stops the server; its handler raised
    KeyboardInterrupt before, which could land inside `Popen.wait` and leave it blocked for
    ever (a CI run hung so). Five times, since it was a race."""
    import signal
    import time

    data = tmp_path / "pg"
    environment = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    for _ in range(5):
        served = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "config.embedded_postgres",
                "serve",
                sys.executable,
                "-c",
                "import subprocess, sys, time; subprocess.check_output([sys.executable, '-m',"
                " 'config.embedded_postgres', 'url']); print('up', flush=True); time.sleep(60)",
            ],
            cwd=ROOT,
            env={**environment, "EMBEDDED_POSTGRES_DIR": str(data)},
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            start_new_session=True,
        )
        try:
            assert served.stdout is not None
            assert served.stdout.readline().strip() == "up"
            started = time.monotonic()
            os.killpg(served.pid, signal.SIGTERM)
            assert served.wait(timeout=30) == 0
            assert time.monotonic() - started < 10
        finally:
            if served.poll() is None:
                os.killpg(served.pid, signal.SIGKILL)
        assert "Stopped the embedded PostgreSQL" in (served.stderr.read() if served.stderr else "")
        assert _embedded(data, "status").stdout.startswith("not running")


def test_stop_counts_a_server_that_ends_after_pg_ctl_gave_up(tmp_path):
    """`stop` waits for the server to end when pg_ctl fails (seen on a loaded machine): it is
    stopped once its postmaster.pid names no live process, and not before."""
    from config import embedded_postgres

    (tmp_path / "postmaster.pid").write_text(f"{os.getpid()}\n{tmp_path}\n")
    assert not embedded_postgres._ends(tmp_path, seconds=0.3)
    (tmp_path / "postmaster.pid").unlink()
    assert embedded_postgres._ends(tmp_path, seconds=0.3)
