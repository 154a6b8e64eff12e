"""For every pytest run (the suite and the benchmarks): without DATABASE_URL the tests use the
embedded PostgreSQL (config/embedded_postgres), which their first connection starts. A run
leaves it as it found it: a server this run started is stopped when the run ends, one that was
already running (a `make run` in another shell) is left running."""

import os

import pytest

from config import embedded_postgres

# Whether the embedded server ran when the session began (the controller's, under xdist).
_WAS_RUNNING = pytest.StashKey[bool]()


def _embedded() -> bool:
    return not os.environ.get("DATABASE_URL")


def _controller(config: pytest.Config) -> bool:
    """The process that runs the session (under pytest-xdist, not one of its workers)."""
    return not hasattr(config, "workerinput")


def pytest_configure(config: pytest.Config) -> None:
    if _embedded() and _controller(config):
        was_running = embedded_postgres.running(embedded_postgres.directory()) is not None
        config.stash[_WAS_RUNNING] = was_running


def pytest_unconfigure(config: pytest.Config) -> None:
    if _embedded() and _controller(config) and not config.stash.get(_WAS_RUNNING, True):
        embedded_postgres.stop(embedded_postgres.directory())
