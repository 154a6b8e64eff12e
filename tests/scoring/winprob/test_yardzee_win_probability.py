"""Each Yardzee player's chance to win (scoring.winprob.yardzee; RULES.md, Yardzee "Game":
highest grand total wins, equal totals share the placement)."""

import math

import numpy as np
import pytest

from scoring.analysis import YardzeeState
from scoring.errors import RuleViolation
from scoring.winprob import yardzee
from scoring.winprob.yardzee import Position, between_turns, win_probabilities, win_shares
from scoring.yardzee import CATEGORIES, YardzeeGame

from .test_yardzee_spread import ONLY_CHANCE, chance_box_distribution

OVER = YardzeeState(frozenset(CATEGORIES), 63, False)


def pmf(points: dict[int, float], support: int = 64) -> np.ndarray:
    found = np.zeros(support)
    for value, chance in points.items():
        found[value] = chance
    return found


def shares_of_exact(totals: list[float], rests: list[dict[int, float]]) -> list[float]:
    exact = np.stack([pmf(rest) for rest in rests])[None]
    points = np.arange(exact.shape[2], dtype=np.float64)
    means = np.array([totals]) + exact @ points
    variances = exact @ points**2 - (exact @ points) ** 2
    return list(win_shares(means, variances, totals=np.array([totals]), exact=exact)[0])


@pytest.mark.parametrize(
    ("totals", "rests", "expected"),
    [
        # 110 or 100 against 105: the first wins on the 10.
        ([100, 105], [{0: 0.5, 10: 0.5}, {0: 1.0}], [0.5, 0.5]),
        # 105 ties 105 half the time: a tie is half a win each.
        ([100, 105], [{0: 0.5, 5: 0.5}, {0: 1.0}], [0.25, 0.75]),
        # 200 or 250 against 220 or 240: only the 50 wins.
        ([200, 220], [{0: 0.3, 50: 0.7}, {0: 0.5, 20: 0.5}], [0.7, 0.3]),
        # Three on 250 at the end share the win; 240 has none of it.
        ([250, 250, 250, 240], [{0: 1.0}] * 4, [1 / 3, 1 / 3, 1 / 3, 0.0]),
    ],
)
def test_exact_distributions_give_exact_shares_with_ties_shared(totals, rests, expected):
    assert shares_of_exact(totals, rests) == pytest.approx(expected, abs=1e-12)


def test_two_normals_match_the_closed_form_of_their_difference():
    means, variances = np.array([[250.0, 262.3]]), np.array([[3000.0, 2500.0]])
    # Rounding each to whole points adds about 1/12 to each variance (ties split by halves).
    z = (250.0 - 262.3) / math.sqrt(3000 + 2500 + 1 / 6)
    expected = 0.5 * (1 + math.erf(z / math.sqrt(2)))
    assert win_shares(means, variances)[0, 0] == pytest.approx(expected, abs=2e-4)


def test_the_normal_distribution_function_worked_in_blocks_gives_the_formulas_bits():
    # Numerical Recipes' erfc written out, one whole-array operation at a time (as it was
    # computed before it was worked in place): more values than a block, so several blocks.
    z = np.random.default_rng(5).normal(0, 4, 3 * yardzee._BLOCK + 17)
    x = np.abs(z) / np.sqrt(2.0)
    t = 1.0 / (1.0 + 0.5 * x)
    poly = -1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277))
    poly = 0.09678418 + t * (-0.18628806 + t * (0.27886807 + t * poly))
    poly = -1.26551223 + t * (1.00002368 + t * (0.37409196 + t * poly))
    erfc = t * np.exp(-x * x + poly)
    expected = np.where(z < 0, 0.5 * erfc, 1.0 - 0.5 * erfc)
    found = yardzee._normal_cdf(z.reshape(-1, 1))
    assert found.shape == (len(z), 1)
    assert np.array_equal(found[:, 0], expected)
    exact = np.array([0.5 * (1 + math.erf(value / math.sqrt(2))) for value in z])
    assert np.abs(found[:, 0] - exact).max() < 1.2e-7


