"""The catalogue of round-robin schedules at tables for small fields, and the table of how good
they are (docs/draw.md, "Round robin and groups").

    python -m league.draw.make_schedules table            # the table in docs/draw.md (quick)
    python -m league.draw.make_schedules search [--seconds S] [--only N/K ...] [--again]
    python -m league.draw.make_schedules prove N/K [N/K ...] [--seconds S]
    python -m league.draw.make_schedules offer FILE.json [FILE.json ...]
    python -m league.draw.make_schedules construct [--only N/K ...] [--steps S] [--seeds K]

`search` fills `league/draw/catalogue.py` for 3 to 24 players at tables of 3, 4 and 5 where no
known design fits (hours on one core; fields already there are kept unless `--again`, and a
field is only replaced by a better schedule): from the counting bound up, a number of rounds
is tried as one base round developed over a cyclic group (backtracking), by simulated
annealing (several seeds), then by CP-SAT, which may also prove it impossible (the smaller
model of `covering.exact_one_repeat` where every seat has one seat to spare); the schedule
found is then evened out (the most-met pair as few times as annealing or CP-SAT can, then as
few pairs at that count). `table` reads the designs and the catalogue and prints, for every
field, the rounds and the spread of meetings next to their lower bounds. `prove` marks what
counting proves, then only asks CP-SAT whether a catalogued field not yet proven could take
one round fewer, and marks its rounds proven fewest when it cannot (nothing else is
searched: minutes, not hours). `offer` checks schedules found outside the project (a file
each: `{"players": N, "rounds": [[[seats of a table], ...], ...]}`, seats from 0) and keeps
each in the catalogue if it is better than the one there, with what counting proves of it.
`construct` searches base rounds developed over Z_n (`constructions.find_development`, and
backtracking) for fields of 25 to 64 players with fewer rounds than their best construction
so far, and keeps them in `league/draw/developments.py`. `table` also prints, for every field
from 2 to 64 players in pairs and at tables of 3 to 5, the rounds the draw uses, the counting
bound and where the rounds come from (`summary_table`; the search runs for the fields no
construction brings to the bound: a few minutes).
"""

import argparse
import importlib
import itertools
import json
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from league.draw import catalogue, constructions, developments
from league.draw.covering import (
    ExactResult,
    anneal,
    developed,
    encode,
    evenness,
    exact,
    exact_one_repeat,
    one_to_spare,
    profile,
)
from league.draw.designs import Schedule, exact_schedule
from league.draw.schedule_report import (
    COUNTS,
    TABLE_SIZES,
    Field,
    even_mark,
    known,
    summary_table,
    table,
)
from league.draw.seeding import table_sizes

CATALOGUE = Path(__file__).with_name("catalogue.py")
_ANNEAL_SEEDS = 4
_ANNEAL_STEPS = 600_000
_DEVELOP_NODES = 2_000_000


def without_a_seat(field: Field) -> Schedule | None:
    """The schedule of one player more (a design or the catalogue's) with one seat left out,
    when some seat sits at a larger table every round, so that leaving it out gives every round
    this field's table sizes; the one seat whose removal leaves the most even schedule."""
    larger = Field(field.count + 1, field.table_size)
    found = known(larger)
    if found is None or len(larger.sizes) != len(field.sizes):
        return None
    schedule, best = found[0], None
    for seat in range(larger.count):
        left = tuple(
            tuple(
                sorted(
                    (tuple(s - (s > seat) for s in table if s != seat) for table in tables),
                    key=lambda table: (-len(table), table),
                )
            )
            for tables in schedule
        )
        if all(tuple(len(t) for t in tables) == field.sizes for tables in left) and (
            best is None or evenness(field.count, left) < evenness(field.count, best)
        ):
            best = left
    return best


