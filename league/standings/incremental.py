"""A ranked table kept current as results are added to its tally, ranking again only the part
of the table those results can move (docs/standings.md, "After one more result").

Ranking is by blocks. The metrics of the tiebreak order before its first group metric
(head-to-head) value each player by their own figures, so they cut the table (each group and,
apart, the withdrawn players of a stage) into *blocks* of players equal on all of them, in an
order that does not depend on who else is in a block; the rest of the order (head-to-head among
exactly the players of the block, then the others) ranks each block on its own. One more result
changes the totals of its players and, through the metrics whose `reach` is wider, the values
of others: Buchholz (`OPPONENTS_POINTS`) of everyone who ever met them, updated by the change of
their points; a metric of reach `ANYONE` is computed again for everyone. Only the blocks holding
a player whose value changed are ranked again, head-to-head only for the groups whose players
played the new result or whose membership changed (the values of every other group are kept),
and only the players of those blocks, or of the blocks a player moved across, can change place.

`rank_standings` of the same tally gives the same table, whatever was added in between: the
tests compare the two on random leagues."""

import bisect
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from itertools import groupby
from operator import itemgetter
from typing import Any

import numpy as np

from league.standings.metrics import (
    METRICS,
    OPPONENTS_POINTS,
    OWN,
    GroupMetric,
    Metric,
    buchholz_units,
    validate_tiebreak_order,
)
from league.standings.model import PlayerId, Standing
from league.standings.ranking import standing_of
from league.standings.seating import Column, Seating
from league.standings.tally import Tally

# A block: (its players have no group, their group, withdrawn, the values of the metrics before
# the first group metric, each negated when higher ranks first). Sorted, the table's order.
BlockKey = tuple[Any, ...]
Place = tuple[int, int]  # position in the table, rank

# Groups larger than this share of the players read every table for a group metric.
RESTRICT_SHARE = 0.5
# The group metric's values are kept for at most this many groups per player.
KEEP_GROUPS = 4


@dataclass(frozen=True)
class Changes:
    """What a refresh changed: `placed`, the players whose position, rank or metrics of their
    line changed (the metrics kept apart, `RankedTable.apart`, not counted: they change for
    hundreds of players after one result and are stored apart from the lines); `counted`, those
    whose totals changed (their whole row is new); `added`, players new to the table;
    `ranked_afresh`, every player was ranked again (new settings, a new player)."""

    placed: frozenset[PlayerId]
    counted: frozenset[PlayerId]
    added: frozenset[PlayerId]
    ranked_afresh: bool


