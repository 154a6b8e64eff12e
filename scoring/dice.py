"""Dice as the rules see them: integers 1 to 6, counted as multisets (sorted tuples).

RULES.md, "What a submitted turn must carry": a die that is not an integer from 1 to 6 is
rejected; `True`, `1.0` and `"3"` are not dice.
"""

from collections.abc import Sequence
from itertools import combinations
from typing import Final

from scoring.errors import RuleViolation
from scoring.json_input import wrong_type

Dice = tuple[int, ...]
"""Dice as a multiset: a tuple sorted from low to high, so equal multisets are equal tuples."""


# Dice in throw order -> the same dice sorted. A plain dict (CPython specialises lookups in
# exact dicts), filled on first use with real throws only (at most 55,987), so odd input cannot
# grow it; a lookup is about three times faster than sorting.
_SORTED: Final[dict[tuple[int, ...], Dice]] = {}


def _sorted_throw(dice: tuple[int, ...]) -> Dice | None:
    """`dice` sorted, remembered in `_SORTED`; None when they are not 0 to 6 dice of 1..6."""
    if len(dice) > 6 or not all(1 <= die <= 6 for die in dice):
        return None
    in_order = tuple(sorted(dice))
    found = _SORTED[dice] = _SORTED.setdefault(in_order, in_order)  # one tuple per multiset
    return found


def read_dice(value: object, field: str, count: int | None = None) -> Dice:
    """`value` as dice (a JSON array of ints 1..6), exactly `count` of them when given,
    returned sorted. Call it positionally: it runs for every roll and throw."""
    # Fast path for the valid dice of nearly every turn; anything else is explained below.
    if type(value) is list and (count is None or len(value) == count):
        for die in value:
            # `type(...) is int` rejects True/False (ints to isinstance()) and 1.0.
            if type(die) is not int:
                break
        else:
            in_order = tuple(value)
            dice = _SORTED.get(in_order) or _sorted_throw(in_order)
            if dice is not None:
                return dice
    return _explain_dice(value, field, count)


def _explain_dice(value: object, field: str, count: int | None) -> Dice:
    """The careful reading of `read_dice`: the precise error, or the dice (tuples and empty
    arrays are fine too)."""
    if type(value) is not list and type(value) is not tuple:
        raise wrong_type(field, "array", "a JSON array of dice")
    for position, die in enumerate(value):
        # `type(...) is int` rejects True/False, which are ints to isinstance().
        if type(die) is not int or not 1 <= die <= 6:
            raise RuleViolation(
                "invalid_die",
                f"{field}[{position}] is not a die: dice are integers from 1 to 6.",
                details={"field": f"{field}[{position}]"},
            )
    if count is not None and len(value) != count:
        raise RuleViolation(
            "wrong_dice_count",
            f"{field} must hold {count} dice, not {len(value)}.",
            details={"field": field, "expected": count, "got": len(value)},
        )
    return tuple(sorted(value))


# Sorted dice -> every sub-multiset of them (at most 64 for six dice): a plain dict, filled on
# first use by `parts`, for the keep and set-aside checks of every roll and throw.
PARTS: Final[dict[Dice, frozenset[Dice]]] = {}


def parts(dice: Dice) -> frozenset[Dice]:
    """Every multiset of dice contained in the sorted `dice` (a valid throw), remembered."""
    found = PARTS.get(dice)
    if found is None:
        found = PARTS[dice] = frozenset(
            part for size in range(len(dice) + 1) for part in combinations(dice, size)
        )
    return found


def contains(outer: Dice, inner: Dice) -> bool:
    """Whether the multiset `inner` is part of the multiset `outer` (each face as often);
    both sorted, as `read_dice` returns them."""
    return inner in parts(outer)


def show(dice: Sequence[int]) -> str:
    """Dice the way players say them: 5-2-5-6-5 (an empty selection is "none")."""
    return "-".join(map(str, dice)) if dice else "none"
