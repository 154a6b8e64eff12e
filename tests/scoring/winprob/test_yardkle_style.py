"""A Yardkle player's style estimated from their turns (scoring/winprob/yardkle_style.py), and
the race model valuing each player as the mixture it gives (yardkle_race, `weak=`). RULES.md,
"Yardkle": "Turn" (bank or throw on after a set-aside), "Entering the game", "End"."""

import random
from typing import Any

import numpy as np
import pytest

from scoring.analysis.yardkle import STEP, TurnStrategy, throw_table
from scoring.errors import RuleViolation
from scoring.winprob import yardkle_style as style
from scoring.winprob.yardkle_race import win_probabilities, win_probabilities_batch
from scoring.winprob.yardkle_turns import throw_code
from scoring.yardkle import DICE, YardkleGame, YardkleRules, set_aside_options

DEFAULT = YardkleRules()
SHORT = YardkleRules(target=2000)


def _turn(rng: random.Random, on_board: bool, weak: bool) -> dict[str, Any]:
    """One normal turn as stored: the points strategy's choices, or the weak player's (most
    points, then most dice left; bank from 300 or with two dice or fewer, when allowed)."""
    strategy = TurnStrategy(DEFAULT, on_board)
    throws: list[dict[str, Any]] = []
    total, dice = 0, DICE
    while True:
        thrown = sorted(rng.randint(1, 6) for _ in range(dice))
        options = set_aside_options(thrown)
        if not options:
            throws.append({"dice": thrown, "set_aside": []})
            return {"throws": throws, "end": "yardkle"}
        if weak:
            chosen = max(options, key=lambda o: (options[o], -len(o)))
            left = dice - len(chosen)
            allowed = on_board or total + options[chosen] >= DEFAULT.entry_minimum
            then = (
                "bank"
                if left and allowed and (total + options[chosen] >= 300 or left <= 2)
                else "throw"
            )
        else:
            best = strategy.options(total, thrown)[0]
            chosen, then = best.set_aside or (), best.then
        throws.append({"dice": thrown, "set_aside": list(chosen)})
        total += options[tuple(chosen)]
        dice = dice - len(chosen) or DICE
        if then == "bank":
            return {"throws": throws, "end": "bank", "points": total}


def _turns(seed: int, weak: bool, count: int, on_board: bool = True) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    return [_turn(rng, on_board, weak) for _ in range(count)]


def test_with_no_turns_every_player_leans_to_the_points_style():
    assert style.estimate(DEFAULT, 3, []) == pytest.approx([style.PRIOR_WEAK] * 3)
    assert style.PRIOR_WEAK < 0.5


def test_a_player_who_banks_early_is_estimated_weak():
    for seed in range(5):
        turns = _turns(seed, weak=True, count=10)
        evidence = sum(style.turn_evidence(DEFAULT, True, turn)[0] for turn in turns)
        assert style.weak_share(evidence) > 0.9


def test_a_player_who_plays_the_points_strategy_is_not():
    for seed in range(5):
        turns = _turns(seed, weak=False, count=10)
        evidence = sum(style.turn_evidence(DEFAULT, True, turn)[0] for turn in turns)
        assert style.weak_share(evidence) < 0.05


def test_banking_300_with_three_dice_left_is_weak_evidence_and_throwing_on_is_points():
    # RULES.md "Turn" step 4: after a set-aside the player banks or throws the dice left.
    banks = {"throws": [{"dice": [3, 3, 3, 2, 4, 6], "set_aside": [3, 3, 3]}], "end": "bank"}
    assert style.turn_evidence(DEFAULT, True, banks) == (style.WEIGHT, 300)
    on = {
        "throws": [
            {"dice": [3, 3, 3, 2, 4, 6], "set_aside": [3, 3, 3]},
            {"dice": [2, 4, 6], "set_aside": []},
        ],
        "end": "yardkle",
    }
    assert style.turn_evidence(DEFAULT, True, on) == (-style.WEIGHT, 0)
    # Off the board 300 cannot be banked (the entry minimum): no choice, no evidence.
    assert style.turn_evidence(DEFAULT, False, on) == (0.0, 0)


def test_setting_aside_all_the_points_is_weak_evidence_keeping_one_die_is_points():
    # RULES.md "Turn" step 3: from 1-5-2-3-3-4 the points strategy keeps the 1 and throws
    # five dice; the weak player takes the 1 and the 5.
    thrown = [1, 5, 2, 3, 3, 4]
    assert TurnStrategy(DEFAULT).options(0, thrown)[0].set_aside == (1,)
    one = {
        "throws": [{"dice": thrown, "set_aside": [1]}, {"dice": [2, 2, 3, 4, 6], "set_aside": []}]
    }
    both = {
        "throws": [{"dice": thrown, "set_aside": [1, 5]}, {"dice": [2, 3, 4, 6], "set_aside": []}]
    }
    assert style.turn_evidence(DEFAULT, True, {**one, "end": "yardkle"})[0] == -style.WEIGHT
    assert style.turn_evidence(DEFAULT, True, {**both, "end": "yardkle"})[0] == style.WEIGHT


