"""Ratings: OpenSkill Plackett-Luce per league on plain data, apart from the database
(docs/standings.md, "Ratings").

A service loads finished matches as `league.standings.MatchResult`s, calls `rate_match` for a
match that finished in order or `replay` from the first match that changed, and stores the
history rows. Nothing here imports Django."""

from league.rating.model import (
    LeaderboardEntry,
    Rating,
    RatingChange,
    RatingHistory,
    RatingReplay,
    RatingSettings,
)
from league.rating.predict import win_chances
from league.rating.replay import (
    DEFAULT_SETTINGS,
    leaderboard,
    rate_match,
    ratings_before,
    replay,
)

__all__ = [
    "DEFAULT_SETTINGS",
    "LeaderboardEntry",
    "Rating",
    "RatingChange",
    "RatingHistory",
    "RatingReplay",
    "RatingSettings",
    "leaderboard",
    "rate_match",
    "ratings_before",
    "replay",
    "win_chances",
]
