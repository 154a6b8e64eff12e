"""Yardkle win probabilities for 2 to 10 players (scoring/winprob/yardkle_race.py) and the
per-turn distributions they rest on (yardkle_turns.py). RULES.md, "Yardkle": "Turn",
"Entering the game", "End". Most race checks use a short game (target 2,000) to stay fast."""

import numpy as np
import pytest

from scoring.analysis.yardkle import STEP, TIE, TurnStrategy
from scoring.errors import RuleViolation
from scoring.winprob.calibrate_yardkle import play_games, play_turns, report, simulate
from scoring.winprob.yardkle_race import (
    final_turn_odds,
    race_tables,
    win_probabilities,
    win_probabilities_batch,
)
from scoring.winprob.yardkle_turns import (
    banked_distribution,
    points_distribution,
    weak_policy,
)
from scoring.yardkle import YardkleRules

DEFAULT = YardkleRules()
SHORT = YardkleRules(target=2000)
BINS = 240


def mean_points(banked):
    return float((banked * np.arange(len(banked))).sum() * STEP)


@pytest.mark.parametrize("on_board", [True, False])
def test_turn_distribution_sums_to_one_and_has_the_strategys_expected_points(on_board):
    turn = points_distribution(DEFAULT, on_board, BINS).start
    assert turn.sum() == pytest.approx(1.0, abs=1e-12)
    assert mean_points(turn) == pytest.approx(TurnStrategy(DEFAULT, on_board).start_value, abs=1e-3)


def test_entry_minimum_a_player_off_the_board_banks_500_or_nothing():
    turn = points_distribution(DEFAULT, False, BINS).start
    assert turn[1:10].sum() == 0.0  # 50 to 450 cannot be banked
    assert turn[0] == pytest.approx(0.4608, abs=1e-4)  # a Yardkle before reaching 500
    assert turn[10] > 0.05


