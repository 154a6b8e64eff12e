"""Optimal play within a Yardkle turn (RULES.md, "Yardkle"; docs/analysis.md): the turn's
expected points on and off the board, checked by seeded simulation; the final round's chance,
checked by brute force; hot dice, the entry minimum, the proven cap; bad positions."""

import itertools
import random
from statistics import fmean, stdev

import pytest

from scoring import RuleViolation
from scoring.analysis import TurnStrategy
from scoring.analysis.yardkle import read_need
from scoring.yardkle import YardkleRules

from .oracle import bank_chance

ON_BOARD_TURN = 577.8949939273218
OFF_BOARD_TURN = 553.7549873472296
SIMULATED_TURNS = 6_000
STANDARD_ERRORS = 4  # the simulation's tolerance: 4 standard errors of its mean (1 in 15,000)


def play_turn(strategy: TurnStrategy, rng: random.Random) -> int:
    """One turn following the strategy's best option at every throw: the points banked."""
    total, dice = 0, 6
    while True:
        thrown = sorted(rng.randint(1, 6) for _ in range(dice))
        options = strategy.options(total, thrown)
        if not options:
            return 0  # a Yardkle
        best = options[0]
        total += best.points
        dice -= len(best.set_aside)
        if best.then == "bank":
            return total
        dice = dice or 6  # hot dice


def test_a_whole_turn_on_the_board_is_worth_577_894994_expected_points():
    assert TurnStrategy(on_board=True).start_value == pytest.approx(ON_BOARD_TURN, abs=1e-9)
    assert f"{TurnStrategy().start_value:.6f}" == "577.894994"


def test_a_whole_turn_before_entering_the_game_is_worth_553_754987_expected_points():
    strategy = TurnStrategy(on_board=False)
    assert strategy.start_value == pytest.approx(OFF_BOARD_TURN, abs=1e-9)
    assert f"{strategy.start_value:.6f}" == "553.754987"


@pytest.mark.parametrize("on_board", [True, False], ids=["on-board", "entering"])
def test_the_expected_turn_agrees_with_a_seeded_simulation_of_the_strategy(on_board):
    strategy = TurnStrategy(on_board=on_board)
    rng = random.Random(2026 + on_board)
    banked = [play_turn(strategy, rng) for _ in range(SIMULATED_TURNS)]
    error = stdev(banked) / SIMULATED_TURNS**0.5
    assert abs(fmean(banked) - strategy.start_value) < STANDARD_ERRORS * error
    if not on_board:
        assert all(points == 0 or points >= 500 for points in banked)


def test_the_final_rounds_chance_agrees_with_a_seeded_simulation():
    strategy = TurnStrategy(need=1_000)
    rng = random.Random(7)
    reached = [play_turn(strategy, rng) >= 1_000 for _ in range(SIMULATED_TURNS)]
    chance = strategy.start_value
    error = (chance * (1 - chance) / SIMULATED_TURNS) ** 0.5
    assert abs(fmean(reached) - chance) < STANDARD_ERRORS * error


@pytest.mark.parametrize(("need", "on_board"), [(300, True), (650, True), (650, False), (50, True)])
def test_the_final_rounds_chance_agrees_with_brute_force(need, on_board):
    rules = YardkleRules()
    strategy = TurnStrategy(rules, on_board=on_board, need=need)
    expected = bank_chance(need, 0 if on_board else rules.entry_minimum)
    assert strategy.start_value == pytest.approx(expected, abs=1e-12)


def test_a_player_already_above_the_leader_finishes_there_whatever_happens():
    assert TurnStrategy(need=0).start_value == 1.0
    assert TurnStrategy(need=-450).bank_or_throw(0, 6)[0].value == 1.0


def test_in_the_final_round_banking_less_than_needed_is_worth_nothing():
    strategy = TurnStrategy(need=1_000)
    options = {option.then: option for option in strategy.bank_or_throw(600, 3)}
    assert options["bank"].value == 0.0
    assert options["throw"].value > 0
    assert {option.then: option.value for option in strategy.bank_or_throw(1_000, 3)}["bank"] == 1.0


