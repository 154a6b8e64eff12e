"""`scoring.GAMES`: every game by the name a match stores, behind one `Game` protocol."""

import random

import pytest

from scoring import GAMES, RuleViolation, game_from_json, new_game, simulate
from scoring.yardkle import YardkleGame
from scoring.yardzee import YardzeeGame

FIRST_TURNS = {
    "yardzee": {"rolls": [{"dice": [1, 2, 3, 4, 5]}], "category": "chance", "points": 15},
    "yardkle": {"throws": [{"dice": [2, 2, 3, 4, 6, 6], "set_aside": []}], "end": "yardkle"},
}


def test_the_registry_names_both_games():
    assert dict(GAMES) == {"yardzee": YardzeeGame, "yardkle": YardkleGame}


@pytest.mark.parametrize("name", ["yardzee", "yardkle"])
def test_every_game_is_played_through_the_common_protocol(name):
    game = new_game(name, 2, {})
    assert (game.players, game.current_player, game.round, game.is_over) == (2, 0, 1, False)
    result = game.play(FIRST_TURNS[name])
    assert result.seat == 0
    assert game.current_player == 1
    assert game.placements() == ([1, 2] if result.points else [1, 1])
    assert game.total(0) == result.points
    restored = game_from_json(game.to_json())
    assert type(restored) is type(game)
    assert restored.to_json() == game.to_json()
    assert restored.rules == game.rules


@pytest.mark.parametrize("name", ["yardzee", "yardkle"])
def test_players_take_one_turn_each_in_seat_order(name):
    game = new_game(name, 3, {})
    rng = random.Random(1)
    seen = []
    for _ in range(7):
        seen.append((game.round, game.current_player))
        game.play(simulate.next_turn(game, rng))
    assert seen == [(1, 0), (1, 1), (1, 2), (2, 0), (2, 1), (2, 2), (3, 0)]


def test_an_unknown_game_name_is_rejected():
    with pytest.raises(RuleViolation) as error:
        new_game("farkle", 2, {})
    assert error.value.code == "unknown_game"
    assert "'farkle'" in error.value.message
    with pytest.raises(RuleViolation) as huge:
        new_game("f" * 100_000, 2, {})
    assert len(huge.value.message) < 200  # named cut short


@pytest.mark.parametrize("state", [{}, {"game": "farkle"}, [], None, {"game": 1}])
def test_a_state_that_names_no_known_game_is_rejected(state):
    with pytest.raises(RuleViolation) as error:
        game_from_json(state)
    assert error.value.code == "invalid_state"
