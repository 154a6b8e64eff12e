"""The matches of a replay as columns (docs/standings.md, "Ratings", "Our own arithmetic").

Everything about a rated match that does not depend on ratings (its effective placements, the
order OpenSkill ranks its seats in, its shape, the columns of its history rows) is worked out
for all matches at once with NumPy, so that the loop that must run match by match does nothing
but the arithmetic (`league.rating.plackett_luce.straight_line`)."""

from collections.abc import Iterable
from itertools import chain, compress, count
from operator import attrgetter

import numpy as np
import numpy.typing as npt

from league.rating.model import RatingHistory
from league.rating.plackett_luce import Shape
from league.standings.model import MIN_SEATS, MatchResult, PlayerId, check_result


class RatedTables:
    """The rated matches among `ordered` (matches in finish order; a match every seat forfeited
    is not rated), one entry per seat in finish order then seat order, and every player's
    number: those of `start` first, then in order of first appearance (in matches rated or not).

    Raises what `check_result` raises for the first malformed match."""

    def __init__(self, ordered: list[MatchResult], start: Iterable[PlayerId] = ()) -> None:
        seat_lists = list(map(_SEATS, ordered))
        seats = list(chain.from_iterable(seat_lists))
        sizes = np.fromiter(map(len, seat_lists), np.int64, len(seat_lists))
        tables = len(ordered)
        width = int(sizes.max(initial=MIN_SEATS))
        table = np.repeat(np.arange(tables), sizes)
        cell = (table, np.arange(len(seats)) - (np.cumsum(sizes) - sizes)[table])
        taken = np.zeros((tables, width), dtype=bool)
        taken[cell] = True
        seat_players = list(map(_PLAYER, seats))
        players = np.fromiter(seat_players, np.int64, len(seats))
        placement = np.zeros((tables, width), dtype=np.int64)
        placement[cell] = np.fromiter(map(_PLACEMENT, seats), np.int64, len(seats))
        forfeited = np.zeros((tables, width), dtype=bool)
        forfeited[cell] = np.fromiter(map(_FORFEITED, seats), np.bool_, len(seats))
        seated = np.zeros((tables, width), dtype=np.int64)
        seated[cell] = players
        if (
            sizes.min(initial=MIN_SEATS) < MIN_SEATS
            or _seated_twice(seated, taken)
            or ((placement < 1) | (placement > sizes[:, None]))[taken].any()
        ):
            for match in ordered:
                check_result(match)
        # Numbers: by first appearance among `start` then the seats.
        number = dict(zip(dict.fromkeys(chain(start, seat_players)), count(), strict=False))
        self.numbered: list[PlayerId] = list(number)
        """Every player, by number."""
        numbers = np.fromiter(map(number.__getitem__, seat_players), np.int64, len(seats))
        # Rated: a seat played. Everything from here is about rated tables only.
        rated: npt.NDArray[np.bool_] = np.any(taken & ~forfeited, axis=1)
        everyone_rated = bool(rated.all())
        keep: list[bool] = rated.tolist()
        self.rated = ordered if everyone_rated else list(compress(ordered, keep))
        sizes = sizes[rated]
        self.sizes = sizes
        self.width = width
        taken, placement, forfeited = taken[rated], placement[rated], forfeited[rated]
        on_rated = rated[table]
        self.players: npt.NDArray[np.int64] = players if everyone_rated else players[on_rated]
        numbered = np.zeros((len(sizes), width), dtype=np.int64)
        numbered[taken] = numbers[on_rated]
        # Effective placements (league.standings.effective_placements): among the seats that
        # played, 1 + how many placed better; a forfeit takes the table's last place.
        playing = taken & ~forfeited
        effective = np.where(forfeited, sizes[:, None], 1 + _below(placement, playing))
        self.placements = effective[taken]
        # OpenSkill's order: by rank with a stable sort (equal ranks keep their seat order),
        # the empty cells of small tables after the seats. A seat's place in it is how many
        # keys are smaller than its own (they are distinct).
        key = np.where(taken, effective, width + 1) * (width + 1) + np.arange(width)
        place = _below(key, np.ones_like(taken))
        rows = np.arange(len(sizes))[:, None]
        self.order = np.empty_like(place)
        self.order[rows, place] = np.arange(width)
        self.first = np.cumsum(sizes) - sizes
        self.seated: list[list[int]] = numbered[rows, self.order].tolist()
        """Each rated table's player numbers in OpenSkill's rank order (rows of `width`: 0 past
        the table's size)."""
        ranked = np.where(taken, effective, -1)[rows, self.order]
        # A table's shape as a number: its size, and a bit for every place that shares the
        # rank of the one before (for the widest tables, the row of those bits itself).
        shares = (ranked[:, 1:] == ranked[:, :-1]) & (ranked[:, 1:] > 0)
        if width <= _WIDEST_CODED:
            code = sizes << (width - 1) | (shares << np.arange(width - 1)).sum(axis=1)
            codes, shape_of = np.unique(code, return_inverse=True)
            shapes = [_shape(code >> (width - 1), code) for code in codes.tolist()]
        else:
            rows_of, shape_of = np.unique(
                np.column_stack([sizes, shares]), axis=0, return_inverse=True
            )
            shapes = [_shape(row[0], _bits(row[1:])) for row in rows_of.tolist()]
        self.shape_of: list[int] = shape_of.reshape(-1).tolist()
        """Each rated table's shape, as its index in `shapes`."""
        self.shapes: list[Shape] = shapes
        """The distinct shapes."""

    def history(self, after: list[tuple[float, ...]]) -> RatingHistory:
        """The history rows, in finish order then seat order, from each table's new (mu, sigma)
        pairs in rank order (what `straight_line` pushes)."""
        flat = np.fromiter(chain.from_iterable(after), np.float64, 2 * len(self.players))
        pairs = flat.reshape(-1, 2)  # (mu, sigma) of each seat in rank order
        in_rank_order = np.arange(self.width) < self.sizes[:, None]
        seat = (self.first[:, None] + self.order)[in_rank_order]
        mu = np.empty(len(self.players))
        sigma = np.empty(len(self.players))
        mu[seat] = pairs[:, 0]
        sigma[seat] = pairs[:, 1]
        # OpenSkill's ordinal(): (mu - 3 sigma) + 0 / 1, then times 1 (only -0.0 changes).
        ordinal = (mu - 3.0 * sigma) + 0.0
        ids = np.fromiter(map(_MATCH_ID, self.rated), np.int64, len(self.rated))
        times = np.empty(len(self.rated), dtype=object)
        times[:] = list(map(_FINISHED_AT, self.rated))
        return RatingHistory(
            match_id=np.repeat(ids, self.sizes),
            finished_at=np.repeat(times, self.sizes),
            player=self.players,
            placement=self.placements,
            mu=mu,
            sigma=sigma,
            ordinal=ordinal,
        )


