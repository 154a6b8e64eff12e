"""A player's handle and a league's slug are unique in any case of their letters (`Ada` and
`ada` read as one): the services checked it already, and the database now holds it when two
requests store one at once. A database that holds two such already stops here and names them,
to be renamed first (the admin, or PATCH players/{id}/ and leagues/{slug}/)."""

from django.db import migrations, models
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.state import StateApps
from django.db.models import Count
from django.db.models.functions import Lower


def refuse_names_alike(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    alias = schema_editor.connection.alias
    alike = []
    for model, field in (("Player", "handle"), ("League", "slug")):
        rows = apps.get_model("league", model).objects.using(alias)
        for found in (
            rows.values(folded=Lower(field)).annotate(count=Count("pk")).filter(count__gt=1)
        ):
            same = rows.annotate(folded=Lower(field)).filter(folded=found["folded"])
            alike.append(f"{model} {field}s {sorted(same.values_list(field, flat=True))}")
    if alike:
        raise RuntimeError(
            "These differ only in the case of their letters; rename all but one of each, then "
            "migrate again: " + "; ".join(alike)
        )


class Migration(migrations.Migration):
    dependencies = [("league", "0010_standings_without_scores_of_walkovers")]

    operations = [
        migrations.RunPython(refuse_names_alike, migrations.RunPython.noop),
        migrations.AddConstraint(
            model_name="league",
            constraint=models.UniqueConstraint(
                Lower("slug"),
                name="league_slug_any_case",
                violation_error_message="Another league has this address, in some case of its "
                "letters.",
            ),
        ),
        migrations.AddConstraint(
            model_name="player",
            constraint=models.UniqueConstraint(
                Lower("handle"),
                name="player_handle_any_case",
                violation_error_message="Another player has this handle, in some case of its "
                "letters.",
            ),
        ),
    ]
