"""Round robin: everyone meets everyone, in pairs or at tables of 3 to 5 (docs/draw.md,
"Round robin and groups").

Pairs follow the circle method. Tables of k follow a schedule in which every pair of players
meets at least once in as few rounds as the tables allow, and pairs meet as evenly as the
search can make it: an affine plane when there are k*k players (every pair exactly once),
otherwise a seeded simulated annealing with a fixed budget, so the same field always gets the
same schedule.
"""

import itertools
import math
import random
from collections.abc import Sequence
from functools import lru_cache

from league.draw.model import PlayerId, Round, Table
from league.draw.seeding import checked_participants, checked_table_size, table_sizes

# Swaps tried per attempt (per seat of the schedule, at most a cap), and attempts at a number
# of rounds before trying one round more: about a second at worst for twenty players.
_STEPS_PER_SEAT = 250
_MAX_STEPS = 20_000
_SEARCH_ATTEMPTS = 2
# Annealing temperature at the first and last step: high enough to leave a local minimum early.
_HEAT = 5.0
_COOL = 0.1
# How fast the cost of a pair grows with each extra meeting: steep, so one pair meeting four
# times costs more than several pairs meeting twice (the spread is what we minimise).
_GROWTH = 4


def round_robin(players: Sequence[PlayerId], *, table_size: int = 2) -> tuple[Round, ...]:
    """The rounds of a round robin among `players` (in seed order) at tables of `table_size`.

    Pairs: the circle method; with an odd count one player has a bye each round, everyone once.
    Tables of 3 to 5: every round seats everyone at as few tables as possible with sizes as
    equal as possible (no byes; a smaller table only where the count forces it), every pair
    meets at least once, and the schedule has as few rounds as the search finds for that, then
    the smallest spread of meetings per pair. Deterministic for a given count and table size.
    """
    participants = checked_participants(players)
    size = checked_table_size(table_size)
    schedule = _circle(len(participants)) if size == 2 else _table_schedule(len(participants), size)
    return tuple(
        _round(number, tables, participants) for number, tables in enumerate(schedule, start=1)
    )


def group_round_robin(
    groups: Sequence[Sequence[PlayerId]], *, table_size: int = 2
) -> tuple[tuple[Round, ...], ...]:
    """A round robin inside each group (see `snake_groups` for the split)."""
    return tuple(round_robin(group, table_size=table_size) for group in groups)


def _round(number: int, tables: Sequence[Sequence[int]], participants: Sequence[PlayerId]) -> Round:
    """A round from seat numbers (0 is seed 1): tables by their best seed, a lone player a bye."""
    seated = sorted(sorted(table) for table in tables)
    return Round(
        number=number,
        tables=tuple(
            Table(tuple(participants[i] for i in table)) for table in seated if len(table) > 1
        ),
        byes=tuple(participants[table[0]] for table in seated if len(table) == 1),
    )


@lru_cache(maxsize=64)
def _circle(count: int) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """The circle method: seed 1 stays, everyone else turns one place a round; with an odd
    count the empty place (-1) marks the bye."""
    places = list(range(count)) + ([-1] if count % 2 else [])
    half = len(places) // 2
    rounds = []
    for _ in range(len(places) - 1):
        pairs = zip(places[:half], reversed(places[half:]), strict=True)
        rounds.append(tuple(tuple(p for p in pair if p >= 0) for pair in pairs))
        places = [places[0], places[-1], *places[1:-1]]
    return tuple(rounds)


