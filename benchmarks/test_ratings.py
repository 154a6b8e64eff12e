"""Speed of ratings (docs/standings.md, "Speed"): a replay of 100,000 4-player matches must fit
in 60 s. The benchmark replays 10,000 and the test checks ten times its median against 60 s
(a replay is linear in the matches: one OpenSkill update each).

Run with `.venv/bin/pytest benchmarks/test_ratings.py --benchmark-only` (or `make bench`)."""

import random
from datetime import UTC, datetime, timedelta

import pytest

from league.rating import replay
from league.standings import MatchResult, SeatResult

PLAYERS = 1_000
MATCHES = 10_000
SCALE_TO = 100_000
TARGET_SECONDS = 60.0


def league_season(seed: int = 7) -> list[MatchResult]:
    """Random 4-player tables, a match finishing every minute, shared places now and then."""
    rng = random.Random(seed)
    start = datetime(2026, 1, 1, tzinfo=UTC)
    matches = []
    for match_id in range(1, MATCHES + 1):
        seated = rng.sample(range(1, PLAYERS + 1), 4)
        scores = [rng.randint(8, 14) * 20 for _ in seated]
        seats = tuple(
            SeatResult(
                player=player,
                placement=1 + sum(1 for other in scores if other > score),
                score=score,
            )
            for player, score in zip(seated, scores, strict=True)
        )
        matches.append(
            MatchResult(
                match_id=match_id, seats=seats, finished_at=start + timedelta(minutes=match_id)
            )
        )
    rng.shuffle(matches)  # the replay orders them by finish time itself
    return matches


SEASON = league_season()


@pytest.mark.benchmark(group="ratings")
def test_replay_of_10000_four_player_matches(benchmark):
    done = benchmark.pedantic(replay, args=(SEASON,), rounds=3, iterations=1)
    assert len(done.history) == 4 * MATCHES
    per_match = benchmark.stats.stats.median / MATCHES
    benchmark.extra_info["seconds_for_100000_matches"] = round(per_match * SCALE_TO, 1)
    assert per_match * SCALE_TO < TARGET_SECONDS
