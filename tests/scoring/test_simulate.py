"""`scoring.simulate`: seeded, legal, realistic turns for demo data and load tests."""

import random
import statistics

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring import simulate
from scoring.yardkle import YardkleGame, YardkleRules
from scoring.yardzee import YardzeeGame, YardzeeRules

from .strategies import GAMES, yardkle_games


@GAMES
@given(
    seed=st.integers(0, 2**32),
    players=st.integers(2, 5),
    joker=st.sampled_from(["forced", "free_choice"]),
)
def test_simulated_yardzee_games_are_accepted_turn_by_turn_and_end_after_13_rounds(
    seed, players, joker
):
    game = YardzeeGame(players=players, rules=YardzeeRules(joker=joker))
    turns = simulate.play_game(game, seed)  # play() raises on any illegal turn
    assert game.is_over
    assert len(turns) == 13 * players


@GAMES
@given(
    seed=st.integers(0, 2**32),
    game=yardkle_games(st.integers(2, 10), [1000, 5000, 10_000], [0, 500, 1000]),
)
def test_simulated_yardkle_games_are_accepted_turn_by_turn_and_terminate(seed, game):
    simulate.play_game(game, seed)
    assert game.is_over
    assert max(game.total(seat) for seat in range(game.players)) >= game.rules.target


def test_the_same_seed_plays_the_same_game():
    first = simulate.play_game(YardkleGame(players=3), 42)
    second = simulate.play_game(YardkleGame(players=3), 42)
    assert first == second
    assert simulate.play_game(YardzeeGame(players=2), 7) == simulate.play_game(
        YardzeeGame(players=2), 7
    )


@pytest.mark.parametrize("game_class", [YardzeeGame, YardkleGame])
def test_next_turn_proposes_a_turn_without_applying_it(game_class):
    game = game_class(players=2)
    before = game.to_json()
    turn = simulate.next_turn(game, random.Random(1))
    assert game.to_json() == before
    assert game.play(turn).seat == 0


def test_next_turn_refuses_a_game_that_is_over():
    game = YardkleGame(players=2, rules=YardkleRules(target=50, entry_minimum=0))
    simulate.play_game(game, 3)
    with pytest.raises(ValueError, match="over"):
        simulate.next_turn(game, random.Random(1))


def test_a_yardkle_game_that_cannot_end_stops_at_the_turn_cap():
    game = YardkleGame(players=2, rules=YardkleRules(target=10**6, entry_minimum=10**6))
    with pytest.raises(RuntimeError, match="did not end within 20 turns"):
        simulate.play_game(game, 1, max_turns=20)


def test_simulated_yardzee_scores_like_a_sensible_player_not_random_boxes():
    totals = []
    for seed in range(10):
        game = YardzeeGame(players=2)
        simulate.play_game(game, seed)
        totals += [game.total(0), game.total(1)]
    assert 180 <= statistics.mean(totals) <= 280


def test_simulated_yardkle_turns_bank_around_a_threshold_and_respect_the_entry_minimum():
    game = YardkleGame(players=3)
    banks = []
    for turn in simulate.play_game(game, 5):
        if turn["end"] == "bank":
            banks.append(turn["points"])
    assert min(banks) >= 250
    assert statistics.median(banks) >= 300
    assert len(banks) >= 10


def test_keep_most_common_face_keeps_every_die_of_the_most_common_face_higher_on_ties():
    assert simulate.keep_most_common_face([3, 3, 5, 2, 6]) == [3, 3]
    assert simulate.keep_most_common_face([2, 2, 5, 5, 1]) == [5, 5]
    assert simulate.keep_most_common_face([1, 2, 3, 4, 6]) == [6]
