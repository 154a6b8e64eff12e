"""Speed of the Yardzee win probability (docs/benchmarks.md, "Win probability: Yardzee"):
building the moments table, and one turn's update of a match's chances.

Targets (issue 39): one turn's update at most 5 ms of a core; the tables built in about a
minute by `manage.py build_strategy`. Run with `make bench`, or `.venv/bin/python -m pytest
benchmarks/test_winprob_yardzee.py --benchmark-only -p no:cacheprovider`.
"""

import pytest

from scoring.analysis import Strategy, YardzeeState
from scoring.winprob.yardzee import Position, win_probabilities
from scoring.winprob.yardzee_greedy import GreedySpread
from scoring.winprob.yardzee_spread import Spread
from scoring.yardzee import CATEGORIES, YardzeeRules

# Five players in the middle of a game (six boxes filled each), between turns.
MIDDLE = YardzeeState.of_boxes(
    {"aces": 3, "threes": 9, "fours": 12, "full_house": 25, "chance": 22, "yardzee": 50}
)
MIDDLE_GAME = [Position(MIDDLE, 121 + 7 * seat) for seat in range(5)]
# Four players near the end (three or four boxes open: exact distributions).
LATE = [
    YardzeeState(frozenset(CATEGORIES[:9]), 40, False),
    YardzeeState(frozenset(CATEGORIES[1:11]), 55, False),
    YardzeeState(frozenset(CATEGORIES[2:12]), 60, False),
    YardzeeState(frozenset(CATEGORIES[3:]), 63, False),
]
LATE_GAME = [Position(state, 200 + 10 * seat) for seat, state in enumerate(LATE)]
# The same players judged by their losses (points a turn): between optimal and greedy.
RATES = (0.0, 1.5, 3.0, 5.0, 8.0)
MIDDLE_RATED = [Position(MIDDLE, 121 + 7 * seat, loss_rate=RATES[seat]) for seat in range(5)]
LATE_RATED = [
    Position(state, 200 + 10 * seat, loss_rate=RATES[seat + 1]) for seat, state in enumerate(LATE)
]


@pytest.fixture(scope="module")
def strategy() -> Strategy:
    return Strategy.build(YardzeeRules())


@pytest.fixture(scope="module")
def spread(strategy: Strategy) -> Spread:
    return Spread.build(strategy)


@pytest.fixture(scope="module")
def greedy() -> GreedySpread:
    return GreedySpread.build(YardzeeRules())


@pytest.mark.benchmark(group="winprob-build")
def test_building_the_greedy_table_forced_joker(benchmark):
    greedy = benchmark.pedantic(GreedySpread.build, args=(YardzeeRules(),), rounds=1, iterations=1)
    assert 150 < greedy.remaining(YardzeeState.start()).mean < 175


@pytest.mark.benchmark(group="winprob-build")
def test_building_the_moments_table_forced_joker(benchmark, strategy):
    spread = benchmark.pedantic(Spread.build, args=(strategy,), rounds=1, iterations=1)
    assert round(spread.remaining(YardzeeState.start()).variance ** 0.5, 4) == 59.6079


@pytest.mark.benchmark(group="winprob-update")
def test_five_players_in_the_middle_of_a_game(benchmark, spread):
    chances = benchmark(win_probabilities, MIDDLE_GAME, spread)
    assert chances == sorted(chances)  # the same position: more points, more chance
    assert sum(chances) == pytest.approx(1.0, abs=1e-6)


@pytest.mark.benchmark(group="winprob-update")
def test_four_players_near_the_end_exact(benchmark, spread):
    win_probabilities(LATE_GAME, spread)  # the exact distributions, solved once per process
    chances = benchmark(win_probabilities, LATE_GAME, spread)
    assert sum(chances) == pytest.approx(1.0, abs=1e-9)


@pytest.mark.benchmark(group="winprob-update")
def test_a_mid_turn_position_first_time(benchmark, spread):
    def update() -> list[float]:
        spread._turns.clear()  # the turn solved again, as for a new position
        dice_showing = Position(MIDDLE, 121, dice=(3, 3, 5, 2, 6), rolls_left=2)
        return win_probabilities([dice_showing, *MIDDLE_GAME[1:]], spread)

    chances = benchmark(update)
    assert sum(chances) == pytest.approx(1.0, abs=1e-6)


@pytest.mark.benchmark(group="winprob-update")
def test_an_exact_distribution_with_four_boxes_open_cold(benchmark, spread):
    state = YardzeeState(frozenset(CATEGORIES[4:]), 20, False)

    def cold() -> float:
        spread._exact.clear()
        return float(spread.distribution(state).sum())

    assert benchmark(cold) == pytest.approx(1.0, abs=1e-12)


@pytest.mark.benchmark(group="winprob-update")
def test_five_players_in_the_middle_judged_by_their_losses(benchmark, spread, greedy):
    chances = benchmark(win_probabilities, MIDDLE_RATED, spread, greedy)
    assert sum(chances) == pytest.approx(1.0, abs=1e-6)


@pytest.mark.benchmark(group="winprob-update")
def test_four_players_near_the_end_judged_by_their_losses(benchmark, spread, greedy):
    win_probabilities(LATE_RATED, spread, greedy)  # both strengths' distributions, solved once
    chances = benchmark(win_probabilities, LATE_RATED, spread, greedy)
    assert sum(chances) == pytest.approx(1.0, abs=1e-9)