def test_mid_turn_distributions_match_the_strategys_values():
    strategy = TurnStrategy(DEFAULT, True)
    dist = points_distribution(DEFAULT, True, BINS)
    for total, left in [(300, 3), (350, 2), (1000, 5), (600, 0), (250, 1)]:
        banked = dist.after[total // STEP, left]
        best = max(option.value for option in strategy.bank_or_throw(total, left))
        assert banked.sum() == pytest.approx(1.0, abs=1e-12)
        assert mean_points(banked) == pytest.approx(best, abs=1e-3)
    # With 1,000 and one die the strategy banks: all the mass sits on 1,000.
    assert dist.after[20, 1][20] == 1.0


def test_weak_policy_distribution_agrees_with_a_seeded_simulation():
    policy = weak_policy(DEFAULT, True, 400)
    exact = banked_distribution(policy, BINS).start
    played = play_turns(np.random.default_rng(7), [policy], np.zeros(40_000, dtype=np.intp))
    assert exact.sum() == pytest.approx(1.0, abs=1e-12)
    assert played.mean() * STEP == pytest.approx(mean_points(exact), abs=8.0)
    assert (played == 0).mean() == pytest.approx(exact[0], abs=0.01)
    assert mean_points(exact) < TurnStrategy(DEFAULT, True).start_value


def test_chances_sum_to_one_and_follow_the_seats_around_the_table():
    first = win_probabilities([1500, 900, 0, 1900], 1, rules=SHORT)
    turned = win_probabilities([900, 0, 1900, 1500], 0, rules=SHORT)
    assert sum(first) == pytest.approx(1.0, abs=1e-6)  # single-precision tables
    assert turned == pytest.approx(first[1:] + first[:1], abs=1e-6)


def test_moving_first_is_an_edge_and_equal_players_behind_the_mover_fall_in_seat_order():
    chances = win_probabilities([0, 0, 0], 0, rules=SHORT)
    assert chances[0] > chances[1] > chances[2]


def test_more_points_never_lower_a_players_chance():
    before = win_probabilities([600, 800, 1000], 2, rules=SHORT)
    for more in (650, 1000, 1900):
        after = win_probabilities([more, 800, 1000], 2, rules=SHORT)
        assert after[0] > before[0]
        assert after[1] < before[1]
        assert after[2] < before[2]
        before = after


def test_start_of_game_agrees_with_a_seeded_simulation():
    seen = play_games(3, 5000, "points", seed=5, rules=SHORT).share.mean(axis=0)
    predicted = win_probabilities([0, 0, 0], 0, rules=SHORT)
    assert seen == pytest.approx(predicted, abs=0.02)  # about 3 standard errors


def test_calibration_report_lists_buckets_and_beats_the_naive_baseline():
    record = simulate(3, 300, "weak", seed=3, rules=SHORT)
    lines: list[str] = []
    report(record, "short", say=lines.append)
    brier = lines[1].split()
    assert float(brier[3].rstrip(",")) < float(brier[-1])  # model beats leader-wins
    assert len([line for line in lines if line.startswith("| 0.")]) >= 8


def test_batch_matches_one_position_at_a_time():
    scores = np.array([[1500, 900, 0, 1900], [0, 0, 0, 0], [1900, 1950, 1000, 100]])
    movers = np.array([1, 0, 3])
    batch = win_probabilities_batch(scores, movers, SHORT)
    for row, mover, found in zip(scores, movers, batch, strict=True):
        one = win_probabilities([int(v) for v in row], int(mover), rules=SHORT)
        assert found == pytest.approx(one, abs=2e-3)


def test_end_a_final_round_turn_must_beat_the_leader():
    # Seat 0 reached 2,000; seat 1, at 1,950, has one turn to bank more than 50 (banking
    # exactly 50 is not a choice: the least bank is 50 more, and a tie needs 0 more).
    chances = win_probabilities([2000, 1950], 1, final_round_from=0, rules=SHORT)
    beat = TurnStrategy(SHORT, True, need=51).start_value
    assert chances == pytest.approx([1 - beat, beat], abs=1e-12)


def test_end_equal_scores_share_the_placement_so_a_final_round_tie_counts_half():
    # RULES.md, "End": "equal scores share the placement". Seat 1, 500 behind, may bank
    # exactly 500 and tie: half a win, which its turn plays for (TurnStrategy's `tie`).
    beat, tie = final_turn_odds(SHORT, True, 10)
    assert tie > 0.03
    chances = win_probabilities([2000, 1500], 1, final_round_from=0, rules=SHORT)
    worth = TurnStrategy(SHORT, True, need=501, tie=TIE).start_value
    assert chances[1] == pytest.approx(beat + tie / 2, abs=1e-12)
    assert chances[1] == pytest.approx(worth, abs=1e-12)
    assert worth > TurnStrategy(SHORT, True, need=501).start_value  # a tie counted as a loss
    assert chances == pytest.approx([1 - worth, worth], abs=1e-12)


def test_end_a_tie_is_shared_with_the_leader_and_a_later_player_can_still_pass_both():
    # Seat 1 ties seat 0 at 2,000 with `tie`; then seat 2 must pass 2,000 alone.
    beat1, tie1 = final_turn_odds(SHORT, True, 10)
    beat2, tie2 = final_turn_odds(SHORT, True, 20)
    chances = win_probabilities([2000, 1500, 1000], 1, final_round_from=0, rules=SHORT)
    still = 1 - beat2 - tie2 / 2  # seat 2 neither passes nor ties 2,000
    assert chances[0] == pytest.approx((1 - beat1 - tie1) * still + tie1 / 2 * still, abs=1e-9)
    assert sum(chances) == pytest.approx(1.0, abs=1e-12)


def test_end_the_race_counts_a_tie_in_the_final_round_as_simulated():
    # Two points players near the end of a short game: the outcomes share ties, as RULES.md.
    start = ([1800, 1850], 0)
    played = play_games(2, 6000, "points", seed=21, rules=SHORT, start=start)
    ties = (played.share == 0.5).all(axis=1).mean()
    assert ties > 0.005  # the final round's turn banks ties
    predicted = win_probabilities([1800, 1850], 0, rules=SHORT)
    assert played.share.mean(axis=0) == pytest.approx(predicted, abs=0.02)


def test_end_a_mover_who_banks_past_the_target_leaves_one_turn_to_the_other():
    # 1,000 + 1,500 with one die left: the points strategy banks, reaching 2,500.
    chances = win_probabilities([1000, 1000], 0, turn_total=1500, dice_left=1, rules=SHORT)
    beat = TurnStrategy(SHORT, True, need=1501, tie=TIE).start_value
    assert chances == pytest.approx([1 - beat, beat], abs=1e-4)


def test_end_equal_leaders_share_when_no_one_beats_them():
    # Seats 0 and 1 both on 2,000; seat 2, off the board, has its last turn.
    chances = win_probabilities([2000, 2000, 0], 2, final_round_from=0, rules=SHORT)
    beat, tie = final_turn_odds(SHORT, False, 40)
    # A tie with two leaders: counted as taking the lead with chance 1/2 (a third, exactly).
    take = beat + tie / 2
    assert chances == pytest.approx([(1 - take) / 2, (1 - take) / 2, take], abs=1e-12)


@pytest.mark.parametrize(
    ("arguments", "field"),
    [
        ({"scores": [0], "to_move": 0}, "scores"),
        ({"scores": [0, 75], "to_move": 0}, "scores"),
        ({"scores": [0, 0], "to_move": 2}, "to_move"),
        ({"scores": [0, 2000], "to_move": 0}, "final_round_from"),
        ({"scores": [0, 0], "to_move": 0, "turn_total": 0, "dice_left": 3}, "dice_left"),
        ({"scores": [0, 1500], "to_move": 0, "final_round_from": 1}, "final_round_from"),
    ],
)
def test_positions_no_game_reaches_are_refused(arguments, field):
    with pytest.raises(RuleViolation) as caught:
        win_probabilities(**arguments, rules=SHORT)
    assert caught.value.details == {"field": field}


def test_race_tables_alive_falls_and_reaching_adds_up():
    tables = race_tables(SHORT)
    assert (np.diff(tables.alive, axis=1) <= 1e-15).all()
    first = tables.alive[:, :-1] - tables.alive[:, 1:]
    assert tables.reach[:, 1:].sum(axis=2) == pytest.approx(first, abs=1e-6)


@pytest.mark.parametrize(
    ("scores", "mover"),
    [([1500, 1800, 1200, 0], 2), ([1850, 1000, 1900], 0)],
)
def test_late_positions_agree_with_a_seeded_simulation(scores, mover):
    # Near the target the final round decides: this is where its one approximation shows.
    start = (scores, mover)
    seen = play_games(len(scores), 4000, "points", seed=11, rules=SHORT, start=start).share
    predicted = win_probabilities(scores, mover, rules=SHORT)
    assert seen.mean(axis=0) == pytest.approx(predicted, abs=0.022)  # about 3 standard errors


def test_end_a_weak_player_beats_the_leader_less_often_and_as_simulated():
    # A lead of 500: bank 550 or more in one turn, throwing until ahead (weak_policy).
    weak, never = final_turn_odds(DEFAULT, True, 10, "weak")
    beat, tie = final_turn_odds(DEFAULT, True, 10)
    assert never == 0.0  # throwing until ahead never banks a tie
    assert weak < beat
    assert beat + tie / 2 == pytest.approx(
        TurnStrategy(DEFAULT, True, need=501, tie=TIE).start_value, abs=1e-12
    )
    policy = weak_policy(DEFAULT, True, 12, need=501)
    played = play_turns(np.random.default_rng(2), [policy], np.zeros(40_000, dtype=np.intp))
    assert (played >= 11).mean() == pytest.approx(weak, abs=0.0075)  # 3 standard errors
    assert (played[played > 0] >= 11).all()  # never banks below the need


def test_weak_style_tables_give_chances_that_sum_to_one():
    chances = win_probabilities([1500, 1000, 1000], 1, rules=SHORT, style="weak")
    points = win_probabilities([1500, 1000, 1000], 1, rules=SHORT)
    assert sum(chances) == pytest.approx(1.0, abs=1e-6)
    assert chances != pytest.approx(points, abs=1e-3)


def test_end_a_weak_style_final_round_uses_the_weak_players_chance():
    chances = win_probabilities([2000, 1950], 1, final_round_from=0, rules=SHORT, style="weak")
    beat = final_turn_odds(SHORT, True, 1, "weak")[0]
    assert chances == pytest.approx([1 - beat, beat], abs=1e-12)
    assert beat < TurnStrategy(SHORT, True, need=51).start_value