def search(
    field: Field,
    *,
    seconds: float,
    start: tuple[Schedule, str, str] | None = None,
) -> tuple[Schedule, str, str]:
    """A schedule for the field, how its rounds are known to be the fewest and how its spread
    the smallest. First, the next field's schedule without a seat where it fits and takes
    fewer rounds. From `start` (a catalogued entry), only one round fewer is tried, and then
    a more even schedule; without, rounds from the counting bound up."""
    derived = without_a_seat(field)
    if derived is not None and (start is None or len(derived) < len(start[0])):
        print(f"  {len(derived)} rounds: the next field without a seat", flush=True)
        start = (derived, "bound" if len(derived) == field.bound else "", "")
    if start is None:
        rounds, impossible_below = field.bound, False
        while True:
            found, impossible = _rounds(field, rounds, seconds)
            if found is not None:
                break
            rounds, impossible_below = rounds + 1, impossible
        fewest = "bound" if rounds == field.bound else "cp-sat" if impossible_below else ""
    else:
        found, fewest, even = start
        if not fewest:
            fewer, impossible = _rounds(field, len(found) - 1, seconds)
            if fewer is not None:
                found, fewest, even = fewer, "bound" if len(fewer) == field.bound else "", ""
            elif impossible:
                fewest = "cp-sat"
        if even:
            return found, fewest, even
    best, even = _evened(field, found, seconds)
    if not fewest and _exact(field, len(best) - 1, seconds).status == "none":
        fewest = "cp-sat"
    return best, fewest, even


def _exact(field: Field, rounds: int, seconds: float) -> ExactResult:
    """CP-SAT on `rounds` rounds: the smaller model where every seat has one to spare."""
    if one_to_spare(field.count, field.sizes, rounds):
        return exact_one_repeat(field.count, field.sizes, rounds, seconds=seconds)
    return exact(field.count, field.sizes, rounds, seconds=seconds)


def _rounds(field: Field, rounds: int, seconds: float) -> tuple[Schedule | None, bool]:
    """A schedule of that many rounds meeting every pair (annealing, then CP-SAT), or None,
    and whether CP-SAT proved there is none."""
    started = time.monotonic()
    found = developed(field.count, field.sizes, rounds, nodes=_DEVELOP_NODES)
    for attempt in range(_ANNEAL_SEEDS if found is None else 0):
        seed = f"catalogue {field.count} {field.table_size} {rounds} {attempt}"
        found = anneal(field.count, field.sizes, rounds, seed=seed, steps=_ANNEAL_STEPS)
        if found is not None:
            break
    impossible = False
    if found is None:
        result = _exact(field, rounds, seconds)
        found, impossible = result.schedule, result.status == "none"
    outcome = "found" if found else ("impossible" if impossible else "not found")
    print(f"  {rounds} rounds: {outcome} ({time.monotonic() - started:.0f} s)", flush=True)
    return found, impossible


def _evened(field: Field, schedule: Schedule, seconds: float) -> tuple[Schedule, str]:
    """The schedule made more even: the most meetings of a pair lowered one at a time while
    annealing (from random rounds, or from the schedule so far), then CP-SAT, finds a
    schedule under it; then CP-SAT on the pairs at the top."""
    count, sizes, rounds = field.count, field.sizes, len(schedule)
    best = schedule
    while not even_mark(count, best):
        most = len(profile(count, best)) - 2
        lower = None
        for attempt in range(_ANNEAL_SEEDS):
            seed = f"catalogue even {count} {field.table_size} {most} {attempt}"
            lower = anneal(
                count,
                sizes,
                rounds,
                seed=seed,
                steps=_ANNEAL_STEPS,
                most=most,
                start=best if attempt % 2 else None,
            )
            if lower is not None:
                break
        if lower is None:
            result = exact(count, sizes, rounds, seconds=seconds, hint=best, most_meetings=most)
            if result.status == "none":
                break
            lower = result.schedule
        if lower is None:
            return best, ""
        print(f"  at most {most} meetings a pair: found", flush=True)
        best = lower
    if mark := even_mark(count, best):
        return best, mark
    result = exact(count, sizes, rounds, seconds=seconds, hint=best)
    if result.schedule is not None and evenness(count, result.schedule) < evenness(count, best):
        best = result.schedule
    return best, "cp-sat" if result.proved_even else ""


