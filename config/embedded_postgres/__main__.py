"""`python -m config.embedded_postgres status|start|stop|url|serve COMMAND...`: the embedded
PostgreSQL of `make run` and `make test` (EMBEDDED_POSTGRES_DIR names its data directory, by
default var/postgres). `serve` runs COMMAND and, without DATABASE_URL, stops the server when
COMMAND ends, on Ctrl-C or SIGTERM too (`make run`)."""

import os
import signal
import subprocess
import sys
from types import FrameType

from config import embedded_postgres

USAGE = "usage: python -m config.embedded_postgres status|start|stop|url|serve COMMAND..."


def _serve(command: list[str]) -> int:
    """Run `command` in this process group (Ctrl-C reaches it too), then stop the server."""

    def ended(signum: int, frame: FrameType | None) -> None:
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, ended)
    child = subprocess.Popen(command)  # noqa: S603 - the command line of `make run`
    try:
        return child.wait()
    except KeyboardInterrupt:
        # Ctrl-C reached it too, unless it ignores SIGINT (started in the background by a
        # script): a SIGTERM ends it either way.
        child.terminate()
        try:
            child.wait(timeout=15)
        except subprocess.TimeoutExpired:
            child.kill()
            child.wait()
        return 0  # stopped as asked
    finally:
        if not os.environ.get("DATABASE_URL"):
            data = embedded_postgres.directory()
            if embedded_postgres.stop(data):
                print(f"Stopped the embedded PostgreSQL in {data}.", file=sys.stderr)


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
