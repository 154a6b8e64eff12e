"""A finished match's analysis, and the answer while it is being made."""

from typing import Any

from rest_framework import serializers


class PlayerAnalysisSerializer(serializers.Serializer[Any]):
    player = serializers.IntegerField()
    seat = serializers.IntegerField(help_text="0-based seat: the order of play.")
    decisions = serializers.IntegerField(help_text="Decisions judged in expected points.")
    optimal = serializers.IntegerField(help_text="Of them, the best choice (no loss).")
    total_loss = serializers.FloatField(help_text="Expected points given up in all.")
    mean_loss = serializers.FloatField(help_text="Expected points given up per decision.")
    accuracy = serializers.FloatField(help_text="0 to 100 (docs/analysis.md, Accuracy).")
    final_round_decisions = serializers.IntegerField(
        help_text="Yardkle: decisions of the final round, judged by the chance to win."
    )
    final_round_loss = serializers.FloatField(help_text="Their loss, in probability.")


class MatchAnalysisSerializer(serializers.Serializer[Any]):
    match = serializers.IntegerField(source="match_id")
    status = serializers.SerializerMethodField()
    finished_at = serializers.DateTimeField(help_text="The finish this analysis is of.")
    players = PlayerAnalysisSerializer(many=True)
    turns = serializers.ListField(
        child=serializers.DictField(),
        help_text="Per turn in play order: its seat and decisions, each with the chosen and "
        "the best option, both values and the loss (docs/analysis.md).",
    )

    def get_status(self, analysis: Any) -> str:
        return "done"


class AnalysisPendingSerializer(serializers.Serializer[Any]):
    match = serializers.IntegerField()
    status = serializers.ChoiceField(choices=["pending"])
