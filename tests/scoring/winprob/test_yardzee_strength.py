"""The strengths of the Yardzee win probability (scoring.winprob.yardzee_strength; docs/analysis.md,
"Win probability: Yardzee", "Strengths"): players' loss rates, the mixture of normals, the
weights, and the losses of the calibration's simulated players."""

import io
from pathlib import Path
from typing import Any, Final

import numpy as np
import pytest
from django.core.management import CommandError, call_command

from games.management.commands import calibrate_yardzee
from scoring.analysis import YardzeeState
from scoring.analysis.rolls import FloatArray
from scoring.errors import RuleViolation
from scoring.winprob import yardzee_strength as strength
from scoring.winprob.yardzee import (
    PRIOR_TURNS,
    Position,
    between_turns,
    loss_rates,
    mixture_shares,
    win_probabilities,
)
from scoring.winprob.yardzee_calibration import fit, fit_turn_losses, play
from scoring.yardzee import CATEGORIES


def test_a_players_loss_rate_is_their_share_of_the_greedy_players_losses_shrunk_to_the_match():
    assert loss_rates([[], []]) == [0.0, 0.0]  # nothing played: the optimal play
    # 20 points lost in two turns each where the greedy player loses `greedy` each.
    greedy = strength.GREEDY_TURN_LOSSES[:2].sum()
    match = 20 / (2 * greedy)
    prior = PRIOR_TURNS * strength.GREEDY_LOSS_RATE  # 20 average turns at the match's share
    rates = loss_rates([[10.0, 10.0], [0.0, 0.0]])
    assert rates[0] == pytest.approx(
        strength.GREEDY_LOSS_RATE * (20 + prior * match) / (greedy + prior)
    )
    assert rates[1] == pytest.approx(strength.GREEDY_LOSS_RATE * (prior * match) / (greedy + prior))
    assert loss_rates([[-1e-12, 0.0]]) == [0.0]  # rounding noise on a best choice


@pytest.mark.parametrize("turns", [1, 5, 8, 11, 13])
def test_a_player_losing_what_the_greedy_player_loses_is_judged_greedy_at_any_point(turns):
    # The greedy player loses 4 to 5 points a turn mid-game and 14 to 17 in the 11th and 12th
    # turns: against the mean turn (7.1) they would be judged a fifth optimal mid-game.
    losses = list(strength.GREEDY_TURN_LOSSES[:turns])
    assert loss_rates([losses]) == pytest.approx([strength.GREEDY_LOSS_RATE])
    weights = strength.weak_weight(np.array(loss_rates([losses, losses])))
    assert weights.tolist() == pytest.approx([1.0, 1.0])


def test_the_greedy_players_losses_by_turn_are_the_simulated_players(late_spread):
    games = play(late_spread, "greedy", 3000, seed=6)  # other players than the fit's
    error = games.losses.std(axis=0) / np.sqrt(len(games.losses))
    assert (np.abs(games.losses.mean(axis=0) - strength.GREEDY_TURN_LOSSES) < 4 * error).all()


def test_the_weaker_strengths_weight_grows_with_the_loss_rate_up_to_the_greedy_players():
    weights = strength.weak_weight(np.array([0.0, strength.GREEDY_LOSS_RATE / 2, 30.0]))
    assert weights.tolist() == [0.0, 0.5, 1.0]


def test_two_normals_are_recovered_from_their_sample():
    rng = np.random.default_rng(3)
    sample = np.concatenate([rng.normal(-0.3, 0.6, 8000), rng.normal(2.0, 1.5, 2000)])
    p, m1, s1, m2, s2 = strength.two_normals(sample)
    assert (p, m1, s1, m2, s2) == pytest.approx((0.8, -0.3, 0.6, 2.0, 1.5), abs=0.06)


def test_the_shipped_strengths_have_the_mean_and_variance_of_their_standard_form():
    # Each strength is its own policy's mean and deviation (the strategy's, the greedy
    # player's), reshaped: Z has mean 0 and variance near 1 (the fit's sample, not a
    # constraint).
    assert (strength.GREEDY[:, :2] == strength.OPTIMAL[:, :2]).all()  # a = 0, b = 1
    for p, m1, s1, m2, s2 in np.concatenate([strength.OPTIMAL[1:, 2:], strength.GREEDY[1:, 2:]]):
        mean = p * m1 + (1 - p) * m2
        variance = p * (s1**2 + m1**2) + (1 - p) * (s2**2 + m2**2) - mean**2
        assert abs(mean) < 0.05
        assert 0.85 < variance < 1.15


