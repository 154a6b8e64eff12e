"""The exact searches behind a Swiss round's seating at tables (`seating.py`; docs/draw.md,
"Swiss"): the best seating of a small field by exhaustive search, the fewest repeats a field
can be seated with (a search on the graph of who met whom), and the exact cover by tables
within an allowance of repeats. Each works within a number of steps and says when it ran out."""

import itertools
from collections.abc import Callable, Sequence


class _OutOfSteps(Exception):
    """The exhaustive search used up its steps."""


def exhaustive(
    groups: Sequence[int], met: Sequence[Sequence[int]], sizes: Sequence[int], *, steps: int
) -> list[list[int]] | None:
    """A seating with the fewest repeats, then the least spread, of all seatings at tables of
    `sizes` (larger first), or None when the search needs more than `steps` tables tried.

    Exhaustive, memoised over the players still to seat: the first of them (in standings
    order) sits at some table with some of the others, and the rest are seated the best way
    (the same remaining players always have the same best seating). A table whose cost alone
    reaches the best found for these players is not followed further."""
    count = len(groups)
    weight = len(sizes) * (max(groups, default=0) + 1) + 1
    large, small = sizes[0], sizes[-1]
    pair = [[met[a][b] * weight for b in range(count)] for a in range(count)]
    best: dict[tuple[int, int], tuple[int, tuple[int, ...]]] = {}
    left = [steps]

    def seat_rest(mask: int, tables: int) -> int:
        if not mask:
            return 0
        known = best.get((mask, tables))
        if known is not None:
            return known[0]
        members = [p for p in range(count) if mask >> p & 1]
        first, rest = members[0], members[1:]
        # Tables are all of one size, or of two sizes one apart: the players left tell how
        # many of the tables left are the larger.
        many_large = len(members) - tables * small if large != small else tables
        fewest = 1 << 62
        choice: tuple[int, ...] = ()
        for size in (large, small) if large != small else (large,):
            if (size == large and many_large <= 0) or (size != large and many_large >= tables):
                continue
            for others in itertools.combinations(rest, size - 1):
                left[0] -= 1
                if left[0] < 0:
                    raise _OutOfSteps
                cost = groups[others[-1]] - groups[first]
                row = pair[first]
                for i, a in enumerate(others):
                    cost += row[a]
                    for b in others[i + 1 :]:
                        cost += pair[a][b]
                if cost >= fewest:
                    continue
                seated = 1 << first
                for a in others:
                    seated |= 1 << a
                cost += seat_rest(mask & ~seated, tables - 1)
                if cost < fewest:
                    fewest, choice = cost, (first, *others)
        best[mask, tables] = (fewest, choice)
        return fewest

    try:
        seat_rest((1 << count) - 1, len(sizes))
    except _OutOfSteps:
        return None
    seating, mask = [], (1 << count) - 1
    for tables in range(len(sizes), 0, -1):
        table = best[mask, tables][1]
        seating.append(list(table))
        for p in table:
            mask &= ~(1 << p)
    return sorted(seating, key=lambda table: (-len(table), table))


