"""A renamed player moves `play_version` of every event that shows them (issue 22; migration
0008): their matches' events, and the events of the stages they entered or had a bye in. The
event page shows each player's name (in its stages, brackets and list of matches), so a
rename is a new version of those pages at once. Deferred to the commit, as 0008's triggers;
on another database than PostgreSQL it is not made (pages are not kept there)."""

from django.db import migrations
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.state import StateApps

TRIGGER = "league_player_renamed"

FUNCTION = """
CREATE OR REPLACE FUNCTION league_player_renamed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE league_event SET play_version = play_version + 1
     WHERE id IN (SELECT m.event_id FROM games_seat s JOIN games_match m ON m.id = s.match_id
                   WHERE s.player_id = NEW.id AND m.event_id IS NOT NULL
                  UNION
                  SELECT st.event_id FROM league_stageentry se
                    JOIN league_stage st ON st.id = se.stage_id WHERE se.player_id = NEW.id
                  UNION
                  SELECT st.event_id FROM league_stagebye sb
                    JOIN league_stage st ON st.id = sb.stage_id WHERE sb.player_id = NEW.id);
    RETURN NULL;
END
$$;
"""

CREATE = f"""
CREATE CONSTRAINT TRIGGER {TRIGGER} AFTER UPDATE ON league_player
DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
WHEN (ROW(OLD.display_name, OLD.handle) IS DISTINCT FROM ROW(NEW.display_name, NEW.handle))
EXECUTE FUNCTION league_player_renamed()
"""


def create_trigger(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    schema_editor.execute(FUNCTION)
    schema_editor.execute(CREATE)


def drop_trigger(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    schema_editor.execute(f"DROP TRIGGER IF EXISTS {TRIGGER} ON league_player")
    schema_editor.execute("DROP FUNCTION IF EXISTS league_player_renamed()")


class Migration(migrations.Migration):
    dependencies = [
        ("league", "0008_event_play_version"),
    ]

    operations = [migrations.RunPython(create_trigger, drop_trigger)]
