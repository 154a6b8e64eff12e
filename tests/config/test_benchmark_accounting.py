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
