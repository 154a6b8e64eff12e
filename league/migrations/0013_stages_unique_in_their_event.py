"""An event's stages hold distinct positions and names (case aside): the services numbered
and named them so already, but two stages added at once could take one position, or one name
(a form sent twice). The database now holds both.

Rows that already break them are put right first, as the pages showed them: an event's stages
are numbered 1, 2, ... again in their order (position, then id), and a stage named as an
earlier one of its event, case aside, is renamed with its place in the event after its name
("Groups (2)"). Nothing else changes: a stage's players, matches and results stay its own."""

from typing import Any

from django.db import migrations, models
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.state import StateApps
from django.db.models.functions import Lower

NAME_LENGTH = 120


def number_and_name_apart(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    stages = apps.get_model("league", "Stage").objects.using(schema_editor.connection.alias)
    by_event: dict[int, list[Any]] = {}
    for stage in stages.order_by("event_id", "position", "id"):
        by_event.setdefault(stage.event_id, []).append(stage)
    for event_stages in by_event.values():
        names = {stage.name.casefold() for stage in event_stages}
        seen: set[str] = set()
        for place, stage in enumerate(event_stages, start=1):
            changed = stage.position != place
            stage.position = place
            if stage.name.casefold() in seen:
                suffix = f" ({place})"
                name = stage.name[: NAME_LENGTH - len(suffix)] + suffix
                while name.casefold() in names:
                    suffix = f" ({place}){suffix}"
                    name = stage.name[: NAME_LENGTH - len(suffix)] + suffix
                stage.name = name
                names.add(name.casefold())
                changed = True
            seen.add(stage.name.casefold())
            if changed:
                stages.filter(pk=stage.pk).update(position=stage.position, name=stage.name)


class Migration(migrations.Migration):
    dependencies = [("league", "0012_ratings_replay_from")]

    operations = [
        migrations.RunPython(number_and_name_apart, migrations.RunPython.noop),
        migrations.AddConstraint(
            model_name="stage",
            constraint=models.UniqueConstraint(
                fields=["event", "position"], name="stage_unique_position"
            ),
        ),
        migrations.AddConstraint(
            model_name="stage",
            constraint=models.UniqueConstraint(
                models.F("event"),
                Lower("name"),
                name="stage_name_any_case",
                violation_error_message="Another stage of this event has this name, in some "
                "case of its letters.",
            ),
        ),
    ]