def test_a_mixture_against_its_components_worked_out_by_hand():
    # Seat 0 is 100 or 120 points even (two point masses); seat 1 is 110 for sure.
    weights = np.array([[[0.5, 0.5], [1.0, 0.0]]])
    means = np.array([[[100.0, 120.0], [110.0, 110.0]]])
    deviations = np.zeros((1, 2, 2))
    shares = mixture_shares(weights, means, deviations)
    assert shares[0].tolist() == pytest.approx([0.5, 0.5])
    # And a tie: seat 0 is 110 half the time.
    means[0, 0, 1] = 110.0
    assert mixture_shares(weights, means, deviations)[0].tolist() == pytest.approx([0.25, 0.75])


def test_a_weak_players_chance_counts_less_of_their_open_boxes(late_spread, late_greedy):
    # Same scorecards, one player well ahead in what is still open: the better they play the
    # more that is worth.
    state = YardzeeState(frozenset(CATEGORIES[:10]), 40, False)
    other = YardzeeState(frozenset(CATEGORIES[3:]), 63, False)
    strong = win_probabilities([Position(state, 150), Position(other, 200)], late_spread)
    weak = win_probabilities(
        [Position(state, 150, loss_rate=9.0), Position(other, 200, loss_rate=9.0)],
        late_spread,
        late_greedy,
    )
    assert sum(weak) == pytest.approx(1.0, abs=1e-6)
    assert weak[0] != pytest.approx(strong[0], abs=1e-3)
    # A loss rate needs the greedy player's table.
    with pytest.raises(ValueError, match="greedy"):
        win_probabilities([Position(state, 150, loss_rate=9.0), Position(other, 200)], late_spread)


def test_a_half_greedy_player_is_the_mixture_of_both_players_chances(late_spread, late_greedy):
    # Seat 0 needs the Yardzee (its last box) to pass seat 1, who is done at 120: a player
    # half as weak as the greedy one rolls it with the mean of both players' chances.
    last = YardzeeState(frozenset(CATEGORIES) - {"yardzee"}, 30, False)
    done = YardzeeState(frozenset(CATEGORIES), 30, False)
    rate = strength.GREEDY_LOSS_RATE / 2
    chances = win_probabilities(
        [Position(last, 100, loss_rate=rate), Position(done, 120)], late_spread, late_greedy
    )
    optimal = late_spread.distribution(last)[50]
    greedy = 2_783_176 / 60_466_176  # five alike in three rolls keeping the most common face
    assert chances[0] == pytest.approx((optimal + greedy) / 2, abs=1e-9)
    # And with no loss, the greedy table changes nothing.
    plain = [Position(last, 100), Position(done, 120)]
    assert win_probabilities(plain, late_spread, late_greedy) == win_probabilities(
        plain, late_spread
    )
    assert win_probabilities(plain, late_spread)[0] == pytest.approx(optimal, abs=1e-9)


@pytest.mark.parametrize("rate", [-1.0, "fast", True, float("nan")])
def test_a_bad_loss_rate_is_a_rule_violation(late_spread, rate):
    state = YardzeeState(frozenset(CATEGORIES[:10]), 40, False)
    with pytest.raises(RuleViolation) as raised:
        win_probabilities([Position(state, 150, loss_rate=rate), Position(state, 150)], late_spread)
    assert raised.value.code == "invalid_state"


def test_the_greedy_players_losses_are_what_they_score_less_than_the_strategy(late_spread):
    # E[final] = start value - E[sum of the decisions' losses], turn by turn: only the last
    # turns have their values in the test spread, so compare over the whole game's table.
    games = play(late_spread, "greedy", 3000, seed=4)
    assert (games.losses >= 0).all()
    expected = late_spread.strategy.start_value - games.losses.sum(axis=1).mean()
    finals = games.totals[:, -1]
    assert abs(finals.mean() - expected) < 4 * finals.std() / np.sqrt(len(finals))
    optimal = play(late_spread, "optimal", 50, seed=4)
    assert (optimal.losses == 0).all()


def test_the_shipped_tables_are_stated_as_the_fit_prints_them():
    source = Path(strength.__file__).read_text()
    for name, table in (("OPTIMAL", strength.OPTIMAL), ("GREEDY", strength.GREEDY)):
        printed = strength.table_source(name, table)
        assert printed in source
        namespace: dict[str, Any] = {"np": np, "Final": Final, "FloatArray": FloatArray}
        exec(printed, namespace)  # noqa: S102 (our own printed source)
        assert np.array_equal(namespace[name], table)
    printed = strength.turn_losses_source(strength.GREEDY_TURN_LOSSES)
    assert printed in source


