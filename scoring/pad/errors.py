"""The errors of a pad (docs/rules.md, "What a pad can show"): one per cell that no legal game
writes, each with its code and its rule; and the reading of a pad's columns."""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Final

from scoring.errors import DomainError
from scoring.game import JsonObject
from scoring.yardkle import YardkleGame
from scoring.yardzee import YardzeeGame

PAD: Final = "What a pad can show"
PAD_CODES: Final[Mapping[str, str]] = MappingProxyType(
    {
        # The shape of what was typed.
        "wrong_type": PAD,
        "unknown_key": PAD,
        "player_count": "Game",
        # Yardzee.
        "missing_box": "Boxes",
        "unknown_box": "Boxes",
        "box_value_impossible": "Boxes",
        "yardzee_bonus_count_impossible": "Yardzee bonus",
        "yardzee_bonus_without_yardzee": "Yardzee bonus",
        "joker_inconsistent": "Joker",
        "upper_bonus_mismatch": "Upper bonus",
        "total_mismatch": "Grand total",
        # Yardkle.
        "turn_total_impossible": "Point dice and combinations",
        "below_entry_minimum": "Entering the game",
        "turn_order": "Game",
        "final_round": "End",
        "game_not_over": "End",
        "too_many_turns": "How long a game can be",
    }
)
"""Every code a pad error has, with the docs/rules.md section of its rule."""


@dataclass(frozen=True, slots=True)
class PadError:
    """One thing a pad shows that no legal game writes: its `code` (see `PAD_CODES`), a
    sentence, the docs/rules.md section of the `rule`, and the cell: the `player` (seat
    index, None for the pad as a whole) and a `box` (a box or sum of a Yardzee column) or a
    `turn` (0-based index in a Yardkle column)."""

    code: str
    message: str
    rule: str
    player: int | None = None
    box: str | None = None
    turn: int | None = None

    def to_json(self) -> JsonObject:
        return {
            "code": self.code,
            "message": self.message,
            "rule": self.rule,
            "player": self.player,
            "box": self.box,
            "turn": self.turn,
        }


def pad_error(
    code: str,
    message: str,
    player: int | None = None,
    *,
    box: str | None = None,
    turn: int | None = None,
) -> PadError:
    return PadError(code, message, PAD_CODES[code], player, box, turn)


class PadInvalid(DomainError):
    """A pad asked for its totals that its checks refuse; `errors` holds every error."""

    errors: tuple[PadError, ...]

    def __init__(self, errors: Sequence[PadError]) -> None:
        first = f": {errors[0].message}" if errors else "."
        more = f" And {len(errors) - 1} more (details.errors)." if len(errors) > 1 else ""
        super().__init__(
            "pad_invalid",
            f"No legal game writes this pad{first}{more}",
            details={"errors": [error.to_json() for error in errors]},
        )
        self.errors = tuple(errors)


def pad_columns(
    pad: object, game: type[YardzeeGame] | type[YardkleGame], players: int | None
) -> tuple[list[Any], list[PadError]]:
    """The pad's columns (a list, one per seat), and errors of its shape and seat count."""
    if type(pad) is not list and type(pad) is not tuple:
        return [], [pad_error("wrong_type", "A pad is a list of columns, one per player.")]
    errors = []
    low, high = game.min_players, game.max_players
    if players is not None and len(pad) != players:
        errors.append(
            pad_error("player_count", f"The match has {players} players; the pad has {len(pad)}.")
        )
    elif not low <= len(pad) <= high:
        errors.append(
            pad_error(
                "player_count",
                f"{game.title} is played by {low} to {high} players; the pad has {len(pad)}.",
            )
        )
    return list(pad), errors


def is_count(value: object) -> bool:
    return type(value) is int and value >= 0  # `type(...) is int`: True is no number
