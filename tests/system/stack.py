"""The service as it runs in production, started on this machine for the system tests and
benchmarks: gunicorn with several workers on 127.0.0.1, Celery workers and beat, against the
machine's PostgreSQL (a database of its own) and Redis (two database numbers of its own: 10 for
the broker and 11 for the cache, or the two that `SYSTEM_REDIS_DBS` names, e.g. `15,15`, for a
run beside another one on the same Redis).

Everything is loopback only and bounded: every wait has a timeout, and `Stack.stop()` ends every
process it started (each in its own process group, so a Celery worker's pool goes with it).
Each process logs to artifacts/system/<name>.log, which CI keeps."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import psycopg

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
LOGS = ROOT / "artifacts" / "system"
ORGANIZER = ("organizer", "system-harness-password")


def machine_urls() -> tuple[str, str] | None:
    """The PostgreSQL and Redis the suite was given (CI's DATABASE_URL and CELERY_BROKER_URL),
    or None when either is missing: the harness needs both."""
    database = os.environ.get("DATABASE_URL", "")
    broker = os.environ.get("CELERY_BROKER_URL", "")
    if not database.startswith(("postgres://", "postgresql://")) or not broker.startswith(
        "redis://"
    ):
        return None
    return database, broker


def redis_databases() -> tuple[int, int]:
    """The broker's and the cache's Redis database numbers (`SYSTEM_REDIS_DBS`, "10,11" by
    default). One number for both is fine: the broker's keys and the cache's never meet."""
    broker, cache = os.environ.get("SYSTEM_REDIS_DBS", "10,11").split(",")
    return int(broker), int(cache)


# The template databases this run has migrated (name, settings): `Stack.prepare` copies them.
_TEMPLATES: set[tuple[str, str]] = set()


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _with_path(url: str, path: str) -> str:
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, parts.netloc, path, "", ""))


@dataclass
class Stack:
    """One running service. `name` keeps its database and logs apart from other stacks."""

    name: str
    web_workers: int = 4
    settings: str = "config.settings.production"
    env_overrides: Mapping[str, str] = field(default_factory=dict)
    processes: dict[str, subprocess.Popen[bytes]] = field(default_factory=dict)
    port: int = field(default_factory=free_port)
    # (PostgreSQL, Redis) URLs for a stack on servers of its own; the machine's by default.
    urls: tuple[str, str] | None = None

    def __post_init__(self) -> None:
        urls = self.urls or machine_urls()
        if urls is None:
            raise RuntimeError("The system harness needs DATABASE_URL and CELERY_BROKER_URL.")
        database, broker = urls
        self.database_url = _with_path(database, f"/yardleague_system_{self.name}")
        self.admin_url = _with_path(database, "/postgres")
        self.broker_db, self.cache_db = redis_databases()
        self.broker_url = _with_path(broker, f"/{self.broker_db}")
        self.cache_url = _with_path(broker, f"/{self.cache_db}")
        self.base_url = f"http://127.0.0.1:{self.port}"
        LOGS.mkdir(parents=True, exist_ok=True)
        self.env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": self.settings,
            "SECRET_KEY": "system-harness-" + "x" * 50,
            "ALLOWED_HOSTS": "127.0.0.1,localhost",
            "SECURE_SSL_REDIRECT": "false",
            "SESSION_COOKIE_SECURE": "false",
            "CSRF_COOKIE_SECURE": "false",
            "SECURE_HSTS_SECONDS": "0",
            "DATABASE_URL": self.database_url,
            "CELERY_BROKER_URL": self.broker_url,
            "CACHE_URL": self.cache_url,
            # Scorekeepers on a league night send a turn every few seconds; the harness's
            # clients send hundreds a second from one address.
            "THROTTLE_TURNS": "10000000/min",
            "THROTTLE_LOGIN": "10000/min",
            # Its bad turns include wrong scoring keys, all from 127.0.0.1: a real address
            # sending that many would be locked out for the minute (SCORE_KEY_FAILURES).
            "SCORE_KEY_FAILURES": "10000000",
            "STANDINGS_SWEEP_SECONDS": "3",
            "LOG_LEVEL": "INFO",
            "PYTHONUNBUFFERED": "1",
            **self.env_overrides,
        }

    # --- Set-up --------------------------------------------------------------------------------

    def prepare(self) -> None:
        """A new database, migrated, with one organizer account; static files collected; the
        broker's and cache's databases emptied. The first stack of a run migrates a template
        database (and collects the static files) once; every later one is a copy of it, made
        by PostgreSQL in a fraction of a second instead of a migration run."""
        self.redis("FLUSHDB", db=self.broker_db)
        self.redis("FLUSHDB", db=self.cache_db)
        template = f"yardleague_system_template_{self.broker_db}"
        name = f"yardleague_system_{self.name}"
        with psycopg.connect(self.admin_url, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            if (template, self.settings) not in _TEMPLATES:
                conn.execute(f'DROP DATABASE IF EXISTS "{template}" WITH (FORCE)')
                conn.execute(f'CREATE DATABASE "{template}"')
        if (template, self.settings) not in _TEMPLATES:
            self._migrate_template(template)
            _TEMPLATES.add((template, self.settings))
        with psycopg.connect(self.admin_url, autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}" TEMPLATE "{template}"')

    def _migrate_template(self, template: str) -> None:
        env = {**self.env, "DATABASE_URL": _with_path(self.database_url, f"/{template}")}
        # collectstatic touches no database: it runs beside the migrations.
        commands = [("migrate", "--noinput"), ("collectstatic", "--noinput")]
        running = [self._manage_in_background(args, env) for args in commands]
        for args, process in zip(commands, running, strict=True):
            self._finished(args, process)
        self.manage(
            "createsuperuser",
            "--noinput",
            f"--username={ORGANIZER[0]}",
            "--email=organizer@example.com",
            env={"DATABASE_URL": env["DATABASE_URL"], "DJANGO_SUPERUSER_PASSWORD": ORGANIZER[1]},
        )

    def manage(self, *args: str, env: Mapping[str, str] | None = None, check: bool = True) -> str:
        """Run `manage.py` with the stack's settings; its output (stdout and stderr)."""
        done = subprocess.run(
            [sys.executable, "manage.py", *args],
            cwd=ROOT,
            env={**self.env, **(env or {})},
            capture_output=True,
            text=True,
            timeout=300,
        )
        if check and done.returncode != 0:
            raise RuntimeError(f"manage.py {' '.join(args)} failed:\n{done.stdout}{done.stderr}")
        return done.stdout + done.stderr

    def manage_side_by_side(self, *commands: tuple[str, ...], check: bool = True) -> list[str]:
        """Several `manage.py` commands at once, each in a process of its own; their outputs."""
        running = [self._manage_in_background(args, self.env) for args in commands]
        return [
            self._finished(args, process, check=check)
            for args, process in zip(commands, running, strict=True)
        ]

    @staticmethod
    def _manage_in_background(
        args: tuple[str, ...], env: Mapping[str, str]
    ) -> subprocess.Popen[str]:
        return subprocess.Popen(
            [sys.executable, "manage.py", *args],
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )

    @staticmethod
    def _finished(
        args: tuple[str, ...], process: subprocess.Popen[str], *, check: bool = True
    ) -> str:
        try:
            output, _ = process.communicate(timeout=300)
        except subprocess.TimeoutExpired:
            process.kill()
            output, _ = process.communicate()
        if check and process.returncode != 0:
            raise RuntimeError(f"manage.py {' '.join(args)} failed:\n{output}")
        return output

    def redis(self, *command: str, db: int | None = None) -> str:
        """A redis-cli command on the broker's database (or `db`); its output."""
        parts = urlsplit(self.broker_url)
        done = subprocess.run(
            [
                "redis-cli",
                "-h",
                parts.hostname or "127.0.0.1",
                "-p",
                str(parts.port or 6379),
                "-n",
                str(self.broker_db if db is None else db),
                *command,
            ],
            capture_output=True,
            text=True,
            timeout=10,
        )
        return done.stdout.strip()

    def sql(self, query: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        with psycopg.connect(self.database_url, autocommit=True) as conn:
            return conn.execute(query, params).fetchall()

    # --- Processes -----------------------------------------------------------------------------

    def _spawn(self, name: str, argv: list[str]) -> subprocess.Popen[bytes]:
        log = (LOGS / f"{self.name}-{name}.log").open("ab")
        process = subprocess.Popen(
            argv,
            cwd=ROOT,
            env=self.env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # its own process group: killpg reaches its children
        )
        log.close()
        self.processes[name] = process
        return process

    def log(self, name: str) -> str:
        path = LOGS / f"{self.name}-{name}.log"
        return path.read_text(errors="replace") if path.exists() else ""

    def spawn_web(self, name: str = "web", port: int | None = None) -> None:
        """Start gunicorn as `name` on `port` (the stack's own by default), without waiting.
        Each is a process group of its own, with its workers' own in-process caches."""
        self._spawn(
            name,
            [
                str(BIN / "gunicorn"),
                "config.wsgi",
                "--config",
                "config/gunicorn.conf.py",
                "--bind",
                f"127.0.0.1:{port or self.port}",
                "--workers",
                str(self.web_workers),
                "--timeout",
                "30",
                "--graceful-timeout",
                "5",
                "--log-level",
                "warning",
            ],
        )

    def start_web(self) -> None:
        self.spawn_web()
        self.wait_until(lambda: self.get_status("/healthz") == 200, "web to answer /healthz")

    def start_worker(
        self,
        name: str = "worker",
        *,
        queues: str | None = None,
        concurrency: int = 1,
        include: str | None = None,
    ) -> subprocess.Popen[bytes]:
        """A Celery worker taking every queue, or only `queues` (as `-Q` has them), with
        `concurrency` job processes, and the tasks of the modules `include` names (as
        `--include` has them) besides the project's; ready when it returns."""
        ready = self.spawn_worker(name, queues=queues, concurrency=concurrency, include=include)
        self.wait_until(ready, f"{name} to be ready")
        return self.processes[name]

    def spawn_worker(
        self,
        name: str = "worker",
        *,
        queues: str | None = None,
        concurrency: int = 1,
        include: str | None = None,
    ) -> Callable[[], bool]:
        """`start_worker` without waiting (several start side by side): whether it is ready."""
        offset = len(self.log(name))
        self._spawn(
            name,
            [
                str(BIN / "celery"),
                "-A",
                "config",
                "worker",
                "--loglevel",
                "INFO",
                "--concurrency",
                str(concurrency),
                "--hostname",
                f"{name}-{self.name}@%h",
                "--without-gossip",
                "--without-mingle",
                *(["--queues", queues] if queues else []),
                *(["--include", include] if include else []),
            ],
        )
        return lambda: " ready." in self.log(name)[offset:]

    def start_beat(self) -> None:
        schedule = LOGS / f"{self.name}-beat-schedule"
        for stale in LOGS.glob(f"{self.name}-beat-schedule*"):
            stale.unlink()
        self._spawn(
            "beat",
            [
                str(BIN / "celery"),
                "-A",
                "config",
                "beat",
                "--loglevel",
                "INFO",
                "--schedule",
                str(schedule),
            ],
        )

    def kill(self, name: str, sig: signal.Signals = signal.SIGKILL) -> None:
        """Send `sig` to a process and everything it started, and wait for it to end."""
        process = self.processes.pop(name)
        with suppress(ProcessLookupError):
            os.killpg(process.pid, sig)
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=15)

    def stop(self) -> None:
        """SIGTERM to every process at once (each shuts down on its own), then wait for each;
        SIGKILL to any still running 15 s later."""
        processes = self.processes
        self.processes = {}
        for process in processes.values():
            with suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGTERM)
        deadline = time.monotonic() + 15
        for process in processes.values():
            try:
                process.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                with suppress(ProcessLookupError):
                    os.killpg(process.pid, signal.SIGKILL)
                process.wait(timeout=15)

    # --- Waiting and probing -------------------------------------------------------------------

    def get_status(self, path: str, base_url: str | None = None) -> int | None:
        try:
            with urllib.request.urlopen((base_url or self.base_url) + path, timeout=5) as answer:  # noqa: S310
                return int(answer.status)
        except urllib.error.HTTPError as error:
            return error.code
        except OSError:
            return None

    def wait_until(
        self, condition: Any, what: str, timeout: float = 60.0, poll: float = 0.2
    ) -> float:
        """Poll `condition()` until it is true; the seconds it took. Fails after `timeout`,
        with the tail of every log."""
        started = time.monotonic()
        while time.monotonic() - started < timeout:
            if condition():
                return time.monotonic() - started
            for name, process in self.processes.items():
                if process.poll() is not None:
                    raise RuntimeError(f"{name} exited ({process.returncode}):\n{self.log(name)}")
            time.sleep(poll)
        tails = "\n".join(f"--- {name}\n{self.log(name)[-3000:]}" for name in self.processes)
        raise TimeoutError(f"Waited {timeout:.0f} s for {what}.\n{tails}")

    def stale_tables(self) -> int:
        """Standings tables and league ratings with results not yet computed."""
        rows = self.sql(
            "SELECT (SELECT count(*) FROM league_standingstable WHERE requested > computed)"
            " + (SELECT count(*) FROM league_ratingsstate WHERE requested > computed)"
        )
        return int(rows[0][0])

    def differences_from_scratch(self) -> str:
        """'' when every stored table and rating equals a from-scratch computation; otherwise
        what differs (the two `--check` commands, which write nothing)."""
        outputs = self.manage_side_by_side(
            ("recompute_standings", "--check"), ("recompute_ratings", "--check"), check=False
        )
        return "\n".join(output for output in outputs if "are current" not in output)


@contextmanager
def running(stack: Stack, *, workers: int = 1, beat: bool = True) -> Iterator[Stack]:
    """Prepare and start `stack` (web, `workers` Celery workers, beat); stop it afterwards."""
    stack.prepare()
    try:
        stack.start_web()
        for number in range(workers):
            stack.start_worker(f"worker{number + 1}")
        if beat:
            stack.start_beat()
        yield stack
    finally:
        stack.stop()
