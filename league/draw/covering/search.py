"""Searches for round robins at tables where no known design fits (docs/draw.md, "Round robin
and groups"): schedules of a given number of rounds, every round seating everyone at tables of
given sizes, in which every pair of seats meets at least once, then as evenly as possible.

- `anneal`: a seeded simulated annealing, pure Python and deterministic for its arguments.
  First it seeks a schedule in which every pair meets (the cost is the number of pairs that
  have not); then, never leaving a pair unmet, it evens out the meetings.
- `developed`: a base round developed over a cyclic group, found by backtracking (18 and
  24 players at tables of 3 in the fewest rounds possible).
- `greedy`: for large fields, round after round, each table filled with the players who have
  met fewest of those already seated there. Fast, never optimal.
- `exact` (in `covering.exact`): CP-SAT (OR-Tools), which either finds a schedule of that
  many rounds, with the fewest meetings of the most-met pair, or proves there is none. Used
  ahead of time by `league.draw.make_schedules` for the catalogue of small fields.
- `exact_one_repeat` (in `covering.exact`): CP-SAT for the fields where every seat would
  have exactly one seat beside it to spare (`one_to_spare`); there the pairs that meet
  twice are a perfect matching, which makes a model small enough to prove 12 players at
  tables of 3 need 7 rounds.

Schedules are rounds of tables of seat numbers (0 is seed 1), larger tables first.
"""

import itertools
import math
import random
from collections.abc import Sequence

import numpy as np

from league.draw.designs import Schedule

# Annealing temperatures at the first and last step: hot enough to climb out of a local
# minimum early, cold enough to settle at the end.
_HEAT = 0.6
_COOL = 0.05
# How fast a pair's cost grows with each meeting past the first while evening out: steep, so
# that the most-met pair counts first (a pair meeting three times costs more than three pairs
# meeting twice).
_GROWTH = 4


