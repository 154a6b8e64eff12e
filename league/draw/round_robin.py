"""Round robin: everyone meets everyone, in pairs or at tables of 3 to 5 (docs/draw.md,
"Round robin and groups").

Pairs follow the circle method. Tables of k follow a schedule in which every pair of players
meets at least once, in as few rounds as known, then as evenly as known: a known design where
one fits (every pair exactly once), else for up to 24 players the catalogue's schedule (found
ahead of time by annealing and CP-SAT, `league.draw.make_schedules`), else the fewer rounds of
a construction (`league.draw.constructions`: developed base rounds, products, designs with
seats left out) and a greedy schedule shortened by a seeded annealing (only searched when no
construction reaches the counting bound). The same field always gets the same schedule.
"""

from collections.abc import Sequence
from functools import lru_cache

from league.draw.catalogue import SCHEDULES
from league.draw.constructions import construction
from league.draw.covering import counting_bound, decode, evenness, greedy, shorten
from league.draw.designs import Schedule, exact_schedule
from league.draw.model import PlayerId, Round, Table
from league.draw.seeding import checked_participants, checked_table_size, table_sizes

# Swaps per round the annealing tries to drop from a greedy schedule (beyond the catalogue):
# about half a second each on one core.
_SEARCH_STEPS = 60_000


def round_robin(players: Sequence[PlayerId], *, table_size: int = 2) -> tuple[Round, ...]:
    """The rounds of a round robin among `players` (in seed order) at tables of `table_size`.

    Pairs: the circle method; with an odd count one player has a bye each round, everyone once.
    Tables of 3 to 5: every round seats everyone at as few tables as possible with sizes as
    equal as possible (no byes; a smaller table only where the count forces it), every pair
    meets at least once, in as few rounds as known for the field, then with meetings as even
    as known (docs/draw.md gives, per field, the rounds next to their lower bound).
    Deterministic for a given count and table size.
    """
    participants = checked_participants(players)
    size = checked_table_size(table_size)
    schedule = circle(len(participants)) if size == 2 else _table_schedule(len(participants), size)
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
def circle(count: int) -> tuple[tuple[tuple[int, ...], ...], ...]:
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
def _table_schedule(count: int, table_size: int) -> Schedule:
    return table_schedule(count, table_size)[0]


def table_schedule(count: int, table_size: int) -> tuple[Schedule, str]:
    """Rounds of tables (seat numbers) for a round robin at tables of 3 to 5, and where they
    come from: "design" (`designs.py`, every pair exactly once), else the fewest rounds of
    "catalogue" (up to 24 players; kept on a tie), "construction" (`constructions.py`) and
    "search" (greedy, then shortened by annealing; only run when the others do not reach
    the counting bound), the more even on a tie."""
    sizes = table_sizes(count, table_size)
    design = exact_schedule(count, sizes)
    if design is not None:
        return design, "design"
    bound = counting_bound(count, sizes)
    catalogued = SCHEDULES.get((count, len(sizes)))
    if catalogued is not None:
        schedule = decode(catalogued[2])
        built = construction(count, table_size)
        if built is not None and len(built) < len(schedule):
            return built, "construction"
        return schedule, "catalogue"
    candidates: list[tuple[Schedule, str]] = []
    built = construction(count, table_size)
    if built is not None:
        candidates.append((built, "construction"))
    if built is None or len(built) > bound:
        searched = shorten(
            greedy(count, sizes), count, seed=f"round robin {count} {sizes}", steps=_SEARCH_STEPS
        )
        candidates.append((searched, "search"))
    return min(candidates, key=lambda found: (len(found[0]), evenness(count, found[0])))
