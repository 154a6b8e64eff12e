"""Round robins at tables from constructions, for the fields past the catalogue (docs/draw.md,
"Constructions up to 64 players").

- **Developed base rounds** (`Development`): seats are Z_n x {0, ..., L - 1} (numbered
  level * n + x) plus a few fixed seats; round r is the base round with r added to every
  moving seat's x (n rounds), and each *short orbit*, one table with a seat on every level,
  gives one round more: its n translates (one table per x). Two moving seats (x, i) and (y, j)
  meet in some developed round exactly when the base round has a pair of the same class (the
  same levels and the same difference y - x, up to sign within a level), so a base round
  holding a pair of every class, with the short orbits, is a round robin. This is the
  classical way to build the resolvable designs: the 1-rotational Kirkman triple systems
  KTS(6t + 3) over Z_{3t+1} x {0, 1} plus one fixed seat, KTS(3n) over Z_n x {0, 1, 2} with
  short orbits (as KTS(21) in `designs.py`), resolvable coverings of 6t players by triples
  over Z_{3t} x {0, 1} (every player meets one other twice: 3t rounds, the fewest), and
  RBIBD(v, 4, 1) over Z_{(v-1)/3} x {0, 1, 2} plus a fixed seat. The base rounds are found
  ahead of time by `find_development` (annealing on the number of classes without a pair) and
  kept in `developments.py` (`python -m league.draw.make_schedules construct`).
- **Derived schedules** (`derived`): a schedule of a few players more with seats left out.
  A round where the rest no longer sit at this field's tables is repaired by moving seats from
  too-large tables to too-small ones (the pairs a moved seat leaves are noted), and rounds are
  added, greedily, until every pair has met. 25 players at tables of 3 come from the 27 of
  AG(3, 3) in 14 rounds (13, and one for the round where the two left-out seats sat together).

`construction` gives the best of these for a field (fewest rounds, then most even), or None.
"""

import itertools
import math
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from league.draw.covering.search import evenness, greedy, meetings
from league.draw.designs import Schedule, exact_schedule, field
from league.draw.developments import DEVELOPMENTS
from league.draw.seeding import table_sizes

# Fields a derived schedule may come from: up to this many players more.
_MOST_LEFT_OUT = 3
# Largest field `construction` serves (the table in docs/draw.md goes this far).
LARGEST = 64
# Annealing temperatures for the base-round search, first and last step.
_HEAT = 1.0
_COOL = 0.08


@dataclass(frozen=True, slots=True)
class Development:
    """A base round developed over Z_`order` on `levels` levels, plus `count` - levels x order
    fixed seats that stay at their table every round, and short orbits: offsets (one per
    level) of a table whose `order` translates make a round of their own."""

    count: int
    order: int
    levels: int
    base: tuple[tuple[int, ...], ...]
    orbits: tuple[tuple[int, ...], ...] = ()

    def schedule(self) -> Schedule:
        """The rounds: the `order` translates of the base round, then one per short orbit."""
        n, moving = self.order, self.levels * self.order

        def moved(seat: int, shift: int) -> int:
            if seat >= moving:
                return seat
            level, x = divmod(seat, n)
            return level * n + (x + shift) % n

        rounds = [
            _sorted_round(tuple(moved(seat, r) for seat in table) for table in self.base)
            for r in range(n)
        ]
        rounds += [
            _sorted_round(
                tuple(level * n + (offset + r) % n for level, offset in enumerate(offsets))
                for r in range(n)
            )
            for offsets in self.orbits
        ]
        return tuple(rounds)


def _sorted_round(tables: Iterable[Iterable[int]]) -> tuple[tuple[int, ...], ...]:
    return tuple(sorted((tuple(sorted(table)) for table in tables), key=lambda t: (-len(t), t)))


