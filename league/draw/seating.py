"""Seating a Swiss round at tables of 3 to 5 (docs/draw.md, "Swiss").

Players are standings positions 0, 1, ... (best first), each in a score group (0 is the
highest score). A seating is judged, most important first, by

1. repeats: for every two players at one table, how often they met before;
2. spread: for every table, its highest score group minus its lowest, summed;
3. moved: how many players sit elsewhere than the fold put them.

The fold is the start; a descent swaps two players at different tables while a swap makes
the seating better. When the result is not provably the best on the first two counts (no
repeat, and the spread of the best cut of the standings into tables, which is the least any
seating can have):

- up to `EXHAUSTIVE_PLAYERS` players, an exhaustive search finds the best seating (`exhaustive`,
  within a number of steps that these fields have never needed);
- beyond, up to `EXACT_PLAYERS` players, a search on the graph of who met whom proves the
  fewest repeats within `REPEAT_STEPS` (`fewest_repeats`), else an exact cover by tables
  with at most 0, 1, 2, ... repeats within `COVER_STEPS` (`cover_within`; else CP-SAT looks
  for them within its limit); then three tables at a time (two at tables of 5) are re-seated
  the best way while that lowers the spread (`Seating.regroup`), and CP-SAT re-seats all the
  tables for the least spread with no more repeats;
- beyond that, CP-SAT re-seats the tables with a repeat and their neighbours in the
  standings, first on repeats alone, then on spread with no more repeats.
"""

import itertools
import time
from collections.abc import Sequence
from functools import lru_cache
from typing import TYPE_CHECKING

import networkx as nx

from league.draw.seating_exact import cover_within, exhaustive, fewest_repeats

if TYPE_CHECKING:
    from ortools.sat.python import cp_model

# Fields up to this size are seated by an exhaustive search, within this many tables tried
# (16 players took at most 300,000 in the tests, under a second); past it, or beyond, CP-SAT.
EXHAUSTIVE_PLAYERS = 16
EXHAUSTIVE_STEPS = 1_000_000
# Larger fields: the search for the fewest repeats alone (`fewest_repeats`) gives up past this
# many steps (about 0.3 s), and CP-SAT looks for them instead.
REPEAT_STEPS = 100_000
# Past those steps, the exact cover by tables (`cover_within`) looks for the fewest repeats
# within this many steps in all (up to about 2 s of processor time: see docs/draw.md).
COVER_STEPS = 10_000_000
# Larger fields up to EXACT_PLAYERS: sets of three tables (two at tables of 5) within this
# many of each other in score order re-seated the best way (`Seating.regroup`), at most this
# many sets in all (about 1 s on an idle core).
REGROUP_REACH = 6
REGROUP_TRIES = 300
# Larger fields up to this size go to CP-SAT whole; larger ones by neighbourhoods of tables.
EXACT_PLAYERS = 64
# Tables either side of a table with a repeat that CP-SAT may re-seat with it.
_NEIGHBOURS = 4
# Wall-clock cap on CP-SAT, as a multiple of its deterministic limit.
_WALL_CAP = 2.0
# Tables apart (in standings order) that the descent tries swaps between; tables with a
# repeat try every table.
_SWAP_REACH = 3


