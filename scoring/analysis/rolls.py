"""The dice of a Yardzee turn as index tables: the 252 outcomes of five dice and the 462 keeps.

RULES.md, Yardzee "Turn": a roll keeps a sub-multiset of the dice showing and re-throws the
rest (stopping is keeping all five). Every multiset of 0 to 5 dice is a keep, 462 of them in
layers by size; the keeps of five dice are the 252 outcomes. Throwing the dice not kept one at
a time is the same as throwing them together, so the value of a keep is the mean, over the six
faces, of the keep one die larger: `roll_values` walks these layers (about 1,260 row operations)
instead of multiplying by a dense 252 x 462 matrix of chances.

Tables over outcomes or keeps have the keep or outcome as their first axis and the states
being solved as their second, so every gather copies whole contiguous rows.
"""

from dataclasses import dataclass
from itertools import combinations_with_replacement
from math import factorial
from typing import Final

import numpy as np
import numpy.typing as npt

from scoring.dice import Dice

FACES: Final = (1, 2, 3, 4, 5, 6)
DICE: Final = 5

IntArray = npt.NDArray[np.intp]
FloatArray = npt.NDArray[np.float64]
BoolArray = npt.NDArray[np.bool_]


def _layer(size: int) -> tuple[Dice, ...]:
    """Every keep of `size` dice, those with more distinct faces first (so the keeps that have
    a fifth, fourth ... smaller keep inside them form a prefix), then in sorted order."""
    keeps = combinations_with_replacement(FACES, size)
    return tuple(sorted(keeps, key=lambda keep: (-len(set(keep)), keep)))


LAYERS: Final[tuple[tuple[Dice, ...], ...]] = tuple(_layer(size) for size in range(DICE + 1))
"""Keeps by size: `LAYERS[size]` is every sorted multiset of `size` dice."""

OUTCOMES: Final[tuple[Dice, ...]] = LAYERS[DICE]
"""The 252 sorted outcomes of five dice, in the order of every table over outcomes."""

LAYER_INDEX: Final[dict[Dice, int]] = {
    keep: index for layer in LAYERS for index, keep in enumerate(layer)
}
"""A keep's (or an outcome's) position within its layer."""


def chance(dice: Dice) -> float:
    """The chance that throwing len(dice) dice shows exactly this multiset (sorted)."""
    ways = factorial(len(dice))
    for face in FACES:
        ways //= factorial(dice.count(face))
    return ways / float(len(FACES) ** len(dice))


OUTCOME_PROBABILITY: Final[FloatArray] = np.array([chance(dice) for dice in OUTCOMES])
"""The chance of each outcome when all five dice are thrown (the first roll)."""

FACE_COUNTS: Final[IntArray] = np.array(
    [[dice.count(face) for dice in OUTCOMES] for face in FACES], dtype=np.intp
)
"""`FACE_COUNTS[face - 1, outcome]`: how many dice of that face an outcome shows."""

FIVE_OF_A_KIND: Final[IntArray] = np.array(
    [LAYER_INDEX[(face,) * DICE] for face in FACES], dtype=np.intp
)
"""The outcome index of five dice of each face (1 to 6)."""


def _grown(size: int) -> IntArray:
    """For each keep of a layer, the index in the next layer of the keep plus each face."""
    return np.array(
        [[LAYER_INDEX[tuple(sorted((*keep, face)))] for face in FACES] for keep in LAYERS[size]],
        dtype=np.intp,
    )


@dataclass(frozen=True, slots=True)
class Inside:
    """The keeps one die smaller inside each keep of a layer: for slot `s`, the first
    `rows[s]` keeps of the layer (those with more than `s` distinct faces) have the keep less
    one die of their `s`-th face at `smaller[s][:rows[s]]` in the layer below."""

    rows: tuple[int, ...]
    smaller: tuple[IntArray, ...]


def _inside(size: int) -> Inside:
    layer = LAYERS[size]
    rows = []
    smaller = []
    for slot in range(DICE):
        found = []
        for keep in layer:
            faces = sorted(set(keep))
            if len(faces) <= slot:
                break  # the layer is ordered by distinct faces, most first
            rest = list(keep)
            rest.remove(faces[slot])
            found.append(LAYER_INDEX[tuple(rest)])
        rows.append(len(found))
        smaller.append(np.array(found, dtype=np.intp))
    return Inside(rows=tuple(rows), smaller=tuple(smaller))


