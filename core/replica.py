"""Public pages read from a read replica when one is configured (docs/operations.md, "More
than one machine"): `DATABASE_REPLICA_URL` adds the database alias `replica`, and a page that
only shows (`core.methods.read_only`) asked by a visitor who is not signed in reads every row,
and its page version, from there. Everything else (a signed-in organizer's pages, the API,
every write, the jobs) reads and writes the primary, so whoever changes something sees it at
once; a visitor may see the replica's lag, which a public page can afford.

Without a replica every read goes to `default`, as before."""

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from django.conf import settings
from django.core.exceptions import ObjectDoesNotExist
from django.http import Http404

REPLICA = "replica"

_reading_replica: ContextVar[bool] = ContextVar("reading_replica", default=False)


def replica_alias() -> str | None:
    """The replica's database alias (`REPLICA_DATABASE`, "replica" when DATABASE_REPLICA_URL
    is set), or None."""
    alias: str | None = getattr(settings, "REPLICA_DATABASE", None)
    return alias or None


def configured() -> bool:
    return replica_alias() is not None


@contextmanager
def replica_reads() -> Iterator[None]:
    """Reads inside go to the replica, when there is one."""
    token = _reading_replica.set(configured())
    try:
        yield
    finally:
        _reading_replica.reset(token)


@contextmanager
def primary_reads() -> Iterator[None]:
    """Reads inside go to the primary, also within a page on the replica: a page that writes
    what it misses (a standings table computed on first sight) reads back what it wrote."""
    token = _reading_replica.set(False)
    try:
        yield
    finally:
        _reading_replica.reset(token)


def read_alias() -> str:
    """The database a read goes to now."""
    return (replica_alias() or "default") if _reading_replica.get() else "default"


class ReplicaRouter:
    """Django's database router: reads inside `replica_reads` go to the replica; writes,
    relations and migrations are left to Django's defaults."""

    def db_for_read(self, model: type[Any], **hints: Any) -> str | None:
        return replica_alias() if _reading_replica.get() else None

    def db_for_write(self, model: type[Any], **hints: Any) -> str | None:
        return None


def anonymous_on_replica(view: Callable[..., Any]) -> Callable[..., Any]:
    """`view` reading from the replica for a visitor who is not signed in. A page the replica
    cannot answer (something not copied there yet: a 404, or a row a page wrote on the
    primary and reads back) is answered again from the primary."""

    def wrapped(request: Any, *args: Any, **kwargs: Any) -> Any:
        if not configured() or request.user.is_authenticated:
            return view(request, *args, **kwargs)
        with replica_reads():
            try:
                return view(request, *args, **kwargs)
            except (Http404, ObjectDoesNotExist):
                pass  # behind the primary: ask the primary
        return view(request, *args, **kwargs)

    return wrapped
