"""The one family of rule errors: every rejected turn, ruleset or state is a `RuleViolation`.

Each error carries a stable snake_case `code`; `CODES` maps every code to the `RULES.md`
section the rule lives in, so the API can answer `{"code", "message", "rule"}` and
`docs/scoring.md` can list them all.
"""

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, Final

# RULES.md section names, as they appear there (the last heading shortened).
GAME: Final = "Game"
TURN: Final = "Turn"
BOXES: Final = "Boxes"
JOKER: Final = "Joker"
COMBINATIONS: Final = "Point dice and combinations"
ENTERING: Final = "Entering the game"
END: Final = "End"
RULESET: Final = "Ruleset options"
SUBMITTED_TURN: Final = "What a submitted turn must carry"

CODES: Final[Mapping[str, str]] = MappingProxyType(
    {
        # The shape of the JSON (RULES.md, "What a submitted turn must carry").
        "wrong_type": SUBMITTED_TURN,
        "missing_key": SUBMITTED_TURN,
        "unknown_key": SUBMITTED_TURN,
        "invalid_die": SUBMITTED_TURN,
        "points_mismatch": SUBMITTED_TURN,
        "invalid_end": SUBMITTED_TURN,
        "too_many_throws": SUBMITTED_TURN,
        # Whose turn, how many players, when it ends.
        "player_count": GAME,
        "game_over": GAME,
        "unknown_seat": GAME,
        "not_your_turn": GAME,
        "invalid_state": GAME,
        "unknown_game": GAME,
        # Rulesets.
        "unknown_rule_option": RULESET,
        "invalid_rule_option": RULESET,
        # Yardzee rolls and boxes.
        "wrong_dice_count": TURN,
        "no_rolls": TURN,
        "too_many_rolls": TURN,
        "keep_on_first_roll": TURN,
        "keep_not_in_roll": TURN,
        "keep_not_in_new_roll": TURN,
        "keep_all_dice": TURN,
        "unknown_box": BOXES,
        "box_filled": BOXES,
        "joker_forbids_box": JOKER,
        # Yardkle throws.
        "no_throws": TURN,
        "set_aside_not_thrown": TURN,
        "empty_set_aside": TURN,
        "die_scores_nothing": COMBINATIONS,
        "throw_after_yardkle": TURN,
        "end_contradicts_throws": TURN,
        "bank_after_hot_dice": TURN,
        "bank_below_entry_minimum": ENTERING,
    }
)


class DomainError(Exception):
    """The shape every domain error of the project shares (the rulebook's, the games', the
    league's, the draw's and the standings'): a stable snake_case `code`, a `message` for
    people (also `str(error)`) and JSON-able `details`; `to_json()` is the API's error body.
    It lives here, in the lowest layer, so every family can derive from it."""

    code: str
    message: str
    details: dict[str, Any]

    def __init__(
        self, code: str, message: str, *, details: Mapping[str, Any] | None = None
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.details = dict(details) if details is not None else {}

    def __str__(self) -> str:
        return self.message

    def to_json(self) -> dict[str, Any]:
        return {"code": self.code, "message": self.message, "details": self.details}


class RuleViolation(DomainError):
    """A turn, ruleset or game state that the rules (`RULES.md`) do not allow.

    `code` is stable snake_case (see `CODES` and `docs/scoring.md`), `message` a sentence for
    people (also `str(error)`), `rule` the `RULES.md` section (defaults from `CODES`), and
    `details` a JSON-able dict with the facts, e.g. `{"expected": 15, "got": 20}`.
    """

    rule: str | None

    def __init__(
        self,
        code: str,
        message: str,
        *,
        rule: str | None = None,
        details: Mapping[str, Any] | None = None,
    ) -> None:
        super().__init__(code, message, details=details)
        self.rule = rule if rule is not None else CODES.get(code)

    def __repr__(self) -> str:
        return f"RuleViolation({self.code!r}, {self.message!r})"

    def of_turn(self, sequence: int) -> "RuleViolation":
        """This violation, said of turn `sequence` (1-based, as the match numbers its turns):
        the message names the turn and `details.turn` holds it."""
        return RuleViolation(
            self.code,
            f"Turn {sequence}: {self.message}",
            rule=self.rule,
            details={**self.details, "turn": sequence},
        )

    def at_turn(self, index: int) -> "RuleViolation":
        """This violation, said of turn `index` (0-based) of a whole game: the message names
        the turn and `details.turn_index` holds it."""
        return RuleViolation(
            self.code,
            f"Turn {index + 1} (index {index}): {self.message}",
            rule=self.rule,
            details={**self.details, "turn_index": index},
        )

    def to_json(self) -> dict[str, Any]:
        """The error body the API answers with: code, message, rule and details."""
        return {**super().to_json(), "rule": self.rule}