class Seating:
    """Tables of standings positions, with the cost of each."""

    def __init__(
        self,
        groups: Sequence[int],
        met: Sequence[Sequence[int]],
        fold: Sequence[int],
        table_count: int,
    ) -> None:
        self.groups, self.met, self.fold = groups, met, fold
        self.tables: list[list[int]] = [[] for _ in range(table_count)]
        for position, table in enumerate(fold):
            self.tables[table].append(position)
        count = len(groups)
        spread_most = table_count * (max(groups, default=0) + 1)
        self.spread_weight = count + 1
        self.repeat_weight = (spread_most + 1) * self.spread_weight

    def table_cost(self, table: Sequence[int], at: int) -> int:
        """The weighted cost of one table (`at` is its index, for the players moved)."""
        met, groups = self.met, self.groups
        repeats = 0
        for a, b in itertools.combinations(table, 2):
            repeats += met[a][b]
        scores = [groups[p] for p in table]
        moved = sum(self.fold[p] != at for p in table)
        return (
            repeats * self.repeat_weight + (max(scores) - min(scores)) * self.spread_weight + moved
        )

    def counts(self) -> tuple[int, int, int]:
        """Repeats, spread and moved of the whole seating."""
        repeats = sum(
            self.met[a][b] for table in self.tables for a, b in itertools.combinations(table, 2)
        )
        spread = sum(
            max(self.groups[p] for p in table) - min(self.groups[p] for p in table)
            for table in self.tables
        )
        moved = sum(self.fold[p] != t for t, table in enumerate(self.tables) for p in table)
        return repeats, spread, moved

    def has_repeat(self, t: int) -> bool:
        return any(self.met[a][b] for a, b in itertools.combinations(self.tables[t], 2))

    def descend(self) -> None:
        """Swap two players at different tables, the best swap between two tables at a time,
        while a swap lowers the cost; deterministic."""
        tables = self.tables
        costs = [self.table_cost(table, t) for t, table in enumerate(tables)]
        better = True
        while better:
            better = False
            for t, u in self._table_pairs():
                one, other = tables[t], tables[u]
                before = costs[t] + costs[u]
                best = (0, -1, -1, 0, 0)
                for i, j in itertools.product(range(len(one)), range(len(other))):
                    one[i], other[j] = other[j], one[i]
                    one_cost, other_cost = self.table_cost(one, t), self.table_cost(other, u)
                    one[i], other[j] = other[j], one[i]
                    change = one_cost + other_cost - before
                    if change < best[0]:
                        best = (change, i, j, one_cost, other_cost)
                change, i, j, one_cost, other_cost = best
                if change < 0:
                    one[i], other[j] = other[j], one[i]
                    costs[t], costs[u] = one_cost, other_cost
                    better = True

    def _table_pairs(self) -> list[tuple[int, int]]:
        count = len(self.tables)
        repeating = [self.has_repeat(t) for t in range(count)]
        return [
            (t, u)
            for t, u in itertools.combinations(range(count), 2)
            if u - t <= _SWAP_REACH or repeating[t] or repeating[u]
        ]

    def regroup(self, *, together: int, reach: int, tries: int) -> None:
        """Re-seat the players of `together` tables at a time the best way (`exhaustive`:
        fewest repeats, then least spread), for every such set of tables within `reach` of
        each other in score order, while that lowers the cost; deterministic, within `tries`
        sets of tables in all. Moves a swap cannot make: three players going
        round three tables, or two tables trading two players each."""
        improved = True
        while improved and tries > 0:
            improved = False
            order = sorted(
                range(len(self.tables)),
                key=lambda t: (sorted(self.groups[p] for p in self.tables[t]), t),
            )
            for start in range(len(order)):
                window = order[start : start + reach + 1]
                for rest in itertools.combinations(window[1:], together - 1):
                    chosen = (window[0], *rest)
                    players = sorted(p for t in chosen for p in self.tables[t])
                    before = [self.table_cost(self.tables[t], t) for t in chosen]
                    sizes = sorted((len(self.tables[t]) for t in chosen), reverse=True)
                    groups = [self.groups[p] for p in players]
                    met = [[self.met[a][b] for b in players] for a in players]
                    seated = exhaustive(groups, met, sizes, steps=EXHAUSTIVE_STEPS)
                    tries -= 1
                    if seated is None:
                        continue
                    tables = [[players[i] for i in table] for table in seated]
                    placed = self._matched_to_fold(tables, chosen)
                    after = [self.table_cost(placed[t], t) for t in chosen]
                    if self._rank(after) < self._rank(before):
                        for t in chosen:
                            self.tables[t] = placed[t]
                        improved = True
                    if tries <= 0:
                        return

    def _rank(self, costs: Sequence[int]) -> int:
        """Tables' costs without the players moved (which `regroup` leaves to the descent)."""
        return sum(cost // self.spread_weight for cost in costs)

    def adopt(self, seated: Sequence[list[int]]) -> None:
        """Take these tables (larger first), matched to the fold's, if they are better."""
        placed = self._matched_to_fold(seated, range(len(self.tables)))
        tables = [placed[t] for t in range(len(self.tables))]
        before = sum(self.table_cost(table, t) for t, table in enumerate(self.tables))
        if sum(self.table_cost(table, t) for t, table in enumerate(tables)) < before:
            self.tables = tables

    def reseat(
        self,
        chosen: Sequence[int],
        *,
        seconds: float,
        fewest: int | None = None,
        clock: float | None = None,
        least: int = 0,
    ) -> None:
        """Re-seat the players of the `chosen` tables among those tables with CP-SAT (one
        worker, `seconds` of deterministic time a phase, at most twice as long on the clock
        a phase and `clock` seconds in all): first on repeats alone (when the tables have any
        and `fewest`, the fewest repeats the tables can have, is not known), then on repeats
        and spread with no more repeats than that (`least`: a proven lower bound on the
        repeats, which lets CP-SAT stop on reaching it); keep the result if it is better, its
        tables matched to the fold's to move as few players as possible."""
        from ortools.sat.python import cp_model  # heavy (pandas): imported only when used

        chosen = sorted(chosen, key=lambda t: (-len(self.tables[t]), t))
        players = sorted(p for t in chosen for p in self.tables[t])
        sizes = [len(self.tables[t]) for t in chosen]
        slots = range(len(chosen))
        model = cp_model.CpModel()
        at = {(p, s): model.new_bool_var(f"x{p}_{s}") for p in players for s in slots}
        for p in players:
            model.add_exactly_one(at[p, s] for s in slots)
        for s in slots:
            model.add(sum(at[p, s] for p in players) == sizes[s])
            if s and sizes[s] == sizes[s - 1]:
                # Tables of one size are interchangeable: order them by their first player.
                for i, p in enumerate(players):
                    model.add(at[p, s] <= sum(at[q, s - 1] for q in players[:i]))
        hint = sorted(
            (sorted(self.tables[t]) for t in chosen), key=lambda table: (-len(table), table)
        )
        for s, table in enumerate(hint):
            for p in players:
                model.add_hint(at[p, s], p in table)
        repeat_terms = []
        for a, b in itertools.combinations(players, 2):
            if self.met[a][b]:
                together = model.new_bool_var(f"r{a}_{b}")
                for s in slots:
                    model.add_bool_or([~at[a, s], ~at[b, s], together])
                repeat_terms.append(self.met[a][b] * together)
        solver = cp_model.CpSolver()
        solver.parameters.num_workers = 1
        solver.parameters.random_seed = 20
        solver.parameters.max_deterministic_time = seconds
        # A safety net on a machine so loaded that deterministic time crawls (only then can
        # the same standings give another round).
        phase_cap = _WALL_CAP * seconds
        clock = 2 * phase_cap if clock is None else clock
        solver.parameters.max_time_in_seconds = min(phase_cap, clock / 2)
        repeats_now = sum(
            self.met[a][b] for t in chosen for a, b in itertools.combinations(self.tables[t], 2)
        )
        started = time.monotonic()
        if fewest is not None:
            model.add(sum(repeat_terms) <= fewest)
        elif repeats_now:
            # First the fewest repeats alone (a smaller problem, often proved quickly), then
            # the spread with no more repeats than that.
            if least:
                model.add(sum(repeat_terms) >= least)  # proven: CP-SAT stops on reaching it
            model.minimize(sum(repeat_terms))
            status = solver.solve(model)
            if _stopped_by_clock(solver, status):
                return
            if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
                model.add(sum(repeat_terms) <= int(solver.objective_value))
                model.clear_hints()  # type: ignore[no-untyped-call]
                for var in at.values():
                    model.add_hint(var, solver.boolean_value(var))
        spent = time.monotonic() - started
        solver.parameters.max_time_in_seconds = max(0.05, min(phase_cap, clock - spent))
        terms = [self.repeat_weight * term for term in repeat_terms]
        # A table's spread is the sum of the gaps between score groups that it straddles
        # (someone on either side): a linear form that CP-SAT's relaxation bounds well.
        levels = sorted({self.groups[p] for p in players})
        for s in slots:
            for low, high in itertools.pairwise(levels):
                below, above = model.new_bool_var(""), model.new_bool_var("")
                straddles = model.new_bool_var(f"s{s}_{high}")
                for p in players:
                    model.add_implication(at[p, s], below if self.groups[p] <= low else above)
                model.add_bool_or([~below, ~above, straddles])
                terms.append(self.spread_weight * (high - low) * straddles)
        model.minimize(sum(terms))
        status = solver.solve(model)
        if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE) or _stopped_by_clock(solver, status):
            return
        seated = [[p for p in players if solver.boolean_value(at[p, s])] for s in slots]
        placed = self._matched_to_fold(seated, chosen)
        before = sum(self.table_cost(self.tables[t], t) for t in chosen)
        after = sum(self.table_cost(placed[t], t) for t in chosen)
        if after < before:
            for t in chosen:
                self.tables[t] = placed[t]

    def _matched_to_fold(
        self, seated: Sequence[list[int]], chosen: Sequence[int]
    ) -> dict[int, list[int]]:
        """The new tables given to the chosen table numbers (of their size) so that as many
        players as possible stay at the table the fold gave them."""
        graph: nx.Graph[tuple[str, int]] = nx.Graph()
        for s, table in enumerate(seated):
            for t in chosen:
                if len(self.tables[t]) == len(table):
                    stay = sum(self.fold[p] == t for p in table)
                    graph.add_edge(("new", s), ("old", t), weight=stay + 1)
        matching: set[tuple[tuple[str, int], tuple[str, int]]] = nx.max_weight_matching(
            graph, maxcardinality=True
        )
        placed = {}
        for one, other in matching:
            new, old = (one, other) if one[0] == "new" else (other, one)
            placed[old[1]] = seated[new[1]]
        return placed


