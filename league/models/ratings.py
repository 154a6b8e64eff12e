"""Ratings: each player's current OpenSkill rating in a league, its history, and the
league's ratings state (what the leaderboard was computed from)."""

from django.db import models

from league.models.organization import League, Player


class OpenSkillRating(models.Model):
    """An OpenSkill rating as stored: mean `mu`, uncertainty `sigma`, and the `ordinal`
    (mu - 3 sigma) the leaderboard ranks by (`league.rating.Rating`)."""

    mu = models.FloatField()
    sigma = models.FloatField()
    ordinal = models.FloatField()

    class Meta:
        abstract = True


class PlayerRating(OpenSkillRating):
    """A player's current OpenSkill rating in a league (the leaderboard)."""

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="ratings")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="ratings")
    matches = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["league", "-ordinal"]
        constraints = [
            models.UniqueConstraint(fields=["league", "player"], name="rating_unique_player"),
        ]

    def __str__(self) -> str:
        return f"{self.player} in {self.league}: {self.ordinal:.2f}"


class RatingChange(OpenSkillRating):
    """A player's rating right after one match: the history behind charts and replays."""

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="rating_changes")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="rating_changes")
    match = models.ForeignKey("games.Match", on_delete=models.CASCADE, related_name="+")
    finished_at = models.DateTimeField()

    class Meta:
        ordering = ["league", "finished_at", "match_id"]
        constraints = [
            models.UniqueConstraint(fields=["match", "player"], name="rating_change_unique"),
        ]
        indexes = [models.Index(fields=["league", "finished_at", "match"])]

    def __str__(self) -> str:
        return f"{self.player} after match #{self.match_id}"


class RatingsState(models.Model):
    """Whether a league's ratings are up to date (same `requested`/`computed` scheme as
    StandingsTable)."""

    league = models.OneToOneField(League, on_delete=models.CASCADE, related_name="ratings_state")
    requested = models.PositiveIntegerField(default=1)
    computed = models.PositiveIntegerField(default=0)
    computed_at = models.DateTimeField(null=True, blank=True)
    # The earliest rated result withdrawn since the last refresh, in finish order (the time
    # it was rated at, and its match): the refresh replays from there. A result can be
    # withdrawn and counted again with the same finish time (a corrected turn keeps it), which
    # the finish times of the rated and the finished matches alone would not show.
    replay_from = models.DateTimeField(null=True, blank=True)
    replay_from_match = models.BigIntegerField(null=True, blank=True)

    def __str__(self) -> str:
        return f"ratings of {self.league}"

    @property
    def pending(self) -> bool:
        return self.requested > self.computed
