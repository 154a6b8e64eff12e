"""A ranked table kept current as results are added to its tally, ranking again only the part
of the table those results can move (docs/standings.md, "After one more result").

Ranking is by blocks. The metrics of the tiebreak order before its first group metric
(head-to-head) value each player by their own figures, so they cut the table (each group and,
apart, the withdrawn players of a stage) into *blocks* of players equal on all of them, in an
order that does not depend on who else is in a block; the group metric (head-to-head among
exactly the players of the block) then cuts each block into *parts*, and the metrics after it
order the players within each part. One more result changes the totals of its players and,
through the metrics whose `reach` is wider, the values of others: Buchholz (`OPPONENTS_POINTS`)
of everyone who ever met them, updated by the change of their points; a metric of reach
`ANYONE` is computed again for everyone. Only the blocks that gained or lost a player, or hold
a player of a new result, are cut into parts again (head-to-head is kept for every other
group); the table's order is then one sort of every player by their block, their part and the
metrics after the group metric (NumPy's `lexsort` of columns kept by player), so a value that
changes for hundreds of players costs an array operation, not a Python loop over them.

`rank_standings` of the same tally gives the same table, whatever was added in between: the
tests compare the two on random leagues."""

from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from itertools import groupby
from operator import itemgetter
from typing import Any

import numpy as np

from league.standings.kept_seating import KeptSeating
from league.standings.metrics import (
    METRICS,
    OPPONENTS_POINTS,
    OWN,
    GroupMetric,
    Metric,
    buchholz_units_by_index,
    validate_tiebreak_order,
)
from league.standings.model import PlayerId, Standing
from league.standings.ranking import standing_of
from league.standings.seating import Column
from league.standings.tally import Tally

# A block: (its players have no group, their group, withdrawn, the values of the metrics before
# the first group metric, each negated when higher ranks first).
BlockKey = tuple[Any, ...]
Floats = np.ndarray[Any, np.dtype[np.float64]]

# The group metric's values are kept for at most this many groups per player.
KEEP_GROUPS = 4


@dataclass(frozen=True)
class Changes:
    """What a refresh changed: `placed`, the players whose position or rank changed;
    `counted`, those whose line changed (their totals, or, ranked afresh, the metrics of the
    line, their group or withdrawal: the whole line is new; the metrics kept apart,
    `RankedTable.apart`, are not the line's); `added`, players new to the table;
    `ranked_afresh`, every player was ranked again (new settings, a new player)."""

    placed: frozenset[PlayerId]
    counted: frozenset[PlayerId]
    added: frozenset[PlayerId]
    ranked_afresh: bool