@lru_cache(maxsize=64)
def _table_schedule(count: int, table_size: int) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """Rounds of tables (seat numbers) for a round robin at tables of 3 to 5."""
    sizes = table_sizes(count, table_size)
    if len(sizes) == 1:
        return ((tuple(range(count)),),)
    if count == table_size * table_size:
        return _affine_plane(table_size)
    pairs = count * (count - 1) // 2
    per_round = sum(size * (size - 1) // 2 for size in sizes)
    # Fewer rounds cannot seat enough pairs, or let the best-placed player meet everyone.
    rounds = max(-(-pairs // per_round), -(-(count - 1) // (sizes[0] - 1)))
    while True:
        attempts = (_anneal(count, sizes, rounds, attempt) for attempt in range(_SEARCH_ATTEMPTS))
        schedule = min(attempts, key=lambda found: found[0])[1]
        if _covers_every_pair(count, schedule):
            return tuple(tuple(tuple(table) for table in tables) for tables in schedule)
        rounds += 1


def _covers_every_pair(count: int, schedule: Sequence[Sequence[Sequence[int]]]) -> bool:
    met = {pair for tables in schedule for t in tables for pair in itertools.combinations(t, 2)}
    met |= {(b, a) for a, b in met}
    return len(met) == count * (count - 1)


def _anneal(
    count: int, sizes: Sequence[int], rounds: int, attempt: int
) -> tuple[int, list[list[list[int]]]]:
    """The best schedule a seeded simulated annealing finds for `rounds` rounds, and its cost.

    A move swaps two players of one round between tables. A pair's cost grows steeply with each
    meeting past the first and an unmet pair costs more than any, so the cheapest schedule meets
    every pair and spreads the rest as evenly as it can."""
    rng = random.Random(f"round-robin {count} {sizes} {rounds} {attempt}")  # noqa: S311 - search
    unmet = 4 * count
    cost_of = [unmet] + [_GROWTH ** (met - 1) - 1 for met in range(1, rounds + 2)]
    schedule: list[list[list[int]]] = []
    for _ in range(rounds):
        order = list(range(count))
        rng.shuffle(order)
        starts = list(itertools.accumulate(sizes, initial=0))
        schedule.append([order[a:b] for a, b in itertools.pairwise(starts)])
    met = [[0] * count for _ in range(count)]
    for tables in schedule:
        for table in tables:
            for a, b in itertools.combinations(table, 2):
                met[a][b] += 1
                met[b][a] += 1
    cost = sum(cost_of[met[a][b]] for a, b in itertools.combinations(range(count), 2))
    # The cost if meetings were spread perfectly evenly: reaching it ends the search early.
    meetings = rounds * sum(size * (size - 1) // 2 for size in sizes)
    pairs = count * (count - 1) // 2
    even, extra = divmod(meetings, pairs)
    floor = (pairs - extra) * cost_of[even] + extra * cost_of[even + 1]
    best = (cost, [[list(t) for t in tables] for tables in schedule])
    steps = min(_MAX_STEPS, _STEPS_PER_SEAT * count * rounds)
    cooling = (_COOL / _HEAT) ** (1 / steps)
    heat = _HEAT
    for _ in range(steps):
        if cost == floor:
            break
        heat *= cooling
        tables = schedule[rng.randrange(rounds)]
        first, second = rng.sample(range(len(tables)), 2)
        one, other = tables[first], tables[second]
        i, j = rng.randrange(len(one)), rng.randrange(len(other))
        a, b = one[i], other[j]
        change = _swap_cost(met, cost_of, one, a, b) + _swap_cost(met, cost_of, other, b, a)
        if change <= 0 or rng.random() < math.exp(-change / heat):
            _swap_meetings(met, one, a, b)
            _swap_meetings(met, other, b, a)
            one[i], other[j] = b, a
            cost += change
            if cost < best[0]:
                best = (cost, [[list(t) for t in ts] for ts in schedule])
    return best


def _swap_cost(
    met: list[list[int]], cost_of: list[int], table: list[int], out: int, in_: int
) -> int:
    """The change in cost at `table` when `in_` takes the seat of `out`."""
    change = 0
    for other in table:
        if other != out:
            change += cost_of[met[in_][other] + 1] - cost_of[met[in_][other]]
            change += cost_of[met[out][other] - 1] - cost_of[met[out][other]]
    return change


def _swap_meetings(met: list[list[int]], table: list[int], out: int, in_: int) -> None:
    for other in table:
        if other != out:
            met[in_][other] += 1
            met[other][in_] += 1
            met[out][other] -= 1
            met[other][out] -= 1


def _affine_plane(order: int) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """The lines of the affine plane over the field of `order` (3, 4 or 5) elements, one round
    per direction: `order`*`order` players, `order` + 1 rounds, every pair meets exactly once."""
    add, times = _field(order)
    point = range(order)
    rounds = [tuple(tuple(x * order + y for y in point) for x in point)]  # the lines x = c
    for slope in point:
        rounds.append(
            tuple(
                tuple(x * order + add[times[slope][x]][c] for x in point)  # the lines y = mx + c
                for c in point
            )
        )
    return tuple(rounds)


def _field(order: int) -> tuple[list[list[int]], list[list[int]]]:
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
