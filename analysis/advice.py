"""Advice for one position, for practice and for clients that teach the game (issue 19,
`POST advice/`): the ranked options the strategy engine gives, with their values and losses.
It never looks at a match, so it gives no hints during league play."""

from collections.abc import Mapping
from typing import Any

from analysis.strategies import yardzee_strategy
from scoring.analysis import Option, YardzeeState
from scoring.analysis.game_analysis import turn_strategy
from scoring.analysis.yardkle import read_need
from scoring.errors import DomainError
from scoring.yardkle import YardkleRules

# The most points a Yardkle final round can need: far past any target a league plays to.
MAX_NEED = 100_000
# What a position of each game may say; anything else is refused, not ignored.
_KEYS = {
    "yardzee": frozenset({"game", "joker", "filled", "dice", "rolls_left"}),
    "yardkle": frozenset({"game", "on_board", "turn_total", "dice", "need", "rules"}),
}


class InvalidPosition(DomainError):
    """A position the engine cannot answer for (HTTP 400): the rule's code, a sentence, and
    `details.field` naming what is wrong."""


def position_advice(position: object) -> dict[str, Any]:
    """`{"game", "options": [...best first]}` for a Yardzee position `{"game": "yardzee",
    "joker"?, "filled": {box: points}, "dice": [5 dice], "rolls_left": 0|1|2}` or a Yardkle
    throw `{"game": "yardkle", "on_board", "turn_total", "dice": [the throw], "need"?,
    "rules"?}`. Raises InvalidPosition."""
    if not isinstance(position, Mapping):
        raise InvalidPosition("wrong_type", "A position is a JSON object.", details={"field": ""})
    game = position.get("game")
    if game not in _KEYS:
        raise InvalidPosition(
            "unknown_game", "game must be yardzee or yardkle.", details={"field": "game"}
        )
    if unknown := sorted(str(key) for key in position.keys() - _KEYS[game]):
        raise InvalidPosition(
            "unknown_key",
            f"A {game} position has no {unknown[0][:40]!r}; it has "
            f"{', '.join(sorted(_KEYS[game]))}.",
            details={"field": unknown[0][:40]},
        )
    try:
        options = _yardzee(position) if game == "yardzee" else _yardkle(position)
    except InvalidPosition:
        raise
    except DomainError as error:
        message = error.message.replace(
            "The stored game state is invalid", "This position is invalid"
        )
        raise InvalidPosition(error.code, message, details=dict(error.details)) from error
    return {"game": position["game"], "options": [option.to_json() for option in options]}


def _field(position: Mapping[str, Any], name: str, kind: type, why: str) -> Any:
    value = position.get(name)
    if type(value) is not kind:
        raise InvalidPosition("wrong_type", f"{name} must be {why}.", details={"field": name})
    return value


def _yardzee(position: Mapping[str, Any]) -> list[Option]:
    strategy = yardzee_strategy({"joker": position.get("joker", "forced")})
    filled = position.get("filled", {})
    if not isinstance(filled, Mapping):
        raise InvalidPosition(
            "wrong_type", "filled maps box names to points.", details={"field": "filled"}
        )
    if any(type(points) is not int for points in filled.values()):
        raise InvalidPosition(
            "wrong_type",
            "Each filled box holds its points (an integer).",
            details={"field": "filled"},
        )
    # Points the rules cannot give a box are `invalid_state`, naming it ("filled.chance").
    state = YardzeeState.of_boxes(filled, field="filled")
    rolls_left = position.get("rolls_left")
    if rolls_left not in (0, 1, 2) or type(rolls_left) is not int:
        raise InvalidPosition(
            "wrong_type", "rolls_left is 0, 1 or 2.", details={"field": "rolls_left"}
        )
    dice = position.get("dice")
    if rolls_left == 0:
        return strategy.box_options(state, dice)
    return strategy.keep_options(state, dice, rolls_left)


def _yardkle(position: Mapping[str, Any]) -> list[Option]:
    rules = YardkleRules.from_json(position.get("rules", {}))
    on_board = _field(position, "on_board", bool, "true or false")
    need = position.get("need")
    if need is not None and (type(need) is not int or not 1 <= need <= MAX_NEED):
        raise InvalidPosition(
            "wrong_type",
            f"need is null, or the points still needed to pass the leader (1 to {MAX_NEED:,}).",
            details={"field": "need"},
        )
    if need is not None:
        need = read_need(rules, on_board, need)
    # A value of another JSON type (50.0, "50", true, null) is `wrong_type`, as for on_board and
    # need; a whole number no turn can have collected is the strategy's `invalid_state`.
    turn_total = _field(position, "turn_total", int, "a whole number of points (0, 50, 100 ...)")
    strategy = turn_strategy(rules, on_board, need)
    return strategy.options(turn_total, position.get("dice"))