def test_hot_dice_must_throw_six_again_and_cannot_bank():
    strategy = TurnStrategy()
    options = strategy.options(0, [1, 1, 1, 5, 5, 5])
    all_six = [option for option in options if option.set_aside == (1, 1, 1, 5, 5, 5)]
    assert [(option.points, option.then) for option in all_six] == [(2500, "throw")]
    (only,) = strategy.bank_or_throw(2_500, 0)
    assert only.then == "throw"
    assert only.value == strategy.throw_value(2_500, 6)
    assert [option.then for option in strategy.bank_or_throw(1_000, 6)] == ["throw"]


def test_setting_aside_all_six_and_throwing_again_beats_banking_three_thousand_points():
    # Six 2s: 3,000 for all six (then six dice again) or 200 for three (then bank or throw).
    best = TurnStrategy().options(5_000, [2, 2, 2, 2, 2, 2])[0]
    assert (best.set_aside, best.then) == ((2, 2, 2, 2, 2, 2), "throw")


def test_a_player_not_on_the_board_cannot_bank_below_the_entry_minimum():
    strategy = TurnStrategy(on_board=False)
    assert [option.then for option in strategy.bank_or_throw(450, 3)] == ["throw"]
    assert "bank" in [option.then for option in strategy.bank_or_throw(500, 3)]
    options = strategy.options(0, [1, 1, 5, 2, 3, 4])
    assert all(option.then == "throw" for option in options)
    assert TurnStrategy(YardkleRules(entry_minimum=0), on_board=False).start_value == (
        pytest.approx(ON_BOARD_TURN, abs=1e-9)
    )


def test_banking_is_optimal_from_the_proven_cap_with_any_dice_left():
    strategy = TurnStrategy()
    assert strategy.cap == 2_950
    for total in range(strategy.cap, strategy.tail_cap + 5_000, 50):
        for left in range(1, 6):
            assert strategy.bank_or_throw(total, left)[0].then == "bank", (total, left)
    below = strategy.cap - 50
    assert any(strategy.bank_or_throw(below, left)[0].then == "throw" for left in range(1, 6))


@pytest.mark.parametrize("on_board", [True, False], ids=["on-board", "entering"])
def test_raising_the_cap_changes_nothing(on_board):
    strategy = TurnStrategy(on_board=on_board)
    raised = TurnStrategy(on_board=on_board, cap=strategy.cap + 2_000)
    beyond = TurnStrategy(on_board=on_board, cap=strategy.tail_cap + 3_000)
    for total in range(0, strategy.cap + 3_000, 50):
        for dice in range(1, 7):
            value = strategy.throw_value(total, dice)
            assert raised.throw_value(total, dice) == pytest.approx(value, rel=1e-12)
            assert beyond.throw_value(total, dice) == pytest.approx(value, rel=1e-12)


def test_the_cap_cannot_be_lowered_below_the_proven_one():
    with pytest.raises(ValueError, match="raised"):
        TurnStrategy(cap=1_000).throw_value(0, 6)


def test_options_list_every_legal_set_aside_then_bank_or_throw_best_first():
    options = TurnStrategy().options(300, [1, 5, 5, 2, 3, 3])
    pairs = {(option.set_aside, option.then) for option in options}
    set_asides = {(1,), (5,), (5, 5), (1, 5), (1, 5, 5)}
    assert pairs == {(s, then) for s in set_asides for then in ("bank", "throw")}
    assert options[0].loss == 0
    assert all(a.value >= b.value for a, b in itertools.pairwise(options))


def test_a_yardkle_throw_has_no_options():
    assert TurnStrategy().options(400, [2, 3, 4, 6]) == []


