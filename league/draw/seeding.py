"""Seeding: the order participants enter a stage (docs/draw.md, "Seeding").

Callers put participants in seed order (seed 1 first) before drawing; these functions give that
order by rating or by a seeded shuffle, split seeds into groups, carry qualifiers from one stage
(or from each of its groups) to the next, and place seeds in a bracket so that top seeds meet
late.
"""

import random
from collections.abc import Iterable, Mapping, Sequence

from league.draw.errors import DrawError
from league.draw.model import PlayerId

MIN_TABLE = 2
MAX_TABLE = 5


def checked_participants(players: Iterable[PlayerId]) -> tuple[PlayerId, ...]:
    """The participants as a tuple in seed order; at least two, none twice."""
    participants = tuple(players)
    if len(participants) < MIN_TABLE:
        raise DrawError("too_few_players", "A stage needs at least two participants.")
    seen: set[PlayerId] = set()
    for player in participants:
        if player in seen:
            raise DrawError("duplicate_player", f"Player {player} is entered twice.")
        seen.add(player)
    return participants


def checked_table_size(table_size: int) -> int:
    """A table size from 2 (pairs) to 5."""
    if not MIN_TABLE <= table_size <= MAX_TABLE:
        raise DrawError("table_size", f"Tables hold 2 to 5 players, not {table_size}.")
    return table_size