def _stopped_by_clock(solver: "cp_model.CpSolver", status: "cp_model.CpSolverStatus") -> bool:
    """Whether CP-SAT stopped on the wall clock before its deterministic limit (a machine so
    loaded that deterministic time crawls): its answer then depends on the machine, so the
    caller keeps the seating it had, which does not."""
    from ortools.sat.python import cp_model  # heavy: imported only when used

    if status in (cp_model.OPTIMAL, cp_model.INFEASIBLE):
        return False
    return solver.deterministic_time < solver.parameters.max_deterministic_time * 0.99


def least_spread(groups: Sequence[int], sizes: Sequence[int]) -> int:
    """The least total spread any seating at tables of these sizes can have: that of the best
    cut of the standings (in score order) into consecutive tables. Un-crossing two tables
    whose score ranges overlap never widens them, so some best seating is such a cut."""
    large, small = sizes[0], sizes[-1]
    many_large = sum(1 for size in sizes if size == large) if large != small else len(sizes)
    return _least_spread(tuple(groups), large, small, many_large, len(sizes))


@lru_cache(maxsize=64)
def _least_spread(groups: tuple[int, ...], large: int, small: int, many: int, tables: int) -> int:
    # best[j]: the least spread of the first i tables with j of them large (i implied).
    infinity = 10**9
    best = [0] + [infinity] * many
    for i in range(tables):
        grown = [infinity] * (many + 1)
        for j in range(min(i, many) + 1):
            if best[j] == infinity:
                continue
            start = j * large + (i - j) * small
            for size, k in ((large, j + 1), (small, j)):
                if k > many or (i + 1 - k) > tables - many or start + size > len(groups):
                    continue
                width = groups[start + size - 1] - groups[start]
                grown[k] = min(grown[k], best[j] + width)
        best = grown
    return best[many]


