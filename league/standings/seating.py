"""Who sat at each counted table, as arrays (`Seating`), for the metrics that look at who met
whom (docs/standings.md, "The tally"); and the array helpers the tally stores its tables with."""

from collections.abc import Mapping
from typing import Any

import numpy as np
import numpy.typing as npt

from league.standings.model import PlayerId

Column = npt.NDArray[np.int64]


class Seating:
    """Every counted table as arrays, for the metrics that look at who met whom.

    `players` are the tally's players, sorted (P of them). Row t of `seats` is table t: the
    index into `players` of each seat, in seat order, then P (no one) up to the width of the
    widest table. `places` are the seats' effective placements (0 where no one sits), `sizes`
    the number of seats of each table. Metrics index a per-player column of P + 1 entries with
    `seats`; its last entry, for the empty seats, is 0 (`column`)."""

    __slots__ = ("places", "players", "seats", "sizes")

    def __init__(self, players: Column, seats: Column, places: Column, sizes: Column) -> None:
        self.players = players
        self.seats = seats
        self.places = places
        self.sizes = sizes

    @property
    def nobody(self) -> int:
        """The index that stands for an empty seat (one past the last player)."""
        return len(self.players)

    def column(self, values: Mapping[PlayerId, int]) -> Column:
        """`values` by player index, plus a 0 for the empty seats."""
        return np.array([*map(values.__getitem__, self.players.tolist()), 0], dtype=np.int64)

    def per_seat_sum(self, weights: npt.NDArray[Any]) -> Column:
        """For each player (and the empty-seat slot), the sum of `weights[t, s]` over the seats
        they sat in. Exact: the weights are integers and every sum stays far below 2**53."""
        sums = np.bincount(self.seats.ravel(), weights=weights.ravel(), minlength=self.nobody + 1)
        return np.rint(sums).astype(np.int64)

    def per_seat_sum_at(self, seats: Column, weights: Column) -> Column:
        """For each player (and the empty-seat slot), the sum of `weights[k]` over the `k` where
        `seats[k]` is theirs."""
        sums = np.bincount(seats, weights=weights, minlength=self.nobody + 1)
        return np.rint(sums).astype(np.int64)

    def by_player(self, values: npt.NDArray[Any]) -> dict[PlayerId, Any]:
        """A per-player column as a dict by player id (the empty-seat slot left out)."""
        return dict(zip(self.players.tolist(), values[: self.nobody].tolist(), strict=True))


def distinct_rows(rows: Column) -> tuple[Column, Column]:
    """The distinct rows of a matrix of small non-negative integers, and which one each row is.
    Rows are numbered in base (largest value + 1) first: sorting one number per row is ten
    times faster than `np.unique(axis=0)`."""
    base = int(rows.max()) + 1 if rows.size else 1
    if base ** rows.shape[1] >= 2**62:
        distinct, which = np.unique(rows, axis=0, return_inverse=True)
        return distinct, which.ravel()
    codes = rows @ (base ** np.arange(rows.shape[1], dtype=np.int64))
    _, first, which = np.unique(codes, return_index=True, return_inverse=True)
    return rows[first], which.ravel()


def ranks_within(sizes: Column) -> Column:
    """0, 1, ... size - 1 for each size in turn: each seat's position in its table."""
    total = int(sizes.sum())
    starts = np.repeat(np.cumsum(sizes) - sizes, sizes)
    return np.arange(total, dtype=np.int64) - starts
