"""The optimal solitaire Yardzee strategy (RULES.md, "Yardzee"; docs/analysis.md): the start
values, agreement with brute force on end-game states, the options of hand-picked positions,
and bad positions."""

import itertools
import random

import numpy as np
import pytest

from scoring import RuleViolation
from scoring.analysis import Strategy, YardzeeState
from scoring.analysis import yardzee_table as solver
from scoring.yardzee import CATEGORIES, JOKER_RULES, UPPER_BOXES, placement_points

from ..positions import yardzee_at
from .oracle import YardzeeOracle, all_but

FORCED_START = 254.58772873449584
FREE_CHOICE_START = 254.58960948196304


def test_the_expected_score_of_a_game_under_optimal_play_with_the_forced_joker_is_254_587729(
    forced,
):
    assert forced.start_value == pytest.approx(FORCED_START, abs=1e-9)
    assert f"{forced.start_value:.6f}" == "254.587729"


def test_the_expected_score_with_the_free_choice_joker_is_254_589609_verhoeffs_254_5896(
    free_choice,
):
    # Verhoeff's published optimum (254.5896) lets a later Yahtzee go in any open box and
    # scores lower boxes as jokers only once that face's upper box is filled: free choice.
    assert free_choice.start_value == pytest.approx(FREE_CHOICE_START, abs=1e-9)
    assert f"{free_choice.start_value:.6f}" == "254.589609"
    assert round(free_choice.start_value - FORCED_START, 6) == 0.001881  # the third decimal


def test_a_turn_solved_for_one_state_gives_the_tables_value_of_that_state(forced):
    rng = random.Random(18)
    for _ in range(25):
        filled = frozenset(rng.sample(CATEGORIES, rng.randrange(0, 13)))
        upper = [
            box for box in ("aces", "twos", "threes", "fours", "fives", "sixes") if box in filled
        ]
        total = sum(rng.randrange(0, 6) * (1 + CATEGORIES.index(box)) for box in upper)
        state = YardzeeState(filled, total, "yardzee" in filled and rng.random() < 0.5)
        turn = forced._turn(state.index)
        assert float(turn.start[0]) == forced.state_value(state)


def test_upper_subtotals_out_of_the_bonus_reach_share_one_value_as_if_each_were_solved(forced):
    filled = frozenset(UPPER_BOXES) - {"aces"}  # aces add at most 5: 58 or more can reach 63
    values = {total: forced.state_value(YardzeeState(filled, total)) for total in (0, 10, 57)}
    assert len(set(values.values())) == 1
    for total, value in values.items():
        assert float(forced._turn(YardzeeState(filled, total).index).start[0]) == value
    assert forced.state_value(YardzeeState(filled, 58)) > values[57]


def test_unreachable_states_hold_nan_and_every_reachable_one_a_value(forced):
    table = forced._table
    reachable = np.zeros(solver.STATES, dtype=bool)
    for level in range(14):
        reachable[solver.level_states(level)] = True
    assert not np.isnan(table[reachable]).any()
    assert np.isnan(table[~reachable]).all()
    assert reachable.sum() == 536_448


@pytest.mark.parametrize(
    ("joker", "boxes"),
    [
        ("forced", all_but("chance")),
        (
            "forced",
            all_but("sixes", fives=20, fours=16, threes=9, twos=0, aces=0),
        ),  # 45: +18 needed
        ("forced", all_but("yardzee")),
        ("forced", all_but("full_house", yardzee=50)),  # five of a kind: joker 25 plus 100
        ("forced", all_but("fours", "large_straight", yardzee=50)),
        ("free_choice", all_but("fours", "large_straight", yardzee=50)),
        ("forced", all_but("small_straight", "large_straight", yardzee=0)),
    ],
    ids=[
        "chance",
        "sixes-with-the-bonus-in-reach",
        "yardzee",
        "full-house-joker-with-bonus",
        "forced-joker-two-boxes",
        "free-choice-joker-two-boxes",
        "straights-yardzee-scratched",
    ],
)
def test_end_game_values_and_keeps_agree_with_brute_force(request, joker, boxes):
    strategy = request.getfixturevalue(joker)
    oracle = YardzeeOracle(joker)
    state = YardzeeState.of_boxes(boxes)
    assert strategy.state_value(state) == pytest.approx(oracle.value(boxes), abs=1e-9)
    dice = [1, 2, 3, 4, 6]
    for rolls_left in (1, 2):
        expected = oracle.keep_values(boxes, rolls_left)
        for option in strategy.keep_options(state, dice, rolls_left):
            if len(option.keep) < 5:
                assert option.value == pytest.approx(expected[option.keep], abs=1e-9)


def test_the_last_box_alone_is_worth_its_expected_score_chance_is_23_33(forced):
    # One box left, chance: stop on 5 dice summing high; the known optimum is 23.33...
    value = forced.state_value(YardzeeState.of_boxes(all_but("chance")))
    assert value == pytest.approx(23.33, abs=0.01)


