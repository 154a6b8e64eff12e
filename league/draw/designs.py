"""Known designs for round robins at tables: schedules in which every pair of players meets
exactly once (docs/draw.md, "Round robin and groups").

A schedule here is a tuple of rounds, each a tuple of tables of seat numbers (0 is seed 1). A
resolvable design with blocks of k seats every round is a perfect round robin at tables of k:
the fewest rounds any schedule can have (every seat meets k - 1 others a round and must meet
all the rest), and no pair meets twice.

- Affine geometry AG(n, q) for q = 3, 4, 5 (q ** n players, tables of q): the lines, one round
  per direction. n = 2 is the affine plane (9, 16, 25 players).
- Kirkman triple systems KTS(15) and KTS(21) (tables of 3): Kirkman's schoolgirls and its
  next case, each built by developing one base round over a cyclic group (below).
- One seat fewer: leaving out the last seat of a design turns its table of that seat into a
  table one smaller every round, still a schedule in which every pair meets exactly once
  (8 and 26 players at tables of 3 from 9 and 27, 14 and 20 from the Kirkman systems, 15 at
  tables of 4 from 16, 24 at tables of 5 from 25).
"""

import itertools
from collections.abc import Iterable, Sequence
from functools import lru_cache

Schedule = tuple[tuple[tuple[int, ...], ...], ...]
"""Rounds of tables of seat numbers (0 is seed 1), every seat once a round."""

# KTS(15) on Z_7 x {0, 1} plus one fixed seat: developing this round by x -> x + 1 (mod 7)
# gives the 7 rounds (a 1-rotational design; every difference between two seats appears once).
_KTS15_BASE = (
    ((None, 0), (0, 0), (0, 1)),
    ((1, 0), (2, 0), (4, 0)),
    ((3, 0), (1, 1), (5, 1)),
    ((5, 0), (4, 1), (6, 1)),
    ((6, 0), (2, 1), (3, 1)),
)
# KTS(21) on Z_7 x {0, 1, 2}: this round developed by x -> x + 1 (mod 7) gives 7 rounds, and
# each of the three tables (0, 0), (a, 1), (b, 2) below, developed the same way, is one round
# more (its 7 images are disjoint): 10 rounds, every difference between two seats once.
_KTS21_BASE = (
    ((0, 0), (6, 0), (2, 2)),
    ((1, 0), (4, 0), (3, 1)),
    ((2, 0), (5, 1), (6, 1)),
    ((3, 0), (5, 0), (4, 2)),
    ((0, 1), (2, 1), (3, 2)),
    ((1, 1), (4, 1), (6, 2)),
    ((0, 2), (1, 2), (5, 2)),
)
_KTS21_FIXED = ((0, 0), (1, 5), (5, 4))


def exact_schedule(count: int, sizes: Sequence[int]) -> Schedule | None:
    """A schedule of a known design for `count` seats at tables of these `sizes` (larger
    first) in which every pair meets exactly once, or None when no design here fits."""
    size = sizes[0]
    if len(sizes) == 1:
        return ((tuple(range(count)),),)
    if all(s == size for s in sizes):
        return _design(count, size)
    if all(s == size for s in sizes[:-1]) and sizes[-1] == size - 1:
        design = _design(count + 1, size)
        if design is not None:
            return _without_last_seat(design)
    return None


def _design(count: int, size: int) -> Schedule | None:
    if size == 3 and count == 15:
        return kirkman_15()
    if size == 3 and count == 21:
        return kirkman_21()
    dimension = 2
    while size**dimension < count:
        dimension += 1
    if size in (3, 4, 5) and size**dimension == count:
        return affine_geometry(size, dimension)
    return None


def _without_last_seat(design: Schedule) -> Schedule:
    last = max(seat for table in design[0] for seat in table)
    return tuple(
        tuple(
            sorted(
                (tuple(seat for seat in table if seat != last) for table in tables),
                key=lambda table: (-len(table), table),
            )
        )
        for tables in design
    )


@lru_cache(maxsize=16)
def affine_geometry(order: int, dimension: int) -> Schedule:
    """The lines of AG(`dimension`, `order`) over the field with `order` (3, 4 or 5) elements:
    `order` ** `dimension` seats, one round per direction, each round the lines parallel to
    it (tables of `order`); every pair of seats lies on exactly one line."""
    add, times = field(order)
    points = list(itertools.product(range(order), repeat=dimension))
    number = {point: i for i, point in enumerate(points)}
    # Directions: nonzero vectors whose first nonzero coordinate is 1 (one per line through 0).
    directions = [vector for vector in points if any(vector) and next(c for c in vector if c) == 1]
    rounds = []
    for direction in directions:
        seen: set[int] = set()
        tables = []
        for point in points:
            if number[point] in seen:
                continue
            line = tuple(
                sorted(
                    number[
                        tuple(add[x][times[t][d]] for x, d in zip(point, direction, strict=True))
                    ]
                    for t in range(order)
                )
            )
            seen.update(line)
            tables.append(line)
        rounds.append(tuple(sorted(tables)))
    return tuple(rounds)


def field(order: int) -> tuple[list[list[int]], list[list[int]]]:
    """Addition and multiplication tables of the field with `order` elements (a prime, or 4:
    polynomials over GF(2) modulo x^2 + x + 1, numbered by their bits)."""
    elements = range(order)
    if order == 4:
        gf4_times = [[0, 0, 0, 0], [0, 1, 2, 3], [0, 2, 3, 1], [0, 3, 1, 2]]
        return [[a ^ b for b in elements] for a in elements], gf4_times
    return (
        [[(a + b) % order for b in elements] for a in elements],
        [[(a * b) % order for b in elements] for a in elements],
    )


@lru_cache(maxsize=1)
def kirkman_15() -> Schedule:
    """Kirkman's fifteen schoolgirls: 15 seats, 7 rounds of 5 tables of 3, every pair once.
    Seat x + 7 * level for (x, level) of Z_7 x {0, 1}, and 14 for the fixed seat."""

    def seat(point: tuple[int | None, int], shift: int) -> int:
        x, level = point
        return 14 if x is None else (x + shift) % 7 + 7 * level

    return tuple(
        _sorted_round(tuple(seat(p, shift) for p in table) for table in _KTS15_BASE)
        for shift in range(7)
    )


@lru_cache(maxsize=1)
def kirkman_21() -> Schedule:
    """A Kirkman triple system on 21 seats: 10 rounds of 7 tables of 3, every pair once.
    Seat x + 7 * level for (x, level) of Z_7 x {0, 1, 2}."""

    def seat(x: int, level: int, shift: int) -> int:
        return (x + shift) % 7 + 7 * level

    developed = [
        _sorted_round(tuple(seat(x, level, shift) for x, level in table) for table in _KTS21_BASE)
        for shift in range(7)
    ]
    fixed = [
        _sorted_round(
            (seat(0, 0, shift), seat(a, 1, shift), seat(b, 2, shift)) for shift in range(7)
        )
        for a, b in _KTS21_FIXED
    ]
    return tuple(developed + fixed)


def _sorted_round(tables: Iterable[Iterable[int]]) -> tuple[tuple[int, ...], ...]:
    return tuple(sorted(tuple(sorted(table)) for table in tables))