def write_catalogue(entries: dict[tuple[int, int], tuple[str, str, tuple[str, ...]]]) -> None:
    """Write `league/draw/catalogue.py` with these entries (laid out as `ruff format` would)."""
    lines = [
        f'"""{_CATALOGUE_DOC}"""',
        "",
        "from typing import Final",
        "",
        "SCHEDULES: Final[dict[tuple[int, int], tuple[str, str, tuple[str, ...]]]] = {",
    ]
    for (count, tables), (fewest, even, rounds) in sorted(entries.items()):
        lines += [f"    ({count}, {tables}): (", f'        "{fewest}",', f'        "{even}",']
        lines += [
            "        (",
            *(f'            "{line}",' for line in rounds),
            "        ),",
            "    ),",
        ]
    lines.append("}")
    CATALOGUE.write_text("\n".join(lines) + "\n")


# The catalogue's own docstring, kept as it is each time the search writes the file again.
_CATALOGUE_DOC = (catalogue.__doc__ or "").strip()


def prove(field: Field, seconds: float) -> bool:
    """Mark what counting proves of a catalogued field (its rounds at the counting bound, its
    spread at the floor of `even_floor`), then, if its rounds are still not proven fewest,
    whether CP-SAT proves one round fewer impossible within `seconds`; whether a mark was
    added."""
    found = known(field)
    name = f"{field.count} players at tables of {field.table_size}"
    if found is None:
        print(f"{name}: not catalogued", flush=True)
        return False
    schedule, fewest, even = found
    marked = False
    if not even and (mark := even_mark(field.count, schedule)):
        even, marked = mark, True
        print(f"{name}: the spread is the floor of counting", flush=True)
    if fewest:
        print(f"{name}: rounds already proven", flush=True)
    elif len(schedule) == field.bound:
        fewest, marked = "bound", True
        print(f"{name}: {len(schedule)} rounds, the counting bound", flush=True)
    else:
        started = time.monotonic()
        result = _exact(field, len(schedule) - 1, seconds)
        took = time.monotonic() - started
        print(f"{name}, {len(schedule) - 1} rounds: {result.status} ({took:.0f} s)", flush=True)
        if result.status == "none":
            fewest, marked = "cp-sat", True
    if marked:
        _mark_proven(field, fewest, even, schedule)
    return marked


class Refused(ValueError):
    """A schedule `offer` cannot take, with the reason."""


def offered(text: str) -> tuple[Field, Schedule]:
    """The field and the schedule of an offered file's text, checked: every round seats
    everyone once at this field's tables, and every pair meets (`Refused` otherwise)."""
    try:
        data = json.loads(text)
        count = int(data["players"])
        schedule: Schedule = tuple(
            tuple(
                tuple(sorted(int(seat) for seat in table))
                for table in sorted(tables, key=lambda t: (-len(t), min(t)))
            )
            for tables in data["rounds"]
        )
    except (ValueError, KeyError, TypeError) as error:
        raise Refused(f"not a schedule: {error}") from None
    if not schedule or not schedule[0]:
        raise Refused("no rounds")
    field = Field(count, max(len(table) for table in schedule[0]))
    for number, tables in enumerate(schedule, start=1):
        if tuple(len(table) for table in tables) != field.sizes:
            raise Refused(f"round {number} is not at tables of {field.sizes}")
        if sorted(seat for table in tables for seat in table) != list(range(count)):
            raise Refused(f"round {number} does not seat players 0 to {count - 1} once each")
    if unmet := profile(count, schedule)[0]:
        raise Refused(f"{unmet} pairs never meet")
    return field, schedule


def offer(text: str) -> bool:
    """Keep the offered schedule (`offered`) in the catalogue if it has fewer rounds than the
    catalogued one, or as many and a smaller spread; its marks are what counting proves (and
    the catalogued proof of its rounds, when it has as many). Whether it was kept."""
    field, schedule = offered(text)
    name = f"{field.count} players at tables of {field.table_size}"
    if exact_schedule(field.count, field.sizes) is not None:
        print(f"{name}: a known design, every pair once; nothing to improve", flush=True)
        return False
    old = known(field)
    new_key = (len(schedule), evenness(field.count, schedule))
    if old is not None and new_key >= (len(old[0]), evenness(field.count, old[0])):
        print(f"{name}: not better than the catalogue's {len(old[0])} rounds", flush=True)
        return False
    fewest = "bound" if len(schedule) == field.bound else ""
    if not fewest and old is not None and len(old[0]) == len(schedule):
        fewest = old[1]
    even = even_mark(field.count, schedule)
    print(f"{name}: kept, {len(schedule)} rounds, {profile(field.count, schedule)}", flush=True)
    _mark_proven(field, fewest, even, schedule)
    return True


