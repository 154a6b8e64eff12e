"""The embedded PostgreSQL of `make run` and `make test` when DATABASE_URL is unset.

A PostgreSQL 16 server that pip installs (the `pgserver` package), with its data directory under
`var/` (`EMBEDDED_POSTGRES_DIR`, default `var/postgres`; `make test` uses `var/postgres-test`).
It listens on a Unix socket in that directory only, so it never takes the machine's port 5432.
Django reaches it through the database backend of this package (`base.py`), which starts the
server, or finds it running, when the first connection is made: importing the settings starts
nothing (mypy's Django plugin imports them).

    python -m config.embedded_postgres status   # where it is and whether it runs
    python -m config.embedded_postgres stop     # stop it (the next connection starts it again)
    python -m config.embedded_postgres url      # a DATABASE_URL for psql or another process

The same server is reused by every process that names the same directory; it runs until it is
stopped (`make test` stops its own at the end; `make run` stops it when the server exits)."""

import json
import os
import subprocess
import threading
import time
import warnings
from contextlib import suppress
from pathlib import Path
from typing import Any
from urllib.parse import quote

ROOT = Path(__file__).resolve().parent.parent.parent
DEFAULT_DIRECTORY = ROOT / "var" / "postgres"
# The database the project's data goes in (tests make their own `test_...` beside it).
DATABASE_NAME = "yardleague"
USER = "postgres"

_started: dict[Path, Path] = {}  # data directory -> socket directory, in this process
_starting = threading.Lock()


def directory() -> Path:
    """The data directory named by EMBEDDED_POSTGRES_DIR (relative to the project), or the
    default `var/postgres`."""
    named = os.environ.get("EMBEDDED_POSTGRES_DIR", "").strip()
    path = Path(named) if named else DEFAULT_DIRECTORY
    return (path if path.is_absolute() else ROOT / path).resolve()


def database_settings() -> dict[str, Any]:
    """Django's DATABASES entry for the embedded server. HOST is filled in by the backend when it
    connects (the socket's directory is known once the server runs)."""
    return {
        "ENGINE": "config.embedded_postgres",
        "NAME": DATABASE_NAME,
        "USER": USER,
        "PASSWORD": "",
        "HOST": "",
        "PORT": "",
        "EMBEDDED_POSTGRES_DIR": str(directory()),
    }


def _pgserver() -> Any:
    # platformdirs warns, on import, that XDG_RUNTIME_DIR is unset (pgserver keeps a lock file
    # there and falls back to /tmp): not ours to act on.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        import pgserver

    return pgserver


def ensure_running(data: Path) -> Path:
    """Start the server in `data` (initialising the directory the first time), or find it
    running, and make sure the project's database exists. Returns the socket's directory."""
    socket = _started.get(data)
    if socket is not None and (socket / ".s.PGSQL.5432").exists():
        return socket
    with _starting:
        data.parent.mkdir(parents=True, exist_ok=True)
        mend_handle_list(data)
        # cleanup_mode=None: the server outlives this process, for the next one to reuse.
        server = _pgserver().get_server(data, cleanup_mode=None)
        socket = Path(server.get_postmaster_info().socket_dir)
        _create_database(socket)
        _started[data] = socket
        return socket


# pgserver's list of the processes holding a server, in its data directory: written in place,
# so a process stopped while writing it (a run interrupted) leaves it empty or cut short, and
# every later start fails reading it (JSONDecodeError).
HANDLE_LIST = ".handle_pids.json"


def mend_handle_list(data: Path) -> bool:
    """Start the handle list again (empty) when it is not a JSON list; True when it was mended.
    The project never asks pgserver to stop a server by that list (`cleanup_mode=None`), so an
    empty one loses nothing."""
    path = data / HANDLE_LIST
    try:
        if isinstance(json.loads(path.read_text()), list):
            return False
    except FileNotFoundError:
        return False
    except (ValueError, UnicodeDecodeError):
        pass
    path.write_text("[]")
    return True


def _create_database(socket: Path) -> None:
    import psycopg
    from psycopg import sql

    with psycopg.connect(host=str(socket), user=USER, dbname="postgres", autocommit=True) as db:
        found = db.execute("SELECT 1 FROM pg_database WHERE datname = %s", [DATABASE_NAME])
        if found.fetchone() is None:
            # Another process may make it meanwhile.
            with suppress(psycopg.errors.DuplicateDatabase):
                db.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(DATABASE_NAME)))


def running(data: Path) -> Path | None:
    """The socket's directory of the server running in `data`, or None. Read here, not with
    pgserver's `PostmasterInfo`, which asserts a whole file: a server starting in another
    process has written only its first lines."""
    pid_file = data / "postmaster.pid"
    if not pid_file.exists():
        return None
    lines = pid_file.read_text().splitlines()
    try:
        os.kill(int(lines[0]), 0)
    except (ValueError, IndexError, ProcessLookupError):
        return None
    except PermissionError:  # running, as another user
        pass
    return Path(lines[4]) if len(lines) > 4 and lines[4] else data


def url(data: Path, database: str = DATABASE_NAME) -> str:
    """A DATABASE_URL for the server in `data`, started if need be: the socket's directory as
    the `host` parameter, a form that both django-environ and psql read."""
    socket = ensure_running(data)
    return f"postgres://{USER}@/{database}?host={quote(str(socket))}"


def stop(data: Path) -> bool:
    """Stop the server in `data` (waiting for it to end). False if none was running."""
    if running(data) is None:
        return False
    pgserver = _pgserver()
    user = "pgserver" if os.geteuid() == 0 else None  # as root pgserver runs it as its own user
    try:
        pgserver.pg_ctl(["-w", "-m", "fast", "stop"], pgdata=data, user=user)
    except subprocess.CalledProcessError:
        # pg_ctl has been seen to fail at once on a loaded machine while the server went on
        # to stop (a test's `stop`, 2026-12-06): what counts is whether the server ends.
        if not _ends(data, seconds=STOP_WAIT_SECONDS):
            raise
    _started.pop(data, None)
    return True


# How long `stop` waits for a server to end after pg_ctl failed to stop it.
STOP_WAIT_SECONDS = 60


def _ends(data: Path, *, seconds: float) -> bool:
    """Whether the server in `data` has ended, or ends within `seconds`."""
    deadline = time.monotonic() + seconds
    while running(data) is not None:
        if time.monotonic() > deadline:
            return False
        time.sleep(0.2)
    return True