def counting_bound(count: int, sizes: Sequence[int]) -> int:
    """The fewest rounds that could let every pair meet, by counting (docs/draw.md, "How the
    catalogue is found"): enough table seats for all pairs; enough for a player always at the
    largest table to meet everyone; and enough spare seats for the pairs that any two rounds
    must share (`rounds_share_too_much`)."""
    if len(sizes) == 1:
        return 1
    pairs = count * (count - 1) // 2
    per_round = sum(size * (size - 1) // 2 for size in sizes)
    rounds = max(-(-pairs // per_round), -(-(count - 1) // (sizes[0] - 1)))
    while rounds_share_too_much(count, sizes, rounds):
        rounds += 1
    return rounds


def rounds_share_too_much(count: int, sizes: Sequence[int], rounds: int) -> bool:
    """Whether `rounds` rounds (each at tables of `sizes`, at least two rounds and two tables)
    are too few because every two rounds seat some pairs together twice.

    A table of s seats, in another round, sits at t tables, so at least the pairs of s split
    as evenly as possible into t parts meet in both rounds: `shared` pairs for every two rounds
    at the least, C(R, 2) x `shared` in all. Counted by pair instead, a pair meeting m times
    is met again in C(m, 2) of the two rounds; with every pair met, the meetings past each
    pair's first add up to the spare seats, R x (pairs of a round) - C(N, 2), and, each pair
    meeting at most R times, C(m, 2) adds up to the most when as few pairs as possible hold
    them all. 20 players at 4 tables of 5 in 5 rounds have 10 spare meetings: 2 pairs meeting
    5 times and one 3 times give 23 at most, but each two rounds share 4 (a table of 5 at 4
    tables), 40 in all; so 6 rounds at least."""
    if rounds < 2:
        return True
    spare = _spare(count, sizes, rounds)
    if spare < 0:
        return True
    return math.comb(rounds, 2) * shared_pairs(sizes) > _most_met_again(spare, rounds)


def _spare(count: int, sizes: Sequence[int], rounds: int) -> int:
    """The meetings `rounds` rounds at tables of `sizes` hold beyond one for every pair."""
    return rounds * sum(math.comb(size, 2) for size in sizes) - math.comb(count, 2)


def shared_pairs(sizes: Sequence[int]) -> int:
    """The fewest pairs two rounds at tables of `sizes` can both seat together: each table of
    one round split as evenly as possible among the other round's tables."""
    tables = len(sizes)
    shared = 0
    for size in sizes:
        part, larger = divmod(size, tables)
        shared += larger * math.comb(part + 1, 2) + (tables - larger) * math.comb(part, 2)
    return shared


def _most_met_again(spare: int, most: int) -> int:
    """The largest sum of C(m, 2) over pairs whose meetings past the first add up to `spare`,
    none meeting more than `most` times: as few pairs as possible take them all."""
    if most < 2:
        return 0
    full, rest = divmod(spare, most - 1)
    return full * math.comb(most, 2) + math.comb(rest + 1, 2)


def spread_floor(
    count: int, sizes: Sequence[int], rounds: int, *, two_rounds: bool = True
) -> tuple[int, int]:
    """The most meetings of a pair that no schedule of `rounds` rounds meeting every pair can
    go below, and the fewest pairs meeting that often, by counting: the meetings past each
    pair's first add up to the spare seats (shared as evenly as possible: every pair m or
    m + 1 times), and, with `two_rounds`, every two rounds seat at least `shared_pairs` pairs
    together again, which a spread too even cannot hold (`rounds_share_too_much`)."""
    pairs = math.comb(count, 2)
    spare = _spare(count, sizes, rounds)
    again = math.comb(rounds, 2) * shared_pairs(sizes) if two_rounds and len(sizes) > 1 else 0
    if spare <= 0:
        return 1, pairs
    for most in range(2, rounds + 1):
        # `at_most` pairs meet `most` times, the rest at most once fewer: what they can hold.
        for at_most in range(1, pairs + 1):
            left = spare - at_most * (most - 1)
            if left < 0:
                break
            if left > (pairs - at_most) * (most - 2):
                continue
            if at_most * math.comb(most, 2) + _most_met_again(left, most - 1) >= again:
                return most, at_most
    return rounds, pairs


def meetings(count: int, schedule: Schedule) -> list[list[int]]:
    """How often each pair of seats meets in `schedule`."""
    met = [[0] * count for _ in range(count)]
    for tables in schedule:
        for table in tables:
            for a, b in itertools.combinations(table, 2):
                met[a][b] += 1
                met[b][a] += 1
    return met


def profile(count: int, schedule: Schedule) -> tuple[int, ...]:
    """How many pairs meet 0, 1, 2, ... times: of two schedules meeting every pair, the more
    even has fewer pairs at its highest count (compare these reversed)."""
    met = meetings(count, schedule)
    counts = [met[a][b] for a, b in itertools.combinations(range(count), 2)]
    return tuple(counts.count(m) for m in range(max(counts) + 1))


def evenness(count: int, schedule: Schedule) -> tuple[int, ...]:
    """A sort key, smaller is more even: pairs at the highest count, then the next, and so on
    (a schedule with an unmet pair comes after every one without)."""
    counts = profile(count, schedule)
    return (counts[0], len(counts), *reversed(counts))


def encode(schedule: Schedule, count: int) -> tuple[str, ...]:
    """Each round as one letter per seat: the table it sits at (a is the round's first)."""
    rounds = []
    for tables in schedule:
        letters = ["?"] * count
        for index, table in enumerate(sorted(tables, key=lambda t: (-len(t), min(t)))):
            for seat in table:
                letters[seat] = "abcdefghijklmnopqrstuvwxyz"[index]
        rounds.append("".join(letters))
    return tuple(rounds)


def decode(rounds: Sequence[str]) -> Schedule:
    """The schedule `encode` wrote."""
    return tuple(
        tuple(
            tuple(seat for seat, letter in enumerate(line) if letter == table)
            for table in sorted(set(line))
        )
        for line in rounds
    )


def anneal(
    count: int,
    sizes: Sequence[int],
    rounds: int,
    *,
    seed: str,
    steps: int,
    most: int | None = None,
    start: Schedule | None = None,
) -> Schedule | None:
    """A schedule of `rounds` rounds in which every pair meets (and, with `most`, none more
    than `most` times), made as even as the search finds, or None when the search finds none
    within `steps` swaps; from random rounds, or from `start`. Deterministic for its
    arguments (the generator is seeded from `seed`)."""
    search = _Annealing(count, sizes, rounds, random.Random(seed))  # noqa: S311 - a search
    if start is not None:
        search.start_from(start)
    if not search.cover(steps, most=most):
        return None
    if most is None:
        search.even_out(steps)
    return search.schedule()


def shorten(schedule: Schedule, count: int, *, seed: str, steps: int) -> Schedule:
    """`schedule` with as many rounds fewer as annealing finds, one at a time (each search
    starts from the schedule without its last round, `steps` swaps), then evened out."""
    rng = random.Random(seed)  # noqa: S311 - a search
    sizes = [len(table) for table in schedule[0]]
    best = _Annealing(count, sizes, len(schedule), rng)
    best.start_from(schedule)
    while best.rounds > 1:
        search = _Annealing(count, sizes, best.rounds - 1, rng)
        search.start_from(best.tables_as_schedule()[:-1])
        if not search.cover(steps):
            break
        best = search
    best.even_out(steps)
    return best.schedule()


class _Annealing:
    """The state of a search: the rounds' tables, where each seat sits and who met whom."""

    def __init__(self, count: int, sizes: Sequence[int], rounds: int, rng: random.Random) -> None:
        self.count, self.rounds, self.rng = count, rounds, rng
        starts = list(itertools.accumulate(sizes, initial=0))
        self.tables: list[list[list[int]]] = []
        for _ in range(rounds):
            order = list(range(count))
            rng.shuffle(order)
            self.tables.append([order[a:b] for a, b in itertools.pairwise(starts)])
        self._index()

    def start_from(self, schedule: Schedule) -> None:
        """Start from these rounds instead of random ones."""
        self.tables = [[list(table) for table in tables] for tables in schedule]
        self._index()

    def _index(self) -> None:
        count, rounds = self.count, self.rounds
        self.at = [[0] * count for _ in range(rounds)]
        for r, tables in enumerate(self.tables):
            for t, table in enumerate(tables):
                for seat in table:
                    self.at[r][seat] = t
        self.met = meetings(count, self.tables_as_schedule())
        self.unmet = sum(
            1 for a, b in itertools.combinations(range(count), 2) if not self.met[a][b]
        )

    def tables_as_schedule(self) -> Schedule:
        return tuple(tuple(tuple(table) for table in tables) for tables in self.tables)

    def schedule(self) -> Schedule:
        return tuple(
            tuple(sorted((tuple(sorted(t)) for t in tables), key=lambda t: (-len(t), t)))
            for tables in self.tables
        )

    def _pick(self) -> tuple[int, int, int, int, int]:
        """A random swap: a round, two tables of it and a seat at each."""
        rng = self.rng
        r = rng.randrange(self.rounds)
        tables = self.tables[r]
        a = rng.randrange(self.count)
        t = self.at[r][a]
        u = rng.randrange(len(tables) - 1)
        u += u >= t
        j = rng.randrange(len(tables[u]))
        return r, t, tables[t].index(a), u, j

    def _swap(self, r: int, t: int, i: int, u: int, j: int) -> None:
        one, other = self.tables[r][t], self.tables[r][u]
        a, b = one[i], other[j]
        met = self.met
        for z in one:
            if z != a:
                met[a][z] -= 1
                met[z][a] -= 1
                met[b][z] += 1
                met[z][b] += 1
        for z in other:
            if z != b:
                met[b][z] -= 1
                met[z][b] -= 1
                met[a][z] += 1
                met[z][a] += 1
        one[i], other[j] = b, a
        self.at[r][a], self.at[r][b] = u, t

    def cover(self, steps: int, *, most: int | None = None) -> bool:
        """Anneal the number of unmet pairs down to none, and with `most` also every meeting
        of a pair past `most`; whether it got there."""
        heat, cooling = _HEAT, (_COOL / _HEAT) ** (1 / max(steps, 1))
        met, rng = self.met, self.rng
        cap = self.rounds + 1 if most is None else most
        excess = sum(
            max(0, met[a][b] - cap) for a, b in itertools.combinations(range(self.count), 2)
        )
        for _ in range(steps):
            if not self.unmet and not excess:
                return True
            heat *= cooling
            r, t, i, u, j = self._pick()
            one, other = self.tables[r][t], self.tables[r][u]
            a, b = one[i], other[j]
            unmet = over = 0
            for x, y, table in ((a, b, one), (b, a, other)):
                for z in table:
                    if z != x:
                        unmet += (met[x][z] == 1) - (met[y][z] == 0)
                        over += (met[y][z] >= cap) - (met[x][z] > cap)
            change = unmet + over
            if change <= 0 or rng.random() < math.exp(-change / heat):
                self._swap(r, t, i, u, j)
                self.unmet += unmet
                excess += over
        return not self.unmet and not excess

    def even_out(self, steps: int) -> None:
        """Anneal the spread of meetings down: a pair's cost grows steeply with each meeting
        past the first, and an unmet pair costs more than a pair meeting three times (the
        search may pass through such schedules). Keeps the best schedule seen that meets every
        pair."""
        growth = [_GROWTH ** (m - 1) - 1 for m in range(1, self.rounds + 2)]
        cost_of = [growth[2] + 1, *growth]
        met, rng, count = self.met, self.rng, self.count
        pairs = count * (count - 1) // 2
        total = sum(met[a][b] for a, b in itertools.combinations(range(count), 2))
        even, extra = divmod(total, pairs)
        floor = (pairs - extra) * cost_of[even] + extra * cost_of[even + 1]
        cost = sum(cost_of[met[a][b]] for a, b in itertools.combinations(range(count), 2))
        best = (cost, [[list(t) for t in tables] for tables in self.tables])
        heat = float(cost_of[2])
        cooling = (_COOL / heat) ** (1 / max(steps, 1))
        for _ in range(steps):
            if best[0] == floor:
                break
            heat *= cooling
            r, t, i, u, j = self._pick()
            one, other = self.tables[r][t], self.tables[r][u]
            a, b = one[i], other[j]
            change = uncovered = 0
            for x, y, table in ((a, b, one), (b, a, other)):
                for z in table:
                    if z != x:
                        change += cost_of[met[x][z] - 1] - cost_of[met[x][z]]
                        change += cost_of[met[y][z] + 1] - cost_of[met[y][z]]
                        uncovered += (met[x][z] == 1) - (met[y][z] == 0)
            if change <= 0 or rng.random() < math.exp(-change / heat):
                self._swap(r, t, i, u, j)
                cost += change
                self.unmet += uncovered
                if cost < best[0] and not self.unmet:
                    best = (cost, [[list(t) for t in tables] for tables in self.tables])
        self.tables = best[1]
        self.met = meetings(count, self.tables_as_schedule())
        self.unmet = 0


def greedy(count: int, sizes: Sequence[int], *, played: Schedule = ()) -> Schedule:
    """Rounds until every pair has met (after the rounds `played`, if any: the rounds to add):
    each table of a round starts from the free seat with the most pairs still to meet, then
    takes, one at a time, the free seat that has not met the most of those already seated
    (ties: more pairs still to meet, then the lower seat). Every round meets at least one new
    pair, so it ends."""
    unmet = np.ones((count, count), dtype=np.int64)
    np.fill_diagonal(unmet, 0)
    for played_round in played:
        for played_table in played_round:
            together = np.array(played_table)
            unmet[np.ix_(together, together)] = 0
    left = unmet.sum(axis=1)
    # Keys as one integer: seats not yet met at the table first, then pairs still to meet.
    scale = count + 1
    rounds: list[tuple[tuple[int, ...], ...]] = []
    while left.any():
        taken = np.zeros(count, dtype=bool)
        tables = []
        for size in sizes:
            first = int(np.argmax(np.where(taken, -1, left)))
            table, taken[first] = [first], True
            at_table = unmet[:, first].copy()
            while len(table) < size:
                pick = int(np.argmax(np.where(taken, -1, at_table * scale + left)))
                table.append(pick)
                taken[pick] = True
                at_table += unmet[:, pick]
            seats = np.array(table)
            left[seats] -= unmet[np.ix_(seats, seats)].sum(axis=1)
            unmet[np.ix_(seats, seats)] = 0
            tables.append(tuple(sorted(table)))
        rounds.append(tuple(tables))
    return tuple(rounds)


def developed(count: int, sizes: Sequence[int], rounds: int, *, nodes: int) -> Schedule | None:
    """A schedule of `rounds` rounds that is one base round developed over Z_rounds, or None
    when a search of `nodes` nodes finds none.

    The seats are Z_rounds x {0, 1, ...} (plus fixed seats when `count` is not a multiple of
    `rounds`, at most one less than the tables, which stay put); round r is the base round
    with r added to every seat's first coordinate. Two seats (x, i) and (y, j) meet in some
    round exactly when the base round has a pair of the same class: the same levels and the
    same difference y - x (up to sign within a level). So the base round must hold a pair of
    every class; a backtracking search fills its tables seat by seat, allowing no more
    repeated classes than its pairs exceed the classes."""
    levels, fixed = divmod(count, rounds)
    if not levels or fixed >= len(sizes):
        return None
    seats: list[tuple[int, int]] = [(x, level) for level in range(levels) for x in range(rounds)]
    seats += [(-1, f) for f in range(fixed)]

    def kind(p: tuple[int, int], q: tuple[int, int]) -> tuple[int, ...]:
        (x, i), (y, j) = sorted((p, q), key=lambda s: (s[0] < 0, s[1], s[0]))
        if y < 0:
            return (2, i, j) if x < 0 else (1, j, i)
        if i == j:
            d = (y - x) % rounds
            return (0, i, i, min(d, rounds - d))
        return (0, i, j, (y - x) % rounds)

    classes = {kind(p, q) for p, q in itertools.combinations(seats, 2)}
    spare = sum(s * (s - 1) // 2 for s in sizes) - len(classes)
    if spare < 0:
        return None
    tables: list[list[tuple[int, int]]] = [[] for _ in sizes]
    covered: dict[tuple[int, ...], int] = dict.fromkeys(classes, 0)
    budget = [nodes]

    def fill(next_seat: int, spare: int) -> bool:
        budget[0] -= 1
        if budget[0] < 0:
            return False
        if next_seat == len(seats):
            return True
        seat, empty_tried = seats[next_seat], set()
        for t, table in enumerate(tables):
            if len(table) == sizes[t] or (not table and sizes[t] in empty_tried):
                continue
            if not table:
                empty_tried.add(sizes[t])
            pairs = [kind(seat, other) for other in table]
            repeats = 0
            for c in pairs:
                repeats += covered[c] > 0
                covered[c] += 1
            if repeats <= spare:
                table.append(seat)
                if fill(next_seat + 1, spare - repeats):
                    return True
                table.pop()
            for c in pairs:
                covered[c] -= 1
        return False

    if not fill(0, spare):
        return None
    number = {seat: i for i, seat in enumerate(seats)}

    def moved(seat: tuple[int, int], r: int) -> int:
        x, level = seat
        return number[seat] if x < 0 else number[((x + r) % rounds, level)]

    return tuple(
        tuple(
            sorted(
                (tuple(sorted(moved(seat, r) for seat in table)) for table in tables),
                key=lambda t: (-len(t), t),
            )
        )
        for r in range(rounds)
    )
