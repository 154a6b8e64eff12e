"""Who sat where, as a ranked table kept current needs it (`incremental.RankedTable`): the
seating's arrays, which grow by doubling as results are added (one more result copies its own
seats, not every table), each player's tables, and the tables a group metric must read
(docs/standings.md, "After one more result")."""

from collections.abc import Collection, Mapping, Sequence

import numpy as np

from league.standings.model import PlayerId
from league.standings.seating import Column, Seating

# Groups larger than this share of the players read every table for a group metric.
RESTRICT_SHARE = 0.5


class KeptSeating:
    """`Seating` of a tally, with the tables added since, and the rows of each player's tables.
    Never writes to the arrays it started from (the tally's own): the first table added copies
    them."""

    def __init__(self, seating: Seating, index: Mapping[PlayerId, int]) -> None:
        self.seating = seating
        self._index = index  # player id -> index into `seating.players`
        self._room = (seating.seats, seating.places, seating.sizes)
        self._rows_of = _rows_by_player(seating)
        self._extra_rows: dict[int, list[int]] = {}  # rows added since, by player index

    def rows(self, index: int) -> Column:
        """The rows of the tables the player at `index` sat at."""
        rows = self._rows_of[index]
        extra = self._extra_rows.get(index)
        if extra:
            rows = self._rows_of[index] = np.concatenate([rows, np.array(extra, np.int64)])
            del self._extra_rows[index]
        return rows

    def of_groups(self, groups: Sequence[Collection[PlayerId]]) -> Seating:
        """The tables where two players of `groups` sat (every table, for large groups): every
        table where two players of one group met."""
        players = [player for group in groups for player in group]
        seating = self.seating
        if len(players) > RESTRICT_SHARE * len(self._index):
            return seating
        index = self._index
        sat = np.concatenate([self.rows(index[player]) for player in players])
        rows = np.flatnonzero(np.bincount(sat, minlength=len(seating.sizes)) > 1)
        return Seating(
            seating.players, seating.seats[rows], seating.places[rows], seating.sizes[rows]
        )

    def add_tables(self, sizes: Column, players: Column, places: Column) -> None:
        """Append tables (`sizes[t]` seats each, their players' ids and effective placements
        one after the other) to the seating and to each player's rows."""
        if not len(sizes):
            return
        seating, index, nobody = self.seating, self._index, self.seating.nobody
        seats, placed, table_sizes = self._room
        first, count = len(seating.sizes), len(sizes)
        width = max(seats.shape[1], int(sizes.max()))
        if first + count > len(table_sizes) or width > seats.shape[1]:
            capacity = max(first + count, 2 * len(table_sizes))
            grown = np.full((capacity, width), nobody, dtype=np.int64)
            grown[:first, : seats.shape[1]] = seating.seats
            grown_places = np.zeros((capacity, width), dtype=np.int64)
            grown_places[:first, : placed.shape[1]] = seating.places
            grown_sizes = np.zeros(capacity, dtype=np.int64)
            grown_sizes[:first] = seating.sizes
            seats, placed, table_sizes = self._room = (grown, grown_places, grown_sizes)
        end = first + count
        new_seats = np.full((count, width), nobody, dtype=np.int64)
        new_places = np.zeros((count, width), dtype=np.int64)
        filled = np.arange(width) < sizes[:, None]
        new_seats[filled] = [index[p] for p in players.tolist()]
        new_places[filled] = places
        seats[first:end], placed[first:end], table_sizes[first:end] = new_seats, new_places, sizes
        self.seating = Seating(seating.players, seats[:end], placed[:end], table_sizes[:end])
        for row, table in enumerate(new_seats.tolist(), start=first):
            for i in table:
                if i != nobody:
                    self._extra_rows.setdefault(i, []).append(row)


def _rows_by_player(seating: Seating) -> list[Column]:
    """For each player index, the rows of the tables they sat at."""
    if not seating.nobody:
        return []
    flat = seating.seats.ravel()
    order = np.argsort(flat, kind="stable")
    rows = order // max(seating.seats.shape[1], 1)
    counts = np.bincount(flat, minlength=seating.nobody + 1)[: seating.nobody]
    return list(np.split(rows[: int(counts.sum())], np.cumsum(counts)[:-1]))
