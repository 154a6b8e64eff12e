"""CP-SAT searches for round robins (docs/draw.md, "Round robin and groups"): `exact`, which
finds a schedule of that many rounds with the fewest meetings of the most-met pair or proves
there is none, and `exact_one_repeat`, for the fields where every seat has one seat to spare
(`one_to_spare`). Used ahead of time by `league.draw.make_schedules`.
"""

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from league.draw.designs import Schedule

if TYPE_CHECKING:
    from ortools.sat.python import cp_model


@dataclass(frozen=True, slots=True)
class ExactResult:
    """What CP-SAT said about a number of rounds: `found` (a schedule, the most-met pair
    as few times as it could prove or find), `none` (proved impossible), `unknown` (time up)."""

    status: Literal["found", "none", "unknown"]
    schedule: Schedule | None = None
    proved_even: bool = False


def exact(
    count: int,
    sizes: Sequence[int],
    rounds: int,
    *,
    seconds: float,
    hint: Schedule | None = None,
    most_meetings: int | None = None,
) -> ExactResult:
    """CP-SAT on the schedule of `rounds` rounds: every seat at one table a round, tables of
    `sizes`, every pair meeting at least once (and at most `most_meetings` times, when given),
    and the most-met pair meeting as few times as possible. One worker and a fixed seed.

    Symmetry is broken the usual way: round 1 is fixed (seats in order), and tables of equal
    size in a round are ordered by their lowest seat."""
    from ortools.sat.python import cp_model  # heavy (pandas): imported only when used

    model = cp_model.CpModel()
    tables = range(len(sizes))
    seat_at = {
        (r, p, t): model.new_bool_var(f"x{r}_{p}_{t}")
        for r in range(rounds)
        for p in range(count)
        for t in tables
    }
    for r in range(rounds):
        for p in range(count):
            model.add_exactly_one(seat_at[r, p, t] for t in tables)
        for t in tables:
            model.add(sum(seat_at[r, p, t] for p in range(count)) == sizes[t])
        if r > 0:
            for t in tables[1:]:
                if sizes[t] == sizes[t - 1]:
                    for p in range(count):
                        model.add(seat_at[r, p, t] <= sum(seat_at[r, q, t - 1] for q in range(p)))
    first = [t for t, size in enumerate(sizes) for _ in range(size)]
    for p in range(count):
        model.add(seat_at[0, p, first[p]] == 1)
    top = model.new_int_var(1, most_meetings or rounds, "top")
    pair_counts = []
    met_in: dict[tuple[int, int, int], list[cp_model.IntVar]] = {}
    for p, q in itertools.combinations(range(count), 2):
        together = []
        for r in range(rounds):
            for t in tables:
                both = model.new_bool_var(f"m{r}_{p}_{q}_{t}")
                model.add_bool_and([seat_at[r, p, t], seat_at[r, q, t]]).only_enforce_if(both)
                model.add_bool_or([~seat_at[r, p, t], ~seat_at[r, q, t]]).only_enforce_if(~both)
                together.append(both)
                met_in.setdefault((r, p, q), []).append(both)
                met_in.setdefault((r, q, p), []).append(both)
        model.add(sum(together) >= 1)
        model.add(sum(together) <= top)
        pair_counts.append(sum(together))
    # Redundant, for the proofs: a seat meets as many others in all (counted with repeats)
    # as the seats of its tables hold beside it.
    for p in range(count):
        model.add(
            sum(sum(met_in[r, p, q]) for r in range(rounds) for q in range(count) if q != p)
            == sum((sizes[t] - 1) * seat_at[r, p, t] for r in range(rounds) for t in tables)
        )
    # Rounds after the first are interchangeable: order them by the lowest seat that meets
    # seat 0 there.
    lowest = []
    for r in range(1, rounds):
        low = model.new_int_var(1, count - 1, f"low{r}")
        model.add_min_equality(
            low, [q + count * (1 - sum(met_in[r, 0, q])) for q in range(1, count)]
        )
        lowest.append(low)
    for one, other in itertools.pairwise(lowest):
        model.add(one <= other)
    model.minimize(top)
    if hint is not None:
        for r, round_tables in enumerate(_canonical(hint)):
            for t, table in enumerate(round_tables):
                for p in range(count):
                    model.add_hint(seat_at[r, p, t], p in table)
    solver = _solver(seconds / 2)
    status = solver.solve(model)
    if status == cp_model.INFEASIBLE:
        return ExactResult("none")
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return ExactResult("unknown")
    proved = status == cp_model.OPTIMAL
    found = {var: solver.boolean_value(var) for var in seat_at.values()}
    # Then, the most-met count fixed, as few pairs as possible meeting that often.
    most = int(solver.value(top))
    model.clear_hints()  # type: ignore[no-untyped-call]
    for var, value in found.items():
        model.add_hint(var, value)
    model.add(top == most)
    at_top = []
    for meetings_of_pair in pair_counts:
        high = model.new_bool_var("")
        model.add(meetings_of_pair <= most - 1 + high)
        at_top.append(high)
    model.minimize(sum(at_top))
    second = solver.solve(model)
    if second in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        proved = proved and second == cp_model.OPTIMAL
        found = {var: solver.boolean_value(var) for var in seat_at.values()}
    else:
        proved = False
    schedule = tuple(
        tuple(tuple(p for p in range(count) if found[seat_at[r, p, t]]) for t in tables)
        for r in range(rounds)
    )
    return ExactResult("found", schedule, proved_even=proved)


