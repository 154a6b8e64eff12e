"""Reads of play analysis for the pages: a player's last analysed matches, a league's
accuracy per player. Constant query counts."""

from collections.abc import Collection
from dataclasses import dataclass
from datetime import datetime

from django.db.models import Avg, Count, Max, Q

from analysis.models import MatchAnalysis, MatchForecast, PlayerAccuracy


@dataclass(frozen=True, slots=True)
class MatchAccuracy:
    match: int
    league: int | None
    finished_at: datetime
    accuracy: float
    total_loss: float
    # The match's game: points lost are that game's points, never added across games.
    game: str


# A match in which a player made no counted choice (every one forced, or only Yardkle's
# final round, which the accuracy leaves out) has no accuracy: its stored 100 means nothing.
COUNTED = Q(decisions__gt=0)


def player_accuracy(player_id: int, *, limit: int = 30) -> list[MatchAccuracy]:
    """The player's last `limit` analysed matches with a counted choice, oldest first."""
    rows = (
        PlayerAccuracy.objects.filter(COUNTED, player_id=player_id)
        .order_by("-finished_at", "-pk")
        .values_list(
            "analysis__match_id",
            "analysis__match__league_id",
            "finished_at",
            "accuracy",
            "total_loss",
            "analysis__match__game",
        )[:limit]
    )
    return [MatchAccuracy(*row) for row in reversed(list(rows))]


@dataclass(frozen=True, slots=True)
class PlayerAverage:
    accuracy: float | None
    loss_per_game: float
    games: int


def league_accuracy(league_id: int) -> dict[int, PlayerAverage]:
    """Each player's mean accuracy (over the league's analysed matches where they made a
    counted choice; None without one) and points lost per game (over all of them), in one
    query."""
    return {
        player: PlayerAverage(accuracy, loss, games)
        for player, accuracy, loss, games in PlayerAccuracy.objects.filter(
            analysis__match__league_id=league_id
        )
        .values("player_id")
        .annotate(a=Avg("accuracy", filter=COUNTED), l=Avg("total_loss"), n=Count("pk"))
        .values_list("player_id", "a", "l", "n")
    }


def league_analysis_version(league_id: int) -> tuple[int, int]:
    """Changes whenever a match of the league is analysed or its analysis discarded: for
    pages that cache what they show of it."""
    found = MatchAnalysis.objects.filter(match__league_id=league_id).aggregate(
        latest=Max("pk"), count=Count("pk")
    )
    return int(found["latest"] or 0), int(found["count"] or 0)


def current_chances(match_ids: Collection[int]) -> dict[int, list[float]]:
    """Each seat's chance to win now (seat order), for each of `match_ids` with a stored win
    probability. One query; none without ids."""
    if not match_ids:
        return {}
    rows = MatchForecast.objects.filter(match_id__in=match_ids).values_list("match_id", "chances")
    return {match_id: [float(c) for c in chances[-1]] for match_id, chances in rows if chances}


def favourites(match_ids: Collection[int]) -> dict[int, tuple[int, float]]:
    """For each of `match_ids` with a stored win probability: the seat (in seat order, from
    0) with the best chance now, and that chance. One query; none without ids."""
    found: dict[int, tuple[int, float]] = {}
    for match_id, now in current_chances(match_ids).items():
        seat = max(range(len(now)), key=lambda s: now[s])
        found[match_id] = (seat, now[seat])
    return found
