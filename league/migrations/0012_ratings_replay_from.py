"""A league's ratings remember the earliest rated result withdrawn since their last refresh
(`RatingsState.replay_from`, `replay_from_match`), so that the refresh replays from it: a
corrected turn withdraws a result and counts the new one with the same finish time, which the
finish times alone never showed (ratings so left stale are put right by `recompute_ratings`)."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("league", "0011_handles_and_slugs_unique_in_any_case"),
    ]

    operations = [
        migrations.AddField(
            model_name="ratingsstate",
            name="replay_from",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="ratingsstate",
            name="replay_from_match",
            field=models.BigIntegerField(blank=True, null=True),
        ),
    ]
