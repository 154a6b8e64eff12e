"""What a paper score pad can show (docs/rules.md, "What a pad can show"): the checks of a pad
typed in after a game played on paper, and the totals of a pad that passes them.

A pad holds no dice, only what was written down, so each check asks whether *some* legal game
under the match's ruleset writes this pad; the dice of every check come from the rulebook's own
functions (`scoring.yardzee`, `scoring.yardkle`), never from a second copy of the rules. Every
error names its cell (player, box or turn) and a rule, and every error is returned, not the
first only.

`scoring.pad.yardzee` and `scoring.pad.yardkle` say what each game's pad can show, and why.
"""

from scoring.pad.errors import PAD_CODES, PadError, PadInvalid
from scoring.pad.yardkle import (
    TurnTotals,
    YardkleColumn,
    YardklePadResult,
    check_yardkle_pad,
    turn_total_possible,
    turn_totals,
    yardkle_pad_result,
)
from scoring.pad.yardzee import (
    MAX_YARDZEE_BONUSES,
    YardzeeColumn,
    YardzeePadResult,
    check_yardzee_pad,
    yardzee_bonus_room,
    yardzee_pad_result,
)

__all__ = [
    "MAX_YARDZEE_BONUSES",
    "PAD_CODES",
    "PadError",
    "PadInvalid",
    "TurnTotals",
    "YardkleColumn",
    "YardklePadResult",
    "YardzeeColumn",
    "YardzeePadResult",
    "check_yardkle_pad",
    "check_yardzee_pad",
    "turn_total_possible",
    "turn_totals",
    "yardkle_pad_result",
    "yardzee_bonus_room",
    "yardzee_pad_result",
]