def test_a_small_straight_with_one_roll_left_keeps_the_run_for_the_large_straight(forced):
    state = YardzeeState.of_boxes(all_but("small_straight", "large_straight"))
    options = forced.keep_options(state, [1, 2, 3, 4, 6], rolls_left=1)
    best = options[0]
    assert best.keep == (1, 2, 3, 4)
    assert best.loss == 0
    stop = next(option for option in options if option.label == "stop")
    # Stopping scores the small straight now (30) and leaves the large one to a turn of its own.
    oracle = YardzeeOracle("forced")
    assert stop.value == pytest.approx(
        30 + oracle.value(all_but("large_straight", small_straight=30)), abs=1e-9
    )
    assert stop.loss == pytest.approx(best.value - stop.value)
    assert [option.loss for option in options] == sorted(option.loss for option in options)


def test_a_yardzee_with_the_box_scratched_goes_to_its_upper_box_without_a_bonus(forced):
    state = YardzeeState.of_boxes(all_but("fives", "chance", "small_straight", yardzee=0))
    options = forced.box_options(state, [5, 5, 5, 5, 5])
    # Forced joker, step 1: the open upper box of that face, and no bonus (the box holds 0).
    assert [(option.box, option.points) for option in options] == [("fives", 25)]
    after = YardzeeState.of_boxes(all_but("chance", "small_straight", fives=25, yardzee=0))
    assert options[0].value == forced.state_value(after) + 25


def test_a_yardzee_with_the_box_scratched_scores_lower_boxes_as_jokers_once_its_face_is_filled(
    forced,
):
    state = YardzeeState.of_boxes(all_but("chance", "small_straight", yardzee=0))
    options = forced.box_options(state, [5, 5, 5, 5, 5])
    assert {option.box: option.points for option in options} == {
        "small_straight": 30,
        "chance": 25,
    }
    assert options[0].box == "small_straight"


def test_a_second_yardzee_earns_the_100_bonus_in_every_box_it_may_take(forced):
    state = YardzeeState.of_boxes(all_but("sixes", "chance", yardzee=50))
    (option,) = forced.box_options(state, [6, 6, 6, 6, 6])
    assert (option.box, option.points) == ("sixes", 30)
    after = YardzeeState.of_boxes(all_but("chance", sixes=30, yardzee=50))
    assert option.value == forced.state_value(after) + 30 + 100


def test_the_upper_bonus_in_reach_is_worth_35_more_in_the_box_that_reaches_it(forced):
    boxes = all_but("sixes", "chance", fives=20, fours=16, threes=9)  # 45
    state = YardzeeState.of_boxes(boxes)
    options = {option.box: option for option in forced.box_options(state, [6, 6, 6, 2, 3])}
    assert options["sixes"].points == 18
    after = YardzeeState.of_boxes({**boxes, "sixes": 18})
    assert options["sixes"].value == forced.state_value(after) + 18 + 35
    assert options["sixes"].loss == 0
    short = {option.box: option for option in forced.box_options(state, [6, 6, 2, 2, 3])}
    assert (
        short["sixes"].value
        == forced.state_value(YardzeeState.of_boxes({**boxes, "sixes": 12})) + 12
    )


def test_keep_options_list_every_distinct_keep_once_best_first(forced):
    options = forced.keep_options(YardzeeState.start(), [3, 3, 5, 2, 6], rolls_left=2)
    keeps = [option.keep for option in options]
    assert len(keeps) == len(set(keeps)) == 24  # 3-3 counts as 0, 1 or 2 threes: 3 x 2 x 2 x 2
    assert options[0].loss == 0
    assert all(a.value >= b.value for a, b in itertools.pairwise(options))


def test_box_options_agree_with_the_games_own_box_options_for_random_columns():
    rng = random.Random(7)
    for _ in range(300):
        column: dict[str, int | None] = dict.fromkeys(CATEGORIES)
        for name in rng.sample(CATEGORIES, rng.randrange(1, 12)):
            column[name] = 5 if name == "chance" else 0
        if column["yardzee"] is not None:
            column["yardzee"] = rng.choice([0, 50])
        joker = rng.choice(JOKER_RULES)
        dice = rng.choice([[face] * 5 for face in range(1, 7)] + [[1, 2, 3, 4, 4]])
        game = yardzee_at(column, joker=joker)
        allowed = {
            box: points for box, points in game.box_options(dice).items() if points is not None
        }
        mine = placement_points(list(column.values()), dice, joker)
        assert {CATEGORIES[box]: points for box, points in mine.items()} == allowed