def _solver(seconds: float) -> "cp_model.CpSolver":
    """CP-SAT as the searches run it: one worker and a fixed seed, so that a proof or a
    schedule comes out the same again; `seconds` of wall time at most."""
    from ortools.sat.python import cp_model

    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.random_seed = 20
    solver.parameters.max_time_in_seconds = seconds
    return solver


def one_to_spare(count: int, sizes: Sequence[int], rounds: int) -> bool:
    """Whether, over `rounds` rounds at tables all of one size, every seat sits beside exactly
    one seat more than the `count - 1` others it must meet."""
    return len(set(sizes)) == 1 and sum(sizes) == count and rounds * (sizes[0] - 1) == count


def exact_one_repeat(
    count: int, sizes: Sequence[int], rounds: int, *, seconds: float
) -> ExactResult:
    """CP-SAT on whether `rounds` rounds meeting every pair exist, for a field where
    `one_to_spare` holds. Then each seat meets one other seat twice and every other seat
    once (its one seat to spare), and "met twice" pairs the seats off: a perfect matching,
    which a relabelling makes {0, 1}, {2, 3}, and so on. So the model asks for every pair to
    meet exactly once, or exactly twice for those pairs: a boolean per round and table (every
    set of `sizes[0]` seats), each seat at one table a round. Seats 0 and 1 meet twice, in two
    different rounds; the rounds being interchangeable, in rounds 1 and 2; and relabelling the
    other pairs of the matching makes seat 2 the third at their table in round 1 (at tables of
    3 or more). One worker, a fixed seed; `found` comes with a schedule, `none` is a proof."""
    from ortools.sat.python import cp_model  # heavy (pandas): imported only when used

    if not one_to_spare(count, sizes, rounds):
        raise ValueError("exact_one_repeat needs one seat to spare for every seat.")
    tables = list(itertools.combinations(range(count), sizes[0]))
    model = cp_model.CpModel()
    chosen = {
        (r, t): model.new_bool_var(f"y{r}_{t}") for r in range(rounds) for t in range(len(tables))
    }
    holding: dict[tuple[int, ...], list[int]] = {}
    for t, table in enumerate(tables):
        for seat in table:
            holding.setdefault((seat,), []).append(t)
        for pair in itertools.combinations(table, 2):
            holding.setdefault(pair, []).append(t)
    for r in range(rounds):
        for seat in range(count):
            model.add_exactly_one(chosen[r, t] for t in holding[(seat,)])
    for p, q in itertools.combinations(range(count), 2):
        twice = p // 2 == q // 2
        model.add(sum(chosen[r, t] for r in range(rounds) for t in holding[p, q]) == 1 + twice)
    if sizes[0] > 2:
        model.add_bool_or([chosen[0, t] for t in holding[0, 1] if 2 in tables[t]])
    model.add_bool_or([chosen[1, t] for t in holding[0, 1]])
    solver = _solver(seconds)
    status = solver.solve(model)
    if status == cp_model.INFEASIBLE:
        return ExactResult("none")
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return ExactResult("unknown")
    schedule = tuple(
        _ordered([tables[t] for t in range(len(tables)) if solver.boolean_value(chosen[r, t])])
        for r in range(rounds)
    )
    return ExactResult("found", schedule)


def _canonical(schedule: Schedule) -> Schedule:
    """`schedule` relabelled so that its first round seats 0, 1, 2, ... in table order, each
    round's tables in the order the exact model expects (equal sizes by lowest seat), and the
    later rounds by the lowest seat meeting seat 0."""
    relabel = {
        seat: new for new, seat in enumerate(s for table in _ordered(schedule[0]) for s in table)
    }
    first, *later = (
        _ordered(tuple(tuple(sorted(relabel[s] for s in t)) for t in tables)) for tables in schedule
    )

    def lowest_beside_0(tables: tuple[tuple[int, ...], ...]) -> int:
        return next(min(s for s in t if s) for t in tables if 0 in t)

    return (first, *sorted(later, key=lowest_beside_0))


def _ordered(tables: Sequence[tuple[int, ...]]) -> tuple[tuple[int, ...], ...]:
    """A round's tables as the exact model orders them: larger first, then by lowest seat."""
    return tuple(sorted(tables, key=lambda t: (-len(t), min(t))))
