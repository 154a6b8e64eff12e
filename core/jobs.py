"""The one way the apps enqueue background jobs: by the task's registered name, once the
current transaction commits. Callers never import the tasks modules (which import the
services), so imports stay one-way: tasks -> services. Used by `league.services.jobs` (the
standings and ratings jobs) and `analysis.services` (a match's analysis).

A job that brings something up to date whatever triggered it (a match's forecast, a table's
standings, a league's ratings, a stage's projection) is sent **once while one is waiting**
(`enqueue_once_on_commit`): the first trigger marks the job pending in the cache (one
`SET NX`) and sends it; the triggers after it, until the job starts, find the mark and send
nothing; the job clears the mark as it starts (`job_started`), before it reads anything, so a
trigger that commits after that sends the next one. A burst of turns costs one job, not one a
turn, and no trigger is missed: what committed before the mark was cleared is read by the job,
what commits after sends another."""

import logging
import weakref
from functools import partial
from typing import Any

from celery import current_app
from django.core.cache import caches
from django.core.cache.backends.redis import RedisCache
from django.db import transaction
from redis import Redis
from redis.exceptions import RedisError

logger = logging.getLogger(__name__)

# A job waits this long after its trigger, so a burst of triggers is computed once (and a
# finish undone at once is never analysed).
COALESCE_SECONDS = 1.0
# A pending mark outlives a job that was lost (a worker killed before it started) by at most
# this long; the beat sweeps catch up on what such a job would have done.
PENDING_SECONDS = 60
# Jobs that wait longer than COALESCE_SECONDS after their trigger, by task name (`wait_longer`).
_WAITS: dict[str, float] = {}


def wait_longer(task_name: str, seconds: float) -> None:
    """The job `task_name` waits `seconds` after its trigger instead of `COALESCE_SECONDS`: a
    costly job whose figures may lag (a league's projection) is then computed once for every
    trigger of that span. Less than `PENDING_SECONDS`, so its mark outlives the wait."""
    if not COALESCE_SECONDS <= seconds < PENDING_SECONDS:
        raise ValueError(f"a wait of {seconds} s is not in [{COALESCE_SECONDS}, {PENDING_SECONDS})")
    _WAITS[task_name] = seconds


def waits(task_name: str) -> float:
    """How long the job `task_name` waits after its trigger."""
    return _WAITS.get(task_name, COALESCE_SECONDS)


def enqueue_on_commit(task_name: str, *args: Any) -> None:
    """Send the task named `task_name` once the current transaction commits. A broker that
    cannot be reached is logged, never raised: the change is already committed (and marked
    stale where that applies), and a beat sweep catches up once the broker is back."""
    transaction.on_commit(partial(send, task_name, args), robust=True)


def enqueue_once_on_commit(task_name: str, *args: Any) -> None:
    """As `enqueue_on_commit`, but sent only when no such job (same task, same arguments) is
    waiting to start: the task calls `job_started` first thing."""
    transaction.on_commit(partial(send_once, task_name, args), robust=True)


def send(task: str, args: tuple[Any, ...]) -> bool:
    """Send the task now (a sweep's re-send); logged, never raised, when it cannot be. Whether
    it was sent."""
    try:
        # Looked up by name among the registered tasks, so an eager app runs it in-process.
        current_app.tasks[task].apply_async(args=args, countdown=waits(task))
    except Exception:
        logger.warning(
            "Could not enqueue %s%r; the sweep will pick it up.", task, args, exc_info=True
        )
        return False
    return True


def send_once(task: str, args: tuple[Any, ...]) -> None:
    """Send the task unless one with the same arguments is pending (see the module's
    docstring). Without the cache, it is sent: a job too many is safe, one missing is not."""
    key = _pending_key(task, args)
    try:
        fresh = _mark(key)
    except (RedisError, OSError):
        fresh = True
    if fresh and not send(task, args):
        # Nothing was sent: the next trigger tries again. Never raised: the change has
        # committed, and with Redis down the mark was not set (or expires in PENDING_SECONDS).
        try:
            _clear(key)
        except (RedisError, OSError):
            logger.warning("Could not clear the pending mark of %s%r.", task, args)


def job_started(task: str, *args: Any) -> None:
    """Called by a task sent with `enqueue_once_on_commit` before it reads anything: from now
    on a trigger sends a new job."""
    try:
        _clear(_pending_key(task, args))
    except (RedisError, OSError):
        logger.warning("Could not clear the pending mark of %s%r.", task, args, exc_info=True)


def _pending_key(task: str, args: tuple[Any, ...]) -> str:
    return "job-pending:" + ":".join([task, *map(str, args)])


# One Redis client per cache connection: Django's Redis cache builds a client for every call
# (about 500 Python calls each), which a turn would pay for its forecast's mark.
_clients: "weakref.WeakKeyDictionary[Any, Redis]" = weakref.WeakKeyDictionary()


def _redis() -> tuple[Redis, RedisCache] | None:
    """The default cache's Redis client and backend, or None when it is not Redis."""
    backend = caches["default"]
    if not isinstance(backend, RedisCache):
        return None
    connection = backend._cache
    client = _clients.get(connection)
    if client is None:
        client = _clients[connection] = connection.get_client(write=True)
    return client, backend


def _mark(key: str) -> bool:
    """Mark `key` pending; whether it was not already (one `SET NX EX` on Redis)."""
    found = _redis()
    if found is None:
        return bool(caches["default"].add(key, 1, PENDING_SECONDS))
    client, backend = found
    return bool(client.set(backend.make_key(key), b"1", nx=True, ex=PENDING_SECONDS))


def _clear(key: str) -> None:
    found = _redis()
    if found is None:
        caches["default"].delete(key)
        return
    client, backend = found
    client.delete(backend.make_key(key))
