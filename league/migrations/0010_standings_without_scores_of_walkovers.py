"""Walkovers and forfeits have no game score (tally version 3, docs/standings.md): every stored
standings table is marked stale, so the beat sweep (`standings_sweep`) counts it again from
scratch; a stored tally of version 2 is not read back. No table changes."""

from django.db import migrations
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.state import StateApps
from django.db.models import F


def mark_every_table_stale(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    table = apps.get_model("league", "StandingsTable")
    table.objects.using(schema_editor.connection.alias).update(requested=F("requested") + 1)


class Migration(migrations.Migration):
    dependencies = [("league", "0009_event_play_version_renamed_player")]

    operations = [migrations.RunPython(mark_every_table_stale, migrations.RunPython.noop)]
