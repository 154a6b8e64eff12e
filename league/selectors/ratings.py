"""Ratings: a league's leaderboard and its state, a player's rating history."""

from dataclasses import dataclass
from datetime import datetime

from league import models, rating


@dataclass(frozen=True, slots=True)
class LeaderboardRow:
    rank: int
    player: int
    name: str
    mu: float
    sigma: float
    ordinal: float
    matches: int


@dataclass(frozen=True, slots=True)
class Leaderboard:
    """A league's ratings by ordinal, when they were computed and whether newer results are
    still to be rated."""

    league: str
    computed_at: datetime | None
    pending: bool
    rows: tuple[LeaderboardRow, ...]


def leaderboard(league: models.League) -> Leaderboard:
    """A league's ratings leaderboard by ordinal (equal ordinals share the rank), with when
    it was computed and whether newer results are pending."""
    ratings = list(
        models.PlayerRating.objects.filter(league=league)
        .select_related("player")
        .order_by("-ordinal", "player_id")
    )
    state = models.RatingsState.objects.filter(league=league).first()
    stored = {item.player_id: item for item in ratings}
    # Ranked by the one leaderboard rule (league.rating.leaderboard: equal ordinals share).
    entries = rating.leaderboard(
        {player: rating.Rating(mu=item.mu, sigma=item.sigma) for player, item in stored.items()}
    )
    return Leaderboard(
        league=league.slug,
        computed_at=state.computed_at if state else None,
        pending=state.pending if state else False,
        rows=tuple(
            LeaderboardRow(
                rank=entry.rank,
                player=entry.player,
                name=stored[entry.player].player.display_name,
                mu=entry.mu,
                sigma=entry.sigma,
                ordinal=entry.ordinal,
                matches=stored[entry.player].matches,
            )
            for entry in entries
        ),
    )


@dataclass(frozen=True, slots=True)
class RatingPoint:
    """A player's rating in `league` (its slug) after match `match`."""

    league: str
    match: int
    finished_at: datetime
    mu: float
    sigma: float
    ordinal: float


def rating_history(player: models.Player) -> list[RatingPoint]:
    """A player's rating after each of their rated matches, oldest first, in every league."""
    return [
        RatingPoint(*row)
        for row in models.RatingChange.objects.filter(player=player)
        .order_by("finished_at", "match_id")
        .values_list("league__slug", "match_id", "finished_at", "mu", "sigma", "ordinal")
    ]


def ratings_state(league: models.League) -> models.RatingsState | None:
    """Whether the league's ratings are current, and which computation they come from."""
    return models.RatingsState.objects.filter(league=league).first()
