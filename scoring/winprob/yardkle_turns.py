"""One Yardkle turn as a fixed policy, and the exact distribution of the points it banks.

RULES.md, "Yardkle": "Turn" (a Yardkle loses the turn total; hot dice: all six set aside means
throwing six again before banking), "Entering the game" (the entry minimum) and "End" (the
final round). A `TurnPolicy` says, for every turn total (in steps of 50) and every throw, which
set-aside is taken and whether the player then banks. It is read off a `TurnStrategy`
(`policy_of`: the points-maximising turn, or the final round's "bank at least `need`"), or is
the plain heuristic of `weak_policy` (most points, bank from 300 or with two dice or fewer).

`banked_distribution` walks the policy backwards from the top total: from any state of the
turn (turn total, dice about to be thrown, or dice left after a set-aside) it gives the exact
chance of every banked total, the Yardkle (0 banked) included. Totals from `bins - 1` up are
lumped into the last bin (they are far above any target's reach from the start of a turn), as
if banked there, save for hot dice, which must first survive throwing six again.
"""

from dataclasses import dataclass
from functools import cache
from itertools import combinations_with_replacement
from typing import Final, Literal

import numpy as np

from scoring.analysis.rolls import BoolArray, FloatArray, IntArray
from scoring.analysis.yardkle import STEP, TurnStrategy, throw_table
from scoring.yardkle import DICE, YardkleRules, has_points

_CODE_BASE: Final = 7
"""Sorted dice padded with zeros to six, read as base-7 digits, index `throw_code`."""


@dataclass(frozen=True, slots=True)
class TurnPolicy:
    """A fixed way to play a turn, for turn totals `0 .. levels - 1` (in steps of 50).

    `choice[level, throw]`: the set-aside taken (an index into `throw_table()`'s set-asides)
    for each throw that holds point dice; `bank[level, left]`: whether the player banks with
    `left` dice left after a set-aside (column 0, hot dice, is never a bank). Totals at or
    above `levels` bank whenever allowed (both strategies do so long before).
    """

    choice: IntArray
    bank: BoolArray

    @property
    def levels(self) -> int:
        return int(self.choice.shape[0])


def _first_best(values: FloatArray) -> IntArray:
    """Per level, per throw: the index of the first set-aside with the highest value."""
    table = throw_table()
    best = np.maximum.reduceat(values, table.starts, axis=1)
    counts = np.diff(np.append(table.starts, len(table.steps)))
    is_best = values >= np.repeat(best, counts, axis=1)
    index = np.where(is_best, np.arange(len(table.steps)), len(table.steps))
    found: IntArray = np.minimum.reduceat(index, table.starts, axis=1)
    return found


def policy_of(strategy: TurnStrategy, levels: int) -> TurnPolicy:
    """The policy a `TurnStrategy` plays (its best option at every decision; a tie between
    banking and throwing banks, as `TurnStrategy.bank_or_throw` lists banking first)."""
    table = throw_table()
    top = levels + int(table.steps.max()) + 1
    totals = np.arange(top) * STEP
    throw = np.array(
        [[strategy.throw_value(int(t), d) for d in range(1, DICE + 1)] for t in totals]
    )
    bank_value = np.array([strategy.bank_value(int(t)) for t in totals])
    allowed = np.array([strategy.can_bank(int(t)) for t in totals])
    after = np.empty((top, DICE))
    after[:, 0] = throw[:, DICE - 1]
    bank = np.zeros((top, DICE), dtype=bool)
    for left in range(1, DICE):
        bank[:, left] = allowed & (bank_value >= throw[:, left - 1])
        after[:, left] = np.where(bank[:, left], bank_value, throw[:, left - 1])
    level = np.arange(levels)[:, None]
    values = after[level + table.steps, table.left]
    return TurnPolicy(choice=_first_best(values), bank=bank)


def weak_policy(
    rules: YardkleRules, on_board: bool, levels: int, need: int | None = None
) -> TurnPolicy:
    """A plain player: set aside the most points (on a tie, keep more dice to throw), then
    bank from a turn total of 300 or with two dice or fewer left, when allowed. In the final
    round (`need`), keep throwing until the turn total reaches `need`, then bank."""
    table = throw_table()
    top = levels + int(table.steps.max()) + 1
    totals = np.arange(top) * STEP
    floor = 0 if on_board else rules.entry_minimum
    allowed = totals >= max(floor, need or 0)
    bank = np.zeros((top, DICE), dtype=bool)
    for left in range(1, DICE):
        wants = allowed if need is not None else allowed & ((totals >= 300) | (left <= 2))
        bank[:, left] = wants
    # Most points first, then most dice left: one value orders both.
    values = np.broadcast_to(
        (table.steps * (DICE + 1) + table.left).astype(np.float64), (levels, len(table.steps))
    )
    return TurnPolicy(choice=_first_best(np.ascontiguousarray(values)), bank=bank)


