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


class ForecastTurnSerializer(serializers.Serializer[Any]):
    turn = serializers.IntegerField(help_text="Turns played (0: the start).")
    chances = serializers.ListField(
        child=serializers.FloatField(), help_text="Each seat's chance to win, in seat order."
    )


class ForecastSwingSerializer(serializers.Serializer[Any]):
    turn = serializers.IntegerField()
    seat = serializers.IntegerField(help_text="The seat (from 0) that played it.")
    player = serializers.IntegerField()
    what = serializers.CharField(help_text='The turn in words: "Yardzee (50)", "banked 1,500".')
    before = serializers.FloatField(help_text="That seat's chance before the turn.")
    after = serializers.FloatField(help_text="And after it.")


class MatchForecastSerializer(serializers.Serializer[Any]):
    """A match's win probability after every turn (docs/analysis.md, "Win probability")."""

    match = serializers.IntegerField()
    status = serializers.ChoiceField(
        choices=["current", "behind"],
        help_text="`behind` while the turns played since are being worked out.",
    )
    model = serializers.CharField(help_text="The model the chances come from.")
    players = serializers.ListField(child=serializers.IntegerField(), help_text="In seat order.")
    turns = ForecastTurnSerializer(many=True)
    swings = ForecastSwingSerializer(many=True, help_text="The turns that moved a chance most.")