def test_one_turns_evidence_is_the_calibrations_choice_by_choice():
    """The product reads stored turns (`turn_evidence`); the calibration counts the same
    choices in step (`set_aside_evidence`, `decision_evidence`): they agree on played turns."""
    table, code = throw_table(), throw_code()
    for weak in (True, False):
        for on_board in (True, False):
            for turn in _turns(11, weak, 30, on_board):
                levels, rows, picked, lefts, banks = [], [], [], [], []
                total, dice = 0, DICE
                for number, throw in enumerate(turn["throws"]):
                    if not throw["set_aside"]:
                        break
                    thrown = sorted(throw["dice"])
                    padded = [0] * (DICE - dice) + thrown
                    row = int(code[sum(f * 7**i for i, f in enumerate(padded))])
                    options = set_aside_options(thrown)
                    chosen = tuple(sorted(throw["set_aside"]))
                    levels.append(total // STEP)
                    rows.append(row)
                    picked.append(table.starts[row] + list(options).index(chosen))
                    total += options[chosen]
                    dice -= len(chosen)
                    lefts.append(dice)
                    banks.append(number == len(turn["throws"]) - 1 and turn["end"] == "bank")
                    dice = dice or DICE
                board = np.full(len(levels), on_board)
                kept = style.set_aside_evidence(
                    DEFAULT,
                    board,
                    np.array(levels, dtype=np.intp),
                    np.array(rows, dtype=np.intp),
                    np.array(picked, dtype=np.intp),
                )
                after = (
                    np.array(levels, dtype=np.intp) + table.steps[np.array(picked, dtype=np.intp)]
                )
                left = np.array(lefts, dtype=np.intp)
                chose = left > 0
                banked = style.decision_evidence(
                    DEFAULT, board[chose], after[chose], left[chose], np.array(banks)[chose]
                )
                found = style.turn_evidence(DEFAULT, on_board, turn)[0]
                assert found == pytest.approx(kept.sum() + banked.sum(), abs=1e-12)


def test_a_game_counts_each_seats_own_normal_turns_not_the_final_round():
    # Seat 0 plays weak, seat 1 for points, seat 2 only throws Yardkles (no choice made).
    yardkle = {"throws": [{"dice": [2, 2, 3, 3, 4, 6], "set_aside": []}], "end": "yardkle"}
    game, rng, played = YardkleGame(3, SHORT), random.Random(3), []
    while not game.final_round:
        seat = game.current_player
        turn = yardkle if seat == 2 else _turn(rng, game.on_board(seat), weak=seat == 0)
        game.play(turn)
        played.append(turn)
    shares = style.estimate(SHORT, 3, played)
    assert shares[0] > 0.9
    assert shares[1] < 0.1
    assert shares[2] == pytest.approx(style.PRIOR_WEAK)
    # RULES.md "End": a final-round turn is played to pass the leader, so it tells nothing.
    early = {"throws": [{"dice": [3, 3, 3, 2, 4, 6], "set_aside": [3, 3, 3]}], "end": "bank"}
    assert style.turn_evidence(SHORT, True, early)[0] == style.WEIGHT
    assert style.estimate(SHORT, 3, [*played, early]) == shares


def test_the_race_values_each_player_as_the_mixture_of_the_two_styles():
    scores, mover = [1500, 1000, 1200], 1
    points = win_probabilities(scores, mover, rules=SHORT)
    weak = win_probabilities(scores, mover, rules=SHORT, style="weak")
    assert win_probabilities(scores, mover, rules=SHORT, weak=[0, 0, 0]) == pytest.approx(points)
    assert win_probabilities(scores, mover, rules=SHORT, weak=[1, 1, 1]) == pytest.approx(weak)
    half = win_probabilities(scores, mover, rules=SHORT, weak=[0, 1, 0])
    assert sum(half) == pytest.approx(1.0, abs=1e-6)
    assert half != pytest.approx(points, abs=1e-3)
    batch = win_probabilities_batch(
        np.array([scores]), np.array([mover]), SHORT, weak=np.array([[0.0, 1.0, 0.0]])
    )
    assert batch[0] == pytest.approx(half, abs=2e-3)  # the batch's window of turns


def test_a_weak_player_is_valued_as_weak_in_the_final_round_too():
    scores = [2000, 1500, 1000]
    told = win_probabilities(scores, 1, final_round_from=0, rules=SHORT, style="weak")
    mixed = win_probabilities(scores, 1, final_round_from=0, rules=SHORT, weak=[1, 1, 1])
    assert mixed == pytest.approx(told, abs=1e-12)


@pytest.mark.parametrize("weak", [[0.5, 0.5], [0.2, 0.2, 1.2], [0.1, "x", 0.3]])
def test_shares_that_are_not_a_chance_per_seat_are_refused(weak):
    with pytest.raises(RuleViolation) as caught:
        win_probabilities([1500, 1000, 1200], 0, rules=SHORT, weak=weak)
    assert caught.value.details == {"field": "weak"}


def test_a_mid_turn_mixture_sums_to_one():
    chances = win_probabilities([1500, 1000, 1200], 1, 650, 2, rules=SHORT, weak=[0.3, 0.9, 0.0])
    assert sum(chances) == pytest.approx(1.0, abs=1e-6)
    assert STEP == 50
