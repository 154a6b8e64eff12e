"""A database of its own for a test that starts another process on an empty database."""

import uuid
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote

import psycopg
import pytest
from django.conf import settings
from psycopg import sql

from config import embedded_postgres


def _server() -> dict[str, str]:
    """Where the tests' database server is: the embedded one, or DATABASE_URL's."""
    database = settings.DATABASES["default"]
    if database["ENGINE"] == "config.embedded_postgres":
        socket = embedded_postgres.ensure_running(Path(database["EMBEDDED_POSTGRES_DIR"]))
        return {"host": str(socket), "port": "5432", "user": database["USER"]}
    return {
        "host": database["HOST"] or "localhost",
        "port": str(database["PORT"] or 5432),
        "user": database["USER"],
        "password": database["PASSWORD"],
    }


def _url(server: dict[str, str], name: str) -> str:
    user = quote(server["user"], safe="")
    if server.get("password"):
        user += ":" + quote(server["password"], safe="")
    if server["host"].startswith("/"):  # a Unix socket's directory
        return f"postgres://{user}@/{name}?host={quote(server['host'])}&port={server['port']}"
    return f"postgres://{user}@{server['host']}:{server['port']}/{name}"


@pytest.fixture
def empty_database_url() -> Iterator[str]:
    """A DATABASE_URL naming a new, empty database on the tests' server, dropped after."""
    server = _server()
    name = f"yl_empty_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(_url(server, "postgres"), autocommit=True) as admin:
        admin.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    try:
        yield _url(server, name)
    finally:
        with psycopg.connect(_url(server, "postgres"), autocommit=True) as admin:
            admin.execute(sql.SQL("DROP DATABASE {} WITH (FORCE)").format(sql.Identifier(name)))
