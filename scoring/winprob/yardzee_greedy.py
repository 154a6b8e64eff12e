"""A weaker Yardzee player's points to come, exactly: the greedy policy (docs/analysis.md, "Win
probability: Yardzee", "Strengths").

The greedy player keeps the dice of their most common face (the higher face on a tie; five
alike stop) after the first and the second roll, then fills the open box that scores the most
now, bonuses included (the first in scorecard order on a tie): the weaker player of
`scoring.winprob.yardzee_calibration`. Their keeps do not depend on the scorecard, so the chance
of each final dice of a turn (`final_chances`) is one vector for every state; only the box
depends on the state. The same backward induction as the optimal strategy's moments
(`scoring.winprob.yardzee_spread`) then gives the mean and second moment of the points still to
come from every state (`build_greedy`): `E[R] = sum_o f(o) (p + E[R'])` and
`E[R^2] = sum_o f(o) (p^2 + 2 p E[R'] + E[R'^2])`, `p` the points the box of final dice `o`
scores now and `R'` the rest from the state after. Near the end the distribution itself is
followed forwards, as for the optimal player (`GreedySpread.distributions`).

The table is `greedy[order, state]` (order 0 the mean, 1 the second moment; NaN where a state
cannot occur), saved as `yardzee-{joker}-greedy.npy` by `manage.py build_strategy`.
"""

import os
import time
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Final, Self

import numpy as np

from scoring.analysis import yardzee_table as solver
from scoring.analysis.rolls import (
    FACE_COUNTS,
    FACES,
    LAYER_INDEX,
    LAYERS,
    OUTCOME_PROBABILITY,
    FloatArray,
    IntArray,
)
from scoring.analysis.table_file import load_table, save_table
from scoring.analysis.yardzee import YardzeeState, rules_fingerprint, table_name
from scoring.dice import read_dice
from scoring.game import game_over, invalid_state
from scoring.winprob.yardzee_exact import (
    EXACT_OPEN,
    KEEP_COUNTS,
    SUPPORT,
    mixture,
    transitions,
)
from scoring.winprob.yardzee_spread import Remaining, after_state, standing_for, zero_table
from scoring.yardzee import DICE, MAX_ROLLS, JokerRule, YardzeeRules

GREEDY_ORDERS: Final = (1, 2)
"""The raw moments tabulated: the mean and the second moment."""

_CODE: Final = 6 ** np.arange(len(FACES))
"""A multiset of dice as a number: its count of each face in base 6 (at most 5 dice)."""
_KEEP_OF_CODE: Final = np.full(6 ** len(FACES), -1, dtype=np.intp)
_KEEP_OF_CODE[KEEP_COUNTS @ _CODE] = np.arange(len(KEEP_COUNTS))
_OUTCOMES: Final = len(LAYERS[5])


def most_common_face(outcome: IntArray) -> IntArray:
    """The greedy keep of each final dice `outcome`: the dice of the most common face, the
    higher face on a tie (five alike: all five, a stop). Flat keep indexes."""
    counts = FACE_COUNTS[:, outcome].T  # outcomes x faces
    face = (counts * 10 + np.arange(len(FACES))).argmax(axis=1)
    kept = np.zeros_like(counts)
    rows = np.arange(len(face))
    kept[rows, face] = counts[rows, face]
    index: IntArray = _KEEP_OF_CODE[kept @ _CODE]
    return index


@cache
def greedy_roll() -> FloatArray:
    """`[showing, after]`: the chance of the dice after the next roll from the dice showing,
    the greedy keep taken (five alike stay)."""
    table = transitions()
    by_keep = np.zeros((len(KEEP_COUNTS), _OUTCOMES))
    by_keep[table.keep, table.outcome] = table.chance
    found: FloatArray = by_keep[most_common_face(np.arange(_OUTCOMES))]
    return found


def final_chances(showing: FloatArray, rolls_left: int) -> FloatArray:
    """The chances of the final dice (`[outcome, ...]`) from the chances of the dice showing
    with `rolls_left` rolls still allowed."""
    for _ in range(rolls_left):
        showing = np.tensordot(greedy_roll().T, showing, axes=1)
    return showing


@cache
def turn_final() -> FloatArray:
    """The chances of a greedy turn's final dice, from the first roll: one vector, whatever
    the scorecard."""
    return final_chances(OUTCOME_PROBABILITY, MAX_ROLLS - 1)


