"""The public pages' versions, one row a page (`LeaguePage`, `EventPage`), kept by PostgreSQL
(issue 41; docs/pages.md, "Whole pages kept rendered"): a repeat request of the league or an
event page reads one row, where it read the rows of six tables before.

Every table a page shows has a deferred trigger that *marks* the page as its transaction
writes (migration 0008's and 0009's triggers mark an event's page as played; this migration's
own mark the rest): it adds the page to one row of `league_pagemark` for the transaction, and
locks nothing else. At the commit that row's own deferred trigger runs once, after every other
deferred trigger and check of the transaction (it is queued while they run, so PostgreSQL fires
it after them): it takes the page lock of each league concerned, in ascending order (an advisory
lock, `PAGES_LOCK`), and adds one to each page marked, making the rows of new leagues and
events and removing those of deleted ones.

So a transaction locks nothing for the pages until all its other locks are held and its checks
done, and then only page locks, in one order: two transactions cannot deadlock on them, and a
commit that waits for another's row (a foreign key's check, say) holds no page lock meanwhile.
The event's row is no longer written at the commit (`play_version` moves to `EventPage`).
A page changes at most once a transaction, however many of its rows it wrote."""

import importlib

import django.db.models.deletion
from django.db import migrations, models
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.state import StateApps

_played = importlib.import_module("league.migrations.0008_event_play_version")
_renamed = importlib.import_module("league.migrations.0009_event_play_version_renamed_player")

# The advisory lock's first key ("PAG"), then the league's id (league.services.locks has the
# events', league.services.ratings the ratings').
PAGES_LOCK = 0x504147

# The tables this migration watches (0008 watches the matches, seats and stages, 0009 the
# players), and what a row's update must change to change a page: every column of the league's
# and event's rows (the pages show them whole), the stored versions of tables, ratings and
# projections, a sign-up's opening and deadline, an analysis's match, a forecast's time.
WATCHED: dict[str, str | None] = {
    "league_league": None,
    "league_event": None,
    "league_standingstable": "scope, scope_id, requested, computed, computed_at, tiebreak",
    "league_ratingsstate": "league_id, requested, computed, computed_at",
    "league_leagueprojection": "league_id, version, computed_at",
    "league_stageprojection": "stage_id, version, computed_at",
    "league_signup": "event_id, open, deadline",
    "analysis_matchanalysis": "match_id",
    "analysis_matchforecast": "match_id, updated_at",
}
MARK_TABLE = "league_pagemark"
MARK_TRIGGER = "league_pagemark_versions"

CREATE_MARK_TABLE = f"""
CREATE UNLOGGED TABLE {MARK_TABLE} (
    xact bigint PRIMARY KEY,
    leagues bigint[] NOT NULL,
    events bigint[] NOT NULL,
    played bigint[] NOT NULL,
    signed bigint[] NOT NULL,
    gone boolean NOT NULL
)
"""

# Marks pages for the transaction's commit: leagues' pages, events' pages, events' pages and
# their lists of matches (`played`), events' sign-ups (`signed`, shown on the page, not its
# live part); `gone`: a league or event deleted. NULLs are left out. Reads and writes only the
# transaction's own row (looked up first: most marks are of pages marked already).
MARK = f"""
CREATE OR REPLACE FUNCTION league_pages_marked(
    shown_leagues bigint[],
    shown_events bigint[] DEFAULT '{{}}',
    played_events bigint[] DEFAULT '{{}}',
    signed_events bigint[] DEFAULT '{{}}',
    deleted boolean DEFAULT false
) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
    marked {MARK_TABLE};
BEGIN
    shown_leagues := array_remove(shown_leagues, NULL);
    played_events := array_remove(played_events, NULL);
    shown_events := array_remove(shown_events, NULL) || played_events;
    signed_events := array_remove(signed_events, NULL);
    IF cardinality(shown_leagues) + cardinality(shown_events) + cardinality(signed_events) = 0
    THEN
        RETURN;
    END IF;
    SELECT * INTO marked FROM {MARK_TABLE} WHERE xact = txid_current();
    IF NOT FOUND THEN
        INSERT INTO {MARK_TABLE} (xact, leagues, events, played, signed, gone)
        VALUES (txid_current(), shown_leagues, shown_events, played_events, signed_events,
                deleted);
    ELSIF NOT (shown_leagues <@ marked.leagues AND shown_events <@ marked.events
               AND played_events <@ marked.played AND signed_events <@ marked.signed
               AND (marked.gone OR NOT deleted)) THEN
        UPDATE {MARK_TABLE}
           SET leagues = leagues || shown_leagues,
               events = events || shown_events,
               played = played || played_events,
               signed = signed || signed_events,
               gone = gone OR deleted
         WHERE xact = marked.xact;
    END IF;
END
$$;
"""

