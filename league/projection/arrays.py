"""Array helpers of the stage projection's tables (`tables.py`): refining groups of tied
players by a metric, the pairs at one table, ragged rows padded, sums at seats, and head-to-head
among tied players, all for every run at once."""

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

Array = npt.NDArray[Any]


def refine(labels: Array, values: Array) -> Array:
    """New labels, 0 up in each row: players of one label split by `values` (higher first),
    the order of the labels kept."""
    order = np.lexsort((-values, labels), axis=1)
    by_label = np.take_along_axis(labels, order, axis=1)
    by_value = np.take_along_axis(values, order, axis=1)
    change = np.ones(labels.shape, dtype=np.int64)
    change[:, 0] = 0
    change[:, 1:] = (by_label[:, 1:] != by_label[:, :-1]) | (by_value[:, 1:] != by_value[:, :-1])
    refined = np.empty_like(labels)
    np.put_along_axis(refined, order, np.cumsum(change, axis=1), axis=1)
    return refined


def part_sizes(labels: Array) -> Array:
    """How many players of its row share each player's label."""
    runs, players = labels.shape
    flat = (labels + players * np.arange(runs)[:, None]).ravel()
    counts = np.bincount(flat, minlength=runs * players).reshape(runs, players)
    return np.take_along_axis(counts, labels, axis=1)


def pairs_within(tags: Array, met: Array, widest: int) -> Array:
    """For each run and player, the sum of `met[p, q]` over the other players q of the run who
    share p's tag (-1: none): every pair of a part met once, by its offset in the sorted row."""
    runs, count = tags.shape
    order = np.argsort(tags, axis=1, kind="stable")
    ordered = np.take_along_axis(tags, order, axis=1)
    rows = np.broadcast_to(np.arange(runs)[:, None] * count, tags.shape)
    half = np.zeros(runs * count, dtype=np.int64)
    for offset in range(1, widest):
        same = (ordered[:, :-offset] == ordered[:, offset:]) & (ordered[:, offset:] >= 0)
        if not same.any():
            break
        first, second = order[:, :-offset][same], order[:, offset:][same]
        at = rows[:, offset:][same]
        half += np.bincount(at + first, weights=met[first, second], minlength=len(half)).astype(
            np.int64
        )
        half += np.bincount(at + second, weights=met[second, first], minlength=len(half)).astype(
            np.int64
        )
    return half.reshape(runs, count)


def ragged(rows: Sequence[Sequence[int]], fill: int) -> Array:
    width = max((len(row) for row in rows), default=0)
    array = np.full((len(rows), width), fill, dtype=np.int64)
    for i, row in enumerate(rows):
        array[i, : len(row)] = row
    return array


def add_at(totals: Array, seats: Array, values: Array) -> None:
    """Add `values[r, t, s]` to the total of the player at `seats[r, t, s]` (empty seats
    ignored)."""
    runs, players = totals.shape
    flat = (seats + (players + 1) * np.arange(runs)[:, None, None]).ravel()
    sums = np.bincount(flat, weights=values.ravel(), minlength=runs * (players + 1))
    totals += np.rint(sums).astype(np.int64).reshape(runs, players + 1)[:, :players]


def head_to_head(tags: Array, seats: Array, places: Array, players: int) -> Array:
    """Half points of head-to-head (2 a match placed ahead, 1 level) among the players of each
    run who share a tag (-1: none) at the tables `seats` (run x table x seat, with their
    `places`), as `league.standings`' HeadToHead counts them."""
    count = len(tags)
    tagged = np.concatenate([tags, np.full((count, 1), -1, dtype=np.int64)], axis=1)
    flat = seats + (players + 1) * np.arange(count)[:, None, None]
    at_seat = tagged.ravel()[flat]
    half = np.zeros(count * (players + 1), dtype=np.int64)
    width = seats.shape[2]
    for i in range(width):
        for j in range(i + 1, width):
            met = (at_seat[:, :, i] >= 0) & (at_seat[:, :, i] == at_seat[:, :, j])
            if not met.any():
                continue
            place_i, place_j = places[:, :, i][met], places[:, :, j][met]
            level = place_i == place_j
            size = len(half)
            half += np.bincount(
                flat[:, :, i][met], weights=2 * (place_i < place_j) + level, minlength=size
            ).astype(np.int64)
            half += np.bincount(
                flat[:, :, j][met], weights=2 * (place_j < place_i) + level, minlength=size
            ).astype(np.int64)
    return half.reshape(count, players + 1)[:, :players]