def _seated_twice(seated: npt.NDArray[np.int64], taken: npt.NDArray[np.bool_]) -> bool:
    """Whether a table seats a player twice (seats fill a row from the left), a pair of columns
    at a time: memory for one column, not for every pair of seats of every table."""
    by_seat = seated.T.copy()
    for later in range(1, seated.shape[1]):
        here = taken[:, later]
        for earlier in range(later):
            if np.any((by_seat[earlier] == by_seat[later]) & here):
                return True
    return False


def _below(values: npt.NDArray[np.int64], counted: npt.NDArray[np.bool_]) -> npt.NDArray[np.int64]:
    """For each cell, how many `counted` cells of its row hold a smaller value (a pair of
    columns at a time)."""
    by_seat = values.T.copy()
    counts = counted.T.copy()
    below = np.zeros(by_seat.shape, dtype=np.int64)
    for seat in range(len(by_seat)):
        for other in range(len(by_seat)):
            if other != seat:
                below[seat] += (by_seat[other] < by_seat[seat]) & counts[other]
    return below.T


_WIDEST_CODED = 32  # a shape of up to this many seats fits an int64 as one number


def _bits(flags: list[int]) -> int:
    return sum(flag << place for place, flag in enumerate(flags))


def _shape(size: int, code: int) -> Shape:
    """The shape of a table of `size` whose place k + 1 shares the rank of place k when bit k
    of `code` is set."""
    groups = [1]
    for place in range(1, size):
        if code >> (place - 1) & 1:
            groups[-1] += 1
        else:
            groups.append(1)
    return tuple(groups)


_SEATS = attrgetter("seats")
_MATCH_ID = attrgetter("match_id")
_FINISHED_AT = attrgetter("finished_at")
_PLAYER = attrgetter("player")
_PLACEMENT = attrgetter("placement")
_FORFEITED = attrgetter("forfeited")
