"""The exact distribution of a Yardzee player's remaining points near the end of their game
(docs/analysis.md, "Win probability: Yardzee").

With few boxes open the points still to come are lumpy (a Yardzee box open is 50 or nothing),
and no smooth curve of a few moments describes them. From a state with at most `EXACT_OPEN`
boxes open, the turns left are followed forwards under the optimal solitaire strategy: the
chance of each dice showing after each roll (the keep the strategy takes, then the dice thrown),
of each final dice, and so of each box, its points and the state after; the distribution of the
rest is the mixture of the states' after, shifted by the points. The states after are solved
the same way first, down to the full scorecard (nothing more to come).

`ExactRest` is what the optimal player's `Spread` and the greedy player's `GreedySpread` share:
the distributions solved on demand and kept; each says how its own policy ends a turn.

Also the tables that follow keeps forwards (`KEEP_COUNTS`, `transitions`), which the
calibration's simulated players use too.
"""

from abc import ABC, abstractmethod
from dataclasses import dataclass
from functools import cache
from typing import Final

import numpy as np

from scoring.analysis import yardzee_table as solver
from scoring.analysis.rolls import (
    FACES,
    KEEP_OFFSETS,
    LAYER_INDEX,
    LAYERS,
    OUTCOME_PROBABILITY,
    FloatArray,
    IntArray,
    RollValues,
    chance,
    keep_choices,
)
from scoring.analysis.yardzee import YardzeeState
from scoring.dice import read_dice
from scoring.game import game_over, invalid_state
from scoring.yardzee import DICE, MAX_ROLLS

EXACT_OPEN: Final = 4
"""States with at most this many boxes open have their exact distribution."""
SUPPORT: Final = 768
"""Remaining points 0 to 767: four turns score at most 4 x 165 (five 6s in Sixes: 30, the
upper bonus 35 and a Yardzee bonus 100)."""

KEEP_COUNTS: Final[IntArray] = np.array(
    [[keep.count(face) for face in FACES] for layer in LAYERS for keep in layer], dtype=np.intp
)
"""`KEEP_COUNTS[keep, face - 1]`: the dice of each face in a keep (all keeps in one row
order, size 0 first: `KEEP_OFFSETS`)."""
KEEP_SIZE: Final[IntArray] = KEEP_COUNTS.sum(axis=1)


@dataclass(frozen=True, slots=True)
class Transitions:
    """Keeping a keep and throwing the other dice, as a sparse table sorted by outcome: the
    `keep` (flat index), the `outcome` it can show, and its `chance`; `starts` are where each
    outcome's entries begin (4,368 entries of 116,424)."""

    keep: IntArray
    outcome: IntArray
    chance: FloatArray
    starts: IntArray


@cache
def transitions() -> Transitions:
    """Every keep's outcomes and their chances (RULES.md, Yardzee "Turn")."""
    entries: dict[tuple[int, int], float] = {}
    for size, layer in enumerate(LAYERS):
        for index, keep in enumerate(layer):
            for thrown in LAYERS[5 - size]:
                key = (LAYER_INDEX[tuple(sorted(keep + thrown))], int(KEEP_OFFSETS[size]) + index)
                entries[key] = entries.get(key, 0.0) + chance(thrown)
    ordered = sorted(entries)
    outcome = np.array([outcome for outcome, _ in ordered], dtype=np.intp)
    return Transitions(
        keep=np.array([keep for _, keep in ordered], dtype=np.intp),
        outcome=outcome,
        chance=np.array([entries[key] for key in ordered]),
        starts=np.searchsorted(outcome, np.arange(len(LAYERS[5]))),
    )


def roll_forward(values: RollValues, showing: FloatArray) -> FloatArray:
    """The chances of the dice showing after the next roll (`[outcome, column]`), from the
    chances of the dice showing now, each taking the best keep of `values` (stopping keeps
    all five: the same dice)."""
    columns = showing.shape[1]
    keep = keep_choices(values)
    slots = keep * columns + np.arange(columns)[None, :]
    by_keep = np.bincount(
        slots.ravel(), weights=showing.ravel(), minlength=len(KEEP_COUNTS) * columns
    ).reshape(len(KEEP_COUNTS), columns)
    # A sparse product (not a matrix product: no BLAS threads for a few thousand entries).
    table = transitions()
    after: FloatArray = np.add.reduceat(
        table.chance[:, None] * by_keep[table.keep], table.starts, axis=0
    )
    return after


def first_roll(columns: int) -> FloatArray:
    """The chances of the dice showing after the first roll, for `columns` states."""
    return np.repeat(OUTCOME_PROBABILITY[:, None], columns, axis=1)


def mixture(
    final: FloatArray, gain: FloatArray, after_rows: IntArray, after: FloatArray
) -> FloatArray:
    """The distribution of the points still to come (`[column, points]`) when the final dice
    show each outcome with chance `final[outcome, column]`, scoring `gain` now and leading to
    the state whose distribution is row `after_rows[outcome, column]` of `after`."""
    columns = final.shape[1]
    column = np.broadcast_to(np.arange(columns)[None, :], final.shape)
    gains = gain.astype(np.intp)
    # One term per column, state after and points now (many outcomes lead to the same).
    key = (column * len(after) + after_rows) * SUPPORT + gains
    present = final > 0
    keys, where = np.unique(key[present], return_inverse=True)
    weights = np.bincount(where, weights=final[present])
    term_gain = keys % SUPPORT
    term_row = keys // SUPPORT % len(after)
    term_column = keys // SUPPORT // len(after)
    # Each term adds its weight times the state after's distribution, shifted by its points.
    points = np.arange(SUPPORT)[None, :]
    slots = (term_column * SUPPORT + term_gain)[:, None] + points
    inside = term_gain[:, None] + points < SUPPORT  # a rest past the support has no chance
    values = weights[:, None] * after[term_row]
    summed = np.bincount(slots[inside], weights=values[inside], minlength=columns * SUPPORT)
    rest: FloatArray = np.asarray(summed, dtype=np.float64).reshape(columns, SUPPORT)
    return rest


