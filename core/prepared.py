"""Statements prepared on the server (docs/benchmarks.md, "Design to keep"): PostgreSQL parses
and plans each of them once per connection instead of at every run.

Django binds every statement's parameters on the client and never prepares one (it turns
psycopg's own preparing off). The hot few that run on every request (a turn's lock and store,
`games.turn_sql`; the league and event pages' versions, `league.selectors.page_versions`) go
through `prepared_cursor` instead: a psycopg cursor of Django's own connection that binds on
the server and prepares what it runs, wrapped as Django wraps its cursors (its errors, its
query log, `CaptureQueriesContext`). psycopg keeps the prepared statements per connection, by
text and parameter types, and forgets them all at a ROLLBACK (the next run prepares again).

`fetch_one` runs one such read and is also the request's health check of its connection (see
its docstring): a repeat page request then makes one round trip to PostgreSQL, not two."""

import json
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import psycopg
from django.db import DatabaseError, connections
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.backends.postgresql.psycopg_any import register_tzloader
from django.db.backends.utils import CursorDebugWrapper, CursorWrapper
from psycopg.pq import Format

_TIMESTAMPTZ = psycopg.adapters.types["timestamptz"].oid
# A threshold no statement's count reaches: only `prepare=True` prepares.
_NEVER = 2**31 - 1


class _PreparingCursor(psycopg.Cursor[Any]):
    """Binds its parameters on the server and prepares every statement it executes."""

    def execute(self, query: Any, params: Any = None, **options: Any) -> "_PreparingCursor":
        super().execute(query, params, prepare=True)
        return self


class _TextLoggedCursor(CursorDebugWrapper):
    """Django's debug cursor, logging the statement's text (with its placeholders): psycopg
    keeps no text of a statement it runs by its prepared name, so Django would log None."""

    def execute(self, sql: Any, params: Any = None) -> Any:
        with self.debug_sql(sql, params):
            return CursorWrapper.execute(self, sql, params)


def _preparing_cursor(db: BaseDatabaseWrapper) -> _PreparingCursor:
    """A new preparing cursor on `db`'s open connection, reading timestamps as Django's own."""
    raw_connection = db.connection
    if raw_connection.prepare_threshold is None:
        # Django turns preparing off (None), and psycopg then ignores `prepare=True` too. With
        # a threshold no count reaches, only `prepare=True` prepares: Django's own cursors
        # bind on the client and never prepare.
        raw_connection.prepare_threshold = _NEVER
    cursor = _PreparingCursor(raw_connection)
    tzloader = raw_connection.adapters.get_loader(_TIMESTAMPTZ, Format.TEXT)
    if db.timezone != tzloader.timezone:
        register_tzloader(db.timezone, cursor)
    return cursor


def json_value(value: Any) -> Any:
    """A json or jsonb column's value as read by these cursors: Django reads such columns as
    text and decodes them itself (`JSONField`), so they come as text here; None stays None."""
    return json.loads(value) if isinstance(value, str) else value


@contextmanager
def prepared_cursor(db: BaseDatabaseWrapper, *, log_text: bool = False) -> Iterator[CursorWrapper]:
    """A cursor of `db` (a connection of `django.db.connections`) whose statements are
    prepared on the server; in Django's query log (when it keeps one) each is None, or its
    text with `log_text`."""
    db.ensure_connection()
    with db.wrap_database_errors:
        raw = _preparing_cursor(db)
    db.validate_thread_sharing()
    if not db.queries_logged:
        wrapped: CursorWrapper = db.make_cursor(raw)  # type: ignore[arg-type]
    elif log_text:
        wrapped = _TextLoggedCursor(raw, db)
    else:
        wrapped = db.make_debug_cursor(raw)  # type: ignore[arg-type]
    with wrapped as cursor:
        yield cursor


def fetch_one(
    alias: str, sql: str, params: Sequence[Any] | dict[str, Any]
) -> tuple[Any, ...] | None:
    """The first row of a read-only `sql`, prepared on the server, on the database `alias`.

    With `CONN_HEALTH_CHECKS`, Django checks a kept connection with a `SELECT 1` before the
    first statement of each request. Outside a transaction this read is that check: it runs
    first, and if it fails on a connection that no longer works (the server restarted, the
    connection was cut), the connection is closed and the read runs once more on a new one,
    as Django's check would have had it. Any other error is raised as it is."""
    # (Django's stubs do not know the health check's attributes.)
    db: Any = connections[alias]
    checking = (
        db.connection is not None
        and db.health_check_enabled
        and not db.health_check_done
        and not db.in_atomic_block
    )
    if checking:
        db.health_check_done = True
    try:
        return _fetch_one(db, sql, params)
    except DatabaseError:
        if not checking or db.is_usable():
            raise
    db.close()
    return _fetch_one(db, sql, params)


def _fetch_one(
    db: BaseDatabaseWrapper, sql: str, params: Sequence[Any] | dict[str, Any]
) -> tuple[Any, ...] | None:
    if db.queries_logged:
        with prepared_cursor(db, log_text=True) as cursor:
            cursor.execute(sql, params)
            row = cursor.fetchone()
        return None if row is None else tuple(row)
    # Django's own cursor wrapper does nothing more here than its errors: one psycopg cursor
    # is kept per connection and reused.
    db.ensure_connection()
    with db.wrap_database_errors:
        kept = _kept_cursor(db)
        kept.execute(sql, params)
        found = kept.fetchone()
    return None if found is None else tuple(found)


def _kept_cursor(db: BaseDatabaseWrapper) -> _PreparingCursor:
    """The cursor `fetch_one` reads with on `db`'s current connection, made once per
    connection (a new connection gets a new one)."""
    raw_connection = db.connection
    kept: tuple[Any, _PreparingCursor] | None = getattr(db, "_prepared_fetch_cursor", None)
    if kept is not None and kept[0] is raw_connection:
        return kept[1]
    cursor = _preparing_cursor(db)
    db._prepared_fetch_cursor = (raw_connection, cursor)  # type: ignore[attr-defined]
    return cursor
