"""Two things done at once, on purpose: each call in its own thread and database connection
(`run_at_once`), and a point both threads must reach before either goes on (`overlapping`),
so the overlap is forced rather than hoped for. A lock that keeps the second thread out
makes the first one's wait time out, and it finishes alone. Used by the tests of concurrent
jobs (tests/league/services/test_job_concurrency.py) and writes (tests/api/test_write_races.py)."""

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from typing import Any

import pytest
from django.db import connections

# How long a thread waits at the barrier for the other one: with the lock, the other never comes.
BARRIER_SECONDS = 2.0
# The names of run_at_once's threads: "at-once-0", "at-once-1", ...
THREAD = "at-once-"


def run_at_once(*calls: Callable[[], Any]) -> tuple[list[Any], list[BaseException]]:
    """Run each call in its own thread (and database connection); what each returned, in
    order, and what they raised."""
    results: list[Any] = [None] * len(calls)
    errors: list[BaseException] = []

    def run(index: int, call: Callable[[], Any]) -> None:
        try:
            results[index] = call()
        except BaseException as error:  # reported to the caller
            errors.append(error)
        finally:
            connections.close_all()

    threads = [
        threading.Thread(target=run, args=(index, call), name=f"{THREAD}{index}")
        for index, call in enumerate(calls)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not any(thread.is_alive() for thread in threads)
    return results, errors


@contextmanager
def overlapping(monkeypatch: pytest.MonkeyPatch, module: Any, name: str) -> Iterator[None]:
    """`module.name`, called in a thread of `run_at_once`, first waits (up to
    BARRIER_SECONDS) for the other thread to call it too, so that both are inside it at once
    unless a lock keeps the second out; then both go on."""
    barrier = threading.Barrier(2, timeout=BARRIER_SECONDS)
    original = getattr(module, name)

    def waiting(*args: Any, **kwargs: Any) -> Any:
        if threading.current_thread().name.startswith(THREAD):
            # Broken: the other thread is held back (or already done), so this one goes on.
            with suppress(threading.BrokenBarrierError):
                barrier.wait()
        return original(*args, **kwargs)

    monkeypatch.setattr(module, name, waiting)
    yield