# At the commit, once: the leagues' page locks in ascending order, then each page marked one
# more (its row made if new, removed if its league or event is gone).
VERSIONS = f"""
CREATE OR REPLACE FUNCTION league_pages_versioned() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    marked {MARK_TABLE};
    locked bigint;
BEGIN
    DELETE FROM {MARK_TABLE} WHERE xact = NEW.xact RETURNING * INTO marked;
    IF NOT FOUND THEN
        RETURN NULL;
    END IF;
    FOR locked IN
        SELECT league FROM unnest(marked.leagues) AS league
         UNION
        SELECT e.league_id FROM league_event e WHERE e.id = ANY(marked.events || marked.signed)
         ORDER BY 1
    LOOP
        PERFORM pg_advisory_xact_lock(
            {PAGES_LOCK}, ((locked + 2147483648) % 4294967296 - 2147483648)::integer
        );
    END LOOP;
    IF cardinality(marked.leagues) > 0 THEN
        INSERT INTO league_leaguepage AS page (league_id, version)
             SELECT l.id, 1 FROM league_league l WHERE l.id = ANY(marked.leagues)
        ON CONFLICT (league_id) DO UPDATE SET version = page.version + 1;
    END IF;
    IF cardinality(marked.events) > 0 THEN
        INSERT INTO league_eventpage AS page
               (event_id, version, play_version, sign_up_version, sign_up_deadline)
             SELECT e.id, 1, (e.id = ANY(marked.played))::integer, 0, s.deadline
               FROM league_event e LEFT JOIN league_signup s ON s.event_id = e.id
              WHERE e.id = ANY(marked.events)
        ON CONFLICT (event_id) DO UPDATE
           SET version = page.version + 1,
               play_version = page.play_version + EXCLUDED.play_version;
    END IF;
    IF cardinality(marked.signed) > 0 THEN
        INSERT INTO league_eventpage AS page
               (event_id, version, play_version, sign_up_version, sign_up_deadline)
             SELECT e.id, 0, 0, 1, s.deadline
               FROM league_event e LEFT JOIN league_signup s ON s.event_id = e.id
              WHERE e.id = ANY(marked.signed)
        ON CONFLICT (event_id) DO UPDATE
           SET sign_up_version = page.sign_up_version + 1,
               sign_up_deadline = EXCLUDED.sign_up_deadline;
    END IF;
    IF marked.gone THEN
        DELETE FROM league_leaguepage p
         WHERE p.league_id = ANY(marked.leagues)
           AND NOT EXISTS (SELECT FROM league_league l WHERE l.id = p.league_id);
        DELETE FROM league_eventpage p
         WHERE p.event_id = ANY(marked.events || marked.signed)
           AND NOT EXISTS (SELECT FROM league_event e WHERE e.id = p.event_id);
    END IF;
    RETURN NULL;
END
$$;
"""

