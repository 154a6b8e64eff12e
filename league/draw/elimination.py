"""Elimination brackets drawn in full before anyone plays (docs/draw.md, "Single elimination",
"Double elimination").

Single elimination works for pairs and for tables of k where the top m of each table advance:
each later table is fed by k // m tables (the fan-in), so a bracket of R rounds holds
k * (k // m) ** (R - 1) players. When the count falls short, round 1 has as few byes as it can:
the tables of the top seeds seat only m players (they advance without playing) until every
other table can seat more than m, and the smaller played tables go to the higher seeds.
Double elimination is for pairs: a winners bracket, a losers bracket fed by its losers, a grand
final and, when asked for, a reset played only if the losers-bracket player wins the first.
"""

import itertools
from collections.abc import Iterable, Sequence
from dataclasses import replace
from functools import partial
from typing import Final

from league.draw.errors import DrawError
from league.draw.model import Bracket, Exit, PlayerId, Slot, Source
from league.draw.seeding import bracket_order, checked_participants, checked_table_size


def single_elimination(
    players: Sequence[PlayerId],
    *,
    table_size: int = 2,
    advance: int = 1,
    third_place: bool = False,
) -> Bracket:
    """A single-elimination bracket for `players` in seed order (seed 1 first).

    Tables of `table_size`, the top `advance` of each going on (at most half a table, so every
    round narrows the field); the last table decides every place at it. Top seeds are placed to
    meet as late as possible and get the byes. `third_place` (pairs only) adds a match between
    the losing semi-finalists."""
    participants = checked_participants(players)
    size = checked_table_size(table_size)
    if not 1 <= advance <= size // 2:
        raise DrawError(
            "advance",
            f"At tables of {size}, "
            + (
                "only the winner advances (1)"
                if size // 2 == 1
                else f"1 to {size // 2} players can advance (at most half a table)"
            )
            + f", not {advance}.",
        )
    if third_place and size != 2:
        raise DrawError("format_option", "A third-place match is for brackets of pairs.")
    rounds = _rounds_needed(len(participants), size, advance)
    slots = _winners_bracket(len(participants), size, advance, rounds, levels=True)
    if third_place and rounds > 1:
        semi_finals = f"W{rounds - 1}"
        slots.append(
            _pair(
                key="3P-1",
                bracket="third_place",
                round=rounds,
                index=1,
                sources=(Source.loser(f"{semi_finals}-1"), Source.loser(f"{semi_finals}-2")),
                level=2 * rounds - 1,
            )
        )
    return Bracket(
        format="single_elimination",
        participants=participants,
        table_size=size,
        advance=advance,
        slots=link_slots(slots),
    )


def double_elimination(players: Sequence[PlayerId], *, grand_final_reset: bool = True) -> Bracket:
    """A double-elimination bracket of pairs for `players` in seed order.

    Losers of the winners bracket drop into the losers bracket in the orders of `drop_masks`,
    which make rematches there as rare as any order can; the winners- and losers-bracket
    champions meet in the grand final. With `grand_final_reset` a second final ("GF-2") is
    played when the losers-bracket player wins the first, so nobody is out before two losses.
    8 players: 14 matches, 15 with the reset played."""
    participants = checked_participants(players)
    rounds = _rounds_needed(len(participants), 2, 1)
    slots = _winners_bracket(len(participants), 2, 1, rounds, levels=False)
    champion_of_losers = Source.loser("W1-1")
    if rounds > 1:
        slots += _losers_bracket(rounds, len(participants))
        champion_of_losers = Source.winner(f"L{2 * (rounds - 1)}-1")
    slots.append(
        _pair(
            key="GF-1",
            bracket="grand_final",
            round=1,
            index=1,
            sources=(Source.winner(f"W{rounds}-1"), champion_of_losers),
            level=2 * rounds - 1,
        )
    )
    if grand_final_reset:
        slots.append(
            _pair(
                key="GF-2",
                bracket="grand_final",
                round=2,
                index=1,
                sources=(Source.winner("GF-1"), Source.loser("GF-1")),
                level=2 * rounds,
                reset_of="GF-1",
            )
        )
    return Bracket(
        format="double_elimination",
        participants=participants,
        table_size=2,
        advance=1,
        slots=link_slots(slots),
    )


