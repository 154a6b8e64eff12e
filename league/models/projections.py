"""A stage's and a league's projection: each player's chance to finish in each place, to
qualify and to win, worked out by a job after each result and kept, so a page never waits for
it (docs/analysis.md, "Chance to qualify", "Chance to win the league")."""

from typing import Any

from django.db import models

from league.models.organization import League
from league.models.stages import Stage


class StageProjection(models.Model):
    """The figures of `league.projection.project_stage` for a stage (`Projection.to_json`:
    per player `places`, `qualify`, `win`), computed from the stage as it stood at `version`
    (its standings table's `requested` mark: it moves with every result of the stage) and the
    live chances of its matches being played at the forecast versions in `live`."""

    stage = models.OneToOneField(Stage, on_delete=models.CASCADE, related_name="projection")
    version = models.PositiveIntegerField(default=0)
    runs = models.PositiveIntegerField()
    seed = models.BigIntegerField(default=0)
    figures = models.JSONField(default=dict)
    live = models.JSONField(
        default=dict,
        blank=True,
        help_text="The live chances of matches being played that the figures used: match id "
        "to the version of its forecast (`analysis.MatchForecast`).",
    )
    seconds = models.FloatField(default=0.0, help_text="How long the simulation took.")
    computed_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"projection of {self.stage} at version {self.version}"

    def chances(self) -> dict[int, dict[str, Any]]:
        """Each player's figures by player id."""
        return {row["player"]: row for row in self.figures.get("players", [])}


class LeagueProjection(models.Model):
    """The figures of `league.projection.project_stage` for a league's season table (its
    league standings table): per player `places` and `win` (`qualify` is null), computed from
    the table as it stood at `version` (its `requested` mark) and the matches left then: every
    match of the league's events drawn and not finished, matches being played at the forecast
    versions in `live` (docs/analysis.md, "Chance to win the league")."""

    league = models.OneToOneField(League, on_delete=models.CASCADE, related_name="projection")
    version = models.PositiveIntegerField(default=0)
    live = models.JSONField(default=dict, blank=True)
    left = models.PositiveIntegerField(default=0, help_text="Matches left that were simulated.")
    runs = models.PositiveIntegerField()
    seed = models.BigIntegerField(default=0)
    figures = models.JSONField(default=dict)
    seconds = models.FloatField(default=0.0, help_text="How long the simulation took.")
    computed_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"projection of {self.league} at version {self.version}"

    def chances(self) -> dict[int, dict[str, Any]]:
        """Each player's figures by player id."""
        return {row["player"]: row for row in self.figures.get("players", [])}
