"""A read replica for the public pages (issue 41, "Past one machine"; core.replica): with a
replica configured, a visitor who is not signed in reads the public pages from it, and a
signed-in organizer, the API and every write use the primary. A second database on the same
PostgreSQL server stands in for the replica: rows written only there show which database a
page read."""

from collections.abc import Iterator

import pytest
from django.core.management import call_command
from django.db import connection, connections
from django.db.utils import load_backend

from core import replica
from league.models import League

pytestmark = pytest.mark.django_db(transaction=True)

STAND_IN = "replica_stand_in"


@pytest.fixture
def stand_in(settings) -> Iterator[str]:
    """The replica for the test's run: a fresh database beside the test database, migrated,
    then dropped. Its connection is made by hand, as a connection the test case did not know
    of (the test database's own machinery refuses an alias it was not given)."""
    default = connections.settings["default"]
    name = f"{default['NAME']}_replica"[:63]
    with connection.cursor() as cursor:
        cursor.execute(f'DROP DATABASE IF EXISTS "{name}"')
        cursor.execute(f'CREATE DATABASE "{name}"')
    backend = load_backend(default["ENGINE"])
    connections[STAND_IN] = backend.DatabaseWrapper({**default, "NAME": name}, STAND_IN)
    settings.REPLICA_DATABASE = STAND_IN
    try:
        call_command("migrate", database=STAND_IN, verbosity=0, interactive=False)
        yield STAND_IN
    finally:
        connections[STAND_IN].close()
        del connections[STAND_IN]
        with connection.cursor() as cursor:
            cursor.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def test_without_a_replica_every_read_is_the_primary_s():
    assert not replica.configured()
    with replica.replica_reads():
        assert replica.read_alias() == "default"


def test_a_visitor_reads_the_replica_and_an_organizer_the_primary(stand_in, organizer, client):
    # The same league on both, as a replica copies it, under another name on the replica; and
    # one league the replica has not received yet.
    league = League.objects.create(name="Named on the primary", slug="copied", game="yardzee")
    League.objects.using(stand_in).create(
        pk=league.pk, name="Named on the replica", slug="copied", game="yardzee"
    )
    League.objects.create(name="Not copied yet", slug="new", game="yardzee")
    visitor = client.get("/").content.decode()
    assert "Named on the replica" in visitor
    assert "Named on the primary" not in visitor
    assert "Not copied yet" not in visitor
    # The API reads the primary, whoever asks.
    names = [league["name"] for league in client.get("/api/v1/leagues/").json()["results"]]
    assert "Named on the primary" in names
    assert "Not copied yet" in names
    client.force_login(organizer)
    seen = client.get("/").content.decode()
    assert "Named on the primary" in seen
    assert "Not copied yet" in seen


def test_a_page_the_replica_cannot_answer_yet_is_answered_from_the_primary(stand_in, client):
    League.objects.create(name="Not copied yet", slug="new", game="yardzee")
    page = client.get("/leagues/new/")
    assert page.status_code == 200
    assert "Not copied yet" in page.content.decode()
    assert client.get("/leagues/nowhere/").status_code == 404
