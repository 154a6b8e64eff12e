"""`python -m config.embedded_postgres status|start|stop|url|serve COMMAND...`: the embedded
PostgreSQL of `make run` and `make test` (EMBEDDED_POSTGRES_DIR names its data directory, by
default var/postgres). `serve` runs COMMAND and, without DATABASE_URL, stops the server when
COMMAND ends, on Ctrl-C or SIGTERM too (`make run`)."""

import os
import signal
import subprocess
import sys
from contextlib import suppress
from types import FrameType

from config import embedded_postgres

USAGE = "usage: python -m config.embedded_postgres status|start|stop|url|serve COMMAND..."


def _serve(command: list[str]) -> int:
    """Run `command` in this process group (Ctrl-C reaches it too), then stop the server.

    Ctrl-C or SIGTERM is passed on to the command, and this process waits for it to end: the
    signal handler raises nothing. (Raising KeyboardInterrupt from the handler, as before,
    could land while `Popen.wait` held its lock, and the wait that followed then blocked
    forever.) A command that has not ended `STOP_SECONDS` after the signal is killed."""
    child = subprocess.Popen(command)  # noqa: S603 - the command line of `make run`
    asked: list[int] = []

    def ended(signum: int, frame: FrameType | None) -> None:
        if not asked:
            signal.alarm(STOP_SECONDS)
        asked.append(signum)
        _send(child.pid, signal.SIGTERM)

    def overdue(signum: int, frame: FrameType | None) -> None:
        _send(child.pid, signal.SIGKILL)

    signal.signal(signal.SIGALRM, overdue)
    signal.signal(signal.SIGTERM, ended)
    signal.signal(signal.SIGINT, ended)
    try:
        code = child.wait()
        signal.alarm(0)
        return 0 if asked else code  # stopped as asked, or the command's own end
    finally:
        if not os.environ.get("DATABASE_URL"):
            data = embedded_postgres.directory()
            if embedded_postgres.stop(data):
                print(f"Stopped the embedded PostgreSQL in {data}.", file=sys.stderr)


# How long the command has to end after Ctrl-C or SIGTERM before it is killed.
STOP_SECONDS = 15


def _send(pid: int, signum: int) -> None:
    """`signum` to the process `pid`, if it is still there."""
    with suppress(ProcessLookupError):
        os.kill(pid, signum)


def main(argv: list[str]) -> int:
    action = argv[0] if argv else "status"
    data = embedded_postgres.directory()
    if action == "start":
        print(f"running in {data} (socket in {embedded_postgres.ensure_running(data)})")
    elif action == "stop":
        stopped = embedded_postgres.stop(data)
        print(f"stopped the server in {data}" if stopped else f"no server running in {data}")
    elif action == "status":
        socket = embedded_postgres.running(data)
        print(f"running in {data} (socket in {socket})" if socket else f"not running ({data})")
    elif action == "url":
        print(embedded_postgres.url(data))
    elif action == "serve" and len(argv) > 1:
        return _serve(argv[1:])
    else:
        print(USAGE, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