def _rounds_needed(players: int, table_size: int, advance: int) -> int:
    """The fewest rounds whose bracket holds `players`: a final table, fed by k // m tables
    each round back."""
    fan_in = table_size // advance
    rounds = 1
    while table_size * fan_in ** (rounds - 1) < players:
        rounds += 1
    return rounds


def first_round(players: int, table_size: int, advance: int) -> tuple[tuple[int, ...], ...]:
    """The seeds at each first-round table, top to bottom of the bracket (a table seating no
    more than `advance` seeds is a bye).

    Byes: as few as the count allows, to the tables of the top seeds. The other tables share
    the remaining seeds as evenly as possible, smaller tables to higher seeds. Seeds are dealt
    by the snake (one per table, forward, then back) in the order of the tables' top seeds,
    and the tables stand in `bracket_order`, so seeds 1 and 2 meet only in the final."""
    rounds = _rounds_needed(players, table_size, advance)
    tables = (table_size // advance) ** (rounds - 1)
    if tables == 1:
        return (tuple(range(1, players + 1)),)
    byes = max(0, tables * (advance + 1) - players)
    size, larger = divmod(players - byes * advance, tables - byes)
    # Table sizes by the rank of the table's top seed: byes first, then small before large.
    sizes = [advance] * byes + [size] * (tables - byes - larger) + [size + 1] * larger
    seated: list[list[int]] = [[] for _ in range(tables)]
    seed = 1
    for seat in range(max(sizes)):
        ranks = range(tables) if seat % 2 == 0 else range(tables - 1, -1, -1)
        for rank in ranks:
            if sizes[rank] > seat:
                seated[rank].append(seed)
                seed += 1
    return tuple(
        tuple(seated[top_seed - 1]) for top_seed in bracket_order(tables, table_size // advance)
    )


def _winners_bracket(
    players: int, table_size: int, advance: int, rounds: int, *, levels: bool
) -> list[Slot]:
    """The main bracket: round 1 from the seeds, each later table fed by the top `advance` of
    k // m tables. With `levels` a run ending in round r ends at level 2r (single
    elimination); without, the losers go on to a losers bracket and no run ends here."""
    fan_in = table_size // advance
    slots = []
    for index, seeds in enumerate(first_round(players, table_size, advance), start=1):
        slots.append(
            Slot(
                key=f"W1-{index}",
                bracket="winners",
                round=1,
                index=index,
                size=table_size,
                advance=advance if rounds > 1 else 1,
                sources=tuple(Source.from_seed(seed) for seed in seeds),
                level=2 if levels else 0,
            )
        )
    for number in range(2, rounds + 1):
        for index in range(1, fan_in ** (rounds - number) + 1):
            feeders = range(fan_in * (index - 1) + 1, fan_in * index + 1)
            slots.append(
                Slot(
                    key=f"W{number}-{index}",
                    bracket="winners",
                    round=number,
                    index=index,
                    size=fan_in * advance,
                    advance=advance if number < rounds else 1,
                    sources=tuple(
                        Source.winner(f"W{number - 1}-{feeder}", rank)
                        for feeder in feeders
                        for rank in range(1, advance + 1)
                    ),
                    level=2 * number if levels else 0,
                )
            )
    return slots


# The drop orders: the losers of winners round s + 1 enter losers round 2s, where losers slot
# i (counted from 0, top to bottom) meets the loser of winners slot i XOR mask. One mask per
# drop-in round, first to last, by the number of winners rounds: those with the fewest
# expected losers-bracket rematches, results at random, computed exactly for every combination
# up to 64 entrants and by a descent for 128 and 256 (`league.draw.rematches`, docs/draw.md,
# "Double elimination"). A mask of count - 1 reverses the order, count / 2 swaps its halves,
# 1 swaps neighbours.
_DROP_MASKS: Final = {
    2: (0,),
    3: (1, 0),
    4: (3, 0, 0),
    5: (3, 2, 0, 0),
    6: (8, 6, 1, 1, 0),
    7: (4, 8, 6, 1, 1, 0),
    8: (24, 8, 8, 6, 0, 1, 0),
}


# Brackets with byes where other masks than the full bracket's have fewer expected rematches
# (byes change who drops from winners round 1): the best of every combination of masks, by
# entrants, up to 64 (`league.draw.rematches.best_masks_with_byes`, `--byes`). Every other
# size up to 64 keeps its full bracket's masks, which are the best there too.
_DROP_MASKS_WITH_BYES: Final = {
    10: (2, 0, 0),
    17: (4, 1, 1, 0),
    18: (4, 1, 1, 0),
    19: (4, 1, 1, 0),
    20: (2, 2, 0, 0),
    21: (2, 2, 0, 0),
    22: (4, 1, 1, 0),
}


def drop_masks(rounds: int, players: int | None = None) -> tuple[int, ...]:
    """The mask of every drop-in round of a double-elimination bracket whose winners bracket
    has `rounds` rounds, for `players` entrants when given (byes may call for others; beyond
    256 entrants: 8 until the last four, then 6, 0, 1, 0, which a beam search found best for
    512)."""
    if players is not None and players in _DROP_MASKS_WITH_BYES:
        return _DROP_MASKS_WITH_BYES[players]
    if rounds in _DROP_MASKS:
        return _DROP_MASKS[rounds]
    return (8,) * (rounds - 5) + (6, 0, 1, 0)


def _losers_bracket(rounds: int, players: int) -> list[Slot]:
    """The losers bracket behind a winners bracket of `rounds` rounds of pairs: round 1 pairs
    the losers of winners round 1; each even round meets the survivors with the losers of the
    next winners round, in the drop order of `drop_masks` (against rematches); each odd round
    after the first halves the field. A run ending in losers round r ends at level r."""
    masks = drop_masks(rounds, players)
    slots = [
        _pair(
            key=f"L1-{index}",
            bracket="losers",
            round=1,
            index=index,
            sources=(Source.loser(f"W1-{2 * index - 1}"), Source.loser(f"W1-{2 * index}")),
            level=1,
        )
        for index in range(1, 2 ** (rounds - 2) + 1)
    ]
    for step in range(1, rounds):
        drop, count = 2 * step, 2 ** (rounds - step - 1)
        for index in range(1, count + 1):
            dropped = ((index - 1) ^ masks[step - 1]) + 1
            slots.append(
                _pair(
                    key=f"L{drop}-{index}",
                    bracket="losers",
                    round=drop,
                    index=index,
                    sources=(
                        Source.winner(f"L{drop - 1}-{index}"),
                        Source.loser(f"W{step + 1}-{dropped}"),
                    ),
                    level=drop,
                )
            )
        if step < rounds - 1:
            for index in range(1, count // 2 + 1):
                slots.append(
                    _pair(
                        key=f"L{drop + 1}-{index}",
                        bracket="losers",
                        round=drop + 1,
                        index=index,
                        sources=(
                            Source.winner(f"L{drop}-{2 * index - 1}"),
                            Source.winner(f"L{drop}-{2 * index}"),
                        ),
                        level=drop + 1,
                    )
                )
    return slots


_pair = partial(Slot, size=2, advance=1)
"""A slot of two players whose winner goes on (or takes the title or the place)."""


def link_slots(slots: Iterable[Slot]) -> tuple[Slot, ...]:
    """The slots with their exits filled in from the sources: where every place that feeds a
    later slot goes. Any bracket format builds its slots with sources, then links them."""
    slots = tuple(slots)
    exits: dict[str, list[Exit]] = {slot.key: [] for slot in slots}
    for slot in slots:
        for source in slot.sources:
            if source.slot is not None and source.rank is not None:
                exits[source.slot].append(Exit(rank=source.rank, slot=slot.key))
    return tuple(
        replace(slot, exits=tuple(sorted(exits[slot.key], key=lambda e: e.rank))) for slot in slots
    )


def meeting_rounds(bracket: Bracket) -> dict[tuple[int, int], int]:
    """For every two seeds that can meet in the winners bracket (lower seed first), the
    earliest round in which they can sit at one table there: 1 when the draw seats them
    together, r when their paths first join in round r. A round-1 table of byes (no more seeds
    than go on) is not played: its seeds meet where it leads. The losers bracket, a grand
    final and a third-place match are left out: who reaches them depends on results."""
    reach: dict[str, frozenset[int]] = {}
    earliest: dict[tuple[int, int], int] = {}
    for slot in bracket.slots:
        if slot.bracket != "winners":
            continue
        seeds: set[int] = set()
        for source in slot.sources:
            if source.kind == "seed" and source.seed is not None:
                seeds.add(source.seed)
            elif source.kind == "winner" and source.slot in reach:
                seeds |= reach[source.slot]
        reach[slot.key] = frozenset(seeds)
        if len(slot.sources) > slot.advance:
            for pair in itertools.combinations(sorted(seeds), 2):
                earliest.setdefault(pair, slot.round)
    return earliest