@dataclass(frozen=True, slots=True)
class TurnEnds:
    """How a policy ends a turn, for states in columns: the chance of each final dice
    (`final[outcome, column]`), the points its box scores now, bonuses included (`gain`), and
    the state after (`after`, table indexes)."""

    final: FloatArray
    gain: FloatArray
    after: IntArray


def read_turn(state: YardzeeState, dice: object, rolls_left: object) -> tuple[tuple[int, ...], int]:
    """The dice showing in a turn from `state` and the rolls still allowed (2 after the first
    roll, 1 after the second, 0 when the box is to be chosen): bad positions raise
    `RuleViolation` (`invalid_die`, `wrong_dice_count`, `game_over`, `invalid_state`)."""
    showing = read_dice(dice, "dice", DICE)
    if state.is_over:
        raise game_over()
    if type(rolls_left) is not int or not 0 <= rolls_left < MAX_ROLLS:
        raise invalid_state("rolls_left", f"{rolls_left!r} is not 0, 1 or 2")
    return showing, rolls_left


@cache
def standing_for() -> IntArray:
    """`[state]`: the state whose exact distribution a state has: itself, or where its upper
    bonus is out of reach the one state of its scorecard that stands for the rest
    (`yardzee_table.level`: their futures are the same)."""
    found = np.arange(solver.STATES)
    for filled_boxes in range(solver.BOXES - EXACT_OPEN, solver.BOXES):
        level = solver.level(filled_boxes)
        found[level.same] = level.as_
    return found


_EXACT_KEPT: Final = 60_000  # every state with 4 boxes open or fewer: 52,392 solved
_NOTHING_MORE: Final = np.eye(1, SUPPORT)[0]
"""The distribution of a full scorecard's rest: 0 points."""


class ExactRest(ABC):
    """The exact distribution of a policy's points still to come (`[points]`, 0 to
    `SUPPORT` - 1) from states with at most `EXACT_OPEN` boxes open: each state's turn ended
    the policy's way (`_turn_ends`), the states after solved first, down to the full
    scorecard; solved on demand and kept (up to `_EXACT_KEPT` states, then started again)."""

    __slots__ = ("_exact",)

    def __init__(self) -> None:
        self._exact: dict[int, FloatArray] = {}

    @abstractmethod
    def _turn_ends(self, states: IntArray) -> TurnEnds:
        """How the policy ends a turn of each of `states` (table indexes), from its first roll."""

    @abstractmethod
    def _turn_ends_showing(
        self, state: YardzeeState, showing: tuple[int, ...], rolls_left: int
    ) -> TurnEnds:
        """How the policy ends the turn of `state` from the dice `showing` (one column)."""

    def distribution(
        self, state: YardzeeState, dice: object = None, rolls_left: int | None = None
    ) -> FloatArray | None:
        """The exact distribution of the points still to come when at most `EXACT_OPEN` boxes
        are open, else None; between turns (`dice` None), or in a turn with `dice` showing and
        `rolls_left` rolls still allowed (`read_turn`)."""
        if len(state.filled) < solver.BOXES - EXACT_OPEN:
            return None
        if dice is None:
            if rolls_left is not None:
                raise invalid_state("rolls_left", "is given without the dice showing")
            found: FloatArray = self.distributions(np.array([state.index]))[0]
            return found
        showing, rolls = read_turn(state, dice, rolls_left)
        rest: FloatArray = self._mixture(self._turn_ends_showing(state, showing, rolls))[0]
        return rest

    def distributions(self, states: IntArray) -> FloatArray:
        """The exact distributions (`[state, points]`) of states between turns with at most
        `EXACT_OPEN` boxes open (table indexes), solved once and kept."""
        kept = standing_for()[np.asarray(states, dtype=np.intp)]
        self._solve(sorted(set(np.unique(kept).tolist()) - self._exact.keys()))
        return np.stack([self._exact[index] for index in kept.tolist()])

    def _solve(self, states: list[int]) -> None:
        """Solve the exact distributions of `states` (representatives, not yet kept), and
        first of every state they lead to."""
        if len(self._exact) + len(states) > _EXACT_KEPT:
            self._exact.clear()
        for start in range(0, len(states), solver.BLOCK):
            block = np.array(states[start : start + solver.BLOCK], dtype=np.intp)
            full = block // (solver.UPPER_STATES * 2) == solver.MASKS - 1
            for index in block[full]:
                self._exact[int(index)] = _NOTHING_MORE
            block = block[~full]
            if not len(block):
                continue
            for index, rest in zip(block, self._mixture(self._turn_ends(block)), strict=True):
                self._exact[int(index)] = rest

    def _mixture(self, ends: TurnEnds) -> FloatArray:
        """The distributions of the points still to come from turns ending so."""
        after = standing_for()[ends.after]
        needed = np.unique(after)
        self._solve([int(index) for index in needed if int(index) not in self._exact])
        rows = np.searchsorted(needed, after)
        stacked = np.stack([self._exact[int(index)] for index in needed])
        return mixture(ends.final, ends.gain, rows, stacked)
