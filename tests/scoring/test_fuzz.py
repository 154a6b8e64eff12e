"""Strict input: any JSON gives a result or a RuleViolation, never another exception, and a
rejected turn never changes the game (RULES.md, "What a submitted turn must carry")."""

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring import CODES, RuleViolation, simulate
from scoring import dice as dice_module
from scoring.dice import read_dice
from scoring.yardkle import YardkleGame, YardkleRules, has_points, score_selection
from scoring.yardzee import YardzeeGame, YardzeeRules, score

from .strategies import QUICK, json_values, mutations


def mid_game(game_class, seed: int):
    """A game a few turns in (joker and entry situations included) and a legal next turn."""
    game = game_class(players=3)
    rng = random.Random(seed)
    for _ in range(seed % 7):
        game.play(simulate.next_turn(game, rng))
    return game, simulate.next_turn(game, rng)


def rule_violation_of(call) -> RuleViolation | None:
    """The RuleViolation a call raises, or None; any other exception fails the test."""
    try:
        call()
    except RuleViolation as error:
        return error
    return None


def play_or_reject(game, turn) -> None:
    before = game.to_json()
    error = rule_violation_of(lambda: game.play(turn))
    if error is not None:
        assert error.code in CODES
        assert str(error) == error.message
        assert game.to_json() == before, "a rejected turn must change nothing"


@pytest.mark.parametrize("game_class", [YardzeeGame, YardkleGame])
@QUICK
@given(turn=json_values, seed=st.integers(0, 50))
def test_any_random_json_turn_gives_a_result_or_a_rule_violation(game_class, turn, seed):
    game, _ = mid_game(game_class, seed)
    play_or_reject(game, turn)


@pytest.mark.parametrize("game_class", [YardzeeGame, YardkleGame])
@QUICK
@given(data=st.data(), seed=st.integers(0, 200))
def test_a_legal_turn_with_one_part_fuzzed_gives_a_result_or_a_rule_violation(
    game_class, data, seed
):
    game, turn = mid_game(game_class, seed)
    play_or_reject(game, data.draw(mutations(turn)))


@QUICK
@given(value=json_values)
def test_any_random_json_to_the_other_entry_points_is_a_result_or_a_rule_violation(value):
    yardzee, _ = mid_game(YardzeeGame, 3)
    yardkle, _ = mid_game(YardkleGame, 3)
    calls = [
        lambda: score("chance", value),
        lambda: score(value, [1, 2, 3, 4, 5]),
        lambda: score_selection(value),
        lambda: has_points(value),
        lambda: YardzeeRules.from_json(value),
        lambda: YardkleRules.from_json(value),
        lambda: YardzeeGame.from_json(value),
        lambda: YardkleGame.from_json(value),
        lambda: YardzeeGame.create(value, {}),
        lambda: YardkleGame.create(2, value),
        lambda: yardzee.box_options(value),
        lambda: yardzee.yardzee_bonus_for(value),
        lambda: yardkle.turn_state(value),
        lambda: yardkle.can_bank(value),
        lambda: yardzee.scorecard(value),
        lambda: yardkle.total(value),
    ]
    for call in calls:
        error = rule_violation_of(call)
        assert error is None or error.code in CODES


@pytest.mark.parametrize("game_class", [YardzeeGame, YardkleGame])
@QUICK
@given(data=st.data(), seed=st.integers(0, 50))
def test_a_fuzzed_game_state_is_restored_exactly_or_rejected(game_class, data, seed):
    game, _ = mid_game(game_class, seed)
    state = data.draw(mutations(game.to_json()))
    try:
        restored = game_class.from_json(state)
    except RuleViolation:
        return
    assert restored.to_json() == state


@pytest.mark.parametrize("not_a_die", [True, False, 1.0, 3.0, "3", None, [3], 0, 7, -1, 2**70])
def test_dice_that_are_not_integers_1_to_6_are_rejected(not_a_die):
    turn = {"rolls": [{"dice": [not_a_die, 2, 3, 4, 5]}], "category": "chance"}
    with pytest.raises(RuleViolation) as error:
        YardzeeGame(players=2).play(turn)
    assert error.value.code == "invalid_die"
    yardkle_turn = {
        "throws": [{"dice": [1, 2, 3, 4, 5, not_a_die], "set_aside": [1]}],
        "end": "bank",
    }
    with pytest.raises(RuleViolation) as error:
        YardkleGame(players=2).play(yardkle_turn)
    assert error.value.code == "invalid_die"


@QUICK
@given(
    value=json_values | st.lists(st.integers(-1, 8), max_size=7), count=st.sampled_from([None, 5])
)
def test_read_dice_accepts_exactly_arrays_of_integers_from_1_to_6(value, count):
    exact = (
        isinstance(value, list)
        and all(type(die) is int and 1 <= die <= 6 for die in value)
        and (count is None or len(value) == count)
    )
    error = rule_violation_of(lambda: read_dice(value, field="dice", count=count))
    if exact:
        assert error is None
        assert read_dice(value, field="dice", count=count) == tuple(sorted(value))
    else:
        assert error is not None
        assert error.code in {"wrong_type", "invalid_die", "wrong_dice_count"}


def test_python_callers_may_pass_dice_as_tuples():
    assert score("chance", (1, 2, 3, 4, 5)) == 15
    assert read_dice((3, 1), field="dice") == (1, 3)


def test_odd_dice_never_grow_the_memo_of_sorted_throws():
    read_dice([3, 1, 2], field="dice")
    size = len(dice_module._SORTED)
    for odd in ([7, 1, 2], [0], [10**9, 2], [-3]):
        with pytest.raises(RuleViolation):
            read_dice(odd, field="dice")
    assert read_dice([1] * 7, field="dice") == (1,) * 7  # dice, but no throw: not remembered
    assert len(dice_module._SORTED) == size
    assert read_dice([2, 1, 3], field="dice") is read_dice([3, 1, 2], field="dice")


@pytest.mark.parametrize("game_class", [YardzeeGame, YardkleGame])
def test_an_unknown_key_of_any_size_is_named_cut_short(game_class):
    """A fuzzed key can be any size: the error names it as it names any value, cut short, not
    whole (a 100,000-character key came back twice in the 422)."""
    game, turn = mid_game(game_class, 3)
    error = rule_violation_of(lambda: game.play({**turn, "k" * 100_000: 1}))
    assert error is not None
    assert error.code == "unknown_key"
    assert error.details["key"] == "k" * 37 + "..."
    assert len(error.message) < 200
    rules = rule_violation_of(lambda: game_class.create([1, 2], {"x" * 100_000: 1}))
    assert rules is not None
    assert len(rules.message) < 200
