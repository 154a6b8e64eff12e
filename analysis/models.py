"""A finished match's analysis as the strategy engine returns it, kept per match."""

from django.db import models


class MatchAnalysis(models.Model):
    """The analysis of a match as it finished at `finished_at`: per player the summary
    (`scoring.analysis.PlayerSummary.to_json` with the player's id), per turn its decisions
    (`TurnAnalysis.to_json`). A match finished again later (after an undo or a correction) has
    another `finished_at`, so a stored analysis of the old result is never shown for it."""

    match = models.OneToOneField("games.Match", on_delete=models.CASCADE, related_name="analysis")
    finished_at = models.DateTimeField(help_text="The match's finished_at when analysed.")
    players = models.JSONField(help_text="Per seat: the player's id and their summary.")
    turns = models.JSONField(help_text="Per turn, in play order: its decisions.")
    seconds = models.FloatField(default=0, help_text="How long the analysis took.")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name_plural = "match analyses"

    def __str__(self) -> str:
        return f"analysis of match #{self.match_id}"


class PlayerAccuracy(models.Model):
    """One player's figures in one analysed match, a row each, so that a player's last matches
    and a league's averages are read with indexed queries, not from the JSON."""

    analysis = models.ForeignKey(MatchAnalysis, on_delete=models.CASCADE, related_name="accuracies")
    player = models.ForeignKey("league.Player", on_delete=models.CASCADE, related_name="+")
    finished_at = models.DateTimeField()
    decisions = models.PositiveIntegerField()
    accuracy = models.FloatField()
    mean_loss = models.FloatField()
    total_loss = models.FloatField()

    class Meta:
        indexes = [models.Index(fields=["player", "-finished_at"], name="accuracy_player_newest")]

    def __str__(self) -> str:
        return f"accuracy of player {self.player_id} in {self.analysis}"


class MatchForecast(models.Model):
    """Each player's chance to win a match after every turn (docs/analysis.md, "Win
    probability"), kept per match and brought up to date by the job `analysis.forecast_match`
    after each turn. `chances[i]` holds the seats' chances (in seat order) after `i` turns, so
    `chances[0]` is the start; `version` is the match's version they were made from. `swings`
    are the turns that moved a chance most: `{"turn", "seat", "what", "before", "after"}`;
    `losses` (Yardzee) each turn's loss against the optimal play, by which the players'
    strengths are judged."""

    match = models.OneToOneField("games.Match", on_delete=models.CASCADE, related_name="forecast")
    version = models.PositiveIntegerField(help_text="The match's version when computed.")
    model = models.CharField(max_length=32, help_text="The model the chances come from.")
    players = models.JSONField(help_text="The seats' player ids, in seat order.")
    chances = models.JSONField(help_text="Per turn played (0: the start), each seat's chance.")
    marks = models.JSONField(
        default=list,
        help_text="Per turn, what identifies it as it was when computed (its id and when it was "
        "last corrected): a turn taken back or corrected is computed again.",
    )
    losses = models.JSONField(
        default=list,
        help_text="Yardzee: per turn played, the expected points it lost against the optimal "
        "play (the players' strengths are judged by them).",
    )
    swings = models.JSONField(default=list, help_text="The turns that moved a chance most.")
    seconds = models.FloatField(default=0, help_text="How long the last update took.")
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"win probability of match #{self.match_id}"