def fewest_repeats(
    met: Sequence[Sequence[int]],
    sizes: Sequence[int],
    *,
    upper: int,
    steps: int,
    least: int = 0,
) -> tuple[int, list[list[int]] | None] | None:
    """The fewest repeats any seating at tables of `sizes` (larger first) has, proven, given
    a seating with `upper` of them: (fewest, a seating with that many, or None when `upper`
    is already the fewest); None when the search needs more than `steps` tables tried.

    Score is ignored: only the graph of pairs that met matters. Iterative deepening on the
    number of repeats allowed, from a lower bound up: a depth-first search seats the most
    constrained player left (the fewest others left it has not met) at a table with some of
    the others, within the repeats still allowed, and gives up on a set of players left when
    the bound below says they cannot be seated within it. Each player must sit with
    `small - 1` others, and a player with only u others left it has not met sits with at least
    `small - 1 - u` it has met; every such meeting is counted by both players, so half the sum
    over the players left (rounded up) is a lower bound. A set of players left that cannot be
    seated within some allowance is remembered, so it is not searched again. The search
    starts from the larger of that bound and a second one, worked out once for the whole
    field (`table_bound`): each player's cheapest table, summed, over `large`."""
    count = len(met)
    large, small = sizes[0], sizes[-1]
    many_large = sum(1 for size in sizes if size == large) if large != small else len(sizes)
    unmet = [sum(1 << q for q in range(count) if q != p and not met[p][q]) for p in range(count)]
    weight = [[met[p][q] for q in range(count)] for p in range(count)]
    # The least number of repeats the players in a set need, proven (at least this many).
    floor: dict[tuple[int, int], int] = {}
    left = [steps]

    def scan(mask: int) -> tuple[int, int]:
        """The lower bound above for the players of `mask`, and the most constrained of them
        (the fewest others left it has not met; the lowest of a tie), in one pass."""
        need = small - 1
        short = 0
        pivot, fewest_unmet = -1, count + 1
        m = mask
        while m:
            low = m & -m
            p = low.bit_length() - 1
            m ^= low
            u = (unmet[p] & mask).bit_count()
            if u < need:
                short += need - u
            if u < fewest_unmet:
                pivot, fewest_unmet = p, u
        return (short + 1) // 2, pivot

    def each_table(
        p: int, candidates: list[int], size: int, under: list[int], take: Callable[[int, int], bool]
    ) -> None:
        """Hand `take` each table of `size` with p and players of `candidates` (in their
        order): its repeats and its mask, for the tables whose repeats stay under `under[0]`
        (read at each step, so `take` may lower it), until `take` answers True. A step of the
        budget per candidate tried."""

        def extend(start: int, members: list[int], cost: int, table: int) -> bool:
            if len(members) == size:
                return take(cost, table)
            for i in range(start, len(candidates) - (size - len(members)) + 1):
                left[0] -= 1
                q = candidates[i]
                row = weight[q]
                more = cost
                for r in members:
                    more += row[r]
                if more < under[0]:
                    members.append(q)
                    done = extend(i + 1, members, more, table | 1 << q)
                    members.pop()
                    if done:
                        return True
            return False

        extend(0, [p], 0, 1 << p)

    def cheapest(p: int, mask: int) -> int:
        """The fewest repeats of a table of `small` with p among the players of `mask`."""
        others = mask & ~(1 << p)
        # Players it has not met first: the cheapest tables are found early.
        candidates = [q for q in range(count) if unmet[p] >> q & 1 and others >> q & 1]
        candidates += [q for q in range(count) if others >> q & 1 and met[p][q]]
        least = [1 << 62]

        def lower(cost: int, _table: int) -> bool:
            least[0] = cost
            return not cost  # none cheaper than none

        each_table(p, candidates, small, least, lower)
        if left[0] < 0:
            raise _OutOfSteps
        return least[0]

    def table_bound(mask: int) -> int:
        """Each player's table costs at least the fewest repeats of any table of `small`
        with it among the players left (a larger table holds one), and each table is
        counted by at most `large` players: the sum over the players, divided by `large`."""
        total = sum(cheapest(p, mask) for p in range(count) if mask >> p & 1)
        return -(-total // large)

    def tables_of(p: int, others: int, size: int, allowed: int) -> list[tuple[int, int]]:
        """Tables of `size` with p and players of `others` (a mask), with their repeats,
        fewer than `allowed`, fewest first."""
        candidates = [q for q in range(count) if others >> q & 1]
        found: list[tuple[int, int]] = []

        def keep(cost: int, table: int) -> bool:
            found.append((cost, table))
            return False

        each_table(p, candidates, size, [allowed], keep)
        left[0] -= len(found)
        found.sort()
        return found

    def search(
        mask: int, large_left: int, tables: int, allowed: int, seated: list[list[int]]
    ) -> bool:
        """Whether the players of `mask` can sit with fewer than `allowed` repeats (then
        their tables are appended to `seated`)."""
        if not mask:
            return True
        key = (mask, large_left)
        least, pivot = scan(mask)
        need = max(floor.get(key, 0), least)
        if need >= allowed:
            floor[key] = need
            return False
        # A step per player left (the bound and the pivot look at each) and per candidate.
        left[0] -= mask.bit_count()
        if left[0] < 0:
            raise _OutOfSteps
        others = mask & ~(1 << pivot)
        choices = []
        if large_left:
            choices.append((large, large_left - 1))
        if large != small and tables - large_left > 0:
            choices.append((small, large_left))
        for size, large_after in choices:
            for cost, table in tables_of(pivot, others, size, allowed):
                left[0] -= 1
                if left[0] < 0:
                    raise _OutOfSteps
                if search(mask & ~table, large_after, tables - 1, allowed - cost, seated):
                    seated.append([p for p in range(count) if table >> p & 1])
                    return True
        floor[key] = allowed
        return False

    everyone = (1 << count) - 1
    try:
        start = max(scan(everyone)[0], table_bound(everyone), least)
        for allowed in range(start + 1, upper + 1):
            seated: list[list[int]] = []
            if search(everyone, many_large, len(sizes), allowed, seated):
                return allowed - 1, sorted(seated, key=lambda table: (-len(table), table))
    except _OutOfSteps:
        return None
    return upper, None


def tables_within(
    met: Sequence[Sequence[int]], sizes: Sequence[int], *, repeats: int, steps: int
) -> list[tuple[int, tuple[int, ...]]] | None:
    """Every table of one of `sizes` (players in increasing order) with at most `repeats`
    repeated meetings, with its repeats; None past `steps` players tried. Depth first: a
    table grows by players above its last one while its repeats stay within the allowance."""
    count = len(met)
    wanted = sorted(set(sizes))
    largest = wanted[-1]
    found: list[tuple[int, tuple[int, ...]]] = []
    left = [steps]

    def grow(members: list[int], cost: int) -> None:
        if len(members) in wanted:
            found.append((cost, tuple(members)))
        if len(members) == largest:
            return
        for q in range(members[-1] + 1, count):
            left[0] -= 1
            if left[0] < 0:
                raise _OutOfSteps
            row = met[q]
            more = cost
            for r in members:
                more += row[r]
            if more <= repeats:
                members.append(q)
                grow(members, more)
                members.pop()

    try:
        for p in range(count):
            grow([p], 0)
    except _OutOfSteps:
        return None
    return found


def cover_within(
    met: Sequence[Sequence[int]], sizes: Sequence[int], *, repeats: int, steps: int
) -> tuple[list[list[int]] | bool, int]:
    """A seating at tables of `sizes` (larger first) with at most `repeats` repeats, or False
    when there is none (proven: the search is exhaustive), or True when the search needs more
    than `steps` steps (undecided); and the steps used.

    An exact cover, as in Knuth's Algorithm X: every table with at most `repeats` repeats is
    listed (`tables_within`); at each step the player left with the fewest tables still open
    to it (all of whose players are left, within the repeats still allowed, of a size still
    to fill) is seated at each of them in turn, cheapest first, and a player with none ends
    the branch. A set of players left that cannot be seated within an allowance is
    remembered (it fails within any smaller one too). A step per table looked at."""
    count = len(met)
    large, small = sizes[0], sizes[-1]
    many_large = sum(1 for size in sizes if size == large) if large != small else len(sizes)
    listed = tables_within(met, sizes, repeats=repeats, steps=steps)
    if listed is None:
        return True, steps
    left = [steps - len(listed)]
    # Per player, its tables (cost, mask, large?), cheapest first.
    options: list[list[tuple[int, int, bool]]] = [[] for _ in range(count)]
    for cost, table in sorted(listed):
        mask = 0
        for p in table:
            mask |= 1 << p
        for p in table:
            options[p].append((cost, mask, len(table) == large))
    # The largest allowance each set of players left (and large tables left) failed within.
    failed: dict[tuple[int, int], int] = {}

    def open_to(
        p: int, mask: int, allowed: int, large_ok: bool, small_ok: bool, most: int
    ) -> list[tuple[int, int, bool]]:
        found = []
        looked = 0
        for cost, table, is_large in options[p]:
            looked += 1
            if cost > allowed:
                break
            if table & ~mask or not (large_ok if is_large else small_ok):
                continue
            found.append((cost, table, is_large))
            if len(found) >= most:
                break
        left[0] -= looked
        return found

    def search(mask: int, large_left: int, tables: int, allowed: int, seated: list[int]) -> bool:
        if not mask:
            return True
        key = (mask, large_left)
        if failed.get(key, -1) >= allowed:
            return False
        if left[0] < 0:
            raise _OutOfSteps
        large_ok = large_left > 0
        small_ok = large == small or tables - large_left > 0
        best: list[tuple[int, int, bool]] | None = None
        m = mask
        while m:
            low = m & -m
            m ^= low
            p = low.bit_length() - 1
            found = open_to(p, mask, allowed, large_ok, small_ok, len(best) if best else count**5)
            if best is None or len(found) < len(best):
                best = found
                if not best:
                    break
        for cost, table, is_large in best or []:
            if search(
                mask & ~table,
                large_left - (is_large and large != small),
                tables - 1,
                allowed - cost,
                seated,
            ):
                seated.append(table)
                return True
        failed[key] = allowed
        return False

    seated: list[int] = []
    try:
        if not search((1 << count) - 1, many_large, len(sizes), repeats, seated):
            return False, steps - left[0]
    except _OutOfSteps:
        return True, steps
    tables = [[p for p in range(count) if table >> p & 1] for table in seated]
    return sorted(tables, key=lambda table: (-len(table), table)), steps - left[0]