def pair_classes(count: int, order: int, levels: int) -> list[list[int]]:
    """The class of each pair of seats (a number), under Z_`order` moving every level: seats
    of one level by their difference up to sign, of two levels by the difference, a fixed
    seat with a level, two fixed seats."""
    moving = levels * order
    names: dict[tuple[int, ...], int] = {}
    classes = [[-1] * count for _ in range(count)]
    for a, b in itertools.combinations(range(count), 2):
        key: tuple[int, ...]
        if b >= moving:
            key = (2, a, b) if a >= moving else (1, b, a // order)
        else:
            (i, x), (j, y) = divmod(a, order), divmod(b, order)
            d = (y - x) % order
            key = (0, i, i, min(d, order - d)) if i == j else (0, i, j, d)
        classes[a][b] = classes[b][a] = names.setdefault(key, len(names))
    return classes


def _orbit_classes(classes: list[list[int]], order: int, offsets: Sequence[int]) -> list[int]:
    """The classes of the pairs of a short orbit's table."""
    seats = [level * order + offset % order for level, offset in enumerate(offsets)]
    return [classes[a][b] for a, b in itertools.combinations(seats, 2)]


def find_development(
    count: int, table_size: int, order: int, *, orbits: int = 0, seed: str, steps: int
) -> Development | None:
    """A base round (and `orbits` short orbits) developed over Z_`order` into a round robin
    for `count` players at tables of `table_size` (`table_sizes`), found by a seeded simulated
    annealing on the number of pair classes no pair of the base round holds; None when
    `steps` swaps do not find one. Levels: as many whole copies of Z_order as fit; the rest
    are fixed seats (fewer than the tables). Short orbits need every table of one size, the
    number of levels, and no fixed seat."""
    sizes = table_sizes(count, table_size)
    levels, fixed = divmod(count, order)
    if not levels or fixed >= len(sizes):
        return None
    if orbits and (fixed or any(size != levels for size in sizes)):
        return None
    classes = pair_classes(count, order, levels)
    covered = [0] * (max(max(row) for row in classes) + 1)
    rng = random.Random(seed)  # noqa: S311 - a search
    seats = list(range(count))
    rng.shuffle(seats)
    starts = list(itertools.accumulate(sizes, initial=0))
    tables = [seats[a:b] for a, b in itertools.pairwise(starts)]
    at = [0] * count
    for t, table in enumerate(tables):
        for seat in table:
            at[seat] = t
            for neighbour in table:
                if neighbour < seat:
                    covered[classes[seat][neighbour]] += 1
    offsets = [[0] + [rng.randrange(order) for _ in range(levels - 1)] for _ in range(orbits)]
    for orbit in offsets:
        for c in _orbit_classes(classes, order, orbit):
            covered[c] += 1
    unmet = covered.count(0)

    def change(removed: Sequence[int], added: Sequence[int]) -> int:
        gained = 0
        for c in removed:
            covered[c] -= 1
            gained += covered[c] == 0
        for c in added:
            gained -= covered[c] == 0
            covered[c] += 1
        return gained

    heat, cooling = _HEAT, (_COOL / _HEAT) ** (1 / max(steps, 1))
    for _ in range(steps):
        if not unmet:
            break
        heat *= cooling
        if offsets and rng.random() < 0.2:
            orbit = offsets[rng.randrange(orbits)]
            level = rng.randrange(1, levels)
            old = _orbit_classes(classes, order, orbit)
            before = orbit[level]
            orbit[level] = rng.randrange(order)
            new = _orbit_classes(classes, order, orbit)
            delta = change(old, new)
            if delta <= 0 or rng.random() < math.exp(-delta / heat):
                unmet += delta
            else:
                change(new, old)
                orbit[level] = before
            continue
        a = rng.randrange(count)
        t = at[a]
        u = rng.randrange(len(tables) - 1)
        u += u >= t
        b = rng.choice(tables[u])
        one, other = tables[t], tables[u]
        removed = [classes[a][z] for z in one if z != a] + [classes[b][z] for z in other if z != b]
        added = [classes[b][z] for z in one if z != a] + [classes[a][z] for z in other if z != b]
        delta = change(removed, added)
        if delta <= 0 or rng.random() < math.exp(-delta / heat):
            unmet += delta
            one[one.index(a)], other[other.index(b)] = b, a
            at[a], at[b] = u, t
        else:
            change(added, removed)
    if unmet:
        return None
    return Development(
        count=count,
        order=order,
        levels=levels,
        base=tuple(sorted(tuple(sorted(table)) for table in tables)),
        orbits=tuple(tuple(orbit) for orbit in offsets),
    )


def developed_schedule(count: int, table_size: int) -> Schedule | None:
    """The kept development for the field (`developments.py`), or None."""
    entry = DEVELOPMENTS.get((count, table_size))
    if entry is None:
        return None
    order, levels, base, orbits = entry
    return Development(count, order, levels, base, orbits).schedule()


def product(schedule: Schedule, order: int) -> Schedule:
    """From a round robin of v seats at tables of `order` (3, 4 or 5; every table full), one of
    `order` x v seats at tables of `order`: seat (p, i) is numbered i * v + p. Each round of
    the schedule gives `order` rounds: on every table T = (t_0, ..., t_{q-1}), the lines of
    the affine plane AG(2, q) on T x GF(q) of one slope m, {(t_x, m * x + s)} for each s,
    the slope 0 being the rows (a copy of T on each level); the last round is the columns,
    each seat with its copies. A pair of one level meets where the schedule meets it, a pair
    of two levels and two seats where the two seats share a table (a line of the plane of
    another slope), a seat and its copy in the last round: so a design (every pair once)
    gives a design, KTS(3v) from KTS(v) (45 from 15, 63 from 21)."""
    add, times = field(order)
    v = sum(len(table) for table in schedule[0])
    rounds = [
        _sorted_round(
            tuple(table[x] + v * add[times[slope][x]][s] for x in range(order))
            for table in tables
            for s in range(order)
        )
        for tables in schedule
        for slope in range(order)
    ]
    rounds.append(_sorted_round(tuple(p + v * i for i in range(order)) for p in range(v)))
    return tuple(rounds)


def derived(schedule: Schedule, count: int, table_size: int, left_out: Sequence[int]) -> Schedule:
    """`schedule` (a round robin of more players) without the seats `left_out`, the others
    renumbered in order, each round repaired to this field's tables, and rounds added until
    every pair has met (`greedy`, from the meetings so far)."""
    sizes = table_sizes(count, table_size)
    gone = set(left_out)
    number = {
        seat: i for i, seat in enumerate(s for s in range(count + len(gone)) if s not in gone)
    }
    rounds = [
        [[number[s] for s in table if s not in gone] for table in tables] for tables in schedule
    ]
    met = meetings(count, tuple(tuple(tuple(t) for t in r) for r in rounds))
    repaired = [_repaired(tables, sizes, met) for tables in rounds]
    kept = tuple(_sorted_round(tables) for tables in repaired)
    return kept + greedy(count, sizes, played=kept)


def _repaired(
    tables: list[list[int]], sizes: Sequence[int], met: list[list[int]]
) -> list[list[int]]:
    """The round at tables of `sizes` (larger first): seats move from tables above their size
    to tables below it, each time the seat whose move leaves the fewest pairs unmet (`met`,
    the meetings of all rounds, is kept up to date)."""
    tables = sorted((table for table in tables if table), key=len, reverse=True)
    tables += [[] for _ in range(len(sizes) - len(tables))]
    while sorted(map(len, tables), reverse=True) != list(sizes):
        tables.sort(key=len, reverse=True)
        give = next(t for t, table in enumerate(tables) if len(table) > sizes[t])
        take = next(t for t in range(len(tables) - 1, -1, -1) if len(tables[t]) < sizes[t])
        source, target = tables[give], tables[take]

        def lost(seat: int, source: list[int] = source, target: list[int] = target) -> int:
            gone = sum(met[seat][z] == 1 for z in source if z != seat)
            return gone - sum(met[seat][z] == 0 for z in target)

        seat = min(source, key=lambda s: (lost(s), s))
        source.remove(seat)
        for z in source:
            met[seat][z] -= 1
            met[z][seat] -= 1
        for z in target:
            met[seat][z] += 1
            met[z][seat] += 1
        target.append(seat)
    return tables


def _left_out_choices(schedule: Schedule, more: int) -> list[tuple[int, ...]]:
    """Sets of `more` seats worth leaving out: the last seats, and the first or last `more`
    seats of each of the first round's first three tables (seats that meet there, and in a
    design nowhere else, so that only one round needs repair)."""
    count = sum(len(table) for table in schedule[0])
    choices = [tuple(range(count - more, count))]
    for table in schedule[0][:3]:
        if len(table) >= more:
            choices.append(tuple(table[:more]))
            choices.append(tuple(table[-more:]))
    return list(dict.fromkeys(choices))


def _sources(count: int, table_size: int) -> list[Schedule]:
    """The round robins this module knows for the field without deriving: a design of
    `designs.py`, a kept development, or a product (`product`) of one a table's size
    smaller."""
    found = []
    design = exact_schedule(count, table_sizes(count, table_size))
    if design is not None and len(table_sizes(count, table_size)) > 1:
        found.append(design)
    developed = developed_schedule(count, table_size)
    if developed is not None:
        found.append(developed)
    if count % table_size == 0 and count > table_size**2:
        found += [
            product(schedule, table_size)
            for schedule in _sources(count // table_size, table_size)
            if all(len(table) == table_size for tables in schedule for table in tables)
        ]
    return found


@lru_cache(maxsize=256)
def construction(count: int, table_size: int) -> Schedule | None:
    """The best round robin the constructions give for `count` players at tables of
    `table_size` (3 to 5): fewest rounds, then most even (`evenness`); None when none fits.
    A design or development of the field itself, else one of up to three players more with
    seats left out (`derived`), when it keeps the field's number of tables."""
    if table_size < 3 or count > LARGEST + _MOST_LEFT_OUT or count <= table_size:
        return None
    candidates = _sources(count, table_size)
    tables = len(table_sizes(count, table_size))
    for more in range(1, _MOST_LEFT_OUT + 1):
        if len(table_sizes(count + more, table_size)) != tables:
            continue
        for source in _sources(count + more, table_size):
            candidates += [
                derived(source, count, table_size, left_out)
                for left_out in _left_out_choices(source, more)
            ]
    if not candidates:
        return None
    return min(candidates, key=lambda s: (len(s), evenness(count, s)))
