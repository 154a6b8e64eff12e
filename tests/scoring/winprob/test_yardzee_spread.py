"""The moments and exact distributions of a Yardzee player's remaining points
(scoring.winprob.yardzee_spread; docs/analysis.md, "Win probability: Yardzee")."""

import numpy as np
import pytest

from scoring.analysis import YardzeeState
from scoring.analysis import yardzee_table as solver
from scoring.errors import RuleViolation
from scoring.winprob.yardzee_spread import ORDERS, central, turn_moments
from scoring.yardzee import CATEGORIES

from .conftest import LAST_LEVELS

ONLY_CHANCE = YardzeeState(frozenset(CATEGORIES) - {"chance"}, 50, False)
"""Every box filled but Chance (the Yardzee box with 0: no bonus, and a joker scores as
Chance), so the turn is five dice each kept or thrown on its own."""


def one_die_chance(rolls: int) -> np.ndarray:
    """The points of one die for Chance under the best play: keep it when it beats the mean of
    throwing it again (4.25 with two rolls left, 3.5 with one), worked out apart from the
    engine. Returns the chances of 1 to 6."""
    chances = np.full(6, 1 / 6)
    if rolls == 1:
        return chances
    again = one_die_chance(rolls - 1)
    mean_again = float(again @ np.arange(1, 7))
    kept = np.where(np.arange(1, 7) > mean_again, chances, 0.0)
    result: np.ndarray = kept + chances[np.arange(1, 7) <= mean_again].sum() * again
    return result


def chance_box_distribution(rolls: int) -> np.ndarray:
    """The distribution of the Chance box's points, five independent dice (index: points)."""
    die = np.concatenate([[0.0], one_die_chance(rolls)])
    total = np.array([1.0])
    for _ in range(5):
        total = np.convolve(total, die)
    return total


def test_the_mean_of_the_moments_turn_is_the_strategy_tables_value_to_the_last_bit(forced):
    states = solver.level(LAST_LEVELS).solved[:256]
    moments = np.zeros((len(ORDERS), solver.STATES))
    turn = turn_moments(np.asarray(forced.table), moments, states, "forced")
    assert np.array_equal(turn.value.start, np.asarray(forced.table)[states])


def test_the_moments_are_those_of_the_exact_distributions(late_spread):
    # Two computations apart: moments by backward induction, distributions forwards.
    rng = np.random.default_rng(3)
    for filled in (LAST_LEVELS, 11, 12):
        states = rng.choice(solver.level(filled).solved, size=40, replace=False)
        exact = late_spread.distributions(states)
        points = np.arange(exact.shape[1])
        assert exact.sum(axis=1) == pytest.approx(np.ones(40), abs=1e-12)
        for order_index, order in enumerate(ORDERS):
            raw = exact @ points.astype(np.float64) ** order
            tabulated = np.asarray(late_spread.moments)[order_index, states]
            assert raw == pytest.approx(tabulated, rel=1e-10)
        mean = exact @ points
        assert mean == pytest.approx(np.asarray(late_spread.strategy.table)[states], rel=1e-12)


def test_one_open_chance_box_has_the_distribution_of_five_dice_kept_one_by_one(late_spread):
    expected = chance_box_distribution(rolls=3)
    found = late_spread.distribution(ONLY_CHANCE)
    assert found[: len(expected)] == pytest.approx(expected, abs=1e-14)
    assert found[len(expected) :].sum() == 0
    rest = late_spread.remaining(ONLY_CHANCE)
    points = np.arange(len(expected))
    assert rest.mean == pytest.approx(expected @ points, rel=1e-12)
    assert rest.variance == pytest.approx(expected @ (points - rest.mean) ** 2, rel=1e-9)


def test_mid_turn_the_dice_kept_count_and_the_others_are_thrown(late_spread):
    # After the second roll: 6, 5 and 4 are kept (each beats 3.5), the 2 and 1 thrown once.
    rest = late_spread.remaining(ONLY_CHANCE, [6, 5, 4, 2, 1], rolls_left=1)
    assert rest.mean == pytest.approx(15 + 2 * 3.5, rel=1e-12)
    assert rest.variance == pytest.approx(2 * 35 / 12, rel=1e-9)
    found = late_spread.distribution(ONLY_CHANCE, [6, 5, 4, 2, 1], rolls_left=1)
    two_dice = np.convolve(np.full(6, 1 / 6), np.full(6, 1 / 6))  # 2 to 12
    assert found[17:28] == pytest.approx(two_dice, abs=1e-14)  # 15 + 2 to 15 + 12
    assert found.sum() == pytest.approx(1.0, abs=1e-12)
    # With the box to choose, the dice are the points: nothing uncertain is left.
    final = late_spread.remaining(ONLY_CHANCE, [6, 5, 4, 2, 1], rolls_left=0)
    assert (final.mean, final.variance) == (pytest.approx(18), pytest.approx(0, abs=1e-9))


def test_a_full_scorecard_has_nothing_more_to_come(late_spread):
    over = YardzeeState(frozenset(CATEGORIES), 63, True)
    assert late_spread.remaining(over).mean == 0
    assert late_spread.remaining(over).variance == 0


@pytest.mark.parametrize(
    ("dice", "rolls_left", "code"),
    [
        (None, 1, "invalid_state"),
        ([1, 2, 3, 4, 5], 3, "invalid_state"),
        ([1, 2, 3, 4], 1, "wrong_dice_count"),
        ([1, 2, 3, 4, 7], 1, "invalid_die"),
    ],
)
def test_bad_positions_are_rule_violations(late_spread, dice, rolls_left, code):
    with pytest.raises(RuleViolation) as raised:
        late_spread.remaining(ONLY_CHANCE, dice, rolls_left)
    assert raised.value.code == code


def test_the_variance_from_raw_moments():
    # 0 or 10 with chances 1/2: mean 5, second raw moment 50, variance 25.
    assert central(np.array(5.0), np.array([50.0])) == 25.0


@pytest.mark.parametrize("rolls_left", [2, 1])
def test_a_position_solved_alone_mid_turn_has_the_strategys_value(late_spread, rolls_left):
    """After the first roll (two rolls left) the mean is the best keep's value, as the
    strategy's own advice gives it: solving one state alone once scaled its dice's values by
    their chances in place (`yardzee_table.first_roll` on a contiguous row)."""
    state = YardzeeState(frozenset(CATEGORIES[:10]), 40, False)
    dice = [3, 3, 5, 2, 6]
    late_spread._turns.clear()
    found = late_spread.remaining(state, dice, rolls_left)
    best = late_spread.strategy.keep_options(state, dice, rolls_left)[0].value
    assert found.mean == pytest.approx(best, abs=1e-9)