def table_sizes(players: int, table_size: int) -> tuple[int, ...]:
    """How many sit at each table when `players` share tables of at most `table_size`: as few
    tables as possible, sizes as equal as possible, larger tables first. Only pairs leave a
    table of one (a bye), because no table of 3 to 5 players needs to be smaller than 2."""
    tables = -(-players // table_size)
    size, larger = divmod(players, tables)
    return (size + 1,) * larger + (size,) * (tables - larger)


def random_seeding(players: Iterable[PlayerId], *, seed: int) -> tuple[PlayerId, ...]:
    """The players in a random seed order that `seed` alone decides: the players sorted by id,
    then shuffled by Python's `random.Random(seed)` (Mersenne Twister). Store the seed with the
    stage and the same call gives the same order again."""
    order = sorted(checked_participants(players))
    random.Random(seed).shuffle(order)  # noqa: S311 - a reproducible draw, not a secret
    return tuple(order)


def rating_seeding(
    players: Sequence[PlayerId], ratings: Mapping[PlayerId, float]
) -> tuple[PlayerId, ...]:
    """The players in seed order by rating, highest first; players with no rating after the
    rated ones; equal ratings, and the unrated, in the order given."""
    given = {player: index for index, player in enumerate(checked_participants(players))}
    return tuple(sorted(given, key=lambda p: (p not in ratings, -ratings.get(p, 0.0), given[p])))


def snake_groups(players: Sequence[PlayerId], groups: int) -> tuple[tuple[PlayerId, ...], ...]:
    """Split players in seed order into `groups` groups by the snake: seeds 1..g go to groups
    1..g, seeds g+1..2g to groups g..1, and so on, so every group gets a like mix of seeds.
    Each group keeps its players in seed order."""
    participants = checked_participants(players)
    if groups < 1 or len(participants) < MIN_TABLE * groups:
        raise DrawError(
            "groups", f"{len(participants)} players cannot make {groups} groups of two or more."
        )
    split: list[list[PlayerId]] = [[] for _ in range(groups)]
    for position, player in enumerate(participants):
        tier, place = divmod(position, groups)
        split[place if tier % 2 == 0 else groups - 1 - place].append(player)
    return tuple(tuple(group) for group in split)


def qualifiers(standings: Sequence[PlayerId], top: int) -> tuple[PlayerId, ...]:
    """The next stage's participants in seed order: the first `top` of an earlier stage's final
    standings (best first)."""
    order = tuple(standings)
    if not 0 < top <= len(order):
        raise DrawError("qualifiers", f"Cannot take the top {top} of {len(order)} players.")
    return checked_participants(order[:top])


def group_qualifiers(
    standings: Sequence[Sequence[PlayerId]],
    top: int,
    *,
    best_rest: int = 0,
    overall: Sequence[PlayerId] | None = None,
) -> tuple[PlayerId, ...]:
    """The next stage's participants from several groups' final standings (each group best
    first, no place shared): the first `top` of every group, then the `best_rest` best of all
    the others, best as `overall` says. `overall` lists every player of every group once, best
    first, as the caller compares players of different groups; without it, place by place:
    every group winner (in group order), then every runner-up, and so on.

    The qualifiers come in seed order: the order of `overall`."""
    groups = [tuple(group) for group in standings]
    if top < 1 or any(len(group) < top for group in groups):
        raise DrawError("qualifiers", f"Every group needs at least {top} players to take {top}.")
    everyone = [player for group in groups for player in group]
    if overall is None:
        deepest = max((len(group) for group in groups), default=0)
        overall = [
            group[place] for place in range(deepest) for group in groups if place < len(group)
        ]
    if sorted(overall) != sorted(everyone) or len(set(overall)) != len(overall):
        raise DrawError("qualifiers", "The overall order must list every group's players once.")
    taken = {player for group in groups for player in group[:top]}
    rest = [player for player in overall if player not in taken]
    if not 0 <= best_rest <= len(rest):
        raise DrawError(
            "qualifiers",
            f"Cannot take the best {best_rest} of the rest: {len(rest)} players are left once "
            f"the top {top} of each group are taken.",
        )
    taken.update(rest[:best_rest])
    return checked_participants(player for player in overall if player in taken)


def groups_apart(
    players: Sequence[PlayerId],
    groups: Mapping[PlayerId, int],
    places: Mapping[PlayerId, int],
    meetings: Mapping[tuple[int, int], int],
) -> tuple[PlayerId, ...]:
    """`players` in seed order, reordered as little as needed so that players of one group
    (`groups`) meet as late as the next stage allows: first as few pairs of a group as can
    meet in round 1, then in round 2, and so on. `meetings` gives, for two seeds (lower first),
    the earliest round they can meet (pairs that cannot meet are left out). Players only swap
    seeds with players of the same place in their groups (`places`: a group's winner 0, its
    runner-up 1, ...), so every group winner stays seeded above every runner-up.

    A descent over such swaps (deterministic): each step makes the swap that lowers the
    clashes most, round 1 first, and of swaps as good the one of the lowest seeds, so the
    better seeds keep their places; it stops when no swap helps. Tests check against every
    order within places on small fields that round 1 is then as clear as it can be."""
    order = list(checked_participants(players))
    if not set(order) <= set(groups) or not set(order) <= set(places):
        raise DrawError("qualifiers", "Every player needs a group and a place in it.")
    rounds = max(meetings.values(), default=0)
    if rounds == 0:
        return tuple(order)

    def met(first: int, second: int) -> int | None:
        """When the seats at positions `first` and `second` (from 0) can first meet."""
        low, high = sorted((first + 1, second + 1))
        return meetings.get((low, high))

    at: dict[int, set[int]] = {}  # each group's positions
    for position, player in enumerate(order):
        at.setdefault(groups[player], set()).add(position)

    def change(i: int, j: int) -> list[int]:
        """How the clashes of each round change when positions i and j swap players."""
        delta = [0] * rounds
        for here, there in ((i, j), (j, i)):
            for k in at[groups[order[here]]]:
                if k == here:
                    continue
                before, after = met(here, k), met(there, k)
                if before is not None:
                    delta[before - 1] -= 1
                if after is not None:
                    delta[after - 1] += 1
        return delta

    def clashing(round_: int) -> list[int]:
        """The positions of players who can meet one of their group in `round_`."""
        return sorted(
            k
            for positions in at.values()
            for k in positions
            if any(m != k and met(k, m) == round_ for m in positions)
        )

    # A swap that helps takes a player out of a clash. Where every two seeds can meet (a
    # bracket), the last round's count follows from the others': it needs no search.
    searched = rounds - 1 if len(meetings) == len(order) * (len(order) - 1) // 2 else rounds

    def best_swap() -> tuple[int, int] | None:
        """The swap that lowers the clashes most (round 1 first), of the lowest seeds: of a
        player who clashes in the earliest round where a swap helps."""
        for round_ in range(1, searched + 1):
            best: tuple[list[int], int, int] | None = None
            for i in clashing(round_):
                for j in range(len(order)):
                    if places[order[i]] != places[order[j]] or groups[order[i]] == groups[order[j]]:
                        continue
                    delta = change(i, j)
                    low, high = min(i, j), max(i, j)
                    if delta < [0] * rounds and (
                        best is None or (delta, -low, -high) < (best[0], -best[1], -best[2])
                    ):
                        best = (delta, low, high)
            if best is not None:
                return best[1], best[2]
        return None

    while (swap := best_swap()) is not None:
        i, j = swap
        at[groups[order[i]]] ^= {i, j}
        at[groups[order[j]]] ^= {i, j}
        order[i], order[j] = order[j], order[i]
    return tuple(order)


def bracket_order(tables: int, fan_in: int) -> tuple[int, ...]:
    """Where the top `tables` seeds start, one per first-round table, top to bottom of the
    bracket (`tables` is a power of `fan_in`, the tables feeding each next-round table).

    The classic order generalised: each position of the bracket one round earlier splits into
    `fan_in` positions holding its seed and the seeds the snake deals beside it, so seeds 1 and
    2 meet only in the final, 1 to 4 not before the semi-finals, and so on. For 8 first-round
    pairs: 1, 8, 4, 5, 2, 7, 3, 6."""
    order = [1]
    while len(order) < tables:
        width = len(order)
        order = [
            part * width + seed if part % 2 == 0 else (part + 1) * width + 1 - seed
            for seed in order
            for part in range(fan_in)
        ]
    return tuple(order)