def test_shares_sum_to_one_and_the_coarse_grid_agrees_with_whole_points(monkeypatch):
    rng = np.random.default_rng(2)
    means = rng.normal(250, 30, (200, 4))
    variances = rng.uniform(9, 60, (200, 4)) ** 2
    coarse = win_shares(means, variances)
    assert coarse.sum(axis=1) == pytest.approx(np.ones(200), abs=1e-6)
    monkeypatch.setattr("scoring.winprob.yardzee._COARSE", 10**9)  # whole points everywhere
    assert np.abs(win_shares(means, variances) - coarse).max() < 1e-3


def test_equal_players_have_equal_chances_and_the_leader_at_the_end_has_won(late_spread):
    equal = [Position(ONLY_CHANCE, 200)] * 3
    assert win_probabilities(equal, late_spread) == pytest.approx([1 / 3] * 3, abs=1e-9)
    done = [Position(OVER, 250), Position(OVER, 250), Position(OVER, 240)]
    assert win_probabilities(done, late_spread) == pytest.approx([0.5, 0.5, 0.0])


def test_one_chance_box_each_against_a_brute_force_of_the_dice(late_spread):
    # 100 + Chance against 110 + Chance, both with a whole turn to come, and against a player
    # who has finished on 125: the sums of two independent Chance boxes, worked apart.
    chance = chance_box_distribution(rolls=3)
    points = np.arange(len(chance))
    first, second = 100 + points, 110 + points
    final = 125
    wins = np.zeros(3)
    for a, p_a in zip(first, chance, strict=True):
        for b, p_b in zip(second, chance, strict=True):
            totals = np.array([a, b, final])
            top = totals == totals.max()
            wins += p_a * p_b * top / top.sum()
    positions = [Position(ONLY_CHANCE, 100), Position(ONLY_CHANCE, 110), Position(OVER, 125)]
    assert win_probabilities(positions, late_spread) == pytest.approx(list(wins), abs=1e-12)
    states = np.array([[ONLY_CHANCE.index, ONLY_CHANCE.index, OVER.index]])
    batch = between_turns(late_spread, states, np.array([[100.0, 110.0, 125.0]]))
    assert batch[0] == pytest.approx(wins, abs=1e-12)


def test_mid_turn_dice_count_as_they_show(late_spread):
    # Five 6s showing after the first roll: Chance takes 30 at once, so 130 against 110 plus
    # a whole Chance turn: a win when that turn makes less than 20, half of one at 20.
    chance = chance_box_distribution(rolls=3)
    expected = chance[:20].sum() + chance[20] / 2
    sixes = Position(ONLY_CHANCE, 100, dice=(6, 6, 6, 6, 6), rolls_left=2)
    found = win_probabilities([sixes, Position(ONLY_CHANCE, 110)], late_spread)
    assert found == pytest.approx([expected, 1 - expected], abs=1e-12)
    between = win_probabilities(
        [Position(ONLY_CHANCE, 100), Position(ONLY_CHANCE, 110)], late_spread
    )
    assert between[0] < found[0] / 2


def test_a_position_from_a_scorecard(late_spread):
    game = YardzeeGame(players=2)
    game.play({"rolls": [{"dice": [6, 6, 6, 6, 6]}], "category": "yardzee"})
    position = Position.of_scorecard(game.scorecard(0))
    assert position.total == 50
    assert position.state == YardzeeState(frozenset({"yardzee"}), 0, True)


@pytest.mark.parametrize("players", [1, 6])
def test_two_to_five_players(late_spread, players):
    with pytest.raises(RuleViolation) as raised:
        win_probabilities([Position(OVER, 100)] * players, late_spread)
    assert raised.value.code == "wrong_player_count"
