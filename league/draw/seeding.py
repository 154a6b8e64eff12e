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