@pytest.mark.parametrize(
    ("call", "code"),
    [
        (lambda s: s.options(0, [1, 2, 3, 4, 5, 7]), "invalid_die"),
        (lambda s: s.options(0, [1, 2, 3, 4, 5, 6, 1]), "wrong_dice_count"),
        (lambda s: s.options(0, []), "wrong_dice_count"),
        (lambda s: s.options(75, [1, 2]), "invalid_state"),
        (lambda s: s.options(-50, [1, 2]), "invalid_state"),
        (lambda s: s.bank_or_throw(100, 7), "invalid_state"),
        (lambda s: s.set_aside_value(0, [1, 2, 3, 4, 6, 6], [5]), "set_aside_not_thrown"),
        (lambda s: s.set_aside_value(0, [2, 2, 2, 2, 3, 4], [2, 2, 2, 2]), "die_scores_nothing"),
        (lambda s: s.set_aside_value(0, [1, 2, 3, 4, 6, 6], []), "empty_set_aside"),
    ],
    ids=[
        "die-out-of-range",
        "seven-dice",
        "no-dice",
        "total-not-a-multiple-of-50",
        "negative-total",
        "seven-dice-left",
        "set-aside-not-thrown",
        "four-twos",
        "empty-set-aside",
    ],
)
def test_bad_positions_raise_rule_violation_with_a_code(call, code):
    with pytest.raises(RuleViolation) as error:
        call(TurnStrategy())
    assert error.value.code == code


def test_a_set_asides_value_is_its_best_continuation():
    strategy = TurnStrategy()
    value = strategy.set_aside_value(0, [1, 1, 5, 2, 3, 4], [1])
    best = max(
        option.value
        for option in strategy.options(0, [1, 1, 5, 2, 3, 4])
        if option.set_aside == (1,)
    )
    assert value == best


@pytest.mark.parametrize(
    ("turn_total", "dice"),
    [(100, 6), (250, 6), (0, 5), (150, 5), (300, 5), (0, 3), (350, 3), (250, 4), (200, 1)],
)
def test_a_turn_total_no_turn_collects_before_that_many_dice_is_refused(turn_total, dice):
    with pytest.raises(RuleViolation) as error:
        TurnStrategy().options(turn_total, [1] * dice)
    assert (error.value.code, error.value.details["field"]) == ("invalid_state", "turn_total")
    with pytest.raises(RuleViolation):
        TurnStrategy().set_aside_value(turn_total, [1] * dice, [1])


def test_every_turn_total_a_turn_collects_before_a_throw_is_allowed():
    # Walked by hand: one die set aside scores 50 or 100, two 100 to 200; hot dice 300 up.
    for turn_total, dice in [(0, 6), (300, 6), (50, 5), (100, 5), (350, 5), (100, 4), (200, 4)]:
        assert TurnStrategy().options(turn_total, [1] * dice)
    for dice in range(1, 7):
        assert TurnStrategy().options(2_000 + 50 * dice, [1] * dice)


@pytest.mark.parametrize(
    ("rules", "on_board", "need", "allowed"),
    [
        ({}, True, 51, True),  # the leader on 10,000, the player on 9,950
        ({}, True, 10_000 - 500 + 1, True),
        ({}, True, 1, False),
        ({}, True, 50, False),
        ({}, True, 100, False),
        ({}, False, 10_001, True),
        ({}, False, 9_951, False),
        ({"target": 1_010}, True, 51, True),  # the leader on 1,050, the player on 1,000
        ({"target": 1_010}, True, 61, False),
        ({"target": 1_010}, False, 1_011, False),  # a leader has 1,050 or more
        ({"target": 1_010}, False, 1_051, True),
        ({"target": 500, "entry_minimum": 500}, True, 501, False),
    ],
)
def test_a_final_round_need_is_the_leaders_score_minus_the_players_plus_one(
    rules, on_board, need, allowed
):
    ruleset = YardkleRules.from_json(rules)
    if allowed:
        assert read_need(ruleset, on_board, need) == need
    else:
        with pytest.raises(RuleViolation) as error:
            read_need(ruleset, on_board, need)
        assert (error.value.code, error.value.details["field"]) == ("invalid_state", "need")