def seat(
    groups: Sequence[int],
    met: Sequence[Sequence[int]],
    sizes: Sequence[int],
    fold: Sequence[int],
    *,
    seconds: float,
) -> list[list[int]]:
    """Tables of standings positions for one Swiss round (see the module's docstring)."""
    seating = Seating(groups, met, fold, len(sizes))
    seating.descend()
    repeats, spread, _ = seating.counts()
    if repeats == 0 and spread == least_spread(groups, sizes):
        return seating.tables
    count = len(seating.tables)
    exact = (
        exhaustive(groups, met, sizes, steps=EXHAUSTIVE_STEPS)
        if len(groups) <= EXHAUSTIVE_PLAYERS
        else None
    )
    if exact is not None:
        seating.adopt(exact)
    elif len(groups) <= EXACT_PLAYERS:
        # The fewest repeats first, proven by a search on the graph of who met whom when it
        # can be within its steps (then CP-SAT only spreads, within that many repeats).
        fewest: int | None = 0
        least = 0  # proven: no seating has fewer repeats
        if repeats:
            started = time.monotonic()
            proven = fewest_repeats(met, sizes, upper=repeats, steps=REPEAT_STEPS)
            seconds_left = max(0.0, 2 * _WALL_CAP * seconds - (time.monotonic() - started))
            if proven is None:
                # Past its steps: the exact cover by tables, allowance by allowance (its own
                # budget of steps, not taken off CP-SAT's clock); when it runs out of steps,
                # the allowances it ruled out still bound the fewest from below.
                least, tables = _fewest_by_cover(met, sizes, upper=repeats)
                if tables is not True:
                    proven = (least, tables if isinstance(tables, list) else None)
            fewest = None if proven is None else proven[0]
            if proven is not None and proven[1] is not None:
                seating.adopt(proven[1])
                seating.descend()
        else:
            seconds_left = 2 * _WALL_CAP * seconds
        # Then the spread: three tables at a time re-seated the best way (two at tables of 5,
        # where three take too long), then CP-SAT.
        together = 3 if sizes[0] <= 4 else 2
        seating.regroup(together=together, reach=REGROUP_REACH, tries=REGROUP_TRIES)
        seating.descend()
        if fewest is None and seating.counts()[0] == least:
            fewest = least  # the bound is met: proven after all
        seating.reseat(
            range(count), seconds=seconds, fewest=fewest, clock=seconds_left, least=least
        )
    else:
        # Large fields: each table with a repeat and its neighbours, a share of the time each.
        repeating = [t for t in range(count) if seating.has_repeat(t)]
        for t in repeating:
            window = range(max(0, t - _NEIGHBOURS), min(count, t + _NEIGHBOURS + 1))
            seating.reseat(window, seconds=seconds / len(repeating))
    seating.descend()  # fewer players moved from the fold, where that costs nothing above
    return seating.tables


def _fewest_by_cover(
    met: Sequence[Sequence[int]], sizes: Sequence[int], *, upper: int
) -> tuple[int, list[list[int]] | bool | None]:
    """By `cover_within` for 0, 1, ... repeats up to `upper` - 1, within `COVER_STEPS` in
    all: (the fewest repeats, a seating with that many) for the first allowance with a
    seating (each one below proven to have none); (upper, None) when none below `upper` has
    one; (b, True) when the steps run out at allowance b (so at least b, proven)."""
    steps = COVER_STEPS
    for allowed in range(upper):
        found, used = cover_within(met, sizes, repeats=allowed, steps=steps)
        if found is True:
            return allowed, True
        if found is not False:
            return allowed, found
        steps -= used
    return upper, None