class RankedTable:
    """The ranking of one tally, kept as blocks and columns by player, with everything a later
    `update` needs: the metric values, each player's block and part, the group metric's values
    of every group it was computed for, and which tables each player sat at."""

    _sources_made: list[Mapping[PlayerId, Any]] | None

    def __init__(
        self,
        tally: Tally,
        tiebreak_order: Sequence[str],
        *,
        groups: Mapping[PlayerId, int] | None = None,
        withdrawn: Collection[PlayerId] = frozenset(),
    ) -> None:
        self._build(tally, tiebreak_order, groups, withdrawn)

    # --- Reading --------------------------------------------------------------------------

    @property
    def players(self) -> frozenset[PlayerId]:
        return frozenset(self._index)

    def place(self, player: PlayerId) -> tuple[int, int, dict[str, Any]]:
        """The player's line in the table (0 first), rank, and metrics by key."""
        at = self._index[player]
        return int(self._position[at]), int(self._rank[at]), self._metrics_of(player)

    def line_metrics(self, player: PlayerId) -> dict[str, Any]:
        """The metrics of the player's line: all but those kept apart (`apart`)."""
        sources = self._sources()
        return {self.order[i]: sources[i].get(player) for i in self._line_at}

    def ranking(self) -> tuple[list[PlayerId], list[int], dict[str, list[Any]]]:
        """What is kept apart from the lines: the players best first, the rank of each, and
        the values of each metric of `apart`, in the same order."""
        order = self._order
        players: list[PlayerId] = self._seats.seating.players[order].tolist()
        metrics: dict[str, list[Any]] = {}
        for key in self.apart:
            if key == self._opponents:
                metrics[key] = (self._buchholz[order] / self._scale).tolist()
            else:
                source = self._sources()[self.order.index(key)]
                metrics[key] = [source.get(player) for player in players]
        return players, self._rank[order].tolist(), metrics

    def standing(self, tally: Tally, player: PlayerId) -> Standing:
        """The player's `Standing` (from `tally`, the one this table ranks)."""
        group = None if self.groups is None else self.groups.get(player)
        return standing_of(
            tally,
            player,
            int(self._rank[self._index[player]]),
            self._metrics_of(player),
            group,
            withdrawn=player in self.withdrawn,
        )

    def table(self, tally: Tally) -> tuple[Standing, ...]:
        """The whole table, best first (what `rank_standings` gives)."""
        ids = self._ids
        return tuple(self.standing(tally, ids[at]) for at in self._order.tolist())

    def _sources(self) -> list[Mapping[PlayerId, Any]]:
        """Where each metric of the order is read, by player: the values a group metric took in
        the part of the table where it applied (none for a player it did not apply to), the
        others' values (made once per state of the table)."""
        sources = self._sources_made
        if sources is None:
            sources = self._sources_made = [
                (self._shown.get(key) or {})
                if isinstance(self._metrics[key], GroupMetric)
                else self._value_map(key)
                for key in self.order
            ]
        return sources

    def _value_map(self, key: str) -> Mapping[PlayerId, Any]:
        """Every player's value of a metric that is not a group metric."""
        if key == self._opponents:  # Buchholz, kept in units by player index
            return dict(zip(self._ids, (self._buchholz / self._scale).tolist(), strict=True))
        return self._values[key]

    def _metrics_of(self, player: PlayerId) -> dict[str, Any]:
        return {
            k: source.get(player) for k, source in zip(self.order, self._sources(), strict=True)
        }

    # --- Building -------------------------------------------------------------------------

    def _build(
        self,
        tally: Tally,
        tiebreak_order: Sequence[str],
        groups: Mapping[PlayerId, int] | None,
        withdrawn: Collection[PlayerId],
    ) -> None:
        self.order = validate_tiebreak_order(tiebreak_order, game=tally.game)
        self.groups = None if groups is None else dict(groups)
        self.withdrawn = frozenset(withdrawn)
        self._metrics: dict[str, Metric] = {key: METRICS[key]() for key in self.order}
        cut = next(
            (i for i, key in enumerate(self.order) if isinstance(self._metrics[key], GroupMetric)),
            len(self.order),
        )
        self._prefix, self._rest = self.order[:cut], self.order[cut:]
        # The metrics whose values depend on other players (Buchholz, head-to-head): one
        # result changes them for players who did not play it, so they are stored apart from
        # the lines (with the order and the ranks), and a refresh writes only the lines of the
        # players whose totals changed.
        self.apart = tuple(
            key
            for key, metric in self._metrics.items()
            if isinstance(metric, GroupMetric) or metric.reach != OWN
        )
        self._line_at = [i for i, key in enumerate(self.order) if key not in self.apart]
        # The steps of the rest of the order: a group metric alone, metrics in a row that value
        # a player by their own figures together (one sort by all of them). The last, when it
        # is such a sort (the `tail`), is done for the whole table at once (`_lay_out`); the
        # steps before it block by block (`_rank_blocks`).
        stages: list[tuple[str, ...]] = []
        for key in self._rest:
            alone = isinstance(self._metrics[key], GroupMetric)
            if alone or not stages or isinstance(self._metrics[stages[-1][0]], GroupMetric):
                stages.append((key,))
            else:
                stages[-1] += (key,)
        last_sorts = bool(stages) and not isinstance(self._metrics[stages[-1][0]], GroupMetric)
        self._tail: tuple[str, ...] = stages[-1] if last_sorts else ()
        self._stages = stages[:-1] if last_sorts else stages
        self._step_of = {key: step for step, keys in enumerate(self._stages) for key in keys}
        self._scale, self._points = tally.scale, tally.points
        self._tables = len(tally.match_id_column())
        self._bye_keys = set(tally.bye_keys)
        seating = tally.seating()
        self._ids: list[PlayerId] = seating.players.tolist()
        self._index = {player: i for i, player in enumerate(self._ids)}
        self._seats = KeptSeating(seating, self._index)  # grows with the tables added
        self._values: dict[str, dict[PlayerId, Any]] = {}
        self._opponents: str | None = None  # the metric of reach OPPONENTS_POINTS (Buchholz)
        self._units = {p: r.points_units for p, r in tally.records.items()}
        self._buchholz: Column = np.zeros(len(self._ids), dtype=np.int64)
        for key, metric in self._metrics.items():
            if isinstance(metric, GroupMetric):
                continue
            if metric.reach == OPPONENTS_POINTS:
                self._opponents = key
                self._buchholz = buchholz_units_by_index(tally)
            else:
                self._values[key] = dict(metric.values(tally))
        self._sources_made = None
        # The columns the table's order sorts by, by player index, each negated when higher
        # ranks first: the block's (no group, group, withdrawn, the metrics before the group
        # metric), the part of the block, the tail's metrics.
        group_of = self.groups or {}
        self._settled = [
            np.array([self.groups is None or p not in group_of for p in self._ids], np.float64),
            np.array([group_of.get(p) or 0 for p in self._ids], np.float64),
            np.array([p in self.withdrawn for p in self._ids], np.float64),
        ]
        self._columns = {key: self._column(key) for key in (*self._prefix, *self._tail)}
        self._part = np.zeros(len(self._ids), dtype=np.float64)
        self._within: dict[str, dict[frozenset[PlayerId], Mapping[PlayerId, float]]] = {
            key: {} for key in self._rest if isinstance(self._metrics[key], GroupMetric)
        }
        self._shown: dict[str, dict[PlayerId, float]] = {key: {} for key in self._within}
        # The groups of `_within` each player is in, by metric.
        self._groups_of: dict[str, dict[PlayerId, set[frozenset[PlayerId]]]] = {
            key: {} for key in self._within
        }
        self._block_of = {player: self._block_key(player) for player in self._ids}
        self._members: dict[BlockKey, set[PlayerId]] = {}
        for player, block in self._block_of.items():
            self._members.setdefault(block, set()).add(player)
        # Each block's parts after every step before the tail.
        self._steps: dict[BlockKey, list[list[list[PlayerId]]]] = {}
        self._rank_blocks(tally, dict.fromkeys(self._members, 0))
        self._order: Column = np.zeros(0, dtype=np.int64)
        self._position: Column = np.full(len(self._ids), -1, dtype=np.int64)
        self._rank: Column = np.zeros(len(self._ids), dtype=np.int64)
        self._lay_out()

    def _column(self, key: str) -> Floats:
        """The values of a metric that is not a group metric by player index, negated when
        higher ranks first (so that the order sorts every column ascending)."""
        if key == self._opponents:
            column: Floats = self._buchholz / self._scale
        else:
            values = self._values[key]
            column = np.array([values[p] for p in self._ids], dtype=np.float64)
        return -column if self._metrics[key].descending else column

    def _block_key(self, player: PlayerId) -> BlockKey:
        at = self._index[player]
        return (
            *(column.item(at) for column in self._settled),
            *(self._columns[key].item(at) for key in self._prefix),
        )

    def _rank_blocks(self, tally: Tally, starts: Mapping[BlockKey, int]) -> None:
        """Cut the players of each block of `starts` into parts by the steps of the rest of the
        order before the tail (as `rank_standings` cuts a group the metrics before it left
        tied), from the step the block gives on: the parts of the steps before it are kept."""
        if not self._stages:
            return
        steps = self._steps
        parts: dict[BlockKey, list[list[PlayerId]]] = {}
        for step, keys in enumerate(self._stages):
            for key, start in starts.items():
                if start == step:
                    parts[key] = steps[key][step - 1] if step else [sorted(self._members[key])]
                    if step == 0:
                        steps[key] = []
            if not parts:
                continue
            metric = self._metrics[keys[0]]
            if isinstance(metric, GroupMetric):
                parts = self._split_within(tally, keys[0], metric, parts)
            else:
                sort_key = self._sort_key(keys)
                parts = {
                    key: [piece for part in runs for piece in _split(part, sort_key)]
                    for key, runs in parts.items()
                }
            for key, runs in parts.items():
                del steps[key][step:]
                steps[key].append(runs)
        index, part_of = self._index, self._part
        for key in parts:
            for number, run in enumerate(steps[key][-1]):
                for player in run:
                    part_of[index[player]] = number

    def _sort_key(self, keys: Sequence[str]) -> Callable[[PlayerId], Any]:
        """A player's values of `keys` as one key, best first when sorted ascending."""
        return _sort_key([(self._value_map(k), self._metrics[k].descending) for k in keys])

    def _split_within(
        self,
        tally: Tally,
        metric_key: str,
        metric: GroupMetric,
        parts: dict[BlockKey, list[list[PlayerId]]],
    ) -> dict[BlockKey, list[list[PlayerId]]]:
        """`ranking._split_within` for every block at once, each group's values computed once
        and kept for as long as no result among its players is added."""
        known, shown = self._within[metric_key], self._shown[metric_key]
        groups_of = self._groups_of[metric_key]
        for runs in parts.values():
            for run in runs:
                for player in run:
                    shown.pop(player, None)
        pending = {
            (key, i) for key, runs in parts.items() for i, run in enumerate(runs) if len(run) > 1
        }
        while pending:
            groups = {where: frozenset(parts[where[0]][where[1]]) for where in pending}
            missing = [group for group in set(groups.values()) if group not in known]
            if missing:
                values = metric.values_within(tally, missing, self._seats.of_groups(missing))
                for group in missing:
                    known[group] = {player: values[player] for player in group}
                    for player in group:
                        groups_of.setdefault(player, set()).add(group)
            refined: dict[BlockKey, list[list[PlayerId]]] = {}
            still_tied: set[tuple[BlockKey, int]] = set()
            for key, runs in parts.items():
                out: list[list[PlayerId]] = []
                for i, run in enumerate(runs):
                    if (key, i) not in pending:
                        out.append(run)
                        continue
                    values = known[groups[key, i]]
                    for player in run:
                        shown.setdefault(player, values[player])
                    pieces = _split(run, _sort_key([(values, metric.descending)]))
                    if len(pieces) > 1:
                        still_tied.update(
                            (key, len(out) + j) for j, piece in enumerate(pieces) if len(piece) > 1
                        )
                    out.extend(pieces)
                refined[key] = out
            parts, pending = refined, still_tied
        return parts

    def _lay_out(self) -> Column:
        """Every player's position and rank: one sort of the whole table by block, part and the
        tail's metrics, then by player id (within a shared place, players are listed by id);
        the indices of the players whose position or rank changed."""
        count = len(self._ids)
        before_position, before_rank = self._position, self._rank
        columns = [*self._settled, *(self._columns[key] for key in self._prefix), self._part]
        columns += [self._columns[key] for key in self._tail]
        ids = np.arange(count, dtype=np.int64)  # player indices follow the ids
        order = np.lexsort([ids, *reversed(columns)]) if count else ids
        positions = np.arange(count, dtype=np.int64)
        if count:
            # A new place where any column differs from the player above; places count from
            # the first player of each group (the first two columns).
            differs = np.zeros(count, dtype=bool)
            new_group = np.zeros(count, dtype=bool)
            differs[0] = new_group[0] = True
            for number, column in enumerate(columns):
                sorted_column = column[order]
                step = sorted_column[1:] != sorted_column[:-1]
                differs[1:] |= step
                if number < 2:
                    new_group[1:] |= step
            place_start = np.maximum.accumulate(np.where(differs, positions, 0))
            group_start = np.maximum.accumulate(np.where(new_group, positions, 0))
            ranks = place_start - group_start + 1
        else:
            ranks = positions
        self._order = order
        self._position = np.empty(count, dtype=np.int64)
        self._position[order] = positions
        self._rank = np.empty(count, dtype=np.int64)
        self._rank[order] = ranks
        return np.flatnonzero((self._position != before_position) | (self._rank != before_rank))

    # --- Updating -------------------------------------------------------------------------

    def update(
        self,
        tally: Tally,
        tiebreak_order: Sequence[str],
        *,
        groups: Mapping[PlayerId, int] | None = None,
        withdrawn: Collection[PlayerId] = frozenset(),
    ) -> Changes:
        """Bring the ranking up to date with `tally`, the tally it was built from plus the
        results, byes and players added since, ranked by these settings; what changed."""
        sizes, players, places = tally.tables_since(self._tables)
        byes = tally.bye_keys - self._bye_keys
        counted = set(players.tolist()) | {player for _, _, player in byes}
        if (
            (tuple(tiebreak_order), groups, frozenset(withdrawn))
            != (self.order, self.groups, self.withdrawn)
            or tally.records.keys() != self._index.keys()
            or tally.scale != self._scale
            or tally.points != self._points
        ):
            return self._afresh(tally, tiebreak_order, groups, withdrawn, counted)
        if not counted:
            return Changes(frozenset(), frozenset(), frozenset(), ranked_afresh=False)
        self._sources_made = None
        # The first step before the tail each changed player's block must be cut again from:
        # the group metric (0) for a player of a new result.
        changed = dict.fromkeys(counted, 0)
        rekey = set(counted)  # whose block may change: a value before the group metric did
        for key, metric in self._metrics.items():
            if isinstance(metric, GroupMetric):
                continue
            moved = self._update_values(tally, key, metric, counted, sizes, players)
            if key in self._step_of:
                step = self._step_of[key]
                for player in moved:
                    changed[player] = min(changed.get(player, step), step)
            elif key in self._prefix:
                rekey.update(moved)
                changed.update((player, 0) for player in moved if player not in changed)
        self._seats.add_tables(sizes, players, places)
        self._bye_keys |= byes
        self._tables += len(sizes)
        for key, known in self._within.items():  # groups with a player of the new results
            groups_of = self._groups_of[key]
            if len(known) > KEEP_GROUPS * len(self._index):
                known.clear()  # many groups that no longer exist: computed again when met
                groups_of.clear()
            for player in counted:
                for group in groups_of.pop(player, set()):
                    del known[group]
                    for other in group:
                        if other != player:
                            groups_of[other].discard(group)
        starts: dict[BlockKey, int] = {}
        for player, step in changed.items():
            old = self._block_of[player]
            new = self._block_key(player) if player in rekey else old
            if old == new:
                starts[new] = min(starts.get(new, step), step)
                continue
            starts[old] = starts[new] = 0  # their players changed: cut from the start
            self._block_of[player] = new
            self._members[old].discard(player)
            if not self._members[old]:
                del self._members[old]
                self._steps.pop(old, None)
            self._members.setdefault(new, set()).add(player)
        starts = {key: step for key, step in starts.items() if key in self._members}
        self._rank_blocks(tally, starts)
        self._sources_made = None
        ids = self._ids
        placed = {ids[at] for at in self._lay_out().tolist()}
        return Changes(frozenset(placed), frozenset(counted), frozenset(), ranked_afresh=False)

    def _update_values(
        self,
        tally: Tally,
        key: str,
        metric: Metric,
        counted: set[PlayerId],
        sizes: Column,
        players: Column,
    ) -> list[PlayerId]:
        """Bring one metric's values (and its column) up to date; the players whose value
        changed, when a step before the tail needs them (the tail's are sorted anyway)."""
        needed = key in self._step_of or key in self._prefix
        column = self._columns.get(key)
        sign = -1 if metric.descending else 1
        if metric.reach == OWN:
            values, index = self._values[key], self._index
            moved = []
            for player, value in metric.values_for(tally, counted).items():
                if values[player] != value:
                    values[player] = value
                    moved.append(player)
                    if column is not None:
                        column[index[player]] = sign * value
            return moved
        if key == self._opponents:
            at = self._buchholz_update(tally, counted, sizes, players)
            if column is not None:
                column[at] = sign * (self._buchholz[at] / tally.scale)
        else:
            if column is None:
                column = self._column(key)  # not sorted by: only to tell which changed
            values = self._values[key] = dict(metric.values(tally))
            fresh = np.array([values[p] for p in self._ids], dtype=np.float64) * sign
            at = np.flatnonzero(fresh != column)
            if key in self._columns:
                self._columns[key] = fresh
        ids = self._ids
        return [ids[i] for i in at.tolist()] if needed else []

    def _afresh(
        self,
        tally: Tally,
        tiebreak_order: Sequence[str],
        groups: Mapping[PlayerId, int] | None,
        withdrawn: Collection[PlayerId],
        counted: set[PlayerId],
    ) -> Changes:
        """Rank everything again (new settings, a new player, a finer scale of points) and
        compare every player's place and line with the one before. `counted`: the players
        whose totals changed."""
        before = {player: self._line(player) for player in self._index}
        self._build(tally, tiebreak_order, groups, withdrawn)
        after = {player: self._line(player) for player in self._index}
        placed = {p for p, line in after.items() if p not in before or before[p][:2] != line[:2]}
        counted |= {p for p, line in after.items() if p not in before or before[p][2:] != line[2:]}
        added = self._index.keys() - before.keys()
        return Changes(frozenset(placed), frozenset(counted), frozenset(added), True)

    def _line(self, player: PlayerId) -> tuple[Any, ...]:
        """The player's position, rank, the metrics of their line, group and withdrawal."""
        at = self._index[player]
        group = None if self.groups is None else self.groups.get(player)
        return (
            int(self._position[at]),
            int(self._rank[at]),
            self.line_metrics(player),
            group,
            player in self.withdrawn,
        )

    def _buchholz_update(
        self, tally: Tally, counted: set[PlayerId], sizes: Column, players: Column
    ) -> Column:
        """Buchholz after the new tables and the points of `counted` changed: at every earlier
        table of a player whose points changed, the others' go up by that change; at a new
        table, each player's by the others' points. The indices of the players it changed."""
        records, units, index = tally.records, self._units, self._index
        seats, nobody = self._seats.seating.seats, self._seats.seating.nobody
        delta = np.zeros(nobody + 1, dtype=np.int64)
        for player in counted:
            change = records[player].points_units - units[player]
            if change:
                mine = index[player]
                rows = self._seats.rows(mine)
                delta += np.bincount(seats[rows].ravel(), minlength=nobody + 1) * change
                delta[mine] -= len(rows) * change
            units[player] = records[player].points_units
        start = 0
        for size in sizes.tolist():
            table = players[start : start + size].tolist()
            total = sum(units[p] for p in table)
            for player in table:
                delta[index[player]] += total - units[player]
            start += size
        delta = delta[:nobody]
        self._buchholz += delta
        return np.flatnonzero(delta)


def _sort_key(columns: Sequence[tuple[Mapping[PlayerId, Any], bool]]) -> Callable[[PlayerId], Any]:
    """The values of `columns` (each with whether higher ranks first) as one key per player,
    best first when sorted ascending."""
    if len(columns) == 1:
        values, descending = columns[0]
        return (lambda p: -values[p]) if descending else values.__getitem__
    return lambda p: tuple([-v[p] if descending else v[p] for v, descending in columns])


def _split(run: list[PlayerId], key: Callable[[PlayerId], Any]) -> list[list[PlayerId]]:
    """`run` cut into runs of equal `key`, lowest first, the order within a run kept (each
    key computed once)."""
    if len(run) == 1:
        return [run]
    keyed = sorted([(key(player), i, player) for i, player in enumerate(run)])
    return [[player for _, _, player in part] for _, part in groupby(keyed, key=itemgetter(0))]