# The pages each watched table's rows show on (0008's and 0009's tables: below).
SHOWN = """
CREATE OR REPLACE FUNCTION league_page_shown() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    written record;
BEGIN
    IF TG_OP = 'DELETE' THEN written := OLD; ELSE written := NEW; END IF;
    IF TG_TABLE_NAME = 'league_league' THEN
        -- Its events' pages show its row too.
        PERFORM league_pages_marked(
            ARRAY[written.id],
            ARRAY(SELECT e.id FROM league_event e WHERE e.league_id = written.id),
            deleted => TG_OP = 'DELETE'
        );
    ELSIF TG_TABLE_NAME = 'league_event' THEN
        IF TG_OP <> 'UPDATE' THEN
            PERFORM league_pages_marked(
                ARRAY[written.league_id], ARRAY[written.id], deleted => TG_OP = 'DELETE'
            );
        ELSIF ROW(OLD.league_id, OLD.name, OLD.date, OLD.venue, OLD.status)
              IS DISTINCT FROM ROW(NEW.league_id, NEW.name, NEW.date, NEW.venue, NEW.status) THEN
            -- Its line on its league's page (on both leagues' if it moved).
            PERFORM league_pages_marked(ARRAY[OLD.league_id, NEW.league_id], ARRAY[NEW.id]);
        ELSE
            PERFORM league_pages_marked('{}', ARRAY[NEW.id]);
        END IF;
    ELSIF TG_TABLE_NAME = 'league_standingstable' THEN
        IF TG_OP <> 'UPDATE' AND written.computed_at IS NULL THEN
            RETURN NULL;  -- shown once computed
        ELSIF written.scope = 'league' THEN
            PERFORM league_pages_marked(ARRAY[written.scope_id]);
        ELSIF written.scope = 'event' THEN
            PERFORM league_pages_marked('{}', ARRAY[written.scope_id]);
        ELSE
            PERFORM league_pages_marked(
                '{}', ARRAY(SELECT s.event_id FROM league_stage s WHERE s.id = written.scope_id)
            );
        END IF;
    ELSIF TG_TABLE_NAME IN ('league_ratingsstate', 'league_leagueprojection') THEN
        PERFORM league_pages_marked(ARRAY[written.league_id]);
    ELSIF TG_TABLE_NAME = 'league_stageprojection' THEN
        PERFORM league_pages_marked(
            '{}', ARRAY(SELECT s.event_id FROM league_stage s WHERE s.id = written.stage_id)
        );
    ELSIF TG_TABLE_NAME = 'league_signup' THEN
        PERFORM league_pages_marked('{}', '{}', '{}', ARRAY[written.event_id]);
    ELSIF TG_TABLE_NAME = 'analysis_matchanalysis' THEN
        -- The league page shows its players' accuracy.
        PERFORM league_pages_marked(
            ARRAY(SELECT m.league_id FROM games_match m WHERE m.id = written.match_id)
        );
        IF TG_OP = 'UPDATE' THEN
            PERFORM league_pages_marked(
                ARRAY(SELECT m.league_id FROM games_match m WHERE m.id = OLD.match_id)
            );
        END IF;
    ELSIF TG_TABLE_NAME = 'analysis_matchforecast' THEN
        -- The chances of a match being played.
        PERFORM league_pages_marked(
            '{}',
            ARRAY(SELECT m.event_id FROM games_match m
                   WHERE m.id = written.match_id AND m.status = 'in_progress')
        );
    END IF;
    RETURN NULL;
END
$$;
"""

# Migration 0008's function: the event's page and its list of matches marked, where it added
# one to the event's row at the commit.
PLAYED = """
CREATE OR REPLACE FUNCTION league_event_played() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    written record;
    shown_event bigint;
BEGIN
    IF TG_OP = 'DELETE' THEN written := OLD; ELSE written := NEW; END IF;
    IF TG_TABLE_NAME IN ('games_match', 'league_stage') THEN
        shown_event := written.event_id;
        IF TG_OP = 'UPDATE' AND OLD.event_id IS DISTINCT FROM NEW.event_id THEN
            PERFORM league_pages_marked('{}', '{}', ARRAY[OLD.event_id]);
        END IF;
        -- (A stage has no league: the match's column is read in a branch of its own.)
        IF TG_TABLE_NAME = 'games_match' THEN
            IF TG_OP = 'DELETE' THEN
                PERFORM league_pages_marked(ARRAY[OLD.league_id]);  -- with its analysis
            ELSIF TG_OP = 'UPDATE' THEN
                IF OLD.league_id IS DISTINCT FROM NEW.league_id THEN
                    -- Its analysis counts on its new league's page.
                    PERFORM league_pages_marked(ARRAY[OLD.league_id, NEW.league_id]);
                END IF;
            END IF;
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
    PERFORM league_pages_marked('{}', '{}', ARRAY[shown_event]);
    RETURN NULL;
END
$$;
"""

# Migration 0009's function: a renamed player's events marked as played.
RENAMED = """
CREATE OR REPLACE FUNCTION league_player_renamed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM league_pages_marked('{}', '{}', ARRAY(
        SELECT m.event_id FROM games_seat s JOIN games_match m ON m.id = s.match_id
         WHERE s.player_id = NEW.id AND m.event_id IS NOT NULL
         UNION
        SELECT st.event_id FROM league_stageentry se
          JOIN league_stage st ON st.id = se.stage_id WHERE se.player_id = NEW.id
         UNION
        SELECT st.event_id FROM league_stagebye sb
          JOIN league_stage st ON st.id = sb.stage_id WHERE sb.player_id = NEW.id
    ));
    RETURN NULL;
END
$$;
"""


def trigger_names(table: str) -> tuple[str, str]:
    """The constraint triggers of a table in `WATCHED` (tests make them immediate)."""
    return f"{table}_page", f"{table}_page_update"


