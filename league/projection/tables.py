"""A round robin or Swiss stage simulated for many runs at once, in arrays (docs/analysis.md,
"Chance to qualify", "Speed").

The same model as the run-by-run simulator of `simulate.py` (which stays the reference, and
the way for a tiebreak metric this module does not know): the matches left drawn from their
finishing orders' chances, the Swiss rounds not drawn yet paired by league points with equal
points at random, and every run ranked by the stage's tiebreak order as `rank_standings` ranks
it, then cut by seed. Here a run is a row: league points, wins and matches are run x player
arrays, the tables every run played are run x table x seat arrays, and each metric of the
tiebreak order splits the tied players of every run at once. The metrics that a simulated match
cannot change (the score metrics: a simulated match has no game score) are read once from the
stage's tally."""

import math
from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from typing import Any

import numpy as np
import numpy.typing as npt

from league.draw import table_sizes
from league.projection.arrays import add_at, head_to_head, pairs_within, part_sizes, ragged, refine
from league.standings import (
    METRICS,
    GroupMetric,
    MatchResult,
    PlayerId,
    SeatResult,
    Tally,
    TotalMetric,
    effective_placements,
    validate_tiebreak_order,
)
from league.standings.metrics import AverageScore

Array = npt.NDArray[Any]
Draw = Callable[[Sequence[PlayerId], Sequence[float] | None], tuple[list[Any], list[float]]]
"""A table's finishing orders and their cumulative chances (`_Outcomes.table`)."""

# The totals that a simulated match leaves as they are: it has no game score.
UNMOVED_TOTALS = frozenset({"scored", "total_score", "best_score", "yardzees", "upper_bonuses"})
UNMOVED_TOTALS |= {"yardkles"}
# Runs are simulated and ranked in chunks of at most this many table seats (run x table x
# seat), so that a long round robin does not hold every run's tables at once.
CHUNK_SEATS = 1_500_000
# Head-to-head over the tables played already comes from a player x player matrix when the
# stage (a league's season) has at most this many players and the tied parts are small.
MATRIX_PLAYERS = 3000


class Unsupported(Exception):
    """The stage needs the run-by-run simulator (a metric this module does not know, or a
    result of a player who is not an entrant)."""


