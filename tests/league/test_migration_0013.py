"""Migration 0013 (an event's stages hold distinct positions and names, case aside): rows
that broke the rules before it are put right as the pages showed them, then the database
holds both. On PostgreSQL, where the constraints can be dropped inside the test's
transaction to make such rows again."""

import importlib
from types import SimpleNamespace

import pytest
from django.apps import apps
from django.db import IntegrityError, connection, transaction

from league.models import Event, Stage

migration = importlib.import_module("league.migrations.0013_stages_unique_in_their_event")

pytestmark = pytest.mark.django_db


def test_stages_sharing_a_position_or_a_name_are_numbered_and_named_apart(
    yardzee_event: Event, yardkle_event: Event
):
    with connection.cursor() as cursor:
        cursor.execute("ALTER TABLE league_stage DROP CONSTRAINT stage_unique_position")
        cursor.execute("DROP INDEX stage_name_any_case")  # an index: it holds an expression
    for name, position in [("Groups", 1), ("groups", 1), ("Final", 2), ("Groups (2)", 5)]:
        Stage.objects.create(event=yardzee_event, name=name, position=position, format="swiss")
    other = Stage.objects.create(event=yardkle_event, name="Groups", position=3, format="swiss")
    migration.number_and_name_apart(apps, SimpleNamespace(connection=connection))
    assert [
        (s.name, s.position) for s in Stage.objects.filter(event=yardzee_event).order_by("id")
    ] == [("Groups", 1), ("groups (2) (2)", 2), ("Final", 3), ("Groups (2)", 4)]
    other.refresh_from_db()
    assert (other.name, other.position) == ("Groups", 1)  # alone in its event: renumbered only


def test_the_database_then_refuses_a_second_stage_at_a_position_or_of_a_name(yardzee_event):
    Stage.objects.create(event=yardzee_event, name="Groups", position=1, format="swiss")
    for name, position in [("Final", 1), ("GROUPS", 2)]:
        with pytest.raises(IntegrityError), transaction.atomic():
            Stage.objects.create(event=yardzee_event, name=name, position=position, format="swiss")