GROWN: Final[tuple[IntArray, ...]] = tuple(_grown(size) for size in range(DICE))
"""`GROWN[size][keep, face - 1]`: the keep of size+1 made by adding one die of that face."""

INSIDE: Final[tuple[Inside, ...]] = tuple(_inside(size) for size in range(DICE + 1))
"""`INSIDE[size]`: the keeps of size-1 inside each keep of that size."""


@dataclass(frozen=True, slots=True)
class RollValues:
    """One roll's choices, valued for states in columns: `keeps[size][keep, state]` is the
    expected value of keeping that keep and throwing the rest (for five dice: of stopping with
    them); `showing[outcome, state]` the value of five dice showing with this choice still to
    make, the best keep inside them."""

    keeps: tuple[FloatArray, ...]
    showing: FloatArray


def roll_values(after: FloatArray, stop: FloatArray) -> RollValues:
    """One roll, backwards (RULES.md, Yardzee "Turn"): `after[outcome, state]` is the value of
    the dice showing after the roll, `stop[outcome, state]` the value of stopping instead with
    the dice showing before it. A keep is worth the mean over faces of the keep one die larger
    (the dice thrown one at a time); dice showing are worth their best keep, stopping included.
    """
    keeps: list[FloatArray] = [stop] * (DICE + 1)
    larger = after
    for size in range(DICE - 1, -1, -1):
        grown = GROWN[size]
        mean = larger[grown[:, 0]]
        for face in range(1, len(FACES)):
            mean += larger[grown[:, face]]
        mean /= len(FACES)
        keeps[size] = larger = mean
    best = keeps[0]
    for size in range(1, DICE + 1):
        inside = INSIDE[size]
        layer = keeps[size].copy()
        for rows, smaller in zip(inside.rows, inside.smaller, strict=True):
            if rows:
                np.maximum(layer[:rows], best[smaller], out=layer[:rows])
        best = layer
    return RollValues(keeps=tuple(keeps), showing=best)


def roll_followed(values: RollValues, after: FloatArray, stop: FloatArray) -> RollValues:
    """`roll_values` of other quantities under the choices that `values` makes best: `after`
    and `stop` are `[outcome, quantity, state]` (the states those of `values`). Keeps are
    means over the faces as there; dice showing take the keep `values` takes (the first best
    one: `np.maximum` keeps the larger keep on a tie). `scoring.winprob` follows the
    expected-value policy's higher moments this way."""
    keeps: list[FloatArray] = [stop] * (DICE + 1)
    larger = after
    for size in range(DICE - 1, -1, -1):
        grown = GROWN[size]
        mean = larger[grown[:, 0]]
        for face in range(1, len(FACES)):
            mean += larger[grown[:, face]]
        mean /= len(FACES)
        keeps[size] = larger = mean
    best = keep_choices(values)
    columns = values.showing.shape[1]
    every = np.concatenate(keeps)  # [keep, quantity, state]
    showing = every[best, :, np.arange(columns)]  # [outcome, state, quantity]
    return RollValues(keeps=tuple(keeps), showing=np.ascontiguousarray(showing.transpose(0, 2, 1)))


KEEP_OFFSETS: Final[IntArray] = np.cumsum([0] + [len(layer) for layer in LAYERS])
"""Where each layer of keeps starts when all the keeps are in one row order, size 0 first."""


def keep_choices(values: RollValues) -> IntArray:
    """`[outcome, state]`: the keep the dice showing take in `values` (as a row of all the
    keeps, layers one after another: `KEEP_OFFSETS`), the first best one as `roll_values`
    compares them (the larger keep on a tie)."""
    columns = values.showing.shape[1]
    best_value = values.keeps[0]
    best = np.zeros((1, columns), dtype=np.intp)
    for size in range(1, DICE + 1):
        inside = INSIDE[size]
        layer_value = values.keeps[size].copy()
        layer = np.broadcast_to(
            KEEP_OFFSETS[size] + np.arange(len(LAYERS[size]))[:, None], layer_value.shape
        ).copy()
        for rows, smaller in zip(inside.rows, inside.smaller, strict=True):
            if rows:
                smaller_value = best_value[smaller]
                np.copyto(layer[:rows], best[smaller], where=smaller_value > layer_value[:rows])
                np.maximum(layer_value[:rows], smaller_value, out=layer_value[:rows])
        best_value = layer_value
        best = layer
    return best
