"""The calibration's simulated players and its tables (scoring.winprob.yardzee_calibration;
docs/analysis.md, "Win probability: Yardzee", "Calibration")."""

import numpy as np
import pytest

from scoring.analysis import YardzeeState
from scoring.winprob import yardzee_calibration as calibration
from scoring.winprob.yardzee_calibration import (
    Bucket,
    Calibration,
    Predictions,
    buckets,
    leader_shares,
    play,
    report,
)
from scoring.yardzee import CATEGORIES


def test_optimal_players_score_what_the_strategy_expects(late_spread):
    games = play(late_spread, "optimal", 600, seed=5)
    finals = games.totals[:, -1]
    error = finals.std() / np.sqrt(len(finals))
    assert abs(finals.mean() - late_spread.strategy.start_value) < 4 * error
    # Every player ends with a full scorecard, and totals never fall.
    full = np.asarray([YardzeeState(frozenset(CATEGORIES), 0, False).index])
    assert np.all(games.states[:, -1] // 128 == full // 128)
    assert np.all(np.diff(games.totals, axis=1) >= 0)


def test_greedy_players_score_far_less_and_the_same_seed_plays_the_same_games(late_spread):
    greedy = play(late_spread, "greedy", 600, seed=5)
    assert greedy.totals[:, -1].mean() < late_spread.strategy.start_value - 50
    again = play(late_spread, "greedy", 600, seed=5)
    assert np.array_equal(greedy.totals, again.totals)


def test_the_leader_by_points_wins_the_baseline_and_leaders_tied_share_it():
    shares = leader_shares(np.array([[120.0, 130.0, 110.0], [90.0, 90.0, 80.0]]))
    assert shares.tolist() == [[0.0, 1.0, 0.0], [0.5, 0.5, 0.0]]


def test_predictions_are_bucketed_by_tenths_with_the_mean_share_of_wins():
    chance = np.array([0.05, 0.07, 0.15, 0.95, 1.0])
    won = np.array([0.0, 1.0, 0.5, 1.0, 1.0])
    found = buckets(chance, won)
    assert [bucket.count for bucket in found] == [2, 1, 0, 0, 0, 0, 0, 0, 0, 2]
    assert found[0].predicted == pytest.approx(0.06)
    assert found[0].observed == pytest.approx(0.5)
    assert found[9].observed == 1.0


def test_the_report_judges_only_buckets_with_enough_predictions():
    near = Bucket(low=0.1, high=0.2, count=5000, predicted=0.15, observed=0.165)
    far = Bucket(low=0.2, high=0.3, count=5000, predicted=0.25, observed=0.28)
    few = Bucket(low=0.3, high=0.4, count=10, predicted=0.35, observed=0.9)
    run = Calibration("optimal", 2, 100, (near, far, few), 0.16, 0.31, 254.0)
    lines = report(run)
    assert lines[0].startswith("optimal, 2 players, 100 games")
    assert "Brier score 0.1600, naive leader 0.3100" in lines[0]
    assert lines[4].endswith("+1.50 pp | ok |")
    assert lines[5].endswith("+3.00 pp | **miss** |")
    assert lines[6].endswith("few |")
    assert "loss rate" not in lines[0]
    with_rates = Calibration("greedy", 2, 100, (near,), 0.16, 0.31, 160.0, rates=True)
    assert "strengths by loss rate; Brier" in report(with_rates)[0]


def test_the_calibration_predicts_as_the_product_with_loss_rates_unless_asked_not_to(
    late_spread, late_greedy, monkeypatch
):
    asked = []

    def predict(spread, games, players, *, skill=True, greedy=None):
        asked.append((skill, greedy))
        rows = len(games.states) // players * (13 * players - 1) * players
        return Predictions(np.full(rows, 0.5), np.full(rows, 0.5), np.full(rows, 0.5))

    monkeypatch.setattr(calibration, "predict", predict)
    rated = calibration.calibrate(late_spread, "greedy", 2, 10, seed=3, greedy=late_greedy)
    plain = calibration.calibrate(late_spread, "greedy", 2, 10, seed=3, rates=False)
    assert asked == [(True, late_greedy), (False, None)]  # the product passes loss rates
    assert (plain.rates, rated.rates) == (False, True)
