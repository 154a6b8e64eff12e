"""Games set up mid-way through, built as stored states, for the table tests; and the check
that a turn the rulebook refuses leaves the game as it was."""

from typing import Any

import pytest

from scoring import RuleViolation
from scoring.yardkle import YardkleGame
from scoring.yardzee import CATEGORIES, YardzeeGame


def rejected(game: YardzeeGame | YardkleGame, turn: object) -> RuleViolation:
    """The violation `turn` raises; the game must be unchanged by it."""
    before = game.to_json()
    with pytest.raises(RuleViolation) as error:
        game.play(turn)
    assert game.to_json() == before, "a rejected turn must change nothing"
    return error.value


def yardzee_at(
    filled: dict[str, int], *, bonus_count: int = 0, joker: str = "forced", players: int = 2
) -> YardzeeGame:
    """A Yardzee game where it is seat 0's turn and every seat has these boxes filled."""
    boxes = {name: filled.get(name) for name in CATEGORIES}
    card = {"boxes": boxes, "yardzee_bonus_count": bonus_count}
    return YardzeeGame.from_json(
        {
            "game": "yardzee",
            "version": 1,
            "rules": {"joker": joker},
            "scorecards": [card] * players,
        }
    )


def yardkle_at(
    scores: list[int],
    *,
    turns_played: int = 0,
    final_round_by: int | None = None,
    target: int = 10_000,
    entry_minimum: int = 500,
) -> YardkleGame:
    """A Yardkle game with these scores, `turns_played` turns in (seat turns_played % n next)."""
    return YardkleGame.from_json(
        {
            "game": "yardkle",
            "version": 1,
            "rules": {"target": target, "entry_minimum": entry_minimum},
            "scores": scores,
            "turns_played": turns_played,
            "final_round_by": final_round_by,
        }
    )


def one_roll(dice: list[int], category: str, **extra: Any) -> dict[str, Any]:
    """A Yardzee turn that stops after the first roll."""
    return {"rolls": [{"dice": dice}], "category": category, **extra}


def throw(dice: Any, set_aside: Any) -> dict[str, Any]:
    """One Yardkle throw."""
    return {"dice": dice, "set_aside": set_aside}
