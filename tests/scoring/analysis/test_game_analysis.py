"""`scoring.analysis.analyse_game` (docs/analysis.md, "Analysing a game"): every decision of a
whole game against optimal play, per-player summaries and the accuracy figure."""

import json
import random
from typing import Any

import pytest

from scoring import RuleViolation, simulate
from scoring.analysis import Option, TurnStrategy, YardzeeState, accuracy, analyse_game
from scoring.analysis.game_analysis import HALF_ACCURACY_LOSS
from scoring.yardkle import YardkleGame, YardkleRules
from scoring.yardzee import YardzeeGame, YardzeeRules


def optimal_yardzee_turn(game: YardzeeGame, strategy, rng: random.Random) -> dict[str, Any]:
    """The current player's turn played by the strategy's best options, as turn JSON."""
    state = YardzeeState.of_boxes(game.scorecard(game.current_player).boxes)
    dice = sorted(rng.randint(1, 6) for _ in range(5))
    rolls = [{"dice": dice}]
    for rolls_left in (2, 1):
        keep = strategy.keep_options(state, dice, rolls_left)[0].keep
        if len(keep) == 5:
            break
        dice = sorted(list(keep) + [rng.randint(1, 6) for _ in range(5 - len(keep))])
        rolls.append({"keep": list(keep), "dice": dice})
    box = strategy.box_options(state, dice)[0].box
    return {"rolls": rolls, "category": box}


def optimal_yardkle_turn(game: YardkleGame, rng: random.Random) -> dict[str, Any]:
    """The current player's turn played by the optimal turn strategy (the final round's when
    it is running), as turn JSON."""
    seat = game.current_player
    need = None
    if game.final_round:
        need = max(game.total(s) for s in range(game.players) if s != seat) - game.total(seat) + 1
    strategy = TurnStrategy(game.rules, game.on_board(seat), need)
    throws, total, dice = [], 0, 6
    while True:
        thrown = [rng.randint(1, 6) for _ in range(dice)]
        options = strategy.options(total, thrown)
        if not options:
            throws.append({"dice": thrown, "set_aside": []})
            return {"throws": throws, "end": "yardkle"}
        best = options[0]
        throws.append({"dice": thrown, "set_aside": list(best.set_aside)})
        total += best.points
        dice = dice - len(best.set_aside) or 6
        if best.then == "bank":
            return {"throws": throws, "end": "bank"}


def test_a_yardzee_game_played_optimally_has_every_decision_optimal_and_accuracy_100(forced):
    game = YardzeeGame(players=2)
    rng = random.Random(11)
    turns = []
    while not game.is_over:
        turn = optimal_yardzee_turn(game, forced, rng)
        game.play(turn)
        turns.append(turn)
    analysis = analyse_game({"game": "yardzee", "players": 2, "turns": turns}, strategy=forced)
    decisions = analysis.decisions()
    assert len(decisions) >= 2 * 13  # at least one keep (or stop) and the box, most turns
    assert all(decision.optimal for decision in decisions)
    for player in analysis.players:
        assert (player.accuracy, player.total_loss, player.optimal) == (
            100.0,
            0.0,
            player.decisions,
        )


def test_a_simulated_yardzee_game_loses_points_at_some_decisions_and_reports_them(forced):
    turns = simulate.play_game(YardzeeGame(players=4), seed=2024)
    analysis = analyse_game({"game": "yardzee", "players": 4, "turns": turns}, strategy=forced)
    assert len(analysis.turns) == 52
    for turn, played in zip(analysis.turns, turns, strict=True):
        kinds = [decision.kind for decision in turn.decisions]
        keeps = min(len(played["rolls"]), 2)
        assert kinds.count("keep") == keeps  # one per roll after which the player chose
        assert kinds.count("box") <= 1  # none when a single box was left
        for decision in turn.decisions:
            assert decision.best.loss == 0
            assert decision.chosen.value + decision.loss == pytest.approx(decision.best.value)
            assert decision.options >= 2
    for player in analysis.players:
        assert player.decisions == len(analysis.decisions(player.seat))
        assert 0 < player.accuracy < 100
        assert player.total_loss == pytest.approx(player.mean_loss * player.decisions)
        assert player.accuracy == pytest.approx(accuracy(player.mean_loss, "yardzee"))
    json.dumps(analysis.to_json())


