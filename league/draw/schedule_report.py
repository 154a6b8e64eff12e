"""The tables of docs/draw.md about round-robin schedules at tables (`python -m
league.draw.make_schedules table` prints them): for each field, the rounds the draw uses and
the spread of meetings against their lower bounds, and where the rounds come from."""

from collections.abc import Sequence
from dataclasses import dataclass

from league.draw import catalogue, constructions
from league.draw.covering import counting_bound, decode, profile, spread_floor
from league.draw.designs import Schedule, exact_schedule
from league.draw.round_robin import circle, table_schedule
from league.draw.seeding import table_sizes

COUNTS = range(3, 25)
TABLE_SIZES = (3, 4, 5)


@dataclass(frozen=True, slots=True)
class Field:
    """A field: how many players, at tables of how many, and the table sizes of every round."""

    count: int
    table_size: int

    @property
    def sizes(self) -> tuple[int, ...]:
        return table_sizes(self.count, self.table_size)

    @property
    def bound(self) -> int:
        """The counting bound on rounds (1 for a single table)."""
        return counting_bound(self.count, self.sizes)


def even_floor(count: int, schedule: Schedule, *, two_rounds: bool = True) -> tuple[int, int]:
    """The most meetings of a pair, and how many pairs meet that often, that no schedule of
    these rounds and tables can go below (`covering.spread_floor`): shared out as evenly as
    arithmetic allows (every pair at least once), and, with `two_rounds`, holding the pairs
    that every two rounds must share."""
    sizes = tuple(len(table) for table in schedule[0])
    return spread_floor(count, sizes, len(schedule), two_rounds=two_rounds)


def even_mark(count: int, schedule: Schedule) -> str:
    """How the schedule's spread is known to be the smallest by counting alone: "arithmetic"
    (shared as evenly as their number allows), "counting" (as evenly as the pairs that every
    two rounds share allow), or "" (not by counting)."""
    counts = profile(count, schedule)
    reached = (len(counts) - 1, counts[-1])
    if counts[0] or reached != even_floor(count, schedule):
        return ""
    return "arithmetic" if reached == even_floor(count, schedule, two_rounds=False) else "counting"


def known(field: Field) -> tuple[Schedule, str, str] | None:
    """The schedule the draw uses for this field, how its rounds are known to be the fewest
    and how its spread is known to be the smallest (empty when not known), or None."""
    sizes = field.sizes
    design = exact_schedule(field.count, sizes)
    if design is not None:
        return design, "design", "design"
    entry = catalogue.SCHEDULES.get((field.count, len(sizes)))
    if entry is None:
        return None
    fewest, even, rounds = entry
    return decode(rounds), fewest, even


def table() -> str:
    """The markdown table of docs/draw.md: for each field, rounds and spread against bounds."""
    lines = [
        "| players | tables of 3: rounds (bound) | meetings | tables of 4: rounds (bound) "
        "| meetings | tables of 5: rounds (bound) | meetings |",
        "|---|---|---|---|---|---|---|",
    ]
    for count in COUNTS:
        cells = [str(count)]
        for table_size in TABLE_SIZES:
            field = Field(count, table_size)
            found = known(field)
            if found is None:
                cells += ["?", "?"]
                continue
            schedule, fewest, even = found
            cells.append(_rounds_cell(field, schedule, fewest))
            cells.append(_meetings_cell(count, schedule, even))
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


SUMMARY_COUNTS = range(2, constructions.LARGEST + 1)


SUMMARY_TABLE_SIZES = (2, 3, 4, 5)


_SOURCES = {"pairs": "P", "design": "D", "catalogue": "C", "construction": "K", "search": "S"}


def summary_table(counts: Sequence[int] = SUMMARY_COUNTS) -> str:
    """The markdown table of docs/draw.md for every field up to 64 players at tables of 2 to
    5: the rounds the draw uses, the counting bound, and where the rounds come from; bold
    when proven fewest (the bound met, or CP-SAT proved one round fewer impossible)."""
    lines = [
        "| players | pairs | tables of 3 | tables of 4 | tables of 5 |",
        "|---|---|---|---|---|",
    ]
    lines += summary_rows(counts)
    return "\n".join(lines)


def summary_rows(counts: Sequence[int]) -> list[str]:
    """The rows of `summary_table` for these counts."""
    rows = []
    for count in counts:
        cells = [str(count)]
        for table_size in SUMMARY_TABLE_SIZES:
            cells.append(summary_cell(count, table_size))
        rows.append("| " + " | ".join(cells) + " |")
    return rows


def summary_cell(count: int, table_size: int) -> str:
    """ "**rounds** (bound) source", rounds in bold when proven fewest."""
    sizes = table_sizes(count, table_size)
    bound = counting_bound(count, sizes)
    if table_size == 2:
        rounds, source, proven = len(circle(count)), "pairs", True
    else:
        schedule, source = table_schedule(count, table_size)
        rounds = len(schedule)
        entry = catalogue.SCHEDULES.get((count, len(sizes)))
        cp_sat = source == "catalogue" and entry is not None and entry[0] == "cp-sat"
        proven = rounds == bound or cp_sat
    shown = f"**{rounds}**" if proven else str(rounds)
    return f"{shown} ({bound}) {_SOURCES[source]}"


def _rounds_cell(field: Field, schedule: Schedule, fewest: str) -> str:
    rounds = len(schedule)
    if rounds == field.bound:
        return f"**{rounds}** ({field.bound})"
    if fewest:
        return f"**{rounds}** ({field.bound}; {rounds - 1} impossible)"
    return f"{rounds} ({field.bound})"


def _meetings_cell(count: int, schedule: Schedule, even: str) -> str:
    counts = profile(count, schedule)
    low = next(m for m, n in enumerate(counts) if n)
    high = len(counts) - 1
    most, at_most = even_floor(count, schedule)
    spread = f"{low}" if low == high else f"{low}-{high}"
    detail = f" ({counts[-1]} at {high})" if high > 1 else ""
    mark = "**" if even else ""
    floor = "" if high == most and counts[-1] == at_most else f"; even: {most} ({at_most})"
    return f"{mark}{spread}{mark}{detail}{floor}"
