"""The exact distribution of a Yardzee player's remaining points near the end of their game
(docs/analysis.md, "Win probability: Yardzee").

With few boxes open the points still to come are lumpy (a Yardzee box open is 50 or nothing),
and no smooth curve of a few moments describes them. From a state with at most `EXACT_OPEN`
boxes open, the turns left are followed forwards under the optimal solitaire strategy: the
chance of each dice showing after each roll (the keep the strategy takes, then the dice thrown),
of each final dice, and so of each box, its points and the state after; the distribution of the
rest is the mixture of the states' after, shifted by the points. The states after are solved
the same way first, down to the full scorecard (nothing more to come).

Also the tables that follow keeps forwards (`KEEP_COUNTS`, `transitions`), which the
calibration's simulated players use too.
"""

from dataclasses import dataclass
from functools import cache
from typing import Final

import numpy as np

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