def test_stopping_after_the_first_roll_is_a_keep_of_all_five_dice(forced):
    turn = {"rolls": [{"dice": [2, 3, 4, 5, 6]}], "category": "large_straight"}
    analysis = analyse_game({"game": "yardzee", "players": 2, "turns": [turn]}, strategy=forced)
    stop, box = analysis.turns[0].decisions
    assert (stop.kind, stop.step, stop.chosen.label, stop.chosen.keep) == (
        "keep",
        1,
        "stop",
        (2, 3, 4, 5, 6),
    )
    assert stop.optimal
    assert box.optimal
    assert box.chosen.box == "large_straight"


def test_scratching_a_first_yardzee_is_a_costly_decision(forced):
    turn = {"rolls": [{"dice": [6, 6, 6, 6, 6]}], "category": "chance"}
    analysis = analyse_game({"game": "yardzee", "players": 2, "turns": [turn]}, strategy=forced)
    box = analysis.turns[0].decisions[-1]
    assert box.best.box == "yardzee"
    expected = {option.box: option for option in forced.box_options(YardzeeState.start(), [6] * 5)}
    assert box.loss == expected["chance"].loss
    assert box.loss > 20


def test_a_yardkle_game_played_optimally_has_every_decision_optimal():
    rng = random.Random(5)
    game = YardkleGame(players=3, rules=YardkleRules(target=3_000))
    turns = []
    while not game.is_over:
        turn = optimal_yardkle_turn(game, rng)
        game.play(turn)
        turns.append(turn)
    analysis = analyse_game(
        {
            "game": "yardkle",
            "players": 3,
            "rules": {"target": 3_000, "entry_minimum": 500},
            "turns": turns,
        }
    )
    assert all(decision.optimal for decision in analysis.decisions())
    assert any(turn.final_round for turn in analysis.turns)
    assert all(player.accuracy == 100.0 for player in analysis.players)


def test_a_simulated_yardkle_game_keeps_the_final_rounds_chances_apart_from_points():
    turns = simulate.play_game(YardkleGame(players=3), seed=1)
    analysis = analyse_game({"game": "yardkle", "players": 3, "turns": turns})
    final = [turn for turn in analysis.turns if turn.final_round]
    assert len(final) == 2  # every other player gets one more turn
    for turn in analysis.turns:
        objective = "probability" if turn.final_round else "points"
        assert all(decision.objective == objective for decision in turn.decisions)
        assert all(decision.kind in ("set_aside", "bank_or_throw") for decision in turn.decisions)
    for player in analysis.players:
        mine = analysis.decisions(player.seat)
        assert player.decisions == sum(d.objective == "points" for d in mine)
        assert player.final_round_decisions == sum(d.objective == "probability" for d in mine)
        assert 0 <= player.final_round_loss <= player.final_round_decisions
        assert 0 < player.accuracy <= 100
    json.dumps(analysis.to_json())


# Seat 0 enters with 2,000, seat 1 with 500; then seat 0 sets aside 1 2 2 2 5 (350) and banks.
SET_ASIDE_THEN_BANK = [
    {"throws": [{"dice": [1, 1, 1, 1, 2, 3], "set_aside": [1, 1, 1, 1]}], "end": "bank"},
    {"throws": [{"dice": [5, 5, 5, 2, 3, 4], "set_aside": [5, 5, 5]}], "end": "bank"},
    {"throws": [{"dice": [1, 2, 2, 2, 5, 3], "set_aside": [1, 2, 2, 2, 5]}], "end": "bank"},
]


