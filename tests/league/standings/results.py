"""Compact ways to write the finished matches of hand-checked tables.

Players are small ints named A to F; `table(7, B, A, C)` is match 7 where B finished 1st, A 2nd
and C 3rd."""

from datetime import UTC, datetime, timedelta
from typing import Any

from league.standings import MatchResult, SeatResult

A, B, C, D, E, F = 1, 2, 3, 4, 5, 6

EPOCH = datetime(2026, 6, 1, 18, 0, tzinfo=UTC)


def at(minutes: int) -> datetime:
    """A finish time `minutes` after the league night starts."""
    return EPOCH + timedelta(minutes=minutes)


def seat(player: int, placement: int, score: int | None = 0, **counts: Any) -> SeatResult:
    """A SeatResult scoring 0 unless `score` is given; `counts` are its other fields
    (forfeited, yardzees, upper_bonus, yardkles), by name."""
    return SeatResult(player=player, placement=placement, score=score, **counts)


def result(match_id: int, *seats: SeatResult, round: int | None = None) -> MatchResult:
    return MatchResult(match_id=match_id, seats=seats, round=round, finished_at=at(match_id))


def table(match_id: int, *players: int, round: int | None = None) -> MatchResult:
    """Players listed best first, no ties; scores 100 for last, +10 per place above."""
    size = len(players)
    return result(
        match_id,
        *(seat(p, place, 100 + 10 * (size - place)) for place, p in enumerate(players, start=1)),
        round=round,
    )


def draw(match_id: int, first: int, second: int) -> MatchResult:
    """A pair sharing first place."""
    return result(match_id, seat(first, 1, 100), seat(second, 1, 100))
