"""Standings tables, the leaderboard and a player's rating history."""

from typing import Any

from rest_framework import serializers

from league.models import Stage


class StandingRowSerializer(serializers.Serializer[Any]):
    rank = serializers.IntegerField()
    player = serializers.IntegerField()
    name = serializers.CharField()
    matches = serializers.IntegerField()
    wins = serializers.IntegerField()
    draws = serializers.IntegerField()
    byes = serializers.IntegerField()
    forfeits = serializers.IntegerField()
    placements = serializers.ListField(child=serializers.IntegerField())
    points = serializers.FloatField()
    total_score = serializers.IntegerField()
    average_score = serializers.FloatField()
    best_score = serializers.IntegerField(allow_null=True)
    yardzees = serializers.IntegerField(allow_null=True)
    upper_bonuses = serializers.IntegerField(allow_null=True)
    yardkles = serializers.IntegerField(allow_null=True)
    metrics = serializers.DictField(child=serializers.FloatField(allow_null=True))
    group = serializers.IntegerField(
        allow_null=True,
        default=None,
        help_text="A stage played in groups: the player's group (`rank` is the place in it).",
    )


class StandingsSerializer(serializers.Serializer[Any]):
    scope = serializers.CharField()
    scope_id = serializers.IntegerField()
    tiebreak = serializers.ListField(
        child=serializers.CharField(), help_text="The metrics used, in tiebreak order."
    )
    computed_at = serializers.DateTimeField(allow_null=True)
    pending = serializers.BooleanField(help_text="Newer results are still being counted.")
    group = serializers.IntegerField(
        allow_null=True,
        default=None,
        help_text="The group these rows are of (`?group=`); null for the whole table.",
    )
    rows = StandingRowSerializer(many=True)


class StandingsGroupSerializer(serializers.Serializer[Any]):
    """`?group=` of a stage's standings: one group of a stage played in groups."""

    group = serializers.IntegerField(
        min_value=1,
        max_value=64,
        required=False,
        help_text="A stage played in groups: only this group's rows.",
    )

    def validate_group(self, group: int) -> int:
        stage: Stage = self.context["stage"]
        if not stage.played_in_groups:
            raise serializers.ValidationError(
                f"Stage {stage.pk} is not played in groups (or has not started)."
            )
        if group > stage.groups:
            raise serializers.ValidationError(f"Stage {stage.pk} has groups 1 to {stage.groups}.")
        return group


class LeaderboardRowSerializer(serializers.Serializer[Any]):
    rank = serializers.IntegerField()
    player = serializers.IntegerField()
    name = serializers.CharField()
    mu = serializers.FloatField()
    sigma = serializers.FloatField()
    ordinal = serializers.FloatField()
    matches = serializers.IntegerField()


class LeaderboardSerializer(serializers.Serializer[Any]):
    league = serializers.CharField()
    computed_at = serializers.DateTimeField(allow_null=True)
    pending = serializers.BooleanField()
    rows = LeaderboardRowSerializer(many=True)


class RatingHistorySerializer(serializers.Serializer[Any]):
    league = serializers.CharField()
    match = serializers.IntegerField()
    finished_at = serializers.DateTimeField()
    mu = serializers.FloatField()
    sigma = serializers.FloatField()
    ordinal = serializers.FloatField()