def _mark_proven(field: Field, how: str, even: str, schedule: Schedule) -> None:
    # Kept in the loaded catalogue too, so the next field proven in this run writes both.
    catalogue.SCHEDULES[field.count, len(field.sizes)] = (how, even, encode(schedule, field.count))
    write_catalogue(dict(catalogue.SCHEDULES))


DEVELOPMENTS = Path(__file__).with_name("developments.py")


def development_shapes(count: int, table_size: int, rounds: int) -> list[tuple[int, int]]:
    """The developments (order n, short orbits) `construct` tries for a field in `rounds`
    rounds: a base round over Z_rounds (levels and fewer fixed seats than tables), and, when
    every table holds `table_size`, over Z_n for n = count / table_size (as many levels as a
    table has seats) with rounds - n short orbits."""
    sizes = table_sizes(count, table_size)
    shapes = []
    levels, fixed = divmod(count, rounds)
    if levels and fixed < len(sizes):
        shapes.append((rounds, 0))
    if all(size == table_size for size in sizes) and rounds > len(sizes) != rounds:
        shapes.append((len(sizes), rounds - len(sizes)))
    return shapes


def construct(field: Field, *, steps: int, seeds: int) -> bool:
    """Search a development (`constructions.find_development`) with fewer rounds than the
    field's best construction so far, from the counting bound up; keep the first found in
    `developments.py`. Whether one was kept."""
    best = constructions.construction(field.count, field.table_size)
    most = len(best) - 1 if best is not None else field.bound + 1
    name = f"{field.count} players at tables of {field.table_size}"
    for rounds in range(field.bound, most + 1):
        for order, orbits in development_shapes(field.count, field.table_size, rounds):
            for attempt in range(seeds + (not orbits)):
                started = time.monotonic()
                found = (
                    _backtracked(field, order)
                    if not orbits and attempt == seeds
                    else constructions.find_development(
                        field.count,
                        field.table_size,
                        order,
                        orbits=orbits,
                        seed=f"construct {field.count} {field.table_size} {order} {orbits} "
                        f"{attempt}",
                        steps=steps,
                    )
                )
                took = time.monotonic() - started
                outcome = "found" if found else "not found"
                print(
                    f"{name}, {rounds} rounds over Z_{order}: {outcome} ({took:.0f} s)", flush=True
                )
                if found is None:
                    continue
                # Read again first: another `construct` may have kept one meanwhile.
                importlib.reload(developments)
                developments.DEVELOPMENTS[field.count, field.table_size] = (
                    found.order,
                    found.levels,
                    found.base,
                    found.orbits,
                )
                write_developments(dict(developments.DEVELOPMENTS))
                constructions.construction.cache_clear()
                return True
    return False


