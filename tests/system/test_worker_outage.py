"""A Celery worker that loses Redis while it runs jobs comes back by itself once Redis is back,
and takes the jobs sent afterwards (docs/operations.md, "Redis (broker and cache)").

Found by test_faults.py's Redis outage: with acks_late jobs running, the worker logged
"Unrecoverable error: AttributeError: 'NoneType' object has no attribute 'hostname'" and exited,
never to consume again without a supervisor (config/broker.py has the code path and the
work-around). It takes the loss reaching the worker through its broadcast (pub/sub) socket first
while it waits on the job queue; which socket Redis closes first is chance in a real outage, so
this test closes the pub/sub connections itself, then shuts Redis down at once.

This runs its own redis-server on a free port and touches no other server: the worker's
PostgreSQL URL points at a port nothing listens on (the jobs here need no database)."""

import time
from collections.abc import Iterator

import pytest
from celery import Celery

from tests.own_redis import OwnRedis, needs_redis_server
from tests.system.stack import Stack, free_port

pytestmark = [pytest.mark.system, needs_redis_server]

JOB_SECONDS = 4.0
OUTAGE_SECONDS = 2.0


@pytest.fixture
def own_redis() -> Iterator[OwnRedis]:
    server = OwnRedis()
    server.start()
    yield server
    server.stop()


def test_a_worker_that_lost_redis_mid_job_takes_jobs_again_once_redis_is_back(own_redis):
    nothing_listens = f"postgres://nobody@127.0.0.1:{free_port()}/none"
    stack = Stack(name="worker_outage", urls=(nothing_listens, own_redis.url))
    sender = Celery("outage-test", broker=stack.broker_url)
    start = len(stack.log("worker"))  # the log file is appended to, run after run

    def send(mark: str, seconds: float, *, fail: bool = False) -> None:
        # Celery prefers CELERY_BROKER_URL from the environment to `broker=` (celery/app/
        # utils.py, `broker_url`), and CI's machine leg sets it to the machine's Redis: the jobs
        # go to this test's own Redis through a connection made for it.
        with sender.connection_for_write(stack.broker_url) as connection:
            sender.send_task(
                "outage.sleep", args=[seconds, mark, fail], queue="celery", connection=connection
            )

    def logged(text: str, after: int = start) -> bool:
        return text in stack.log("worker")[after:]

    try:
        # Three job processes, two jobs: both run (unacknowledged: acks_late) while the worker
        # waits on the queue for a third.
        stack.start_worker(concurrency=3, include="tests.system.outage_tasks")
        send("failing", JOB_SECONDS, fail=True)
        send("succeeding", JOB_SECONDS)
        stack.wait_until(
            lambda: (
                logged("outage job failing started") and logged("outage job succeeding started")
            ),
            "both jobs to start",
        )
        before_outage = len(stack.log("worker"))
        own_redis.go_down()
        time.sleep(OUTAGE_SECONDS)  # both jobs end meanwhile, or soon after
        own_redis.start()
        # wait_until fails at once, with the worker's log, if the worker exits.
        stack.wait_until(
            lambda: logged("Connected to", before_outage), "the worker to reconnect", timeout=30
        )
        send("after", 0.0)
        stack.wait_until(lambda: logged("outage job after done", before_outage), "the new job")
        assert not logged("Unrecoverable error")
        assert stack.processes["worker"].poll() is None
    finally:
        stack.stop()
