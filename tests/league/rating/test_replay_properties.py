"""Properties of rating replays over random leagues."""

import random

from hypothesis import given
from hypothesis import strategies as st

from league.rating import Rating, RatingChange, rate_match, ratings_before, replay
from tests.league.standings.strategies import PROPERTIES, League, leagues

RATINGS = PROPERTIES  # the same modest example counts


@RATINGS
@given(leagues(), st.data())
def test_replaying_from_any_match_equals_rating_from_scratch(league: League, data: st.DataObject):
    ordered = sorted(league.results, key=lambda match: match.order_key)
    full = replay(ordered)
    if not ordered:
        assert full.ratings == {}
        return
    split = data.draw(st.integers(0, len(ordered) - 1))
    tail = replay(ordered[split:], start=ratings_before(full.history, ordered[split]))
    assert tail.ratings == full.ratings
    assert tail.history == full.history[len(full.history) - len(tail.history) :]


@RATINGS
@given(leagues(), st.randoms(use_true_random=False))
def test_the_order_matches_are_given_in_does_not_matter(league: League, rng: random.Random):
    shuffled = league.results + rng.sample(league.results, k=len(league.results) // 3)
    rng.shuffle(shuffled)
    assert replay(shuffled) == replay(league.results)


@RATINGS
@given(leagues())
def test_a_replay_is_rate_match_applied_in_finished_order(league: League):
    ratings: dict[int, Rating] = {}
    history: list[RatingChange] = []
    for match in sorted(league.results, key=lambda match: match.order_key):
        rows = rate_match(match, ratings)
        ratings.update((row.player, row.rating) for row in rows)
        history.extend(rows)
    done = replay(league.results)
    assert tuple(done.history) == tuple(history)
    assert {p: r for p, r in done.ratings.items() if p in ratings} == ratings
