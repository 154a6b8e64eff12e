# Written by hand (Django 5.2): a table's order, ranks and the metrics that depend on other
# players move from its lines and its `apart` column to one text column of the table's row,
# `ranking`, stored uncompressed.

import json

from django.db import migrations, models

# The metrics whose values depend on other players, as this migration knows them: those one
# result changes for players who did not play it, and head-to-head, which depends on who is tied.
APART = ("buchholz", "median_buchholz", "head_to_head")

# About 25 kB of JSON a table of 1,000 players, written by every refresh: TOAST's compression
# would cost more than it saves (as for the tally, migration 0004).
RANKING_UNCOMPRESSED = "ALTER TABLE league_standingstable ALTER COLUMN ranking SET STORAGE EXTERNAL"


def ranking_to_the_tables_row(apps, schema_editor):
    """Each computed table's `ranking` becomes {"players": [best first], "ranks": [...],
    "metrics": {key: [the value of each player, in that order]}}: its lines' positions and
    ranks, and the values of the metrics of `APART`, from those it kept apart ({key: {player
    id as text: value}}) or else from its lines, which then lose them."""
    with schema_editor.connection.cursor() as cursor:
        cursor.execute(
            """
            SELECT t.id, t.apart::text,
                json_agg(json_build_array(r.player, r.rank, r.metrics) ORDER BY r.position)::text
            FROM league_standingstable t JOIN league_standingsrow r ON r.table_id = t.id
            GROUP BY t.id
            """
        )
        for table_id, apart_text, lines_text in cursor.fetchall():
            apart, lines = json.loads(apart_text), json.loads(lines_text)
            players = [player for player, _, _ in lines]
            metrics = {}
            for key in APART:
                if key in apart:
                    metrics[key] = [apart[key].get(str(player)) for player in players]
                elif any(key in line_metrics for _, _, line_metrics in lines):
                    metrics[key] = [line_metrics.get(key) for _, _, line_metrics in lines]
            ranking = {
                "players": players,
                "ranks": [rank for _, rank, _ in lines],
                "metrics": metrics,
            }
            cursor.execute(
                "UPDATE league_standingstable SET ranking = %s WHERE id = %s",
                [json.dumps(ranking), table_id],
            )
        for key in APART:
            cursor.execute(
                "UPDATE league_standingsrow SET metrics = metrics - %s WHERE metrics ? %s",
                [key, key],
            )


class Migration(migrations.Migration):

    dependencies = [
        ('league', '0023_standings_apart_and_pending'),
    ]

    operations = [
        migrations.AddField(
            model_name='standingstable',
            name='ranking',
            field=models.TextField(blank=True, default=''),
        ),
        migrations.RunSQL(RANKING_UNCOMPRESSED, migrations.RunSQL.noop),
        migrations.RunPython(ranking_to_the_tables_row, migrations.RunPython.noop),
        migrations.RemoveField(
            model_name='standingstable',
            name='apart',
        ),
        migrations.RemoveField(
            model_name='standingsrow',
            name='position',
        ),
        migrations.RemoveField(
            model_name='standingsrow',
            name='rank',
        ),
    ]
