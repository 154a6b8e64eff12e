"""Speed of standings (docs/standings.md, "Speed"): a full recompute of a league event with
1,000 players and 20,000 finished 4-player matches, all metrics of a long tiebreak order, in
well under 2 s on one core; and one more result added to a stored tally.

Run with `.venv/bin/pytest benchmarks/test_standings.py --benchmark-only` (or `make bench`)."""

import json
import random

import pytest

from league.standings import (
    MatchResult,
    SeatResult,
    Tally,
    compute_standings,
    rank_standings,
)

PLAYERS = 1_000
MATCHES = 20_000
TARGET_SECONDS = 2.0
ORDER = [
    "points",
    "head_to_head",
    "buchholz",
    "median_buchholz",
    "wins",
    "average_score",
    "best_score",
    "yardzees",
]


def swiss_like_event(seed: int = 2026) -> list[MatchResult]:
    """Rounds of 250 tables of four (every player once a round), Yardzee-like scores; placements
    from the scores, ties sharing; one seat in a hundred forfeits."""
    rng = random.Random(seed)
    players = list(range(1, PLAYERS + 1))
    results = []
    for match_id in range(1, MATCHES + 1):
        if (match_id - 1) % (PLAYERS // 4) == 0:
            rng.shuffle(players)
        start = 4 * ((match_id - 1) % (PLAYERS // 4))
        seated = players[start : start + 4]
        scores = [rng.randint(120, 330) for _ in seated]
        seats = tuple(
            SeatResult(
                player=player,
                placement=1 + sum(1 for other in scores if other > score),
                score=score,
                forfeited=rng.random() < 0.01,
                yardzees=rng.choice((0, 0, 0, 1, 1, 2)),
                upper_bonus=rng.randint(0, 1),
            )
            for player, score in zip(seated, scores, strict=True)
        )
        results.append(
            MatchResult(match_id=match_id, seats=seats, round=(match_id - 1) // (PLAYERS // 4) + 1)
        )
    return results


EVENT = swiss_like_event()


def test_the_benchmark_event_has_the_target_size():
    assert len(EVENT) == MATCHES
    assert len({seat.player for match in EVENT for seat in match.seats}) == PLAYERS


@pytest.mark.benchmark(group="standings")
def test_full_recompute_of_1000_players_and_20000_matches(benchmark):
    standings = benchmark.pedantic(
        compute_standings,
        args=(EVENT,),
        kwargs={"game": "yardzee", "tiebreak_order": ORDER},
        rounds=5,
        iterations=1,
    )
    assert len(standings) == PLAYERS
    assert benchmark.stats.stats.median < TARGET_SECONDS


@pytest.mark.benchmark(group="standings")
def test_one_more_result_on_a_stored_tally(benchmark):
    tally = Tally(game="yardzee")
    tally.add_results(EVENT[:-1])
    stored = json.dumps(tally.to_json())

    def one_more():
        later = Tally.from_json(json.loads(stored))
        later.add_result(EVENT[-1])
        return rank_standings(later, ORDER)

    standings = benchmark.pedantic(one_more, rounds=5, iterations=1)
    benchmark.extra_info["stored_tally_bytes"] = len(stored)
    assert standings == compute_standings(EVENT, game="yardzee", tiebreak_order=ORDER)
