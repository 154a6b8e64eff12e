"""The rulebook: Yardzee and Yardkle, pure Python (RULES.md is the specification).

`RuleViolation` is the one error family; `GAMES` names every game class by the name stored on
a match; `new_game` starts one from a player count and a ruleset's JSON.
"""

from collections.abc import Mapping
from typing import Final

from scoring.errors import CODES, RuleViolation
from scoring.game import Game, JsonObject, Ruleset, TurnResult
from scoring.json_input import brief
from scoring.yardkle import YardkleGame
from scoring.yardzee import YardzeeGame

GAMES: Final[Mapping[str, type[Game]]] = {
    YardzeeGame.name: YardzeeGame,
    YardkleGame.name: YardkleGame,
}


def new_game(name: str, players: object, rules_json: object) -> Game:
    """A fresh game of `name` ("yardzee" or "yardkle") for `players` seats and a ruleset's
    JSON (RULES.md, "Game", "Ruleset options"); an unknown name is `unknown_game`."""
    game = GAMES.get(name)
    if game is None:
        raise RuleViolation(
            "unknown_game",
            f"There is no game {brief(name)}; games: {', '.join(GAMES)}.",
            details={"games": list(GAMES)},
        )
    return game.create(players, rules_json)


def game_from_json(state: object) -> Game:
    """A game from its stored state, whichever game it is (the state names it)."""
    name = state.get("game") if type(state) is dict else None
    game = GAMES.get(name) if type(name) is str else None
    if game is None:
        raise RuleViolation(
            "invalid_state",
            "The stored game state does not name a known game.",
            details={"field": "state.game"},
        )
    return game.from_json(state)


__all__ = [
    "CODES",
    "GAMES",
    "Game",
    "JsonObject",
    "RuleViolation",
    "Ruleset",
    "TurnResult",
    "game_from_json",
    "new_game",
]