def _watch(table: str, columns: str | None) -> list[str]:
    written, updated = trigger_names(table)
    if columns is None:
        when = "OLD.* IS DISTINCT FROM NEW.*"
    else:
        old, new = (
            ", ".join(f"{row}.{column.strip()}" for column in columns.split(","))
            for row in ("OLD", "NEW")
        )
        when = f"ROW({old}) IS DISTINCT FROM ROW({new})"
    return [
        f"CREATE CONSTRAINT TRIGGER {written} AFTER INSERT OR DELETE ON {table}"
        " DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION league_page_shown()",
        f"CREATE CONSTRAINT TRIGGER {updated} AFTER UPDATE ON {table}"
        f" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN ({when})"
        " EXECUTE FUNCTION league_page_shown()",
    ]


# Every constraint trigger of the pages (0008's, 0009's and these): the tests make them all
# immediate, since a test's transaction never commits.
TRIGGERS: tuple[str, ...] = (
    *(name for table in _played.TABLES for name in _played.trigger_names(table)),
    _renamed.TRIGGER,
    *(name for table in WATCHED for name in trigger_names(table)),
    MARK_TRIGGER,
)

BACKFILL = """
INSERT INTO league_leaguepage (league_id, version) SELECT id, 0 FROM league_league;
INSERT INTO league_eventpage
       (event_id, version, play_version, sign_up_version, sign_up_deadline)
     SELECT e.id, e.play_version, e.play_version, 0, s.deadline
       FROM league_event e LEFT JOIN league_signup s ON s.event_id = e.id;
"""


def backfill(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    schema_editor.execute(BACKFILL)


def play_version_back(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    schema_editor.execute(
        "UPDATE league_event e SET play_version = p.play_version"
        " FROM league_eventpage p WHERE p.event_id = e.id"
    )


def create_triggers(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    schema_editor.execute(CREATE_MARK_TABLE)
    for function in (MARK, VERSIONS, SHOWN, PLAYED, RENAMED):
        schema_editor.execute(function, None)  # no parameters: its `%` is SQL's
    schema_editor.execute(
        f"CREATE CONSTRAINT TRIGGER {MARK_TRIGGER} AFTER INSERT ON {MARK_TABLE}"
        " DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION league_pages_versioned()"
    )
    for table, columns in WATCHED.items():
        for statement in _watch(table, columns):
            schema_editor.execute(statement)


def drop_triggers(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    for table in WATCHED:
        for name in trigger_names(table):
            schema_editor.execute(f"DROP TRIGGER IF EXISTS {name} ON {table}")
    # 0008's and 0009's functions as they were: adding one to the event's row.
    schema_editor.execute(_played.FUNCTION)
    schema_editor.execute(_renamed.FUNCTION)
    schema_editor.execute(f"DROP TABLE IF EXISTS {MARK_TABLE}")
    for function in (
        "league_page_shown()",
        "league_pages_versioned()",
        "league_pages_marked(bigint[], bigint[], bigint[], bigint[], boolean)",
    ):
        schema_editor.execute(f"DROP FUNCTION IF EXISTS {function}")


class Migration(migrations.Migration):
    dependencies = [
        ("league", "0024_standings_ranking_in_the_table"),
        ("analysis", "0005_match_forecast_losses"),
        ("games", "0011_match_pad"),
    ]

    operations = [
        migrations.CreateModel(
            name="EventPage",
            fields=[
                (
                    "event",
                    models.OneToOneField(
                        db_constraint=False,
                        on_delete=django.db.models.deletion.DO_NOTHING,
                        primary_key=True,
                        related_name="page",
                        serialize=False,
                        to="league.event",
                    ),
                ),
                ("version", models.PositiveBigIntegerField(default=0)),
                ("play_version", models.PositiveBigIntegerField(default=0)),
                ("sign_up_version", models.PositiveBigIntegerField(default=0)),
                ("sign_up_deadline", models.DateTimeField(blank=True, null=True)),
            ],
        ),
        migrations.CreateModel(
            name="LeaguePage",
            fields=[
                (
                    "league",
                    models.OneToOneField(
                        db_constraint=False,
                        on_delete=django.db.models.deletion.DO_NOTHING,
                        primary_key=True,
                        related_name="page",
                        serialize=False,
                        to="league.league",
                    ),
                ),
                ("version", models.PositiveBigIntegerField(default=0)),
            ],
        ),
        migrations.RunPython(backfill, play_version_back),
        migrations.RemoveField(model_name="event", name="play_version"),
        migrations.RunPython(create_triggers, drop_triggers),
    ]