@dataclass(frozen=True, slots=True)
class TurnDistribution:
    """Exact chances of the points banked from every state of a turn under one policy.

    `throw[level, dice]`: about to throw `dice` (1 to 6) dice with `level * 50` collected;
    `after[level, left]`: just set aside, `left` dice left (0: hot dice). Each is a vector over
    banked points in steps of 50 (index 0: nothing banked, a Yardkle), the last bin lumping
    everything from there up.
    """

    throw: FloatArray
    after: FloatArray

    @property
    def start(self) -> FloatArray:
        """A whole turn, from its first throw of six dice."""
        found: FloatArray = self.throw[0, DICE]
        return found


def banked_distribution(
    policy: TurnPolicy, bins: int, fold: IntArray | None = None
) -> TurnDistribution:
    """Walk the policy from the top total down (each set-aside adds 50 or more, so a total
    only leads to higher ones): a throw's distribution is the chance-weighted mix of what
    its chosen set-aside leads to, plus the Yardkle's chance on bin 0. `fold[level]`, if
    given, is the outcome a bank of `level` counts as (e.g. short, tie, pass in a final
    round): the distribution is then over those outcomes, at a fraction of the work."""
    table = throw_table()
    levels = bins
    fold = np.arange(bins) if fold is None else np.asarray(fold)
    width = int(fold.max()) + 1
    throw = np.zeros((levels, DICE + 1, width))
    after = np.zeros((levels, DICE, width))
    # Past the top a player banks after any set-aside leaving a die; after hot dice they first
    # throw six until one such set-aside shows, or a Yardkle ends it.
    six = table.dice == DICE
    partial = float(table.chance[six & (table.best_partial >= 0)].sum())
    forced = float(table.chance[six & (table.best_partial < 0)].sum())
    banks_after_hot_dice = partial / (1.0 - forced)
    lumped = np.zeros((DICE, width))
    lumped[:, fold[bins - 1]] = 1.0
    lumped[0, fold[bins - 1]] = banks_after_hot_dice
    lumped[0, fold[0]] += 1.0 - banks_after_hot_dice
    yardkle = {d: 1.0 - float(table.chance[table.dice == d].sum()) for d in range(1, DICE + 1)}
    by_dice = {d: np.flatnonzero(table.dice == d) for d in range(1, DICE + 1)}
    for level in range(levels - 1, -1, -1):
        in_policy = min(level, policy.levels - 1)
        for d in range(1, DICE + 1):
            throws = by_dice[d]
            chosen = policy.choice[in_policy, throws]
            to = level + table.steps[chosen]
            left = table.left[chosen]
            rows = np.where(
                (to < levels)[:, None],
                after[np.minimum(to, levels - 1), left],
                lumped[left],
            )
            throw[level, d] = table.chance[throws] @ rows
            throw[level, d, fold[0]] += yardkle[d]
        after[level, 0] = throw[level, DICE]
        banks = policy.bank[level] if level < policy.bank.shape[0] else np.ones(DICE, bool)
        for left in range(1, DICE):
            if banks[left]:
                after[level, left] = 0.0
                after[level, left, fold[level]] = 1.0
            else:
                after[level, left] = throw[level, left]
    return TurnDistribution(throw=throw, after=after)


@cache
def points_distribution(rules: YardkleRules, on_board: bool, bins: int) -> TurnDistribution:
    """The points-maximising turn (`TurnStrategy(rules, on_board)`), exactly."""
    return banked_distribution(policy_of(TurnStrategy(rules, on_board), bins), bins)


Style = Literal["points", "weak"]
"""How a player plays their normal turns: for the most points (`TurnStrategy`) or as
`weak_policy`."""


@cache
def turn_distribution(
    rules: YardkleRules, on_board: bool, bins: int, style: Style = "points"
) -> TurnDistribution:
    """A normal turn of that style, exactly (`points_distribution` or the weak policy's)."""
    if style == "points":
        return points_distribution(rules, on_board, bins)
    return banked_distribution(weak_policy(rules, on_board, bins), bins)


@cache
def throw_code() -> IntArray:
    """Index from a throw (sorted dice, zero-padded to six, as base-7 digits) to its row in
    `throw_table()` (which lists the throws holding point dice by count, then in
    `combinations_with_replacement` order); -1 for a Yardkle (no point dice)."""
    code = np.full(_CODE_BASE**DICE, -1, dtype=np.intp)
    row = 0
    for count in range(1, DICE + 1):
        for throw in combinations_with_replacement(range(1, 7), count):
            if not has_points(list(throw)):
                continue
            padded = (0,) * (DICE - count) + throw
            code[sum(face * _CODE_BASE**i for i, face in enumerate(padded))] = row
            row += 1
    if row != len(throw_table().dice):
        raise RuntimeError("the throw table and the throw codes disagree")
    return code
