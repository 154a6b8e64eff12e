"""A stage's and a league's projection: each player's chance to finish in each place, to qualify
and to win (docs/analysis.md, "Chance to qualify", "Chance to win the league"), and the answer
before the first figures."""

from typing import Any

from rest_framework import serializers


class PlayerChancesSerializer(serializers.Serializer[Any]):
    player = serializers.IntegerField()
    name = serializers.CharField()
    places = serializers.ListField(
        child=serializers.FloatField(),
        help_text="`places[i]`: the chance to finish in place i + 1 (within the group for a "
        "stage played in groups), 0 to 1.",
    )
    qualify = serializers.FloatField(
        allow_null=True,
        help_text="The chance to go on to the next stage; null when no stage takes players "
        "from this one.",
    )
    win = serializers.FloatField(help_text="The chance to come first in the stage.")


class StageProjectionSerializer(serializers.Serializer[Any]):
    stage = serializers.IntegerField()
    status = serializers.ChoiceField(
        choices=["current", "behind"],
        help_text="`behind` while a later result is being taken into account.",
    )
    version = serializers.IntegerField(help_text="The stage's results these figures are of.")
    runs = serializers.IntegerField(help_text="Simulated runs of the rest of the stage.")
    seed = serializers.IntegerField()
    standard_error = serializers.FloatField(
        help_text="The largest standard error of a chance: sqrt(1/4 / runs)."
    )
    computed_at = serializers.DateTimeField()
    live = serializers.ListField(
        child=serializers.IntegerField(),
        help_text="The matches being played whose live chances to win (their win probability "
        "after the last turn) decided them in the simulation instead of the ratings.",
    )
    players = PlayerChancesSerializer(many=True, help_text="In seed order.")


class ProjectionPendingSerializer(serializers.Serializer[Any]):
    stage = serializers.IntegerField()
    status = serializers.ChoiceField(choices=["pending"])


class LeaguePlayerChancesSerializer(serializers.Serializer[Any]):
    player = serializers.IntegerField()
    name = serializers.CharField()
    places = serializers.ListField(
        child=serializers.FloatField(),
        help_text="`places[i]`: the chance to finish the season in place i + 1 of the league "
        "table, 0 to 1.",
    )
    win = serializers.FloatField(help_text="The chance to win the league (first in its table).")


class LeagueProjectionSerializer(serializers.Serializer[Any]):
    league = serializers.SlugField()
    status = serializers.ChoiceField(
        choices=["current", "behind"],
        help_text="`behind` while a later result is being taken into account.",
    )
    version = serializers.IntegerField(help_text="The league table's results these are of.")
    left = serializers.IntegerField(
        help_text="The matches of the league's events left to play that were simulated."
    )
    runs = serializers.IntegerField(help_text="Simulated runs of the matches left.")
    seed = serializers.IntegerField()
    standard_error = serializers.FloatField(
        help_text="The largest standard error of a chance: sqrt(1/4 / runs); 0 when nothing "
        "is left to play."
    )
    computed_at = serializers.DateTimeField()
    live = serializers.ListField(
        child=serializers.IntegerField(),
        help_text="The matches being played whose live chances to win decided them.",
    )
    players = LeaguePlayerChancesSerializer(
        many=True, help_text="In the order of the league table when computed."
    )


class LeagueProjectionPendingSerializer(serializers.Serializer[Any]):
    league = serializers.SlugField()
    status = serializers.ChoiceField(choices=["pending"])
