"""Speed of the strategy engine (docs/benchmarks.md, "Strategy engine"): building the Yardzee
table, loading it, a position's options, whole-game analysis, a Yardkle turn strategy.

Targets (issue 18): the table built in at most 15 s on this 2-core machine; a position's
options in at most 5 ms once the table is loaded; a 52-turn 4-player Yardzee game analysed
in at most 50 ms and a 3-player Yardkle game in at most 100 ms. Run with `make bench`, or
`.venv/bin/python -m pytest benchmarks/test_analysis.py --benchmark-only -p no:cacheprovider`.
"""

from pathlib import Path

import pytest

from scoring import simulate
from scoring.analysis import Strategy, TurnStrategy, YardzeeState, analyse_game
from scoring.analysis.game_analysis import turn_strategy
from scoring.yardkle import YardkleGame, YardkleRules
from scoring.yardzee import YardzeeGame, YardzeeRules

# The same games as benchmarks/test_scoring.py: fixed seeds, typical lengths.
YARDZEE_TURNS = simulate.play_game(YardzeeGame(players=4), seed=2024)
YARDKLE_TURNS = simulate.play_game(YardkleGame(players=3), seed=1)
# A position from the middle of a game: six boxes filled, the upper bonus in reach.
MIDDLE = YardzeeState.of_boxes(
    {"aces": 3, "threes": 9, "fours": 12, "full_house": 25, "chance": 22, "yardzee": 50}
)


@pytest.fixture(scope="module")
def table_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    directory = tmp_path_factory.mktemp("strategy")
    Strategy.build(YardzeeRules()).save(directory)
    return directory


@pytest.fixture(scope="module")
def loaded(table_dir: Path) -> Strategy:
    return Strategy.load(YardzeeRules(), table_dir)


def test_the_benchmark_games_are_complete():
    assert len(YARDZEE_TURNS) == 52
    assert 40 <= len(YARDKLE_TURNS) <= 60


@pytest.mark.benchmark(group="analysis-build")
def test_building_the_yardzee_table_forced_joker(benchmark):
    strategy = benchmark.pedantic(Strategy.build, args=(YardzeeRules(),), rounds=2, iterations=1)
    assert round(strategy.start_value, 6) == 254.587729


@pytest.mark.benchmark(group="analysis-load")
def test_loading_the_table_memory_mapped_with_its_checksum(benchmark, table_dir):
    strategy = benchmark(Strategy.load, YardzeeRules(), table_dir)
    assert round(strategy.start_value, 6) == 254.587729


@pytest.mark.benchmark(group="analysis-load")
def test_building_a_yardkle_turn_strategy(benchmark):
    strategy = benchmark(TurnStrategy, YardkleRules(), True)
    assert round(strategy.start_value, 6) == 577.894994


def keep_options_cold(strategy: Strategy) -> int:
    strategy.forget()  # solve the position's turn, as for a new position
    return len(strategy.keep_options(MIDDLE, [2, 3, 4, 4, 6], rolls_left=2))


@pytest.mark.benchmark(group="analysis-options")
def test_a_positions_keep_options_after_the_first_roll(benchmark, loaded):
    assert benchmark(keep_options_cold, loaded) == 24


@pytest.mark.benchmark(group="analysis-options")
def test_a_positions_box_options(benchmark, loaded):
    options = benchmark(loaded.box_options, MIDDLE, [4, 4, 4, 6, 6])
    assert options[0].box in ("fours", "three_of_a_kind", "four_of_a_kind", "sixes", "twos")


def analyse_yardzee(strategy: Strategy) -> int:
    strategy.forget()  # every turn's position solved again, as for a new game
    analysis = analyse_game(
        {"game": "yardzee", "players": 4, "turns": YARDZEE_TURNS}, strategy=strategy
    )
    return len(analysis.turns)


@pytest.mark.benchmark(group="analysis-game")
def test_analysing_a_4_player_yardzee_game_of_52_turns(benchmark, loaded):
    assert benchmark(analyse_yardzee, loaded) == 52


def analyse_yardkle() -> int:
    analysis = analyse_game({"game": "yardkle", "players": 3, "turns": YARDKLE_TURNS})
    return len(analysis.turns)


@pytest.mark.benchmark(group="analysis-game")
def test_analysing_a_3_player_yardkle_game_to_10000(benchmark):
    # The two turn strategies of normal turns are built once per process, like the loaded
    # table; the final round's, which depend on the game, are built inside every round.
    turn_strategy(YardkleRules(), True, None)
    turn_strategy(YardkleRules(), False, None)
    assert benchmark(analyse_yardkle) == len(YARDKLE_TURNS)
