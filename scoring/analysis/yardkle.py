"""Optimal play within one Yardkle turn: exact dynamic programs over (turn total, dice left).

RULES.md, "Yardkle": "Turn" (a throw without point dice, a Yardkle, loses the turn total; hot
dice: all six set aside means throwing all six again before banking), "Entering the game" (a
player not on the scorecard banks only the entry minimum or more) and "End" (the final round).
Which set-asides are legal and what they score comes from `scoring.yardkle.set_aside_options`.

Two objectives (docs/analysis.md):
- `need=None`: the most expected points banked this turn (a Yardkle banks 0);
- `need=n`: in the final round, the highest chance of banking at least `n` (enough to finish
  above the leader); banking exactly `n - 1` (equal to the leader) is worth `tie`, the share
  of the placement a tie gives (RULES.md, "End": equal scores share the placement; 1/2 beside
  one leader, the default 0 counts a tie as a loss); banking less is worth nothing.

The turn total has no bound (hot dice can repeat), so the program has a top, in three exact
tiers (`TurnStrategy._solve`): closed forms above `tail_cap`, proved for every larger total by
linear inequalities (`_proven_cap`); banking whenever allowed from `cap` up, checked at every
total; the full program below `cap`.
"""

from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from itertools import combinations_with_replacement
from math import ceil
from typing import Final

import numpy as np

from scoring.analysis.option import Option, ranked
from scoring.analysis.rolls import BoolArray, FloatArray, IntArray
from scoring.analysis.rolls import chance as roll_chance
from scoring.dice import parts, read_dice, show
from scoring.errors import RuleViolation
from scoring.game import invalid_state
from scoring.yardkle import DICE, YardkleRules, read_throw, scores_nothing, set_aside_options

STEP: Final = 50
"""Every combination scores a multiple of 50, so turn totals are counted in steps of 50."""
TIE: Final = 0.5
"""A tie with one leader: equal scores share the placement (RULES.md, "End"), half a win."""


@dataclass(frozen=True, slots=True)
class ThrowTable:
    """Every throw of 1 to 6 dice that holds point dice, and every legal set-aside from it,
    flattened for NumPy (`scoring.yardkle.set_aside_options`). Throws are grouped by their
    dice count; a throw's set-asides are `starts[throw]` up to the next throw's start.

    Per set-aside: `steps` (points / 50) and `left` (dice left to throw; 0 is hot dice).
    Per throw: `dice` count, `chance`, and for the cap's proof `best_partial` (the most points
    of a set-aside that leaves a die, -1 if none) and `full` (the points of setting aside
    every die, -1 if that is not legal).
    """

    steps: IntArray
    left: IntArray
    starts: IntArray
    dice: IntArray
    chance: FloatArray
    best_partial: IntArray
    full: IntArray


