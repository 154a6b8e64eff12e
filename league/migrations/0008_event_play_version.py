"""`Event.play_version`: one more with every transaction that changes what the event's page
shows of its matches and stages, so that the page's version is read in one row (issue 22;
docs/pages.md, "Whole pages kept rendered").

It is kept by PostgreSQL, not by the code: a constraint trigger on every table the page shows
(matches, seats, stages, their entries, matches, byes, voids and forfeits) adds one to the
event's `play_version` for each row written, whatever wrote it (the ORM, a queryset's update,
the turn's hand-written SQL in `games/turn_sql.py`). A turn that changes only the match's game
state (`state`, `turns_played`, `version`) changes nothing the page shows and adds nothing (the
condition compares the other columns, `MATCH_SHOWN`); its first and last turns do. The triggers are deferred to the commit, so the event's row is locked
only then, after every other lock the transaction takes (a match, then its event, as a first
turn takes them): no deadlock with a turn being stored."""

from django.db import migrations, models
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.state import StateApps

# Each table whose rows the event page shows.
TABLES = (
    "games_match",
    "games_seat",
    "league_stage",
    "league_stageentry",
    "league_stagematch",
    "league_stagebye",
    "league_stagevoid",
    "league_stageforfeit",
)
# The match's columns a page may show: an update of any other (what a turn writes, `state`,
# `turns_played` and `version`, and the scoring key, which no page shows) changes no page.
# tests/web/test_conditional_get.py fails when Match has a column in neither list.
MATCH_SHOWN = (
    "game",
    "rules",
    "status",
    "created_at",
    "started_at",
    "finished_at",
    "created_by_id",
    "event_id",
    "league_id",
    "planned_at",
    "planned_zone",
    "schedule_changed_at",
    "schedule_sequence",
    "table_label",
)
MATCH_NOT_SHOWN = ("id", "state", "turns_played", "version", "score_key")

FUNCTION = """
CREATE OR REPLACE FUNCTION league_event_played() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    written record;
    shown_event bigint;
BEGIN
    IF TG_OP = 'DELETE' THEN written := OLD; ELSE written := NEW; END IF;
    IF TG_TABLE_NAME IN ('games_match', 'league_stage') THEN
        shown_event := written.event_id;
        IF TG_OP = 'UPDATE' AND OLD.event_id IS DISTINCT FROM NEW.event_id THEN
            UPDATE league_event SET play_version = play_version + 1 WHERE id = OLD.event_id;
        END IF;
    ELSIF TG_TABLE_NAME = 'games_seat' THEN
        SELECT event_id INTO shown_event FROM games_match WHERE id = written.match_id;
    ELSIF TG_TABLE_NAME IN ('league_stageentry', 'league_stagematch', 'league_stagebye') THEN
        SELECT event_id INTO shown_event FROM league_stage WHERE id = written.stage_id;
    ELSE
        SELECT s.event_id INTO shown_event
          FROM league_stagematch sm JOIN league_stage s ON s.id = sm.stage_id
         WHERE sm.id = written.stage_match_id;
    END IF;
    IF shown_event IS NOT NULL THEN
        UPDATE league_event SET play_version = play_version + 1 WHERE id = shown_event;
    END IF;
    RETURN NULL;
END
$$;
"""


def trigger_names(table: str) -> tuple[str, str]:
    """The constraint triggers of `table` (tests make them immediate by these names)."""
    return f"{table}_played", f"{table}_played_update"


def _create(table: str) -> list[str]:
    written, updated = trigger_names(table)
    old, new = (", ".join(f"{row}.{column}" for column in MATCH_SHOWN) for row in ("OLD", "NEW"))
    when = f"WHEN (ROW({old}) IS DISTINCT FROM ROW({new}))" if table == "games_match" else ""
    return [
        f"CREATE CONSTRAINT TRIGGER {written} AFTER INSERT OR DELETE ON {table}"
        " DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION league_event_played()",
        f"CREATE CONSTRAINT TRIGGER {updated} AFTER UPDATE ON {table}"
        f" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW {when}"
        " EXECUTE FUNCTION league_event_played()",
    ]


def create_triggers(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    schema_editor.execute(FUNCTION)
    for table in TABLES:
        for statement in _create(table):
            schema_editor.execute(statement)


def drop_triggers(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    for table in TABLES:
        for name in trigger_names(table):
            schema_editor.execute(f"DROP TRIGGER IF EXISTS {name} ON {table}")
    schema_editor.execute("DROP FUNCTION IF EXISTS league_event_played()")


class Migration(migrations.Migration):
    dependencies = [
        ("league", "0007_sign_up_and_check_in"),
        ("games", "0009_match_version"),
    ]

    operations = [
        migrations.AddField(
            model_name="event",
            name="play_version",
            field=models.PositiveBigIntegerField(
                default=0,
                editable=False,
                help_text="One more with every transaction that changes what the event's page"
                " shows of its matches and stages: kept by PostgreSQL triggers (migration 0008),"
                " not by the code.",
            ),
        ),
        migrations.RunPython(create_triggers, drop_triggers),
    ]
