"""How a Yardzee player's remaining points spread: the second moment of the points still to
come from every state under the optimal solitaire strategy, and near the end of the game their
exact distribution (docs/analysis.md, "Win probability: Yardzee").

The strategy table (`scoring.analysis.yardzee_table`) holds the mean of the remaining points
`R` from every state between turns. This module follows the same policy (every keep and box
the table makes best) through the same backward induction, a level of states at a time, and
tabulates `E[R^2]`: when a box scores `p` now (bonuses included) and leads to a state whose
rest is `R'`, `E[(p + R')^2] = p^2 + 2 p E[R'] + E[R'^2]`; keeps and rolls are means, so the
second moment goes through them as the mean does. (The same works for any order: `ORDERS`.)

The table is `moments[order index, state]` in the strategy table's layout (NaN where a state
cannot occur), saved beside it as `yardzee-{joker}-moments.npy` by `manage.py build_strategy`.
With at most `EXACT_OPEN` boxes open the distribution itself is computed on demand
(`scoring.winprob.yardzee_exact.ExactRest`, which `Spread` is). `save_moments` and
`load_moments` write and read such a table, this one and the greedy player's.
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
    LAYER_INDEX,
    FloatArray,
    IntArray,
    roll_followed,
    roll_values,
)
from scoring.analysis.table_file import load_table, save_table
from scoring.analysis.yardzee import Strategy, YardzeeState, rules_fingerprint, table_name
from scoring.game import invalid_state
from scoring.winprob.yardzee_exact import ExactRest, TurnEnds, first_roll, read_turn, roll_forward
from scoring.yardzee import UPPER_BONUS_AT, YARDZEE, JokerRule, YardzeeRules

ORDERS: Final = (2,)
"""The moments tabulated beside the mean (which is the strategy table): a third and fourth
were tried, for a shifted gamma, and calibrated no better than the normal (docs/analysis.md)."""
# Turn solutions kept per spread (about 50 KB each), as `Strategy` keeps its own.
_TURNS_KEPT: Final = 256


@cache
def zero_table() -> FloatArray:
    """A table of zeros: box candidates over it are the points a box scores now."""
    return np.zeros(solver.STATES)


def after_state(states: IntArray, box: IntArray, outcome: IntArray) -> IntArray:
    """The state (table index) after filling `box` with the dice of `outcome`, elementwise
    (RULES.md, "Boxes": an upper box adds its face's dice to the upper subtotal, a Yardzee in
    its box sets the 50; a joker in a lower box or a zero changes neither)."""
    filled = states // (solver.UPPER_STATES * 2)
    upper = (states >> 1) & (solver.UPPER_STATES - 1)
    upper_box = np.minimum(box, solver.UPPER - 1)
    face_points = FACE_COUNTS[upper_box, outcome] * (upper_box + 1)
    upper = np.where(box < solver.UPPER, np.minimum(upper + face_points, UPPER_BONUS_AT), upper)
    scored_50 = (box == YARDZEE) & (solver.SCORES[YARDZEE, outcome] == solver.YARDZEE_POINTS)
    after: IntArray = ((filled | (1 << box)) * solver.UPPER_STATES + upper) * 2 + (
        (states & 1) | scored_50
    )
    return after


@dataclass(frozen=True, slots=True)
class TurnMoments:
    """One turn solved for states in columns under the expected-value policy: `value` is the
    strategy's own `TurnValues` (the means of the points still to come, this turn's box and
    bonuses included); `moments` the same tables of `E[R^k]` for the `ORDERS`, each array with
    the order on a middle axis (`[outcome, order, column]`; `start` is `[order, column]`).
    `best_box[outcome, column]` is the box the final dice fill and `gain` the points it
    scores now, bonuses included."""

    value: solver.TurnValues
    moments: solver.TurnValues
    best_box: IntArray
    gain: FloatArray


@dataclass(frozen=True, slots=True)
class TurnPolicy:
    """One turn solved for states in columns (`value`, the strategy's own `TurnValues`), with
    the box the expected-value policy fills with each final dice: `best_box[outcome, column]`
    (the first best, as `final_values` takes its value), the points it scores now with the
    bonuses (`gain`) and the state after it (`after`, table indexes)."""

    value: solver.TurnValues
    best_box: IntArray
    gain: FloatArray
    after: IntArray


def turn_policy(table: FloatArray, states: IntArray, joker: JokerRule) -> TurnPolicy:
    """Solve one turn for the states in `states` (table indexes), noting the boxes chosen."""
    means = solver.box_candidates(table, states, joker)
    final: FloatArray = means.values.max(axis=0)
    # Rows from the last to the first, each overwriting where it is best: the first best.
    best_box = np.zeros(final.shape, dtype=np.intp)
    for row in range(len(means.boxes) - 1, -1, -1):
        best_box[means.values[row] == final] = means.boxes[row]
    outcome = np.arange(final.shape[0])[:, None]
    after = after_state(states[None, :], best_box, outcome)
    gain = np.rint(final - table[after])  # points are whole: the sum's rounding taken off
    last = roll_values(final, final)
    middle = roll_values(last.showing, final)
    value = solver.TurnValues(
        final=final, last=last, middle=middle, start=solver.first_roll(middle.showing)
    )
    return TurnPolicy(value=value, best_box=best_box, gain=gain, after=after)


def turn_moments(
    table: FloatArray, moments: FloatArray, states: IntArray, joker: JokerRule
) -> TurnMoments:
    """Solve one turn for the states in `states` (table indexes), given the mean `table` and
    the `moments` (`[order, state]`) of every state one box fuller."""
    policy = turn_policy(table, states, joker)
    value, gain, after = policy.value, policy.gain, policy.after
    rest = [table[after], *(moments[k][after] for k in range(len(ORDERS)))]
    # E[(p + R')^2] with p the gain and R' the rest.
    mean, second = rest
    final_moments = (gain * gain + 2 * gain * mean + second)[:, None, :]
    last_moments = roll_followed(value.last, final_moments, final_moments)
    middle_moments = roll_followed(value.middle, last_moments.showing, final_moments)
    width = middle_moments.showing.shape
    start = solver.first_roll(middle_moments.showing.reshape(width[0], -1)).reshape(width[1:])
    return TurnMoments(
        value=value,
        moments=solver.TurnValues(
            final=final_moments, last=last_moments, middle=middle_moments, start=start
        ),
        best_box=policy.best_box,
        gain=gain,
    )


def build_moments(table: FloatArray, joker: JokerRule, *, down_to: int = 0) -> FloatArray:
    """`E[R^k]` of the remaining points `R` of every state, for the `ORDERS`, from the strategy
    `table` of the same joker rule, from the last turn back to the first (the states whose
    upper bonus is out of reach share their scorecard's figures, as in the strategy table).
    `down_to` stops at states with that many boxes filled (the rest stay NaN: for tests)."""
    moments = np.full((len(ORDERS), solver.STATES), np.nan)
    moments[:, solver.level_states(solver.BOXES)] = 0.0
    for filled_boxes in range(solver.BOXES - 1, down_to - 1, -1):
        states = solver.level(filled_boxes)
        for start in range(0, len(states.solved), solver.BLOCK):
            block = states.solved[start : start + solver.BLOCK]
            moments[:, block] = turn_moments(table, moments, block, joker).moments.start
        moments[:, states.same] = moments[:, states.as_]
    return moments


@dataclass(frozen=True, slots=True)
class Remaining:
    """The points still to come in a player's game: their `mean` and `variance`."""

    mean: float
    variance: float


def central(mean: FloatArray, raw: FloatArray) -> FloatArray:
    """The variance from the mean and `raw[0]`, the second raw moment (elementwise)."""
    variance: FloatArray = np.maximum(raw[0] - mean**2, 0.0)
    return variance


def moments_name(rules: YardzeeRules) -> str:
    """The moments table's file name (without extension): "yardzee-forced-moments"."""
    return f"{table_name(rules)}-moments"


def _fingerprint(rules: YardzeeRules) -> str:
    return f"moments{ORDERS}:{rules_fingerprint(rules)}"


class Spread(ExactRest):
    """How a player's remaining points spread from any position, under the optimal solitaire
    strategy of one ruleset (RULES.md, "Yardzee"): its `Strategy` (the means) and the table
    of higher moments. `Spread.build(strategy)` computes the table (seconds: docs/benchmarks.md);
    `Spread.load(rules, directory)` memory-maps both tables `manage.py build_strategy` saved.
    """

    __slots__ = ("_moments", "_strategy", "_turns", "build_seconds")

    def __init__(
        self, strategy: Strategy, moments: FloatArray, build_seconds: float | None = None
    ) -> None:
        shape = (len(ORDERS), solver.STATES)
        if moments.shape != shape:
            raise ValueError(f"a moments table has shape {shape}, not {moments.shape}")
        super().__init__()
        self._strategy = strategy
        self._moments = moments
        self._turns: dict[int, TurnMoments] = {}
        self.build_seconds = build_seconds

    @classmethod
    def build(cls, strategy: Strategy) -> Self:
        """Tabulate the moments that `strategy` (built or loaded) leads to."""
        started = time.perf_counter()
        moments = build_moments(np.asarray(strategy.table), strategy.rules.joker)
        return cls(strategy, moments, build_seconds=time.perf_counter() - started)

    @classmethod
    def load(
        cls,
        rules: YardzeeRules | None,
        directory: str | os.PathLike[str],
        *,
        verify: bool = True,
        strategy: Strategy | None = None,
    ) -> Self:
        """Both tables saved in `directory` for `rules` (or the moments beside a `strategy`
        already loaded), memory-mapped read-only. Raises `StrategyTableMissing` or
        `StrategyTableCorrupt` as `Strategy.load` does."""
        rules = rules if rules is not None else YardzeeRules()
        if strategy is None:
            strategy = Strategy.load(rules, directory, verify=verify)
        elif strategy.rules != rules:
            raise ValueError("the strategy is of other rules than the ones asked for")
        moments = load_moments(directory, moments_name(rules), _fingerprint(rules), ORDERS, verify)
        return cls(strategy, moments)

    def save(self, directory: str | os.PathLike[str]) -> Path:
        """Write the moments table and its manifest into `directory` (the strategy table is
        saved by its own `save`); returns the table's path."""
        return save_moments(
            directory,
            moments_name(self.rules),
            self._moments,
            fingerprint=_fingerprint(self.rules),
            rules=self.rules,
            orders=ORDERS,
            start=self.remaining(YardzeeState.start()),
            build_seconds=self.build_seconds,
        )

    @property
    def rules(self) -> YardzeeRules:
        """The ruleset of the strategy."""
        return self._strategy.rules

    @property
    def strategy(self) -> Strategy:
        """The optimal solitaire strategy whose spread this is."""
        return self._strategy

    @property
    def moments(self) -> FloatArray:
        """`E[R^k]` of the remaining points by order (`ORDERS`) and state."""
        return self._moments

    def remaining(
        self, state: YardzeeState, dice: object = None, rolls_left: int | None = None
    ) -> Remaining:
        """The mean and variance of the points still to come: between turns (`dice` None),
        or in a turn with `dice` showing and `rolls_left` rolls still allowed (2 after the
        first roll, 1 after the second, 0 when the box is to be chosen), this turn's box and
        bonuses included. Bad positions raise `RuleViolation` (`invalid_die`, `wrong_dice_count`,
        `invalid_state`, `game_over`) as `Strategy.keep_options` does."""
        if dice is None:
            if rolls_left is not None:
                raise invalid_state("rolls_left", "is given without the dice showing")
            if state.is_over:
                return Remaining(0.0, 0.0)
            index = state.index
            return _remaining(self._strategy.table[index], self._moments[:, index])
        showing, rolls = read_turn(state, dice, rolls_left)
        turn = self.turn(state)
        outcome = LAYER_INDEX[showing]
        return _remaining(
            _at(turn.value, rolls)[outcome, 0],
            _at(turn.moments, rolls)[outcome, :, 0],
        )

    def turn(self, state: YardzeeState) -> TurnMoments:
        """The turn of one position solved with its moments (kept per spread)."""
        index = state.index
        found = self._turns.get(index)
        if found is None:
            if len(self._turns) >= _TURNS_KEPT:
                self._turns.clear()
            found = turn_moments(
                np.asarray(self._strategy.table),
                np.asarray(self._moments),
                np.array([index]),
                self.rules.joker,
            )
            self._turns[index] = found
        return found

    def _turn_ends(self, states: IntArray) -> TurnEnds:
        policy = turn_policy(np.asarray(self._strategy.table), states, self.rules.joker)
        chances = roll_forward(policy.value.middle, first_roll(len(states)))
        chances = roll_forward(policy.value.last, chances)
        return TurnEnds(final=chances, gain=policy.gain, after=policy.after)

    def _turn_ends_showing(
        self, state: YardzeeState, showing: tuple[int, ...], rolls_left: int
    ) -> TurnEnds:
        policy = turn_policy(
            np.asarray(self._strategy.table), np.array([state.index]), self.rules.joker
        )
        chances = np.zeros((len(policy.gain), 1))
        chances[LAYER_INDEX[showing], 0] = 1.0
        if rolls_left == 2:
            chances = roll_forward(policy.value.middle, chances)
        if rolls_left >= 1:
            chances = roll_forward(policy.value.last, chances)
        return TurnEnds(final=chances, gain=policy.gain, after=policy.after)


def save_moments(
    directory: str | os.PathLike[str],
    name: str,
    table: FloatArray,
    *,
    fingerprint: str,
    rules: YardzeeRules,
    orders: tuple[int, ...],
    start: Remaining,
    build_seconds: float | None,
) -> Path:
    """Write a table of moments by state (`[order, state]`) and its manifest into
    `directory` as `name`, the points to come from the empty scorecard among its facts;
    returns the table's path."""
    facts = {
        "game": "yardzee",
        "rules": rules.to_json(),
        "orders": list(orders),
        "start_value": start.mean,
        "start_deviation": start.variance**0.5,
        "build_seconds": build_seconds,
    }
    return save_table(directory, name, np.asarray(table), fingerprint=fingerprint, facts=facts)


def load_moments(
    directory: str | os.PathLike[str],
    name: str,
    fingerprint: str,
    orders: tuple[int, ...],
    verify: bool,
) -> FloatArray:
    """The table of moments by state saved as `name` in `directory`, memory-mapped read-only.
    Raises `StrategyTableMissing` or `StrategyTableCorrupt` as `Strategy.load` does."""
    table, _ = load_table(
        directory, name, fingerprint=fingerprint, shape=(len(orders), solver.STATES), verify=verify
    )
    return table


def _at(turn: solver.TurnValues, rolls_left: int) -> FloatArray:
    """The figures of dice showing with `rolls_left` rolls still allowed."""
    return (turn.final, turn.last.showing, turn.middle.showing)[rolls_left]


def _remaining(mean: object, raw: FloatArray) -> Remaining:
    average = float(mean)  # type: ignore[arg-type]
    if average != average or np.isnan(raw).any():  # NaN: only a bad table gets here
        raise invalid_state("state", "has no value in the strategy tables")
    variance = central(np.asarray(average, dtype=np.float64), np.asarray(raw, dtype=np.float64))
    return Remaining(average, float(variance))