def test_the_command_fits_and_prints_the_strength_tables(late_spread, late_greedy, monkeypatch):
    monkeypatch.setattr(calibrate_yardzee.Command, "_spread", lambda *args: late_spread)
    monkeypatch.setattr(calibrate_yardzee.Command, "_greedy", lambda *args: late_greedy)
    out = io.StringIO()
    call_command(
        "calibrate_yardzee", "--fit", "--fit-players", "300", "--play", "greedy", stdout=out
    )
    namespace: dict[str, Any] = {"np": np, "Final": Final, "FloatArray": FloatArray}
    exec(out.getvalue(), namespace)  # noqa: S102 (the command's printed source)
    assert "OPTIMAL" not in namespace
    expected = fit(late_spread, "greedy", 300, seed=1, greedy=late_greedy)
    assert namespace["GREEDY"] == pytest.approx(expected, abs=5.1e-5)
    assert namespace["GREEDY"][1, 2] != 1.0  # fitted (1 box open), not the default row
    losses = fit_turn_losses(late_spread, 300, seed=1)
    assert namespace["GREEDY_TURN_LOSSES"] == pytest.approx(losses, abs=5.1e-5)


def test_fitting_on_no_players_is_refused():
    with pytest.raises(CommandError, match="--fit-players must be at least 1"):
        call_command("calibrate_yardzee", "--fit", "--fit-players", "0")


def test_optimal_players_loss_rate_of_zero_leaves_the_calibrations_figures_as_they_were(
    late_spread, late_greedy
):
    # The optimal players' runs (no loss, rate 0) need not be made again: bit for bit.
    games = play(late_spread, "optimal", 40, seed=8)
    states = games.states[:, 10].reshape(20, 2)
    totals = games.totals[:, 10].reshape(20, 2).astype(float)
    plain = between_turns(late_spread, states, totals)
    rated = between_turns(late_spread, states, totals, np.zeros((20, 2)), late_greedy)
    assert np.array_equal(plain, rated)
    weaker = between_turns(late_spread, states, totals, np.full((20, 2), 3.0), late_greedy)
    assert not np.allclose(plain, weaker, atol=1e-3)


def test_between_two_distributions_interpolates_their_quantiles_not_their_chances():
    first, second = np.zeros((2, 10)), np.zeros((2, 10))
    first[0, 2] = second[0, 6] = 1.0  # 2 for sure and 6 for sure: halfway is 4 for sure
    first[1, [0, 4]] = second[1, [2, 8]] = 0.5
    found = strength.between(first, second, np.array([0.5, 0.25]))
    assert found[0].tolist() == pytest.approx([0, 0, 0, 0, 1, 0, 0, 0, 0, 0])
    # The lower halves 0 and 2 give 0.5 (shared by 0 and 1), the upper 4 and 8 give 5.
    assert found[1].tolist() == pytest.approx([0.25, 0.25, 0, 0, 0, 0.5, 0, 0, 0, 0])
    assert (found * np.arange(10)).sum(axis=1).tolist() == pytest.approx([4.0, 2.75])


def test_between_puts_no_chance_past_either_distributions_last_point():
    # Chances whose sums round to just under and just over 1: the rounding is no point's
    # chance (before, the sliver went to the support's last point, 767 points on, and the
    # win probability's grid reached out to it).
    first, second = np.zeros((2, 768)), np.zeros((2, 768))
    first[:, :10] = 0.1  # adds up to 0.9999999999999999
    second[:, 20:23] = [0.4, 0.3, 0.3 + 2e-16]  # adds up to 1.0000000000000002
    assert np.cumsum(first[0])[-1] < 1 < np.cumsum(second[0])[-1]
    found = strength.between(first, second, np.array([0.0, 0.5]))
    assert np.flatnonzero(found[0]).max() == 9
    assert np.flatnonzero(found[1]).max() <= 16  # halfway between 9 and 22 at most
    assert found.sum(axis=1) == pytest.approx([1.0, 1.0], abs=1e-15)


def test_between_of_many_rows_at_once_gives_each_rows_own_figures_bit_for_bit():
    rng = np.random.default_rng(4)
    first = rng.random((6, 300)) * (rng.random((6, 300)) < 0.2)
    second = rng.random((6, 300)) * (rng.random((6, 300)) < 0.2)
    first[3, 40:] = second[3, 60:] = 0.0  # a short row beside long ones
    first /= first.sum(axis=1, keepdims=True)
    second /= second.sum(axis=1, keepdims=True)
    weight = rng.random(6)
    together = strength.between(first, second, weight)
    for row in range(6):
        alone = strength.between(first[row : row + 1], second[row : row + 1], weight[row : row + 1])
        assert np.array_equal(together[row], alone[0])