class TableStage:
    """What every run of a round robin or Swiss stage shares: the players (by index, in seed
    order), the tally of what is played, each match left's finishing orders as arrays, and the
    tiebreak order as array metrics."""

    # Head-to-head by the matrix (True), over every table (False), or by their cost (None).
    pairs_method: bool | None = None

    def __init__(
        self,
        setup: Any,
        draw: Draw,
        win_chances: Callable[[frozenset[PlayerId]], Mapping[PlayerId, float]],
        overrides: Mapping[int, Sequence[float]],
    ) -> None:
        self.setup = setup
        self.draw = draw
        players = self.players = tuple(setup.players)
        count = self.count = len(players)
        index = self.index = {player: i for i, player in enumerate(players)}
        withdrawn = np.array([p in setup.withdrawn for p in players], dtype=bool)
        self.withdrawn = withdrawn
        base = Tally(game=setup.game, points=setup.points)
        for player in players:
            base.add_player(player)
        base.add_results(setup.results)
        for bye in setup.byes:
            base.add_bye(bye)
        if set(base.records) != set(players):
            raise Unsupported("a result of a player who is not an entrant")
        self.order = validate_tiebreak_order(setup.tiebreak, game=setup.game)
        self.fixed: dict[str, Array] = {}
        for key in self.order:
            metric = METRICS[key]
            if key in ("points", "wins", "buchholz", "median_buchholz", "head_to_head"):
                continue
            unmoved = metric is AverageScore or (
                issubclass(metric, TotalMetric) and metric.total in UNMOVED_TOTALS
            )
            if not unmoved:
                raise Unsupported(f"metric {key!r}")
            values = metric().values(base)
            sign = 1.0 if metric.descending else -1.0
            self.fixed[key] = np.array([sign * float(values[p]) for p in players])

        # League points in integer units of 1/scale, every value exact.
        records = [base.records[p] for p in players]
        fractions: list[Fraction] = [Fraction(r.points_units, base.scale) for r in records]
        self.bye_points = setup.points.bye_points(setup.table_size)
        pending = [
            (match, *draw(match.players, overrides.get(match.match_id))) for match in setup.pending
        ]
        lines = [self._lines(match.players, orders) for match, orders, _ in pending]
        self.rounds_left = self._rounds_left()
        playing = len(setup.players) - len(setup.withdrawn)
        sizes = [table_sizes(playing, setup.table_size) if self.rounds_left and playing else ()]
        place_points = {
            size: setup.points.match_points(tuple(range(1, size + 1)), (False,) * size)
            for size in set(sizes[0])
            if size > 1
        }
        every = [*fractions, self.bye_points, *(f for v in place_points.values() for f in v)]
        every += [f for _places, points, _wins in lines for row in points for f in row]
        scale = math.lcm(*(f.denominator for f in every))
        self.scale = scale
        self.base_units = np.array([int(f * scale) for f in fractions], dtype=np.int64)
        self.base_wins = np.array([r.wins for r in records], dtype=np.int64)
        self.base_matches = np.array([r.matches for r in records], dtype=np.int64)
        self.bye_units = int(self.bye_points * scale)
        self.place_units = {
            size: np.array([int(f * scale) for f in points], dtype=np.int64)
            for size, points in place_points.items()
        }

        # The tables already played, by player index (`count` for an empty seat).
        seating = base.seating()
        remap = np.array([*(index[p] for p in seating.players.tolist()), count], dtype=np.int64)
        widths = [seating.seats.shape[1], *(len(m.players) for m, _, _ in pending)]
        widths += list(sizes[0])
        width = self.width = max([2, *widths])
        self.base_seats = self._pad(remap[seating.seats], count)
        self.base_places = self._pad(seating.places, 0)

        # The matches left: every finishing order of each as one flat list of rows.
        starts: list[int] = []
        cumulative: list[Array] = []
        seat_rows: list[list[int]] = []
        place_rows: list[list[int]] = []
        unit_rows: list[list[int]] = []
        win_rows: list[list[int]] = []
        for (match, orders, chances), (places, points, wins) in zip(pending, lines, strict=True):
            starts.append(len(place_rows))
            cumulative.append(np.array(chances))
            seat_rows.append([index[p] for p in match.players])
            for row in range(len(orders)):
                place_rows.append(places[row])
                unit_rows.append([int(f * scale) for f in points[row]])
                win_rows.append(wins[row])
        self.cumulative = cumulative
        self.order_start = np.array(starts, dtype=np.int64)
        self.pending_seats = self._pad(ragged(seat_rows, count), count)
        self.order_places = self._pad(ragged(place_rows, 0), 0)
        self.order_units = self._pad(ragged(unit_rows, 0), 0)
        self.order_wins = self._pad(ragged(win_rows, 0), 0)
        self.sizes = sizes[0]
        self.win_chances = win_chances
        self._pair_chances: Array | None = None
        self._met: Array | None = None
        self._opponents: Array | None = None

        # Ranking: players start in their group (group 1 first, none last), those who withdrew
        # after those still playing.
        groups = setup.groups
        if groups is not None:
            numbers = sorted({groups.get(p) for p in players}, key=lambda g: (g is None, g or 0))
            rank_of = {number: i for i, number in enumerate(numbers)}
            group_index = np.array([rank_of[groups.get(p)] for p in players], dtype=np.int64)
        else:
            group_index = np.zeros(count, dtype=np.int64)
        self.group_index = group_index
        self.start_labels = 2 * group_index + withdrawn
        self.group_count = int(group_index.max()) + 1 if count else 0
        tables = len(self.base_seats) + len(setup.pending)
        tables += len(self.sizes) * len(self.rounds_left)
        self.chunk = max(1, CHUNK_SEATS // max(1, tables * width))

    def _rounds_left(self) -> list[int]:
        setup = self.setup
        if setup.format != "swiss":
            return []
        rounds = [r.round or 0 for r in setup.results] + [m.round or 0 for m in setup.pending]
        current = max([*rounds, *(bye.round for bye in setup.byes)], default=0)
        return list(range(current + 1, setup.rounds + 1))

    def _pad(self, rows: Array, fill: int) -> Array:
        rows = np.asarray(rows, dtype=np.int64)
        if rows.ndim == 2 and rows.shape[1] == self.width:
            return rows
        padded = np.full((len(rows), self.width), fill, dtype=np.int64)
        padded[:, : rows.shape[1]] = rows
        return padded

    def _lines(
        self, players: Sequence[PlayerId], orders: Sequence[Sequence[PlayerId]]
    ) -> tuple[list[list[int]], list[tuple[Fraction, ...]], list[list[int]]]:
        """Each finishing order's seats as the tally counts them: effective placements, league
        points and sole first places, in seat order."""
        withdrawn = self.setup.withdrawn
        forfeited = tuple(p in withdrawn for p in players)
        all_places, all_points, all_wins = [], [], []
        for order in orders:
            place = {player: i for i, player in enumerate(order, start=1)}
            result = MatchResult(
                0,
                tuple(
                    SeatResult(p, place[p], None, forfeited=gone)
                    for p, gone in zip(players, forfeited, strict=True)
                ),
            )
            places = effective_placements(result)
            firsts = places.count(1)
            all_places.append(list(places))
            all_points.append(self.setup.points.match_points(places, forfeited))
            all_wins.append([int(p == 1 and firsts == 1) for p in places])
        return all_places, all_points, all_wins

    def pair_chances(self) -> Array:
        """The chance that the first seat wins a pair, for every two players (by index)."""
        if self._pair_chances is None:
            self._pair_chances = pair_chances(self.players, self.win_chances, self.setup.withdrawn)
        return self._pair_chances

    # --- Simulating ---------------------------------------------------------------------------

    def simulate(self, rng: np.random.Generator, runs: int) -> "TableRuns":
        """`runs` runs of the rest of the stage: every run's tables and totals."""
        count = self.count
        rows = np.arange(runs)
        units = np.broadcast_to(self.base_units, (runs, count)).copy()
        wins = np.broadcast_to(self.base_wins, (runs, count)).copy()
        matches = np.broadcast_to(self.base_matches, (runs, count)).copy()
        byes = np.zeros((runs, count), dtype=np.int64)
        seats = [np.zeros((runs, 0, self.width), dtype=np.int64)]
        places = [np.zeros((runs, 0, self.width), dtype=np.int64)]
        if self.cumulative:
            uniforms = rng.random((runs, len(self.cumulative)))
            drawn = np.empty(uniforms.shape, dtype=np.int64)
            for m, cumulative in enumerate(self.cumulative):
                drawn[:, m] = np.searchsorted(cumulative, uniforms[:, m], side="right")
            drawn += self.order_start
            played = np.broadcast_to(self.pending_seats, (runs, *self.pending_seats.shape))
            seats.append(played)
            places.append(self.order_places[drawn])
            add_at(units, played, self.order_units[drawn])
            add_at(wins, played, self.order_wins[drawn])
            add_at(matches, played, (played < count).astype(np.int64))
        playing = np.flatnonzero(~self.withdrawn)
        for _round in self.rounds_left:
            ties = rng.random((runs, len(playing)))
            ranked = playing[np.lexsort((ties, -units[:, playing]), axis=1)]
            start = 0
            for size in self.sizes:
                seated = ranked[:, start : start + size]
                start += size
                if size == 1:
                    units[rows, seated[:, 0]] += self.bye_units
                    wins[rows, seated[:, 0]] += 1
                    byes[rows, seated[:, 0]] += 1
                    continue
                order = self._play(seated, rng.random(runs))
                table = np.full((runs, self.width), count, dtype=np.int64)
                table[:, :size] = order
                placed = np.zeros((runs, self.width), dtype=np.int64)
                placed[:, :size] = np.arange(1, size + 1)
                seats.append(table[:, None, :])
                places.append(placed[:, None, :])
                units[rows[:, None], order] += self.place_units[size]
                wins[rows, order[:, 0]] += 1
                matches[rows[:, None], order] += 1
        return TableRuns(
            units=units,
            wins=wins,
            matches=matches,
            byes=byes,
            played=(self.base_seats, self.base_places),
            seats=np.concatenate(seats, axis=1),
            places=np.concatenate(places, axis=1),
        )

    def _play(self, seated: Array, uniforms: Array) -> Array:
        """The finishing order of each run's table of `seated` players (by index)."""
        if seated.shape[1] == 2:
            first, second = seated[:, 0], seated[:, 1]
            won = uniforms < self.pair_chances()[first, second]
            return np.where(won[:, None], seated, seated[:, ::-1])
        order = np.empty_like(seated)
        players, index = self.players, self.index
        for run, (table, uniform) in enumerate(
            zip(seated.tolist(), uniforms.tolist(), strict=True)
        ):
            orders, cumulative = self.draw(tuple(players[i] for i in table), None)
            chosen = orders[int(np.searchsorted(cumulative, uniform, side="right"))]
            order[run] = [index[p] for p in chosen]
        return order

    # --- Ranking ------------------------------------------------------------------------------

    def rank(self, runs: "TableRuns") -> tuple[Array, list[Array] | None]:
        """Every run's final order (player indices, those who withdrew left out; a stage in
        groups: the order across groups) and, in groups, each group's order."""
        count = len(runs.units)
        labels = np.broadcast_to(self.start_labels, (count, self.count)).copy()
        shown: list[Array] = []
        for key in self.order:
            if issubclass(METRICS[key], GroupMetric):
                labels = self.head_to_head(labels, runs)
                continue
            values = self._values(key, runs)
            labels = refine(labels, values)
            shown.append(values)
        index = np.broadcast_to(np.arange(self.count), labels.shape)
        active = int((~self.withdrawn).sum())
        if self.setup.groups is None:
            return np.lexsort((index, labels), axis=1)[:, :active], None
        by_group = np.lexsort((index, labels), axis=1)
        sorted_labels = np.take_along_axis(labels, by_group, axis=1)
        group_sizes = np.bincount(self.group_index, minlength=self.group_count)
        starts = np.cumsum(group_sizes) - group_sizes
        block_start = np.repeat(starts, group_sizes)
        position = np.arange(self.count)
        change = np.ones(labels.shape, dtype=bool)
        change[:, 1:] = sorted_labels[:, 1:] != sorted_labels[:, :-1]
        first = np.maximum.accumulate(np.where(change, position, 0), axis=1)
        places = np.empty_like(labels)
        np.put_along_axis(places, by_group, first - block_start, axis=1)
        places = places + self.withdrawn * self.count  # those who withdrew: after everyone
        keys = (index, *(-v for v in reversed(shown)), places)
        overall = np.lexsort(keys, axis=1)[:, :active]
        groups = []
        for start, size, gone in zip(
            starts.tolist(),
            group_sizes.tolist(),
            np.bincount(self.group_index, weights=self.withdrawn, minlength=self.group_count),
            strict=True,
        ):
            groups.append(by_group[:, start : start + size - int(gone)])
        return overall, groups

    def _values(self, key: str, runs: "TableRuns") -> Array:
        """A metric for every run and player, higher first."""
        if key == "points":
            return runs.units
        if key == "wins":
            return runs.wins
        if key == "buchholz" and self._by_matrix(self.count * self.count):
            return self._buchholz_by_matrix(runs)
        if key in ("buchholz", "median_buchholz"):
            seats, _places = runs.every()
            return _buchholz(seats, runs, self.count, median=key == "median_buchholz")
        return np.broadcast_to(self.fixed[key], runs.units.shape)

    def head_to_head(self, labels: Array, runs: "TableRuns") -> Array:
        """Labels split by head-to-head among exactly the tied players, again within every part
        that split and is still tied, until none splits (`rank_standings`'s `_split_within`)."""
        sizes = part_sizes(labels)
        active = sizes > 1
        while active.any():
            tags = np.where(active, labels, -1)
            values = self._head_to_head_values(tags, runs, sizes)
            refined = refine(labels, values)
            parts = part_sizes(refined)
            active = active & (parts < sizes) & (parts > 1)
            labels, sizes = refined, parts
        return labels

    def _head_to_head_values(self, tags: Array, runs: "TableRuns", sizes: Array) -> Array:
        """Head-to-head half points among the players of each run who share a tag (-1: none):
        over every table (`_head_to_head`), or, when the tables played already are many and
        the tied parts small (a league's season), those tables' part from the matrix of who
        scored what against whom, and the simulated tables' as before."""
        widest = int(sizes[tags >= 0].max()) if (tags >= 0).any() else 1
        # A pass of the pairs in the tied parts, by offset, against one of every table played.
        if not self._by_matrix(self.count * widest, cheaper=1):
            seats, places = runs.every()
            return head_to_head(tags, seats, places, self.count)
        half = head_to_head(tags, runs.seats, runs.places, self.count)
        return half + pairs_within(tags, self.met_matrix(), widest)

    def _by_matrix(self, cost: int, cheaper: int = 8) -> bool:
        """Whether to count the tables played from a player x player matrix: `pairs_method`,
        or when its `cost` is under `cheaper` times the seats of every table played (a matrix
        product is that much quicker an entry than a gather)."""
        if self.pairs_method is not None:
            return self.pairs_method
        played = len(self.base_seats) * self.width
        return self.count <= MATRIX_PLAYERS and cost < cheaper * played

    def _buchholz_by_matrix(self, runs: "TableRuns") -> Array:
        """Buchholz in units: over the tables played, each player's opponents (a matrix of
        how often each two players met) times the run's points; over the simulated tables as
        `_buchholz` counts every table."""
        if self._opponents is None:
            count = self.count
            met = np.zeros((count + 1, count + 1))
            seats = self.base_seats
            for i in range(self.width):
                for j in range(self.width):
                    if i != j:
                        np.add.at(met, (seats[:, i], seats[:, j]), 1.0)
            self._opponents = met[:count, :count]
        played = np.rint(runs.units.astype(float) @ self._opponents.T).astype(np.int64)
        simulated = runs.matches - self.base_matches
        total: Array = played + _buchholz(
            runs.seats, runs, self.count, median=False, matches=simulated
        )
        return total

    def met_matrix(self) -> Array:
        """`met[p, q]`: the head-to-head half points player p scored against player q in the
        tables played already (2 a match placed ahead, 1 level)."""
        if self._met is None:
            count = self.count
            met = np.zeros((count + 1, count + 1), dtype=np.int64)
            seats, places = self.base_seats, self.base_places
            for i in range(self.width):
                for j in range(self.width):
                    if i != j:
                        points = 2 * (places[:, i] < places[:, j]) + (places[:, i] == places[:, j])
                        np.add.at(met, (seats[:, i], seats[:, j]), points)
            self._met = met[:count, :count]
        return self._met


class TableRuns:
    """Runs of a table stage: league points (units), wins, matches and simulated byes by run
    and player; the tables each run simulated, run x table x seat, of player indices and
    effective placements (the number of players and 0 for an empty seat), and the tables played
    already (`played`: table x seat, the same for every run)."""

    __slots__ = ("_every", "byes", "matches", "places", "played", "seats", "units", "wins")

    def __init__(
        self,
        *,
        units: Array,
        wins: Array,
        matches: Array,
        byes: Array,
        played: tuple[Array, Array],
        seats: Array,
        places: Array,
    ) -> None:
        self.units, self.wins, self.matches, self.byes = units, wins, matches, byes
        self.played, self.seats, self.places = played, seats, places
        self._every: tuple[Array, Array] | None = None

    def every(self) -> tuple[Array, Array]:
        """Every table of every run, those played first: seats and places, run x table x
        seat."""
        if self._every is None:
            runs = len(self.units)
            seats, places = (
                np.concatenate([np.broadcast_to(done, (runs, *done.shape)), simulated], axis=1)
                for done, simulated in zip(self.played, (self.seats, self.places), strict=True)
            )
            self._every = (seats, places)
        return self._every


def pair_chances(
    players: Sequence[PlayerId],
    win_chances: Callable[[frozenset[PlayerId]], Mapping[PlayerId, float]],
    withdrawn: frozenset[PlayerId],
) -> Array:
    """For every two players (by index), the chance that the first seat wins their pair: the
    ratings' (`win_chances`); a player who withdrew forfeits (two who withdrew: seat order)."""
    count = len(players)
    chances = np.ones((count, count))
    gone = [p in withdrawn for p in players]
    for a in range(count):
        for b in range(a + 1, count):
            if gone[a] or gone[b]:
                chances[a, b] = 0.0 if gone[a] and not gone[b] else 1.0
                chances[b, a] = 0.0 if gone[b] and not gone[a] else 1.0
                continue
            first = win_chances(frozenset((players[a], players[b])))[players[a]]
            chances[a, b], chances[b, a] = first, 1.0 - first
    return chances


def _per_seat(seats: Array, runs: TableRuns, players: int) -> tuple[Array, Array]:
    """Each seat's flat index into a run x (players + 1) array, and the run's units by seat."""
    count = len(runs.units)
    flat = seats + (players + 1) * np.arange(count)[:, None, None]
    units = np.concatenate([runs.units, np.zeros((count, 1), dtype=np.int64)], axis=1)
    return flat, units.ravel()[flat]


def _buchholz(
    seats: Array, runs: TableRuns, players: int, *, median: bool, matches: Array | None = None
) -> Array:
    """Buchholz (or median Buchholz) in units for every run over the tables `seats` (run x
    table x seat; `matches`: how many of them each player sat at, all their matches unless
    given), as `league.standings` defines it."""
    count = len(runs.units)
    flat, at_seat = _per_seat(seats, runs, players)
    table_units = at_seat.sum(axis=2, keepdims=True)
    summed = np.bincount(
        flat.ravel(),
        weights=np.broadcast_to(table_units, flat.shape).ravel(),
        minlength=count * (players + 1),
    )
    at_tables = np.rint(summed).astype(np.int64).reshape(count, players + 1)[:, :players]
    played = runs.matches if matches is None else matches
    buchholz: Array = at_tables - played * runs.units
    if not median:
        return buchholz
    empty = seats == players
    low, high = np.iinfo(np.int64).min, np.iinfo(np.int64).max
    best = np.full(count * (players + 1), low, dtype=np.int64)
    worst = np.full(count * (players + 1), high, dtype=np.int64)
    width = seats.shape[2]
    for seat in range(width):
        others = np.delete(np.arange(width), seat)
        their = at_seat[:, :, others]
        gone = empty[:, :, others]
        np.maximum.at(best, flat[:, :, seat].ravel(), np.where(gone, low, their).max(2).ravel())
        np.minimum.at(worst, flat[:, :, seat].ravel(), np.where(gone, high, their).min(2).ravel())
    sizes = (~empty).sum(axis=2, keepdims=True) - 1
    opponents = np.bincount(
        flat.ravel(),
        weights=np.broadcast_to(sizes, flat.shape).ravel(),
        minlength=count * (players + 1),
    ).reshape(count, players + 1)[:, :players]
    enough = opponents >= 3
    best = np.where(enough, best.reshape(count, players + 1)[:, :players], 0)
    worst = np.where(enough, worst.reshape(count, players + 1)[:, :players], 0)
    return np.where(enough, buchholz - best - worst, 0)