@pytest.mark.parametrize(
    ("call", "code"),
    [
        (lambda s, start: s.keep_options(start, [1, 2, 3, 4, 7], 2), "invalid_die"),
        (lambda s, start: s.keep_options(start, [1, 2, 3, 4], 2), "wrong_dice_count"),
        (lambda s, start: s.keep_options(start, [1, 2, 3, 4, True], 2), "invalid_die"),
        (lambda s, start: s.keep_options(start, [1, 2, 3, 4, 5], 3), "invalid_state"),
        (lambda s, start: s.keep_options(start, [1, 2, 3, 4, 5], 0), "invalid_state"),
        (lambda s, start: s.keep_option(start, [1, 2, 3, 4, 5], 2, [6]), "keep_not_in_roll"),
        (lambda s, start: s.keep_option(start, [1, 1, 3, 4, 5], 2, [1, 1, 1]), "keep_not_in_roll"),
        (lambda s, start: s.box_option(start, [1, 2, 3, 4, 5], "sevens"), "unknown_box"),
        (
            lambda s, start: s.box_option(
                YardzeeState(frozenset({"chance"}), 0), [1, 2, 3, 4, 5], "chance"
            ),
            "box_filled",
        ),
        (
            lambda s, start: s.box_option(
                YardzeeState.of_boxes(all_but("fives", "chance", yardzee=50)), [5] * 5, "chance"
            ),
            "joker_forbids_box",
        ),
        (
            lambda s, start: s.box_options(YardzeeState(frozenset(CATEGORIES), 0), [1] * 5),
            "game_over",
        ),
    ],
    ids=[
        "die-out-of-range",
        "four-dice",
        "a-bool-is-not-a-die",
        "three-rolls-left",
        "no-roll-left",
        "keep-not-in-dice",
        "keep-more-of-a-face-than-showing",
        "unknown-box",
        "filled-box",
        "joker-forbids-box",
        "game-over",
    ],
)
def test_bad_positions_raise_rule_violation_with_a_code(forced, call, code):
    with pytest.raises(RuleViolation) as error:
        call(forced, YardzeeState.start())
    assert error.value.code == code


@pytest.mark.parametrize(
    ("make", "code"),
    [
        (lambda: YardzeeState(frozenset({"aces"}), 7), "invalid_state"),  # aces make 0 to 5
        (lambda: YardzeeState(frozenset(), 3), "invalid_state"),
        (lambda: YardzeeState(frozenset({"chance"}), 0, yardzee_50=True), "invalid_state"),
        (lambda: YardzeeState(frozenset({"sevens"}), 0), "unknown_box"),
        (lambda: YardzeeState(frozenset({"sixes"}), -6), "invalid_state"),
    ],
    ids=[
        "upper-total-aces-cannot-make",
        "upper-total-with-no-upper-box",
        "fifty-in-open-box",
        "unknown-box",
        "negative-total",
    ],
)
def test_states_no_game_can_reach_are_refused(make, code):
    with pytest.raises(RuleViolation) as error:
        make()
    assert error.value.code == code


@pytest.mark.parametrize(
    ("box", "points"),
    [
        ("full_house", 24),
        ("small_straight", 40),
        ("large_straight", 39),
        ("yardzee", 30),
        ("yardzee", 100),
        ("chance", 0),
        ("chance", 3),
        ("chance", 31),
        ("three_of_a_kind", 1),
        ("four_of_a_kind", 31),
        ("twos", 3),
        ("sixes", 36),
        ("aces", -1),
        ("chance", 20.0),
        ("yardzee", True),
    ],
)
def test_a_column_with_points_the_rules_cannot_give_a_box_is_refused(box, points):
    with pytest.raises(RuleViolation) as error:
        YardzeeState.of_boxes({box: points}, field="filled")
    assert error.value.code == "invalid_state"
    assert error.value.details["field"] == f"filled.{box}"


def test_a_column_may_hold_every_points_the_rules_can_give_each_box():
    possible = {
        "aces": range(6),
        "sixes": range(0, 31, 6),
        "three_of_a_kind": [0, *range(5, 31)],
        "four_of_a_kind": [0, *range(5, 31)],
        "full_house": [0, 25],
        "small_straight": [0, 30],
        "large_straight": [0, 40],
        "yardzee": [0, 50],
        "chance": range(5, 31),
    }
    for box, points in possible.items():
        for value in points:
            assert box in YardzeeState.of_boxes({box: value}).filled
    assert YardzeeState.of_boxes({"yardzee": 50}).yardzee_50


def test_a_strategy_answers_a_positions_options_from_a_loaded_table(saved_forced):
    loaded = Strategy.load(None, saved_forced)
    assert isinstance(loaded._table, np.memmap)
    state = YardzeeState.of_boxes(all_but("small_straight", "large_straight"))
    assert loaded.keep_options(state, [1, 2, 3, 4, 6], 1)[0].keep == (1, 2, 3, 4)


def test_a_full_store_of_solved_turns_starts_again_without_losing_those_asked_for(
    forced, monkeypatch
):
    """A worker keeps the turns it has solved, up to a bound, and starts again when a batch
    would pass it. The positions of the batch it held already (a game's first, say, which
    every game shares) went with the rest and were then looked up: `KeyError: 0`, every few
    dozen games analysed. Every position asked for now comes back, with the table's value."""
    from scoring.analysis import yardzee

    forced.forget()
    monkeypatch.setattr(yardzee, "_TURNS_KEPT", 3)
    first = YardzeeState(frozenset(), 0)
    others = [YardzeeState(frozenset({box}), 0) for box in ("chance", "sixes", "fives")]
    forced.solve([first, others[0]])
    forced.solve([first, *others])  # 2 kept + 2 new > 3
    for state in (first, *others):
        assert float(forced._turn(state.index).start[0]) == forced.state_value(state)
    forced.forget()
