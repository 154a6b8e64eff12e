"""Brute-force oracles for the strategy engine, written apart from it.

Yardzee: the exact value of a scorecard with one or two boxes open, enumerating every roll,
keep and box with plain dictionaries, and asking a real `YardzeeGame` (not the engine's
`placement_points`) what each box would score. Yardkle: the chance of banking at least `need`
by plain memoised recursion.
"""

from collections import Counter
from functools import cache
from itertools import combinations, combinations_with_replacement, product
from typing import Any

from scoring.yardkle import set_aside_options
from scoring.yardzee import CATEGORIES, UPPER_BONUS, UPPER_BONUS_AT, UPPER_BOXES

from ..positions import yardzee_at

Dice = tuple[int, ...]
Boxes = tuple[tuple[str, int | None], ...]


@cache
def throws(count: int) -> tuple[tuple[Dice, float], ...]:
    """Every sorted outcome of throwing `count` dice, with its chance."""
    outcomes = Counter(tuple(sorted(roll)) for roll in product(range(1, 7), repeat=count))
    return tuple((dice, ways / 6**count) for dice, ways in outcomes.items())


@cache
def keeps_of(dice: Dice) -> frozenset[Dice]:
    """Every sub-multiset of the dice (sorted tuples), the dice themselves included."""
    return frozenset(part for size in range(6) for part in combinations(dice, size))


ALL_FIVE: tuple[Dice, ...] = tuple(combinations_with_replacement(range(1, 7), 5))


class YardzeeOracle:
    """Values of scorecards (box name -> points or None) under a joker rule, in expected points
    still to come, by exhaustive enumeration (only for a few open boxes: it is slow)."""

    def __init__(self, joker: str) -> None:
        self.joker = joker
        self._values: dict[Boxes, float] = {}

    def value(self, boxes: dict[str, int | None]) -> float:
        key = tuple(sorted(boxes.items()))
        if key not in self._values:
            self._values[key] = self._turn(boxes)["start"]
        return self._values[key]

    def final(self, boxes: dict[str, int | None]) -> dict[Dice, float]:
        """The value of each final five dice: the best box, its bonuses and what follows."""
        if all(points is not None for points in boxes.values()):
            return dict.fromkeys(ALL_FIVE, 0.0)
        game = yardzee_at(boxes, joker=self.joker)
        upper = sum(points or 0 for name, points in boxes.items() if name in UPPER_BOXES)
        found = {}
        for dice in ALL_FIVE:
            bonus = game.yardzee_bonus_for(list(dice))
            best = float("-inf")
            for box, points in game.box_options(list(dice)).items():
                if points is None:
                    continue
                earned = 0
                if box in UPPER_BOXES and upper < UPPER_BONUS_AT <= upper + points:
                    earned = UPPER_BONUS
                after = self.value({**boxes, box: points})
                best = max(best, points + bonus + earned + after)
            found[dice] = best
        return found

    def _turn(self, boxes: dict[str, int | None]) -> dict[str, Any]:
        final = self.final(boxes)
        last_keeps = self._keep_values(final)
        last = {
            dice: max(last_keeps[k] if len(k) < 5 else final[dice] for k in keeps_of(dice))
            for dice in ALL_FIVE
        }
        middle_keeps = self._keep_values(last)
        middle = {
            dice: max(middle_keeps[k] if len(k) < 5 else final[dice] for k in keeps_of(dice))
            for dice in ALL_FIVE
        }
        start = sum(chance * middle[dice] for dice, chance in throws(5))
        return {
            "final": final,
            "last_keeps": last_keeps,
            "middle_keeps": middle_keeps,
            "start": start,
        }

    def keep_values(self, boxes: dict[str, int | None], rolls_left: int) -> dict[Dice, float]:
        """Every keep of fewer than five dice, valued with `rolls_left` rolls still allowed."""
        turn = self._turn(boxes)
        found: dict[Dice, float] = turn["middle_keeps" if rolls_left == 2 else "last_keeps"]
        return found

    @staticmethod
    def _keep_values(after: dict[Dice, float]) -> dict[Dice, float]:
        values = {}
        for size in range(5):
            for keep in combinations_with_replacement(range(1, 7), size):
                values[keep] = sum(
                    chance * after[tuple(sorted(keep + thrown))]
                    for thrown, chance in throws(5 - size)
                )
        return values


def scorecard(**filled: int) -> dict[str, int | None]:
    """A column with these boxes filled and the rest open."""
    return {name: filled.get(name) for name in CATEGORIES}


def all_but(*open_boxes: str, **points: int) -> dict[str, int | None]:
    """A column with every box filled except `open_boxes`: 0 in each, unless given (chance,
    which cannot hold 0, holds 5 unless given)."""
    column: dict[str, int | None] = dict.fromkeys(CATEGORIES, 0)
    column["chance"] = 5
    column.update(points)
    for name in open_boxes:
        column[name] = None
    return column


def bank_chance(need: int, entry_minimum: int = 0) -> float:
    """The best chance of banking at least `need` in a turn from six dice (on the board when
    `entry_minimum` is 0), by memoised recursion; totals at or above `need` bank at once
    (worth 1), and throwing six again after hot dice there is solved as a fixed point."""
    hot_above = _hot_dice_above()

    @cache
    def throw(total: int, dice: int) -> float:
        value = 0.0
        for thrown, chance in throws(dice):
            best = 0.0
            for selection, points in set_aside_options(list(thrown)).items():
                best = max(best, decide(total + points, dice - len(selection)))
            value += chance * best
        return value

    def decide(total: int, left: int) -> float:
        if left == 0:
            return hot_above if total >= need else throw(total, 6)
        bank = 1.0 if total >= need and total >= entry_minimum else 0.0
        return bank if bank else throw(total, left)

    return throw(0, 6)


@cache
def _hot_dice_above() -> float:
    """The chance that six dice, thrown until a throw lets a die stay, get there without a
    Yardkle: x = P(a set-aside leaving a die) + P(only all six can be set aside) * x."""
    partial = forced = 0.0
    for thrown, chance in throws(6):
        options = set_aside_options(list(thrown))
        if any(len(selection) < 6 for selection in options):
            partial += chance
        elif options:
            forced += chance
    return partial / (1 - forced)