@dataclass(frozen=True, slots=True)
class GreedyBoxes:
    """The box the greedy player fills with each final dice in each state (`[outcome,
    column]`): the points it scores now, bonuses included (`gain`), and the state after."""

    box: IntArray
    gain: FloatArray
    after: IntArray


def greedy_boxes(states: IntArray, joker: JokerRule) -> GreedyBoxes:
    """The greedy box choices of `states` (table indexes) for every final dice."""
    candidates = solver.box_candidates(zero_table(), states, joker)
    row = candidates.values.argmax(axis=0)  # the first best: scorecard order
    gain = np.take_along_axis(candidates.values, row[None], axis=0)[0]
    box = np.asarray(candidates.boxes, dtype=np.intp)[row]
    outcome = np.arange(_OUTCOMES)[:, None]
    after = after_state(states[None, :], box, outcome)
    return GreedyBoxes(box=box, gain=np.rint(gain), after=after)


def build_greedy(joker: JokerRule, *, down_to: int = 0) -> FloatArray:
    """`E[R]` and `E[R^2]` (`GREEDY_ORDERS`) of the greedy player's remaining points `R` from
    every state, from the last turn back to the first (the states whose upper bonus is out of
    reach share their scorecard's figures: the bonus is then no box's gain). `down_to` stops
    at states with that many boxes filled (the rest stay NaN: for tests)."""
    table = np.full((len(GREEDY_ORDERS), solver.STATES), np.nan)
    table[:, solver.level_states(solver.BOXES)] = 0.0
    final = turn_final()[:, None]
    for filled_boxes in range(solver.BOXES - 1, down_to - 1, -1):
        states = solver.level(filled_boxes)
        for start in range(0, len(states.solved), solver.BLOCK):
            block = states.solved[start : start + solver.BLOCK]
            boxes = greedy_boxes(block, joker)
            mean, second = table[0][boxes.after], table[1][boxes.after]
            gain = boxes.gain
            table[0, block] = (final * (gain + mean)).sum(axis=0)
            table[1, block] = (final * (gain * gain + 2 * gain * mean + second)).sum(axis=0)
        table[:, states.same] = table[:, states.as_]
    return table


def greedy_name(rules: YardzeeRules) -> str:
    """The greedy table's file name (without extension): "yardzee-forced-greedy"."""
    return f"{table_name(rules)}-greedy"


def _fingerprint(rules: YardzeeRules) -> str:
    return f"greedy{GREEDY_ORDERS}:{rules_fingerprint(rules)}"


