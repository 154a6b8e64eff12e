"""A repeat request of the league and event pages against their floor page, in process
(docs/benchmarks.md, "End to end", the In process table): Django's test client with
`config.settings.bench` on a database seeded as `benchmarks/test_system_perf.py` seeds its
pages (the league `big`, its event `Season`), signed out.

For each page and its floor page (`/bench/floor/page/<path>`, the same bytes from memory):
the median CPU time of this process per request, the CPU time of its PostgreSQL backend per
request (/proc), the median wall time, and the function calls of one request
(`sys.setprofile`, Python and C). As under gunicorn, each request starts with Django's
`close_old_connections` (the test client leaves it out), so a kept connection is checked
(`CONN_HEALTH_CHECKS`) as production checks it, and the process's objects are frozen out of
the garbage collector as `config/workers.py` freezes a web worker's.

    DJANGO_SETTINGS_MODULE=config.settings.bench DATABASE_URL=... CACHE_URL=... \\
      .venv/bin/python -m benchmarks.page_profile [requests]
"""

import gc
import os
import statistics
import sys
import time
from typing import Any


def _backend_seconds() -> float:
    from django.db import connections

    db = connections["default"]
    db.ensure_connection()
    pid = db.connection.info.backend_pid
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _calls(get: Any, path: str) -> int:
    count = 0

    def profile(frame: Any, event: str, arg: Any) -> None:
        nonlocal count
        if event in ("call", "c_call"):
            count += 1

    get(path)
    sys.setprofile(profile)
    get(path)
    sys.setprofile(None)
    return count


def measure(path: str, requests: int) -> dict[str, float]:
    from django.test import Client

    client = Client()
    for _ in range(10):
        response = client.get(path)
        assert response.status_code == 200, (path, response.status_code)
    gc.freeze()
    cpu, wall = [], []
    backend = _backend_seconds()
    for _ in range(requests):
        started, started_wall = time.process_time(), time.perf_counter()
        client.get(path)
        cpu.append(time.process_time() - started)
        wall.append(time.perf_counter() - started_wall)
    backend = (_backend_seconds() - backend) / requests
    return {
        "cpu_ms": statistics.median(cpu) * 1000,
        "postgres_ms": backend * 1000,
        "wall_ms": statistics.median(wall) * 1000,
        "calls": _calls(client.get, path),
    }


def main() -> None:
    import django

    django.setup()
    from django.core.signals import request_started
    from django.db import close_old_connections

    request_started.connect(lambda **kwargs: close_old_connections(), weak=False)
    from league.models import Event

    requests = int(sys.argv[1]) if len(sys.argv) > 1 else 300
    event = Event.objects.get(name="Season", league__slug="big").pk
    print(f"load average {os.getloadavg()}")
    for path in (
        f"/events/{event}/",
        "/leagues/big/",
        f"/events/{event}/live/",
        "/leagues/big/live/",
    ):
        floor = measure("/bench/floor/page" + path, requests)
        page = measure(path, requests)
        print(
            f"{path:22} CPU {page['cpu_ms']:.3f} ms ({floor['cpu_ms']:.3f} floor,"
            f" {page['cpu_ms'] / floor['cpu_ms']:.2f}x)"
            f"  PostgreSQL {page['postgres_ms']:.3f} ms ({floor['postgres_ms']:.3f})"
            f"  wall {page['wall_ms']:.3f} ms ({floor['wall_ms']:.3f})"
            f"  calls {page['calls']} ({floor['calls']}, {page['calls'] / floor['calls']:.2f}x)"
        )
    print(f"load average {os.getloadavg()}")


if __name__ == "__main__":
    main()
