"""The end-to-end benchmark's CPU accounting (benchmarks/test_system_perf.py) counts each
PostgreSQL backend of the stack's database apart: finding one raised KeyError
('postgres:<pid>') and stopped the benchmark."""

from types import SimpleNamespace

import pytest
from django.db import connection

from benchmarks.test_system_perf import cpu_seconds, cpu_used


@pytest.mark.django_db
def test_a_backend_of_the_stacks_database_is_counted_under_its_own_name():
    connection.ensure_connection()
    stack = SimpleNamespace(
        processes={}, database_url=f"postgres://somewhere/{connection.settings_dict['NAME']}"
    )
    before = cpu_seconds(stack)  # type: ignore[arg-type]
    backends = [name for name in before if name.startswith("postgres:")]
    assert backends, before  # this test's own connection, at least
    used = cpu_used(stack, before)  # type: ignore[arg-type]
    assert used["postgres"] >= 0
    assert not any(name.startswith("postgres:") for name in used)


def test_backends_that_came_and_went_between_the_two_readings_raise_nothing(monkeypatch):
    """A backend gone since `before` is left out (a lower bound), one started since counts from
    zero (also under a pid reused), and the parts add up under their own keys."""
    import benchmarks.test_system_perf as perf

    before = {"web": 1.0, "worker1": 2.0, "postgres": 0.0, "clients": 0.5, "postgres:10": 3.0}
    before["postgres:12"] = 4.0  # ends, and its pid comes back as a new backend with 0.25 s
    now = {"web": 1.5, "worker1": 2.25, "postgres": 0.0, "clients": 0.75, "postgres:11": 0.5}
    now["postgres:12"] = 0.25
    monkeypatch.setattr(perf, "cpu_seconds", lambda stack: now)
    used = cpu_used(SimpleNamespace(), before)  # type: ignore[arg-type]
    assert used == {"web": 0.5, "worker1": 0.25, "postgres": 0.75, "clients": 0.25}