class GreedySpread:
    """The greedy player's points to come from any position of one ruleset: the moments
    table (`build`, `load`, `save`) and, with at most `EXACT_OPEN` boxes open, the exact
    distribution (solved on demand and kept, as `Spread` keeps the optimal one's)."""

    __slots__ = ("_exact", "_table", "build_seconds", "rules")

    def __init__(
        self, rules: YardzeeRules, table: FloatArray, build_seconds: float | None = None
    ) -> None:
        shape = (len(GREEDY_ORDERS), solver.STATES)
        if table.shape != shape:
            raise ValueError(f"a greedy table has shape {shape}, not {table.shape}")
        self.rules = rules
        self._table = table
        self._exact: dict[int, FloatArray] = {}
        self.build_seconds = build_seconds

    @classmethod
    def build(cls, rules: YardzeeRules) -> Self:
        """Tabulate the greedy player's moments (seconds: docs/analysis.md)."""
        started = time.perf_counter()
        table = build_greedy(rules.joker)
        return cls(rules, table, build_seconds=time.perf_counter() - started)

    @classmethod
    def load(
        cls, rules: YardzeeRules | None, directory: str | os.PathLike[str], *, verify: bool = True
    ) -> Self:
        """The table saved in `directory` for `rules`, memory-mapped read-only. Raises
        `StrategyTableMissing` or `StrategyTableCorrupt` as `Strategy.load` does."""
        rules = rules if rules is not None else YardzeeRules()
        table, _ = load_table(
            directory,
            greedy_name(rules),
            fingerprint=_fingerprint(rules),
            shape=(len(GREEDY_ORDERS), solver.STATES),
            verify=verify,
        )
        return cls(rules, table)

    def save(self, directory: str | os.PathLike[str]) -> Path:
        """Write the table and its manifest into `directory`; returns the table's path."""
        start = self.remaining(YardzeeState.start())
        facts = {
            "game": "yardzee",
            "rules": self.rules.to_json(),
            "orders": list(GREEDY_ORDERS),
            "start_value": start.mean,
            "start_deviation": start.variance**0.5,
            "build_seconds": self.build_seconds,
        }
        return save_table(
            directory,
            greedy_name(self.rules),
            np.asarray(self._table),
            fingerprint=_fingerprint(self.rules),
            facts=facts,
        )

    @property
    def table(self) -> FloatArray:
        """`[order, state]`: the mean and the second moment of the points to come."""
        return self._table

    def remaining(
        self, state: YardzeeState, dice: object = None, rolls_left: int | None = None
    ) -> Remaining:
        """The mean and variance of the greedy player's points still to come, between turns
        or with `dice` showing and `rolls_left` rolls still allowed (as `Spread.remaining`)."""
        if dice is None:
            if rolls_left is not None:
                raise invalid_state("rolls_left", "is given without the dice showing")
            if state.is_over:
                return Remaining(0.0, 0.0)
            mean, second = (float(x) for x in self._table[:, state.index])
        else:
            final, boxes = self._turn(state, dice, rolls_left)
            rest_mean = self._table[0][boxes.after[:, 0]]
            rest_second = self._table[1][boxes.after[:, 0]]
            gain = boxes.gain[:, 0]
            mean = float((final * (gain + rest_mean)).sum())
            second = float((final * (gain * gain + 2 * gain * rest_mean + rest_second)).sum())
        if mean != mean or second != second:  # NaN: only a bad table gets here
            raise invalid_state("state", "has no value in the greedy table")
        return Remaining(mean, max(second - mean * mean, 0.0))

    def _turn(
        self, state: YardzeeState, dice: object, rolls_left: int | None
    ) -> tuple[FloatArray, GreedyBoxes]:
        showing = read_dice(dice, "dice", DICE)
        if state.is_over:
            raise game_over()
        if type(rolls_left) is not int or not 0 <= rolls_left < MAX_ROLLS:
            raise invalid_state("rolls_left", f"{rolls_left!r} is not 0, 1 or 2")
        now = np.zeros(_OUTCOMES)
        now[LAYER_INDEX[showing]] = 1.0
        return final_chances(now, rolls_left), greedy_boxes(
            np.array([state.index]), self.rules.joker
        )

    def distribution(
        self, state: YardzeeState, dice: object = None, rolls_left: int | None = None
    ) -> FloatArray | None:
        """The exact distribution of the greedy player's points still to come with at most
        `EXACT_OPEN` boxes open, else None (as `Spread.distribution`)."""
        if len(state.filled) < solver.BOXES - EXACT_OPEN:
            return None
        if dice is None:
            if rolls_left is not None:
                raise invalid_state("rolls_left", "is given without the dice showing")
            found: FloatArray = self.distributions(np.array([state.index]))[0]
            return found
        final, boxes = self._turn(state, dice, rolls_left)
        rest: FloatArray = self._mixture(final[:, None], boxes)[0]
        return rest

    def distributions(self, states: IntArray) -> FloatArray:
        """The exact distributions (`[state, points]`) of states between turns with at most
        `EXACT_OPEN` boxes open, solved once and kept."""
        kept = standing_for()[np.asarray(states, dtype=np.intp)]
        self._solve(sorted(set(np.unique(kept).tolist()) - self._exact.keys()))
        return np.stack([self._exact[index] for index in kept.tolist()])

    def _solve(self, states: list[int]) -> None:
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
            boxes = greedy_boxes(block, self.rules.joker)
            final = np.repeat(turn_final()[:, None], len(block), axis=1)
            for index, rest in zip(block, self._mixture(final, boxes), strict=True):
                self._exact[int(index)] = rest

    def _mixture(self, final: FloatArray, boxes: GreedyBoxes) -> FloatArray:
        after = standing_for()[boxes.after]
        needed = np.unique(after)
        self._solve([int(index) for index in needed if int(index) not in self._exact])
        rows = np.searchsorted(needed, after)
        stacked = np.stack([self._exact[int(index)] for index in needed])
        return mixture(final, boxes.gain, rows, stacked)


_EXACT_KEPT: Final = 60_000  # every state with 4 boxes open or fewer: 52,392 solved
_NOTHING_MORE: Final = np.eye(1, SUPPORT)[0]
