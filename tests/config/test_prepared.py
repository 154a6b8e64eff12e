"""The pages' versions are read by a statement prepared on the server, which is also the
request's health check of its connection (`core.prepared`; docs/benchmarks.md, issue 41): a
repeat page request makes one round trip to PostgreSQL, and a connection cut since the last
request is replaced as Django's own check (`CONN_HEALTH_CHECKS`) would have replaced it."""

from typing import Any

import pytest
from django.db import OperationalError, connections
from django.test import Client
from django.test.utils import CaptureQueriesContext

from core.prepared import fetch_one
from league.models import League

pytestmark = pytest.mark.django_db(transaction=True)


def _backend_pid() -> int:
    row = fetch_one("default", "SELECT pg_backend_pid()", ())
    assert row is not None
    return int(row[0])


def _cut(pid: int) -> None:
    """End the backend `pid` from another connection, as a restart or a proxy's timeout
    would: the connection's owner learns of it only at its next statement."""
    other = connections.create_connection("default")
    try:
        with other.cursor() as cursor:
            cursor.execute("SELECT pg_terminate_backend(%s)", [pid])
    finally:
        other.close()


def _request_starts() -> None:
    """What Django does with a kept connection when a request starts (the test client leaves
    it out): the next statement must check it first. The connection is kept as production's
    CONN_MAX_AGE keeps it (the tests' 0 would close it here)."""
    connections["default"].close_at = None
    connections["default"].close_if_unusable_or_obsolete()
    assert connections["default"].connection is not None


def _runs_of_the_league_version() -> tuple[int, int]:
    """How many statements prepared on this connection read the league page's version, and
    how many times they ran."""
    row = fetch_one(
        "default",
        "SELECT count(*), coalesce(sum(generic_plans + custom_plans), 0)"
        " FROM pg_prepared_statements WHERE statement LIKE %s",
        ("%FROM league_league l%",),
    )
    assert row is not None
    return int(row[0]), int(row[1])


def test_a_page_version_is_prepared_once_and_logged_with_its_text(client: Client):
    League.objects.create(name="Kept", slug="kept", game="yardzee")
    url = "/leagues/kept/"
    for _ in range(2):  # the first computes the league's table, the second renders it
        assert client.get(url).status_code == 200
    statements, runs = _runs_of_the_league_version()
    with CaptureQueriesContext(connections["default"]) as captured:
        for _ in range(3):
            assert client.get(url).status_code == 200
    # One statement a request, its text in the log (the tests that count a page's queries
    # read it), prepared once on this connection and run from there.
    assert len(captured) == 3
    assert all("FROM league_league l" in query["sql"] for query in captured)
    assert statements == 1
    assert _runs_of_the_league_version() == (1, runs + 3)


def test_the_version_read_is_the_check_of_a_kept_connection(monkeypatch):
    League.objects.create(name="Kept", slug="kept", game="yardzee")
    db: Any = connections["default"]  # (Django's stubs do not know its health check)
    before = _backend_pid()
    checks: list[bool] = []
    real_is_usable = db.is_usable

    def is_usable() -> bool:
        checks.append(True)
        return bool(real_is_usable())

    monkeypatch.setattr(db, "is_usable", is_usable)
    _request_starts()
    assert fetch_one("default", "SELECT slug FROM league_league", ()) == ("kept",)
    assert checks == []  # no SELECT 1 before it: the read itself was the check
    assert db.health_check_done
    assert _backend_pid() == before

    # Cut between requests: the first read of the next request finds it, and reads again on a
    # new connection.
    _cut(before)
    _request_starts()
    assert fetch_one("default", "SELECT slug FROM league_league", ()) == ("kept",)
    assert checks == [True]
    assert _backend_pid() != before


def test_a_connection_cut_during_a_request_is_an_error_as_before():
    db = connections["default"]
    pid = _backend_pid()
    _request_starts()
    fetch_one("default", "SELECT 1", ())  # the request's first statement: checked
    _cut(pid)
    with pytest.raises(OperationalError):
        fetch_one("default", "SELECT 1", ())
    db.close()
