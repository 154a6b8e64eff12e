"""Speed of the rulebook (docs/benchmarks.md, "Scoring"): whole games validated and applied.

Targets (issue 3): a complete 4-player Yardzee game, 52 turns as JSON dicts, at most 0.5 ms
median; a 3-player Yardkle game to 10,000 at most 1 ms. Run with `make bench`, or
`.venv/bin/pytest benchmarks -p no:django --benchmark-only`.
"""

import copy

import pytest

from scoring import simulate
from scoring.yardkle import YardkleGame
from scoring.yardzee import YardzeeGame

# Fixed seeds: the same games on every run, typical in length (a Yardkle game here has 49 turns,
# the mean length of simulated 3-player games).
YARDZEE_TURNS = simulate.play_game(YardzeeGame(players=4), seed=2024)
YARDKLE_TURNS = simulate.play_game(YardkleGame(players=3), seed=1)


def play_yardzee() -> YardzeeGame:
    game = YardzeeGame(players=4)
    for turn in YARDZEE_TURNS:
        game.play(turn)
    return game


def play_yardkle() -> YardkleGame:
    game = YardkleGame(players=3)
    for turn in YARDKLE_TURNS:
        game.play(turn)
    return game


def test_the_benchmark_games_are_complete_and_typical():
    assert len(YARDZEE_TURNS) == 52
    assert all("points" in turn for turn in YARDZEE_TURNS + YARDKLE_TURNS)
    assert 40 <= len(YARDKLE_TURNS) <= 60
    assert play_yardzee().is_over
    assert play_yardkle().is_over
    # Playing must not change the turn dicts, or later rounds would measure something else.
    assert copy.deepcopy(YARDKLE_TURNS) == YARDKLE_TURNS


@pytest.mark.benchmark(group="scoring")
def test_a_4_player_yardzee_game_of_52_turns(benchmark):
    game = benchmark(play_yardzee)
    assert game.is_over


@pytest.mark.benchmark(group="scoring")
def test_a_3_player_yardkle_game_to_10000(benchmark):
    game = benchmark(play_yardkle)
    assert game.is_over