def test_a_yardkle_set_aside_names_the_continuation_its_value_assumes():
    """Set-aside options came without their `then`: labelled "set aside 1-2-2-2-5, then None"
    in the API, and the page said "and throw again" of a set-aside the player banked after.
    Each is valued by the best play after it, and now names it."""
    analysis = analyse_game({"game": "yardkle", "players": 2, "turns": SET_ASIDE_THEN_BANK})
    decision = analysis.turns[2].decisions[0]
    strategy = TurnStrategy(YardkleRules(), on_board=True)
    assert decision.kind == "set_aside"
    assert (decision.chosen.set_aside, decision.chosen.then) == ((1, 2, 2, 2, 5), "bank")
    assert decision.chosen.label == "set aside 1-2-2-2-5, then bank"
    assert decision.chosen.value == strategy.bank_value(350)
    assert (decision.best.set_aside, decision.best.then) == ((1,), "throw")
    assert decision.best.label == "set aside 1, then throw"
    assert decision.best.value == strategy.throw_value(100, 5)
    assert decision.loss > 0
    labels = [
        option["label"]
        for turn in analysis.to_json()["turns"]
        for decision in turn["decisions"]
        for option in (decision["best"], decision["chosen"])
    ]
    assert not any("None" in label for label in labels)
    assert Option(1.0, set_aside=(1, 5)).label == "set aside 1-5"


def test_a_game_object_and_its_stored_state_are_analysed_like_a_record_and_not_changed(forced):
    turns = simulate.play_game(YardzeeGame(players=2), seed=3)[:6]
    record = analyse_game({"game": "yardzee", "players": 2, "turns": turns}, strategy=forced)
    game = YardzeeGame(players=2)
    from_object = analyse_game(game, turns=turns, strategy=forced)
    from_state = analyse_game(game.to_json(), YardzeeRules(), turns=turns, strategy=forced)
    assert game.turns_played == 0
    assert record.to_json() == from_object.to_json() == from_state.to_json()


def test_a_turn_the_rules_reject_is_rejected_with_its_code_and_index(forced):
    good = {"rolls": [{"dice": [1, 1, 1, 1, 1]}], "category": "aces"}
    bad = {"rolls": [{"dice": [1, 2, 3, 4, 5]}], "category": "aces"}  # seat 1 then seat 0 again
    with pytest.raises(RuleViolation) as error:
        analyse_game({"game": "yardzee", "players": 2, "turns": [good, good, bad]}, strategy=forced)
    assert (error.value.code, error.value.details["turn_index"]) == ("box_filled", 2)


@pytest.mark.parametrize(
    ("arguments", "code"),
    [
        (({"game": "darts", "players": 2, "turns": []},), "unknown_game"),
        ((YardzeeGame(players=2),), "invalid_state"),  # no turns
        ((YardzeeGame(players=2), YardzeeRules(joker="free_choice")), "invalid_state"),
        (({"game": "yardzee", "players": 9, "turns": []},), "player_count"),
        (({"game": "yardzee", "players": 2, "turns": []}, None), "invalid_state"),
    ],
    ids=["unknown-game", "no-turns", "other-rules", "too-many-players", "turns-given-twice"],
)
def test_games_that_cannot_be_analysed_raise_rule_violation(forced, arguments, code):
    with pytest.raises(RuleViolation) as error:
        analyse_game(*arguments, turns=None if len(arguments) == 1 else [], strategy=forced)
    assert error.value.code == code


def test_rules_given_as_json_may_leave_out_defaults(forced):
    analysis = analyse_game(YardzeeGame(players=2).to_json(), {}, turns=[], strategy=forced)
    assert analysis.rules == {"joker": "forced"}


def test_a_strategy_for_another_joker_rule_is_refused(forced):
    with pytest.raises(ValueError, match="strategy"):
        analyse_game(
            {"game": "yardzee", "players": 2, "rules": {"joker": "free_choice"}, "turns": []},
            strategy=forced,
        )


@pytest.mark.parametrize("game", ["yardzee", "yardkle"])
def test_accuracy_is_100_without_loss_50_at_the_half_loss_and_falls_towards_0(game):
    half = HALF_ACCURACY_LOSS[game]
    assert accuracy(0.0, game) == 100.0
    assert accuracy(half, game) == 50.0
    assert accuracy(3 * half, game) == 25.0
    assert 0 < accuracy(1_000 * half, game) < 0.1