class RankedTable:
    """The ranking of one tally, kept as blocks, with everything a later `update` needs: the
    metric values, each player's block and place, the group metric's values of every group it
    was computed for, and which tables each player sat at."""

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
        return frozenset(self._place)

    def place(self, player: PlayerId) -> tuple[int, int, dict[str, Any]]:
        """The player's line in the table (0 first), rank, and metrics by key."""
        position, rank = self._place[player]
        return position, rank, self._metrics_of(player)

    def line(self, player: PlayerId) -> tuple[int, int, dict[str, Any]]:
        """The player's line in the table (0 first), rank, and the metrics of the line: all
        but those kept apart (`apart`)."""
        position, rank = self._place[player]
        sources = self._sources()
        return position, rank, {self.order[i]: sources[i].get(player) for i in self._line_at}

    def apart_values(self) -> dict[str, dict[PlayerId, Any]]:
        """The metrics kept apart from the lines, by key: every player's value."""
        return {key: dict(self._values[key]) for key in self.apart}

    def standing(self, tally: Tally, player: PlayerId) -> Standing:
        """The player's `Standing` (from `tally`, the one this table ranks)."""
        _, rank = self._place[player]
        group = None if self.groups is None else self.groups.get(player)
        return standing_of(
            tally,
            player,
            rank,
            self._metrics_of(player),
            group,
            withdrawn=player in self.withdrawn,
        )

    def table(self, tally: Tally) -> tuple[Standing, ...]:
        """The whole table, best first (what `rank_standings` gives)."""
        ordered = sorted(self._place, key=lambda player: self._place[player][0])
        return tuple(self.standing(tally, player) for player in ordered)

    def _sources(self) -> list[Mapping[PlayerId, Any]]:
        """Where each metric of the order is read, by player: the values a group metric took in
        the part of the table where it applied (none for a player it did not apply to), the
        others' values."""
        return [self._shown.get(k) or self._values.get(k) or {} for k in self.order]

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
        # The metrics one result changes for players who did not play it (Buchholz): stored
        # apart from the lines, so that a refresh writes only the lines it moved.
        self.apart = tuple(
            key
            for key, metric in self._metrics.items()
            if not isinstance(metric, GroupMetric) and metric.reach != OWN
        )
        self._line_at = [i for i, key in enumerate(self.order) if key not in self.apart]
        # The steps of the rest of the order: a group metric alone, metrics in a row that value
        # a player by their own figures together (one sort by all of them).
        self._stages: list[tuple[str, ...]] = []
        for key in self._rest:
            alone = isinstance(self._metrics[key], GroupMetric)
            if alone or not self._stages or self._stages[-1][0] in self._within_keys():
                self._stages.append((key,))
            else:
                self._stages[-1] += (key,)
        self._scale, self._points = tally.scale, tally.points
        self._tables = len(tally.match_id_column())
        self._bye_keys = set(tally.bye_keys)
        seating = tally.seating()
        self._seating = seating
        self._index = {player: i for i, player in enumerate(seating.players.tolist())}
        self._rows_of = _rows_by_player(seating)
        self._extra_rows: dict[int, list[int]] = {}  # rows added since, by player index
        self._values: dict[str, dict[PlayerId, Any]] = {}
        self._units: dict[PlayerId, int] = {}
        self._buchholz: dict[PlayerId, int] = {}
        for key, metric in self._metrics.items():
            if isinstance(metric, GroupMetric):
                continue
            if metric.reach == OPPONENTS_POINTS:
                self._units = {p: r.points_units for p, r in tally.records.items()}
                self._buchholz = buchholz_units(tally)
                self._values[key] = {p: u / tally.scale for p, u in self._buchholz.items()}
            else:
                self._values[key] = dict(metric.values(tally))
        self._within: dict[str, dict[frozenset[PlayerId], Mapping[PlayerId, float]]] = {
            key: {} for key in self._rest if isinstance(self._metrics[key], GroupMetric)
        }
        self._shown: dict[str, dict[PlayerId, float]] = {key: {} for key in self._within}
        # The players whose value of a group metric changed in the last ranking.
        self._shown_changed: set[PlayerId] = set()
        self._block_of = {player: self._block_key(player) for player in tally.records}
        self._members: dict[BlockKey, set[PlayerId]] = {}
        for player, block in self._block_of.items():
            self._members.setdefault(block, set()).add(player)
        self._keys = sorted(self._members)
        # Each block's parts after every step of the rest of the order (the last: its runs).
        self._steps: dict[BlockKey, list[list[list[PlayerId]]]] = {}
        self._rank_blocks(tally, dict.fromkeys(self._keys, 0))
        self._starts: dict[BlockKey, tuple[int, int]] = {}
        self._place: dict[PlayerId, Place] = {}
        self._lay_out(set(self._keys))

    def _block_key(self, player: PlayerId) -> BlockKey:
        group = None if self.groups is None else self.groups.get(player)
        values = tuple(
            -self._values[key][player]
            if self._metrics[key].descending
            else self._values[key][player]
            for key in self._prefix
        )
        return (group is None, group or 0, player in self.withdrawn, *values)

    def _rank_blocks(self, tally: Tally, starts: Mapping[BlockKey, int]) -> None:
        """Rank the players of each block of `starts` by the rest of the order (as
        `rank_standings` ranks a group the metrics before it left tied), from the step of the
        rest the block gives on: the parts of the steps before it are kept."""
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

    def _within_keys(self) -> set[str]:
        return {k for k in self._rest if isinstance(self._metrics[k], GroupMetric)}

    def _sort_key(self, keys: Sequence[str]) -> Callable[[PlayerId], Any]:
        """A player's values of `keys` as one key, best first when sorted ascending."""
        return _sort_key([(self._values[k], self._metrics[k].descending) for k in keys])

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
        before = {
            player: shown.pop(player, None)
            for runs in parts.values()
            for run in runs
            for player in run
        }
        pending = {
            (key, i) for key, runs in parts.items() for i, run in enumerate(runs) if len(run) > 1
        }
        while pending:
            groups = {where: frozenset(parts[where[0]][where[1]]) for where in pending}
            missing = [group for group in set(groups.values()) if group not in known]
            if missing:
                values = metric.values_within(tally, missing, self._seating_of(missing))
                for group in missing:
                    known[group] = {player: values[player] for player in group}
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
        self._shown_changed.update(
            player for player, value in before.items() if shown.get(player) != value
        )
        return parts

    def _seating_of(self, groups: Sequence[Collection[PlayerId]]) -> Seating | None:
        """The tables where a player of `groups` sat (every table, for large groups)."""
        players = [player for group in groups for player in group]
        seating = self._seating
        if len(players) > RESTRICT_SHARE * len(self._index):
            return seating
        index = self._index
        at = np.zeros(len(seating.sizes), dtype=bool)  # each table once
        for player in players:
            at[self._rows(index[player])] = True
        rows = np.flatnonzero(at)
        return Seating(
            seating.players, seating.seats[rows], seating.places[rows], seating.sizes[rows]
        )

    def _rows(self, index: int) -> Column:
        """The rows of the tables the player at `index` sat at."""
        rows = self._rows_of[index]
        extra = self._extra_rows.get(index)
        if extra:
            rows = self._rows_of[index] = np.concatenate([rows, np.array(extra, np.int64)])
            del self._extra_rows[index]
        return rows

    def _lay_out(self, dirty: set[BlockKey]) -> set[PlayerId]:
        """Positions and ranks of the players of the blocks in `dirty` and of every block whose
        start moved; the players whose place changed."""
        changed: set[PlayerId] = set()
        position, rank, group = 0, 0, None
        for key in self._keys:
            if key[:2] != group:  # every group's places start at 1
                rank, group = 0, key[:2]
            start = (position, rank)
            if key in dirty:
                self._starts[key] = start
                changed.update(self._place_block(key, position, rank))
            elif start != self._starts.get(key):
                self._starts[key] = start
                changed.update(self._shift_block(key, position, rank))
            size = len(self._members[key])
            position += size
            rank += size
        return changed

    def _shift_block(self, key: BlockKey, position: int, rank: int) -> list[PlayerId]:
        """Place a block that only moved: its players keep their order and values."""
        changed = []
        places = self._place
        offset = rank + 1
        runs = self._steps[key][-1] if self._stages else [sorted(self._members[key])]
        for run in runs:
            for player in run:
                places[player] = (position, offset)
                changed.append(player)
                position += 1
            offset += len(run)
        return changed

    def _place_block(self, key: BlockKey, position: int, rank: int) -> list[PlayerId]:
        """Place the players of a block ranked again; those whose line changed: their place,
        or their value of a group metric (their own figures change only with their results,
        and the metrics kept apart are not in the line)."""
        changed = []
        places = self._place
        shown_changed = self._shown_changed
        offset = rank + 1
        runs = self._steps[key][-1] if self._stages else [sorted(self._members[key])]
        for run in runs:
            for player in run:
                if places.get(player) != (position, offset) or player in shown_changed:
                    places[player] = (position, offset)
                    changed.append(player)
                position += 1
            offset += len(run)
        return changed

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
            or tally.records.keys() != self._place.keys()
            or tally.scale != self._scale
            or tally.points != self._points
        ):
            return self._afresh(tally, tiebreak_order, groups, withdrawn, counted)
        if not counted:
            return Changes(frozenset(), frozenset(), frozenset(), ranked_afresh=False)
        # The first step of the rest of the order each changed player's block must be ranked
        # again from: the group metric (0) for a player of a new result.
        step_of = {key: step for step, keys in enumerate(self._stages) for key in keys}
        changed = dict.fromkeys(counted, 0)
        rekey = set(counted)  # whose block may change: a value before the group metric did
        for key, metric in self._metrics.items():
            if isinstance(metric, GroupMetric):
                continue
            if metric.reach == OWN:
                fresh = metric.values_for(tally, counted)
            elif metric.reach == OPPONENTS_POINTS:
                fresh = self._buchholz_update(tally, counted, sizes, players)
            else:
                fresh = dict(metric.values(tally))
            values, step = self._values[key], step_of.get(key, 0)
            for player, value in fresh.items():
                if values[player] != value:
                    values[player] = value
                    changed[player] = min(changed.get(player, step), step)
                    if key not in step_of:
                        rekey.add(player)
        self._add_tables(sizes, players, places)
        self._bye_keys |= byes
        self._tables += len(sizes)
        for known in self._within.values():  # groups with a player of the new results
            if len(known) > KEEP_GROUPS * len(self._index):
                known.clear()  # many groups that no longer exist: computed again when met
            for group in [group for group in known if not group.isdisjoint(counted)]:
                del known[group]
        starts: dict[BlockKey, int] = {}
        for player, step in changed.items():
            old = self._block_of[player]
            new = self._block_key(player) if player in rekey else old
            if old == new:
                starts[new] = min(starts.get(new, step), step)
                continue
            starts[old] = starts[new] = 0  # their players changed: ranked from the start
            self._block_of[player] = new
            self._members[old].discard(player)
            if not self._members[old]:
                del self._members[old]
                self._steps.pop(old, None)
                self._starts.pop(old, None)
                self._keys.pop(bisect.bisect_left(self._keys, old))
            if new not in self._members:
                self._members[new] = set()
                bisect.insort(self._keys, new)
            self._members[new].add(player)
        starts = {key: step for key, step in starts.items() if key in self._members}
        self._shown_changed = set()
        self._rank_blocks(tally, starts)
        placed = self._lay_out(set(starts))
        return Changes(frozenset(placed), frozenset(counted), frozenset(), ranked_afresh=False)

    def _afresh(
        self,
        tally: Tally,
        tiebreak_order: Sequence[str],
        groups: Mapping[PlayerId, int] | None,
        withdrawn: Collection[PlayerId],
        counted: set[PlayerId],
    ) -> Changes:
        """Rank everything again (new settings, a new player, a finer scale of points) and
        compare every player's place with the one before. `counted`: the players whose totals
        changed."""
        before = {player: self._line(player) for player in self._place}
        self._build(tally, tiebreak_order, groups, withdrawn)
        placed = {player for player in self._place if before.get(player) != self._line(player)}
        counted |= {
            player
            for player in self._place
            if player not in before or before[player][3:] != self._line(player)[3:]
        }
        added = self._place.keys() - before.keys()
        return Changes(frozenset(placed), frozenset(counted), frozenset(added), True)

    def _line(self, player: PlayerId) -> tuple[Any, ...]:
        """The player's line (position, rank, the line's metrics by key), group and
        withdrawal."""
        group = None if self.groups is None else self.groups.get(player)
        return (*self.line(player), group, player in self.withdrawn)

    def _buchholz_update(
        self, tally: Tally, counted: set[PlayerId], sizes: Column, players: Column
    ) -> dict[PlayerId, float]:
        """Buchholz after the new tables and the points of `counted` changed, for the players
        it changed: at every earlier table of a player whose points changed, the others' go up
        by that change; at a new table, each player's by the others' points."""
        records, units, index = tally.records, self._units, self._index
        seating = self._seating
        seats, nobody = seating.seats, seating.nobody
        delta = np.zeros(nobody + 1, dtype=np.int64)
        for player in counted:
            change = records[player].points_units - units[player]
            if change:
                mine = index[player]
                rows = self._rows(mine)
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
        delta[nobody] = 0
        moved = np.flatnonzero(delta)
        scale, buchholz = tally.scale, self._buchholz
        fresh = {}
        for player, change in zip(
            seating.players[moved].tolist(), delta[moved].tolist(), strict=True
        ):
            buchholz[player] += change
            fresh[player] = buchholz[player] / scale
        return fresh

    def _add_tables(self, sizes: Column, players: Column, places: Column) -> None:
        """Append the new tables to the seating and to each player's list of tables."""
        if not len(sizes):
            return
        seating, index = self._seating, self._index
        width = max(seating.seats.shape[1], int(sizes.max()))
        count = len(sizes)
        seats = np.full((count, width), seating.nobody, dtype=np.int64)
        placed = np.zeros((count, width), dtype=np.int64)
        filled = np.arange(width) < sizes[:, None]
        seats[filled] = [index[p] for p in players.tolist()]
        placed[filled] = places
        old_seats, old_places = (
            _widen(seating.seats, width, seating.nobody),
            _widen(seating.places, width, 0),
        )
        first = len(seating.sizes)
        self._seating = Seating(
            seating.players,
            np.concatenate([old_seats, seats]),
            np.concatenate([old_places, placed]),
            np.concatenate([seating.sizes, sizes]),
        )
        for row, table in enumerate(seats.tolist(), start=first):
            for i in table:
                if i != seating.nobody:
                    self._extra_rows.setdefault(i, []).append(row)


def _widen(matrix: Column, width: int, fill: int) -> Column:
    if matrix.shape[1] >= width:
        return matrix
    wider = np.full((matrix.shape[0], width), fill, dtype=np.int64)
    wider[:, : matrix.shape[1]] = matrix
    return wider


def _rows_by_player(seating: Seating) -> list[Column]:
    """For each player index, the rows of the tables they sat at."""
    if not seating.nobody:
        return []
    flat = seating.seats.ravel()
    order = np.argsort(flat, kind="stable")
    rows = order // max(seating.seats.shape[1], 1)
    counts = np.bincount(flat, minlength=seating.nobody + 1)[: seating.nobody]
    return list(np.split(rows[: int(counts.sum())], np.cumsum(counts)[:-1]))


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
