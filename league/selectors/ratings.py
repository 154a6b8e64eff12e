"""Ratings: a league's leaderboard and its state, a player's rating history."""

from collections.abc import Collection
from dataclasses import dataclass
from datetime import datetime

from django.db.models import Q

from games.models import Match, Seat
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


def pre_match_ratings(match_id: int) -> tuple[list[int], list[rating.Rating]] | None:
    """The seated players of a match of a league (seat order) and each one's rating in that
    league just before it finished: their last rating change of an earlier finish, or a new
    player's rating. Two queries; None for a match with no league or not finished."""
    found = (
        Match.objects.filter(pk=match_id, finished_at__isnull=False)
        .values_list("finished_at", "league_id", "event__league_id")
        .first()
    )
    if found is None or (found[1] or found[2]) is None:
        return None
    finished_at, league_id = found[0], found[1] or found[2]
    players = list(
        Seat.objects.filter(match_id=match_id).order_by("order").values_list("player_id", flat=True)
    )
    earlier = (
        models.RatingChange.objects.filter(league_id=league_id, player_id__in=players)
        .filter(Q(finished_at__lt=finished_at) | Q(finished_at=finished_at, match_id__lt=match_id))
        .order_by("player_id", "-finished_at", "-match_id")
        .distinct("player_id")
        .values_list("player_id", "mu", "sigma")
    )
    before = {player: rating.Rating(mu, sigma) for player, mu, sigma in earlier}
    initial = rating.RatingSettings().initial
    return players, [before.get(player, initial) for player in players]


def current_ratings(event_id: int, player_ids: Collection[int]) -> dict[int, rating.Rating]:
    """The current rating, in the league of event `event_id`, of each of `player_ids` that
    has one: one query."""
    rows = models.PlayerRating.objects.filter(
        league__events__id=event_id, player_id__in=player_ids
    ).values_list("player_id", "mu", "sigma")
    return {player: rating.Rating(mu, sigma) for player, mu, sigma in rows}
