"""Yardkle analyses stored before set-aside options kept their continuation labelled them
"set aside ..., then None" and left out `then` (docs/analysis.md, "Analysing a game"):
they are deleted, so the beat sweep (`analysis.sweep`) analyses those matches again within
minutes, as `manage.py analyse_matches` does at once. An analysis is derived from the turns
alone, so nothing is lost. No table changes."""

from django.db import migrations
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.state import StateApps


def forget_yardkle_analyses(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    analysis = apps.get_model("analysis", "MatchAnalysis")
    analysis.objects.using(schema_editor.connection.alias).filter(match__game="yardkle").delete()


class Migration(migrations.Migration):
    dependencies = [("analysis", "0002_player_accuracy")]

    operations = [migrations.RunPython(forget_yardkle_analyses, migrations.RunPython.noop)]
