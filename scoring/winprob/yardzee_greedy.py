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
from scoring.analysis.yardzee import YardzeeState, rules_fingerprint, table_name
from scoring.game import invalid_state
from scoring.winprob.yardzee_exact import (
    KEEP_COUNTS,
    ExactRest,
    TurnEnds,
    read_turn,
    transitions,
)
from scoring.winprob.yardzee_spread import (
    Remaining,
    after_state,
    load_moments,
    save_moments,
    zero_table,
)
from scoring.yardzee import MAX_ROLLS, JokerRule, YardzeeRules

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


class GreedySpread(ExactRest):
    """The greedy player's points to come from any position of one ruleset: the moments
    table (`build`, `load`, `save`) and, with at most `EXACT_OPEN` boxes open, the exact
    distribution (`ExactRest`, as `Spread` has the optimal one's)."""

    __slots__ = ("_table", "build_seconds", "rules")

    def __init__(
        self, rules: YardzeeRules, table: FloatArray, build_seconds: float | None = None
    ) -> None:
        shape = (len(GREEDY_ORDERS), solver.STATES)
        if table.shape != shape:
            raise ValueError(f"a greedy table has shape {shape}, not {table.shape}")
        super().__init__()
        self.rules = rules
        self._table = table
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
        table = load_moments(
            directory, greedy_name(rules), _fingerprint(rules), GREEDY_ORDERS, verify
        )
        return cls(rules, table)

    def save(self, directory: str | os.PathLike[str]) -> Path:
        """Write the table and its manifest into `directory`; returns the table's path."""
        return save_moments(
            directory,
            greedy_name(self.rules),
            self._table,
            fingerprint=_fingerprint(self.rules),
            rules=self.rules,
            orders=GREEDY_ORDERS,
            start=self.remaining(YardzeeState.start()),
            build_seconds=self.build_seconds,
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
            ends = self._turn_ends_showing(state, *read_turn(state, dice, rolls_left))
            final, gain = ends.final[:, 0], ends.gain[:, 0]
            rest_mean = self._table[0][ends.after[:, 0]]
            rest_second = self._table[1][ends.after[:, 0]]
            mean = float((final * (gain + rest_mean)).sum())
            second = float((final * (gain * gain + 2 * gain * rest_mean + rest_second)).sum())
        if mean != mean or second != second:  # NaN: only a bad table gets here
            raise invalid_state("state", "has no value in the greedy table")
        return Remaining(mean, max(second - mean * mean, 0.0))

    def _turn_ends(self, states: IntArray) -> TurnEnds:
        boxes = greedy_boxes(states, self.rules.joker)
        final = np.repeat(turn_final()[:, None], len(states), axis=1)
        return TurnEnds(final=final, gain=boxes.gain, after=boxes.after)

    def _turn_ends_showing(
        self, state: YardzeeState, showing: tuple[int, ...], rolls_left: int
    ) -> TurnEnds:
        now = np.zeros(_OUTCOMES)
        now[LAYER_INDEX[showing]] = 1.0
        boxes = greedy_boxes(np.array([state.index]), self.rules.joker)
        final = final_chances(now, rolls_left)[:, None]
        return TurnEnds(final=final, gain=boxes.gain, after=boxes.after)
