"""Game state as plain JSON, stored on the match: exact round trips, strict restore."""

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring import RuleViolation, simulate
from scoring.yardkle import YardkleGame, YardkleRules
from scoring.yardzee import CATEGORIES, YardzeeGame, YardzeeRules

from .positions import yardkle_at, yardzee_at
from .strategies import GAMES


def test_a_new_yardzee_state_is_plain_json_naming_game_version_rules_and_scorecards():
    assert YardzeeGame(players=2, rules=YardzeeRules(joker="free_choice")).to_json() == {
        "game": "yardzee",
        "version": 1,
        "rules": {"joker": "free_choice"},
        "scorecards": [
            {"boxes": dict.fromkeys(CATEGORIES), "yardzee_bonus_count": 0},
            {"boxes": dict.fromkeys(CATEGORIES), "yardzee_bonus_count": 0},
        ],
    }


def test_a_new_yardkle_state_is_plain_json_naming_game_version_rules_and_scores():
    assert YardkleGame(players=3, rules=YardkleRules(target=5000)).to_json() == {
        "game": "yardkle",
        "version": 1,
        "rules": {"target": 5000, "entry_minimum": 500},
        "scores": [0, 0, 0],
        "turns_played": 0,
        "final_round_by": None,
    }


@pytest.mark.parametrize("game_class", [YardzeeGame, YardkleGame])
@GAMES
@given(seed=st.integers(0, 10_000), players=st.integers(2, 5))
def test_state_round_trips_through_json_at_every_step(game_class, seed, players):
    game = game_class(players=players)
    replay = game_class(players=players)
    for turn in simulate.play_game(game, seed):
        replay.play(turn)
        state = replay.to_json()
        assert json.loads(json.dumps(state)) == state
        restored = game_class.from_json(json.loads(json.dumps(state)))
        assert restored.to_json() == state
        assert (restored.current_player, restored.round, restored.is_over) == (
            replay.current_player,
            replay.round,
            replay.is_over,
        )
    assert replay.to_json() == game.to_json()


def restore_error(game_class, state) -> str:
    with pytest.raises(RuleViolation) as error:
        game_class.from_json(state)
    return error.value.code


def yardzee_state(**changes):
    state = yardzee_at({"yardzee": 50, "aces": 3}).to_json()
    return {**state, **changes}


def with_box(name, points, *, seat=0, bonus_count=0):
    state = yardzee_state()
    cards = [dict(card) for card in state["scorecards"]]
    cards[seat] = {
        "boxes": {**cards[seat]["boxes"], name: points},
        "yardzee_bonus_count": bonus_count,
    }
    return {**state, "scorecards": cards}


@pytest.mark.parametrize(
    ("state", "code"),
    [
        (yardzee_state(game="yardkle"), "invalid_state"),
        (yardzee_state(version=2), "invalid_state"),
        (yardzee_state(version=True), "invalid_state"),
        (yardzee_state(rules={"joker": "sometimes"}), "invalid_rule_option"),
        (yardzee_state(scorecards=[]), "player_count"),
        (yardzee_state(extra=1), "unknown_key"),
        (with_box("aces", 7), "invalid_state"),  # aces hold 0..5
        (with_box("full_house", 20), "invalid_state"),
        (with_box("chance", 0), "invalid_state"),
        (with_box("chance", True), "invalid_state"),
        (with_box("twos", 2, seat=1), "invalid_state"),  # seat 1 ahead of seat 0
        (with_box("aces", 3, bonus_count=2), "invalid_state"),  # one turn after the 50 at most
        (with_box("yardzee", 0, bonus_count=1), "invalid_state"),  # no bonus without a 50
    ],
)
def test_a_yardzee_state_no_legal_game_could_reach_is_rejected(state, code):
    assert restore_error(YardzeeGame, state) == code


def yardkle_state(**changes):
    return {**yardkle_at([1000, 0, 600], turns_played=3).to_json(), **changes}


@pytest.mark.parametrize(
    ("state", "code"),
    [
        (yardkle_state(game="yardzee"), "invalid_state"),
        (yardkle_state(scores=[1000, 0, 620]), "invalid_state"),  # not a multiple of 50
        (yardkle_state(scores=[1000, 0, 450]), "invalid_state"),  # below the entry minimum
        (yardkle_state(scores=[1000, 0, -50]), "invalid_state"),
        (yardkle_state(scores=[1000, 0, 600.0]), "invalid_state"),
        (yardkle_state(scores=[0] * 11), "player_count"),
        (yardkle_state(turns_played=-1), "invalid_state"),
        (yardkle_state(final_round_by=0), "invalid_state"),  # seat 0 has not reached 10,000
        (yardkle_state(scores=[10_000, 0, 600]), "invalid_state"),  # reached, no final round
        (yardkle_state(scores=[10_000, 0, 600], final_round_by=5), "invalid_state"),
        (yardkle_state(final_round_by=False), "invalid_state"),
        (yardkle_state(rules={"target": 0}), "invalid_rule_option"),
    ],
)
def test_a_yardkle_state_no_legal_game_could_reach_is_rejected(state, code):
    assert restore_error(YardkleGame, state) == code


@pytest.mark.parametrize("game_class", [YardzeeGame, YardkleGame])
def test_a_stored_state_names_every_rule_option_so_later_defaults_cannot_change_it(game_class):
    state = game_class(players=2).to_json()
    with pytest.raises(RuleViolation) as error:
        game_class.from_json({**state, "rules": {}})
    assert error.value.code == "invalid_state"
