"""A redis-server of a test's own, on a free loopback port, for tests that stop Redis (never the
machine's): tests/config/test_broker.py and tests/system/test_worker_outage.py."""

from __future__ import annotations

import shutil
import subprocess
import time
from contextlib import suppress
from pathlib import Path

import pytest
import redis
from redis.backoff import NoBackoff
from redis.retry import Retry

from tests.system.stack import free_port

needs_redis_server = pytest.mark.skipif(
    shutil.which("redis-server") is None, reason="needs redis-server"
)


class OwnRedis:
    """Started by `start()`, on the same port each time. With `directory`, what it holds is
    kept there across `go_down(save=True)` and the next `start()`; without, nothing is kept."""

    def __init__(self, directory: Path | None = None) -> None:
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.directory = directory
        self.process: subprocess.Popen[bytes] | None = None

    def client(self) -> redis.Redis:
        # No retries: redis-py would try to reconnect for seconds to a server that is down.
        return redis.Redis(port=self.port, retry=Retry(NoBackoff(), 0))

    def start(self) -> None:
        place = ["--dir", str(self.directory)] if self.directory else []
        self.process = subprocess.Popen(
            [
                *("redis-server", "--bind", "127.0.0.1", "--port", str(self.port)),
                *("--save", "", "--appendonly", "no", "--loglevel", "warning", *place),
            ],
            stdout=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 10
        while True:
            try:
                self.client().ping()
                return
            except redis.ConnectionError:
                assert time.monotonic() < deadline, "redis-server did not start"
                time.sleep(0.05)

    def go_down(self, *, save: bool = False) -> None:
        """Close every pub/sub connection, then shut down, in one round trip: a client that
        reads from both its pub/sub and its other connections finds the pub/sub one closed
        first (which one Redis closes first is chance in a plain shutdown)."""
        pipe = self.client().pipeline(transaction=False)
        pipe.execute_command("CLIENT", "KILL", "TYPE", "pubsub")
        pipe.execute_command("SHUTDOWN", "SAVE" if save else "NOSAVE")
        with suppress(redis.ConnectionError):  # the shutdown closes this connection too
            pipe.execute()
        self.wait_for_exit()

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
        self.wait_for_exit()

    def wait_for_exit(self) -> None:
        if self.process is None:
            return
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout=10)
