"""Speed of the Yardkle win probability for three or more players (docs/benchmarks.md,
"Win probability: Yardkle race"): building the race tables, and one live update after a turn
(issue 39: at most 5 ms of a core), at the start of a turn, in the middle of one, and in the
final round; and the product's update (`analysis.chances`): each player's style estimated from
the game's 60 turns so far, then the race with those styles mixed.

`.venv/bin/python -m pytest benchmarks/test_winprob_yardkle_race.py --benchmark-only
-p no:cacheprovider`."""

import pytest

from scoring import simulate
from scoring.winprob import yardkle_race, yardkle_style, yardkle_turns
from scoring.winprob.yardkle_race import race_tables, style_tables, win_probabilities
from scoring.yardkle import YardkleGame, YardkleRules

SIX = [4200, 6100, 0, 7350, 5000, 2500]


def build_cold():
    race_tables.cache_clear()
    style_tables.cache_clear()
    yardkle_race.final_turn_odds.cache_clear()
    yardkle_race.final_odds.cache_clear()
    yardkle_turns.points_distribution.cache_clear()
    yardkle_turns.turn_distribution.cache_clear()
    return style_tables(YardkleRules())


@pytest.mark.benchmark(group="winprob-yardkle-build")
def test_building_the_race_tables_of_both_styles(benchmark):
    points, weak = benchmark.pedantic(build_cold, rounds=1, iterations=1)
    assert points.goal == weak.goal == 200


def _update(rules, game, turns):
    weak = yardkle_style.estimate(rules, game.players, turns)
    scores = [game.total(seat) for seat in range(game.players)]
    return win_probabilities(
        scores, game.current_player, final_round_from=game.final_round_by, rules=rules, weak=weak
    )


@pytest.mark.benchmark(group="winprob-yardkle-update")
def test_six_players_the_products_update_with_styles_from_60_turns(benchmark):
    rules = YardkleRules()
    game = YardkleGame(6, rules)
    turns = simulate.play_game(YardkleGame(6, rules), seed=4)[:60]
    for turn in turns:
        game.play(turn)
    assert not game.final_round  # the race, before anyone reached the target
    style_tables(rules)
    yardkle_style.estimate(rules, 6, turns)  # the choice tables, once per process
    chances = benchmark(_update, rules, game, turns)
    assert sum(chances) == pytest.approx(1.0, abs=1e-6)


@pytest.mark.benchmark(group="winprob-yardkle-update")
def test_six_players_at_the_start_of_a_turn(benchmark):
    race_tables(YardkleRules())
    chances = benchmark(win_probabilities, SIX, 3)
    assert sum(chances) == pytest.approx(1.0, abs=1e-6)
    assert max(chances) == chances[3]


@pytest.mark.benchmark(group="winprob-yardkle-update")
def test_six_players_in_the_middle_of_a_turn(benchmark):
    race_tables(YardkleRules())
    chances = benchmark(win_probabilities, SIX, 1, 650, 2)
    assert sum(chances) == pytest.approx(1.0, abs=1e-6)


@pytest.mark.benchmark(group="winprob-yardkle-update")
def test_three_players_at_the_start_of_a_turn(benchmark):
    race_tables(YardkleRules())
    chances = benchmark(win_probabilities, [9000, 8000, 9500], 0)
    assert chances[2] > chances[0] > chances[1]


@pytest.mark.benchmark(group="winprob-yardkle-update")
def test_six_players_in_the_final_round(benchmark):
    scores = [4200, 6100, 0, 10350, 9000, 2500]
    chances = benchmark(win_probabilities, scores, 4, final_round_from=3)
    assert chances[3] == max(chances)
