"""Jobs for tests/system/test_worker_outage.py, loaded into a real worker with `--include`: each
sleeps, says so in the worker's log as it starts and ends, and fails if asked to."""

import time

from config.celery import app


@app.task(name="outage.sleep", acks_late=True)
def sleep(seconds: float, mark: str, fail: bool = False) -> None:
    print(f"outage job {mark} started", flush=True)
    time.sleep(seconds)
    print(f"outage job {mark} done", flush=True)
    if fail:
        raise RuntimeError(f"outage job {mark} failed, as asked")