@cache
def throw_table() -> ThrowTable:
    """The throws and set-asides of RULES.md, "Point dice and combinations", as arrays."""
    steps: list[int] = []
    left: list[int] = []
    starts: list[int] = []
    dice: list[int] = []
    chance: list[float] = []
    best_partial: list[int] = []
    full: list[int] = []
    for count in range(1, DICE + 1):
        for throw in combinations_with_replacement(range(1, 7), count):
            options = set_aside_options(list(throw))
            if not options:
                continue  # a Yardkle: worth nothing, so it adds nothing to a sum
            starts.append(len(steps))
            dice.append(count)
            chance.append(roll_chance(throw))
            for selection, points in options.items():
                if points % STEP:
                    raise ValueError(f"{selection} scores {points}, not a multiple of {STEP}")
                steps.append(points // STEP)
                left.append(count - len(selection))
            partial = [p for s, p in options.items() if len(s) < count]
            best_partial.append(max(partial, default=-1))
            full.append(options.get(throw, -1))
    return ThrowTable(
        steps=np.array(steps, dtype=np.intp),
        left=np.array(left, dtype=np.intp),
        starts=np.array(starts, dtype=np.intp),
        dice=np.array(dice, dtype=np.intp),
        chance=np.array(chance),
        best_partial=np.array(best_partial, dtype=np.intp),
        full=np.array(full, dtype=np.intp),
    )


@dataclass(frozen=True, slots=True)
class Tail:
    """The values above the cap, where banking is optimal whenever allowed: banking is worth
    `bank_slope * total + bank_base`, and throwing `dice` dice `slope[dice] * total +
    base[dice]` (index 6 is also the forced throw after hot dice)."""

    bank_slope: float
    bank_base: float
    slope: FloatArray
    base: FloatArray


def _tail(bank_slope: float, bank_base: float) -> Tail:
    """Solve the values above the cap for a bank worth `bank_slope * total + bank_base`.

    There a throw that leaves a die banks right after its best set-aside (the most points);
    a throw whose only set-aside is all its dice (e.g. three pairs without a 1 or 5) must
    throw six again. So six dice are worth `a * total + b` with
    `a = slope * P(partial) + a * P(forced)` and likewise `b`: a linear fixed point.
    """
    table = throw_table()
    partial = table.best_partial >= 0
    forced = ~partial
    slope = np.zeros(DICE + 1)
    base = np.zeros(DICE + 1)
    by_dice = [table.dice == count for count in range(DICE + 1)]
    six = by_dice[DICE]
    partial_gain = table.chance * (bank_slope * np.maximum(table.best_partial, 0) + bank_base)
    chance_partial = float(table.chance[six & partial].sum())
    chance_forced = float(table.chance[six & forced].sum())
    forced_points = float((table.chance * np.maximum(table.full, 0))[six & forced].sum())
    six_slope = bank_slope * chance_partial / (1 - chance_forced)
    six_base = (float(partial_gain[six & partial].sum()) + six_slope * forced_points) / (
        1 - chance_forced
    )
    for count in range(1, DICE + 1):
        mine = by_dice[count]
        on_forced = table.chance[mine & forced]
        slope[count] = bank_slope * float(table.chance[mine & partial].sum()) + six_slope * float(
            on_forced.sum()
        )
        base[count] = float(partial_gain[mine & partial].sum()) + float(
            (on_forced * (six_slope * table.full[mine & forced] + six_base)).sum()
        )
    return Tail(bank_slope=bank_slope, bank_base=bank_base, slope=slope, base=base)


def _proven_cap(tail: Tail) -> int:
    """The smallest turn total (a multiple of 50) from which the tail's assumptions hold for
    every larger total, proved by linear inequalities `total * coefficient >= constant`:

    1. at every throw that could also set aside all its dice (hot dice), banking after the
       best partial set-aside is worth at least throwing six again;
    2. with 1 to 5 dice left, throwing is worth no more than banking.

    With these, the tail's values satisfy the optimality equations above the cap, and below it
    the program is exact. A coefficient that is not positive needs its constant to hold at
    once (it does for the probability objective, whose bank is a constant 1).
    """
    table = throw_table()
    six_slope, six_base = tail.slope[DICE], tail.base[DICE]
    bounds: list[tuple[float, float]] = []
    both = (table.best_partial >= 0) & (table.full >= 0)
    for partial, full in zip(table.best_partial[both], table.full[both], strict=True):
        bounds.append(
            (
                tail.bank_slope - six_slope,
                six_slope * full + six_base - tail.bank_slope * partial - tail.bank_base,
            )
        )
    for count in range(1, DICE):
        bounds.append((tail.bank_slope - tail.slope[count], tail.base[count] - tail.bank_base))
    cap = 0
    for coefficient, constant in bounds:
        if coefficient > 0:
            cap = max(cap, ceil(constant / coefficient / STEP) * STEP)
        elif constant > 1e-12:
            raise ArithmeticError("banking is never provably optimal: no cap exists")
    return cap


@dataclass(frozen=True, slots=True)
class BestOfThrows:
    """The throws of one dice count that hold point dice: `chance`, and in steps of 50 the
    most points of a set-aside leaving a die (`partial`) and of setting aside every die
    (`full`); -1 where there is none."""

    chance: FloatArray
    partial: IntArray
    full_steps: IntArray

    def best(self, levels: IntArray, bank: FloatArray, hot_dice: FloatArray) -> FloatArray:
        """`[level, throw]`: the better of banking after the best partial set-aside and of
        throwing six again after setting aside all (where each is possible)."""
        at = levels[:, None]
        partial = np.where(self.partial >= 0, bank[at + np.maximum(self.partial, 0)], -np.inf)
        full = np.where(
            self.full_steps >= 0, hot_dice[at + np.maximum(self.full_steps, 0)], -np.inf
        )
        found: FloatArray = np.maximum(partial, full)
        return found


@cache
def _best_of_throws(count: int) -> BestOfThrows:
    table = throw_table()
    mine = table.dice == count
    return BestOfThrows(
        chance=table.chance[mine],
        partial=np.where(table.best_partial[mine] >= 0, table.best_partial[mine] // STEP, -1),
        full_steps=np.where(table.full[mine] >= 0, table.full[mine] // STEP, -1),
    )


# Turn totals are checked exactly up to this many steps of 50; every larger one is reachable
# before any throw (`_unreachable_totals`).
_REACH_STEPS: Final = 40


@cache
def _unreachable_totals() -> dict[int, frozenset[int]]:
    """For each number of dice about to be thrown (1 to 6), the turn totals (in steps of 50)
    no turn can have collected before that throw (RULES.md, "Turn"): nothing before a throw
    of three dice, since the three set aside score 150 or more; 100 before six dice, which
    are thrown at the start (0) or after hot dice (300 or more). Found by walking every legal
    set-aside from the start of a turn up to `_REACH_STEPS`; above it every total is
    reachable, because each total of the last six steps is and hot dice from single 5s add
    six steps (checked here, so a change of the rules cannot make this silently wrong)."""
    moves = {
        left: {
            (len(selection), points // STEP)
            for throw in combinations_with_replacement(range(1, 7), left)
            for selection, points in set_aside_options(list(throw)).items()
        }
        for left in range(1, DICE + 1)
    }
    reached = {(DICE, 0)}
    todo = [(DICE, 0)]
    while todo:
        left, steps = todo.pop()
        for count, gained in moves[left]:
            after = (left - count or DICE, steps + gained)
            if after[1] <= _REACH_STEPS and after not in reached:
                reached.add(after)
                todo.append(after)
    unreachable = {
        left: frozenset(s for s in range(_REACH_STEPS + 1) if (left, s) not in reached)
        for left in range(1, DICE + 1)
    }
    if any(max(steps) >= _REACH_STEPS - 6 for steps in unreachable.values()):
        raise RuntimeError("some turn total near the top of the walk is unreachable: raise it")
    return unreachable


def read_total(turn_total: object, thrown: int | None = None) -> int:
    """A turn total collected before a throw of `thrown` dice: a multiple of 50 from 0 that
    some turn can have collected before a throw of that many dice (`invalid_state`)."""
    if type(turn_total) is not int or turn_total < 0 or turn_total % STEP:
        raise invalid_state("turn_total", f"{turn_total!r} is not a turn total (0, 50, 100 ...)")
    if thrown is not None and turn_total // STEP in _unreachable_totals()[thrown]:
        dice = "1 die" if thrown == 1 else f"{thrown} dice"
        raise invalid_state(
            "turn_total",
            f"{turn_total} is not a total a turn can have collected before throwing {dice} "
            "(each die set aside scores 50 or more; six dice are thrown at the start, with 0, "
            "or after hot dice, with 300 or more)",
        )
    return turn_total


def read_need(rules: YardkleRules, on_board: bool, need: int) -> int:
    """A final round's `need` for a player, as a game can give it (RULES.md, "End"): the
    leader's score minus the player's plus 1, where the leader has reached the target, the
    player has not, and every score is a multiple of 50 (a player on the board has banked at
    least 50 and the entry minimum; one off it has 0). Otherwise `invalid_state`."""
    leader = ceil(rules.target / STEP) * STEP  # the least a leader can have
    if on_board:
        most = (rules.target - 1) // STEP * STEP  # the most a player below the target has
        least = max(STEP, ceil(rules.entry_minimum / STEP) * STEP)
        if least > most:
            raise invalid_state(
                "need",
                f"is set for a player on the board, but with the target at {rules.target:,} "
                f"and the entry minimum at {rules.entry_minimum:,} no one on the board is below "
                "the target in a final round",
            )
        lowest = leader - most + 1
    else:
        lowest = leader + 1
    if need < lowest or (need - 1) % STEP:
        raise invalid_state(
            "need",
            f"{need:,} is not the leader's score minus yours plus 1 ({lowest:,}, "
            f"{lowest + STEP:,} ... for a player {'on' if on_board else 'off'} the board with "
            f"the target at {rules.target:,})",
        )
    return need


class TurnStrategy:
    """The optimal strategy for the rest of a Yardkle turn (RULES.md, "Turn", "Entering the
    game", "End").

    `rules` gives the entry minimum; `on_board` says whether the player has banked before
    (if not, banking needs the entry minimum); `need=None` maximises the expected points
    banked this turn, `need=n` the chance of banking at least `n` points (the final round:
    `n` is what lifts the player above the leader), a bank of exactly `n - 1` (a tie with the
    leader) counting `tie` (its share of the placement, RULES.md "End").

    `cap` is the turn total from which banking is optimal whenever allowed (checked at every
    total up to `tail_cap`, and by linear inequalities above it); the program is exact below
    it. Passing `cap` raises it (and `tail_cap`), to show that this changes nothing.
    """

    __slots__ = (
        "_bank_from",
        "_decide",
        "_levels",
        "_tail",
        "_throw",
        "cap",
        "need",
        "on_board",
        "rules",
        "tail_cap",
        "tie",
    )

    def __init__(
        self,
        rules: YardkleRules | None = None,
        on_board: bool = True,
        need: int | None = None,
        *,
        cap: int | None = None,
        tie: float = 0.0,
    ) -> None:
        self.rules = rules if rules is not None else YardkleRules()
        self.on_board = on_board
        self.need = need
        if not 0.0 <= tie <= 1.0 or (tie and need is None):
            raise ValueError(f"a tie is worth a share from 0 to 1 in a final round, not {tie!r}")
        self.tie = tie
        # Banking is allowed from this total on (RULES.md, "Entering the game").
        self._bank_from = 0 if on_board else self.rules.entry_minimum
        if need is None:
            self._tail = _tail(1.0, 0.0)
            floor = self._bank_from
        else:
            self._tail = _tail(0.0, 1.0)
            floor = max(self._bank_from, need)
        self.tail_cap = max(_proven_cap(self._tail), ceil(floor / STEP) * STEP)
        if cap is not None:
            self.tail_cap = max(self.tail_cap, ceil(cap / STEP) * STEP)
        self._levels = self.tail_cap // STEP + int(throw_table().steps.max()) + 1
        self.cap = self.tail_cap
        self._throw, self._decide = self._solve(cap)

    def _bank(self, totals: FloatArray) -> tuple[FloatArray, BoolArray]:
        """What banking each total is worth, and whether it is allowed."""
        allowed = totals >= self._bank_from
        if self.need is None:
            return totals.astype(np.float64), allowed
        worth = (totals >= self.need).astype(np.float64)
        worth[totals == self.need - 1] = self.tie
        return worth, allowed

    def _solve(self, raised: int | None) -> tuple[FloatArray, FloatArray]:
        """`throw[level, dice]`: throwing that many dice at a turn total of `level * 50`;
        `decide[level, left]`: the best of banking and throwing `left` dice (`left` 0 is hot
        dice: throwing six is the only choice). Three tiers, from the top:

        1. from `tail_cap` up, the closed forms of `_tail` (proved by `_proven_cap`);
        2. from `cap` up, banking is optimal whenever allowed, checked at every total: the
           forced and chosen rethrows of six dice (hot dice) are solved exactly, since
           setting aside 3,000 points and throwing six again can beat banking until about
           130,000;
        3. below `cap`, the full program.
        """
        table = throw_table()
        totals = np.arange(self._levels, dtype=np.float64) * STEP
        bank, allowed = self._bank(totals)
        throw = np.zeros((self._levels, DICE + 1))
        decide = np.zeros((self._levels, DICE + 1))
        if self.need is not None and self.need <= 0:
            # Already above the leader: nothing this turn can change that.
            throw[:] = decide[:] = 1.0
            self.cap = 0
            return throw, decide
        tail = self._tail
        top = self.tail_cap // STEP
        throw[top:] = np.outer(totals[top:], tail.slope) + tail.base
        decide[top:] = bank[top:, None]
        decide[top:, 0] = throw[top:, DICE]
        floor = int(np.argmax(allowed)) if allowed.any() else top
        floor = max(floor, 0 if self.need is None else ceil(self.need / STEP))
        cap = self._banking_tier(throw, decide, bank, floor, top)
        if raised is not None:
            if raised < cap * STEP:
                raise ValueError(f"the cap can be raised, not lowered below {cap * STEP}")
            cap = ceil(raised / STEP)
        self.cap = cap * STEP
        weights = table.chance
        for level in range(cap - 1, -1, -1):
            found = decide[level + table.steps, table.left]
            best = np.maximum.reduceat(found, table.starts)
            throw[level] = np.bincount(table.dice, weights=weights * best, minlength=DICE + 1)
            decide[level] = throw[level]
            if allowed[level]:
                np.maximum(decide[level, 1:], bank[level], out=decide[level, 1:])
            decide[level, 0] = throw[level, DICE]
        # Six dice left is never a decision (only the first throw, or hot dice: column 0).
        decide[:, DICE] = throw[:, DICE]
        return throw, decide

    def _banking_tier(
        self, throw: FloatArray, decide: FloatArray, bank: FloatArray, floor: int, top: int
    ) -> int:
        """Fill the levels `floor..top` assuming banking whenever allowed, and return the
        lowest level from which that assumption holds at every level up to `top` (throwing
        1 to 5 dice is never worth more than banking there)."""
        if floor >= top:
            return top
        levels = np.arange(floor, top)
        decide[floor:top, 1:] = bank[floor:top, None]
        # Banking is worth more the more points, so a throw's best set-aside that leaves a die
        # is its most points; the other choice is all its dice (hot dice: six dice again).
        six = _best_of_throws(DICE)
        stride = int(six.full_steps[six.full_steps > 0].min())
        for high in range(top, floor, -stride):  # six dice again are `stride` levels up
            block = np.arange(max(floor, high - stride), high)
            best = six.best(block, bank, decide[:, 0])
            decide[block, 0] = throw[block, DICE] = best @ six.chance
        # Fewer dice, at every level at once: nothing but six dice again depends on them.
        for count in range(1, DICE):
            part = _best_of_throws(count)
            throw[floor:top, count] = part.best(levels, bank, decide[:, 0]) @ part.chance
        margin = 1e-9 * np.maximum(1.0, bank[floor:top])
        worse = np.flatnonzero(
            (throw[floor:top, 1:DICE] > (bank[floor:top] + margin)[:, None]).any(axis=1)
        )
        return floor + int(worse[-1]) + 1 if len(worse) else floor

    @property
    def start_value(self) -> float:
        """A whole turn from its first throw of six dice: expected points banked, or the
        chance of banking at least `need`."""
        return self.throw_value(0, DICE)

    def can_bank(self, turn_total: int) -> bool:
        """Whether banking this total is allowed (RULES.md, "Entering the game")."""
        return turn_total >= self._bank_from

    def bank_value(self, turn_total: int) -> float:
        """What banking this total is worth in this objective."""
        if self.need is None:
            return float(turn_total)
        if turn_total >= self.need or self.need <= 0:
            return 1.0
        return self.tie if turn_total == self.need - 1 else 0.0

    def throw_value(self, turn_total: int, dice: int) -> float:
        """Throwing `dice` dice (1 to 6) with this turn total, then playing on optimally."""
        level = turn_total // STEP
        if level < self._levels:
            return float(self._throw[level, dice])
        if self.need is not None and self.need <= 0:
            return 1.0
        return float(self._tail.slope[dice] * turn_total + self._tail.base[dice])

    def bank_or_throw(self, turn_total: object, dice_left: object) -> list[Option]:
        """After a set-aside: banking (when allowed) and throwing the `dice_left` dice again
        (0 or 6 after hot dice: all six, and banking is not allowed), best first."""
        total = read_total(turn_total)
        if type(dice_left) is not int or not 0 <= dice_left <= DICE:
            raise invalid_state("dice_left", f"{dice_left!r} is not 0 to {DICE} dice")
        return ranked(self._then(total, dice_left))

    def _then(self, total: int, left: int) -> Iterable[Option]:
        """Banking and throwing after a set-aside leaving `left` dice (0: hot dice)."""
        throws = DICE if left == 0 else left
        options = [Option(value=self.throw_value(total, throws), then="throw")]
        if 0 < left < DICE and self.can_bank(total):
            options.insert(0, Option(value=self.bank_value(total), then="bank"))
        return options

    def options(self, turn_total: object, dice: object) -> list[Option]:
        """For a throw of `dice` with `turn_total` collected before it: every legal set-aside
        (`scoring.yardkle.set_aside_options`) followed by banking or throwing again, best
        first. Empty for a Yardkle (no point dice: nothing to choose)."""
        thrown = read_throw(dice)
        total = read_total(turn_total, len(thrown))
        found = []
        for selection, points in set_aside_options(list(thrown)).items():
            for then in self._then(total + points, len(thrown) - len(selection)):
                found.append(Option(then.value, set_aside=selection, points=points, then=then.then))
        return ranked(found)

    def set_aside_value(self, turn_total: object, dice: object, set_aside: object) -> float:
        """The value of setting aside `set_aside` from `dice` and then choosing well; a
        selection that is not legal raises what `scoring.yardkle` raises for it."""
        thrown = read_throw(dice)
        total = read_total(turn_total, len(thrown))
        selection = read_dice(set_aside, "set_aside")
        if not selection:
            raise RuleViolation(
                "empty_set_aside",
                f"The throw {show(thrown)} has point dice: at least one must be set aside.",
            )
        if selection not in parts(thrown):
            raise RuleViolation(
                "set_aside_not_thrown",
                f"{show(selection)} are not among the dice thrown, {show(thrown)}.",
                details={"set_aside": list(selection)},
            )
        points = set_aside_options(list(thrown)).get(selection)
        if points is None:
            raise scores_nothing(selection)
        return max(
            option.value for option in self._then(total + points, len(thrown) - len(selection))
        )