def _backtracked(field: Field, order: int) -> constructions.Development | None:
    """A base round over Z_order by `covering.developed` (backtracking; quick where annealing
    is not, on some exact designs such as the 1-rotational Kirkman systems), as a
    development."""
    found = developed(field.count, field.sizes, order, nodes=_DEVELOP_NODES // 10)
    if found is None:
        return None
    return constructions.Development(field.count, order, field.count // order, found[0])


def write_developments(
    entries: dict[
        tuple[int, int],
        tuple[int, int, tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]],
    ],
) -> None:
    """Write `league/draw/developments.py` with these entries (laid out as `ruff format`
    would: one table a line)."""
    lines = [
        f'"""{_DEVELOPMENTS_DOC}"""',
        "",
        "from typing import Final",
        "",
        "DEVELOPMENTS: Final[",
        "    dict[tuple[int, int], tuple[int, int, tuple[tuple[int, ...], ...], "
        "tuple[tuple[int, ...], ...]]]",
        "] = {",
    ]
    for (count, table_size), (order, levels, base, orbits) in sorted(entries.items()):
        lines += [f"    ({count}, {table_size}): (", f"        {order},", f"        {levels},"]
        lines += ["        (", *(f"            {table!r}," for table in base), "        ),"]
        if orbits:
            lines += ["        (", *(f"            {orbit!r}," for orbit in orbits), "        ),"]
        else:
            lines.append("        (),")
        lines.append("    ),")
    lines.append("}")
    DEVELOPMENTS.write_text("\n".join(lines) + "\n")


_DEVELOPMENTS_DOC = (developments.__doc__ or "").strip()


def _field_size(text: str) -> tuple[int, int]:
    """A field as the command line names it, N/K: N players at tables of K."""
    try:
        count, table_size = (int(part) for part in text.split("/"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not N/K, as 12/3") from None
    return count, table_size


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m league.draw.make_schedules")
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("table", help="print the table of rounds and spreads (docs/draw.md)")
    searching = commands.add_parser("search", help="search schedules into the catalogue")
    seconds = "CP-SAT's time per call (the general model: half of it for its first phase)"
    searching.add_argument("--seconds", type=float, default=60.0, help=seconds)
    searching.add_argument(
        "--only", nargs="*", type=_field_size, default=[], help="fields as N/K, e.g. 12/3"
    )
    searching.add_argument("--again", action="store_true", help="search catalogued fields too")
    proving = commands.add_parser("prove", help="prove catalogued fields' rounds fewest")
    proving.add_argument("fields", nargs="+", type=_field_size, help="fields as N/K, e.g. 14/5")
    proving.add_argument("--seconds", type=float, default=600.0, help=seconds)
    constructing = commands.add_parser("construct", help="search developed base rounds")
    constructing.add_argument(
        "--only", nargs="*", type=_field_size, default=[], help="fields as N/K, e.g. 28/4"
    )
    constructing.add_argument("--steps", type=int, default=300_000, help="annealing swaps a try")
    constructing.add_argument("--seeds", type=int, default=3, help="tries (seeds) a shape")
    offering = commands.add_parser("offer", help="keep schedules found elsewhere, if better")
    offering.add_argument("files", nargs="+", type=Path, help="JSON files (players, rounds)")
    args = parser.parse_args(argv)
    if args.command == "offer":
        for path in args.files:
            try:
                offer(path.read_text())
            except (OSError, Refused) as error:
                print(f"{path}: refused: {error}", file=sys.stderr, flush=True)
                raise SystemExit(2) from None
        return
    if args.command == "construct":
        fields = args.only or [
            (count, table_size)
            for table_size in TABLE_SIZES
            for count in range(constructions.LARGEST, COUNTS.stop - 1, -1)
        ]
        for count, table_size in fields:
            construct(Field(count, table_size), steps=args.steps, seeds=args.seeds)
        return
    if args.command == "table":
        print(table())
        print()
        print(summary_table())
        return
    if args.command == "prove":
        for count, table_size in args.fields:
            prove(Field(count, table_size), args.seconds)
        return
    only = set(args.only)
    entries = dict(catalogue.SCHEDULES)
    for count, table_size in itertools.product(COUNTS, TABLE_SIZES):
        field = Field(count, table_size)
        key = (count, len(field.sizes))
        if only and (count, table_size) not in only:
            continue
        if len(field.sizes) == 1 or exact_schedule(count, field.sizes) is not None:
            continue
        old = known(field)
        if old is not None and not args.again:
            continue
        print(f"{count} players at tables of {table_size}:", flush=True)
        schedule, fewest, even = search(field, seconds=args.seconds, start=old)
        if old is not None and (len(old[0]), evenness(count, old[0]), not old[1], not old[2]) <= (
            len(schedule),
            evenness(count, schedule),
            not fewest,
            not even,
        ):
            continue
        entries[key] = (fewest, even, encode(schedule, count))
        write_catalogue(entries)
        print(f"  kept: {len(schedule)} rounds, {profile(count, schedule)}", flush=True)


if __name__ == "__main__":
    main()
