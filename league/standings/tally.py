"""The tally: running totals per player, plus who sat at each table and where they finished,
from which every standings metric is computed (docs/standings.md, "The tally").

One pass over the results fills it; metrics then work on the tally, never on the results again.
Every total is a sum, a count or a maximum, and tables are kept by match id, so adding results in
any order, or the same match twice, gives the same tally: a stored tally plus one more result
equals a tally built from scratch. League points are kept as integer units of 1/`scale`, so sums
stay exact.

Who sat where is kept as columns (NumPy arrays, one row per table): the opponent metrics
(Buchholz, head-to-head) over 20,000 tables are then a few array operations, not a Python loop,
and a stored tally of that size reads back in milliseconds."""

import base64
import math
from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction
from itertools import islice
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from league.standings.errors import StandingsError
from league.standings.model import (
    MIN_SEATS,
    Bye,
    GameName,
    MatchResult,
    PlayerId,
    SeatResult,
    check_game,
    check_result,
    effective_placements,
)
from league.standings.points import LeaguePoints
from league.standings.seating import Column, Seating, distinct_rows, ranks_within

TALLY_VERSION: Final = 3


_COUNTS: Final = (
    "matches",
    "wins",
    "draws",
    "byes",
    "forfeits",
    "points_units",
    "scored",
    "total_score",
    "yardzees",
    "upper_bonuses",
    "yardkles",
)

# One seat's share of a match: effective placement, points in units, sole first, shared first.
_SeatLine = tuple[int, int, bool, bool]

_SEATING: Final = ("match_ids", "sizes", "players", "places")
_STORED_TYPES: Final = ("|i1", "<i2", "<i4", "<i8")  # little-endian, whatever the machine
# A seat's columns in `add_seat_columns` (after the match id), as `SeatResult` names them.
_SEAT: Final = ("player", "placement", "score", "yardzees", "upper_bonus", "yardkles")
# Fewer tables than this are counted one by one (`add_result`): the array operations of a
# batch cost more than that below it (one more result: 0.7 ms against 0.03 ms).
FEW_TABLES: Final = 16


def _encode(column: Column) -> dict[str, str]:
    """A column as base64 of little-endian integers, as narrow as its values allow
    (`_decode` reads it back)."""
    low, high = (int(column.min()), int(column.max())) if len(column) else (0, 0)
    dtype = next(
        kind
        for kind in _STORED_TYPES
        if np.iinfo(np.dtype(kind)).min <= low and high <= np.iinfo(np.dtype(kind)).max
    )
    return {"dtype": dtype, "data": base64.b64encode(column.astype(dtype).tobytes()).decode()}


def _decode(stored: Mapping[str, str]) -> Column:
    dtype = stored["dtype"]
    if dtype not in _STORED_TYPES:
        raise StandingsError("invalid_tally", f"Unknown stored column type {dtype!r}.")
    raw = base64.b64decode(stored["data"], validate=True)
    return np.frombuffer(raw, dtype=dtype).astype(np.int64)


class PlayerTally:
    """One player's running totals. `placements[i]` counts matches finished in place i + 1
    (byes not included); `points_units` are league points times the tally's `scale`; `wins`
    counts sole first places and byes, `draws` shared first places; `scored` counts the
    matches with a game score (not walkovers, nor forfeits of a table that played on), which
    `total_score` and `best_score` are of."""

    __slots__ = (
        "best_score",
        "byes",
        "draws",
        "forfeits",
        "matches",
        "placements",
        "points_units",
        "scored",
        "total_score",
        "upper_bonuses",
        "wins",
        "yardkles",
        "yardzees",
    )

    def __init__(self) -> None:
        self.matches = 0
        self.wins = 0
        self.draws = 0
        self.byes = 0
        self.forfeits = 0
        self.placements: list[int] = []
        self.points_units = 0
        self.scored = 0
        self.total_score = 0
        self.best_score: int | None = None
        self.yardzees = 0
        self.upper_bonuses = 0
        self.yardkles = 0

    @property
    def average_score(self) -> float:
        """The mean game score of the matches with one (0.0 with none)."""
        return self.total_score / self.scored if self.scored else 0.0


class Tally:
    """The running totals of one standings table (a stage, an event or a whole league).

    Add results, byes and players in any order; a match id or a bye seen before is ignored.
    A result that changes (undone, voided, corrected) needs a tally built afresh."""

    def __init__(self, *, game: str, points: LeaguePoints | None = None) -> None:
        self.game: GameName = check_game(game)
        self.points = points if points is not None else LeaguePoints()
        self.scale = 1
        self.records: dict[PlayerId, PlayerTally] = {}
        self.bye_keys: set[tuple[int | None, int, PlayerId]] = set()
        self._match_ids: set[int] = set()
        # Seating in columns: what was read back (arrays), then what was added since (lists).
        # Both in the order of _SEATING.
        self._stored: tuple[Column, ...] = tuple(np.zeros(0, np.int64) for _ in _SEATING)
        self._added: tuple[list[int], ...] = tuple([] for _ in _SEATING)
        # The arrays `_stored` are the first entries of, with room for more (`_append`); None
        # until something is appended to what was read back.
        self._room: tuple[Column, ...] | None = None
        self._seating: Seating | None = None
        # Seat lines by the match's (placement, forfeited) pattern: a league has only a few.
        self._lines: dict[tuple[tuple[int, bool], ...], tuple[_SeatLine, ...]] = {}

    @property
    def players(self) -> tuple[PlayerId, ...]:
        """Every player of the table, by id."""
        return tuple(sorted(self.records))

    @property
    def match_ids(self) -> frozenset[int]:
        """The ids of every match counted."""
        return frozenset(self._match_ids)

    def match_id_column(self) -> Column:
        """The ids of every match counted, as an array (in no particular order)."""
        return self._columns()[0]

    def tables_since(self, count: int) -> tuple[Column, Column, Column]:
        """The sizes, players and effective placements of the tables counted after the first
        `count` (tables are kept in the order they were counted)."""
        _, sizes, players, places = self._columns()
        seats = int(sizes[:count].sum())
        return sizes[count:], players[seats:], places[seats:]

    def league_points(self, player: PlayerId) -> float:
        """`player`'s league points."""
        return self.records[player].points_units / self.scale

    def seating(self) -> Seating:
        """Who sat at every counted table, as arrays (built once per change of the tally)."""
        if self._seating is None:
            _, sizes, players, places = self._columns()
            ids = np.array(sorted(self.records), dtype=np.int64)
            width = int(sizes.max()) if len(sizes) else 0
            filled = np.arange(width) < sizes[:, None]
            seats = np.full((len(sizes), width), len(ids), dtype=np.int64)
            seats[filled] = np.searchsorted(ids, players)
            placed = np.zeros((len(sizes), width), dtype=np.int64)
            placed[filled] = places
            self._seating = Seating(ids, seats, placed, sizes)
        return self._seating

    def _columns(self) -> tuple[Column, ...]:
        """The seating columns (in the order of _SEATING), what was added folded into what was
        stored."""
        if self._added[0]:
            self._append([np.array(added, dtype=np.int64) for added in self._added])
            self._added = tuple([] for _ in _SEATING)
        return self._stored

    def _append(self, columns: Sequence[Column]) -> None:
        """Append to the seating columns (in the order of _SEATING), in arrays that grow by
        doubling: one more result copies its own seats, not every table's."""
        stored, room = self._stored, self._room
        ends = [len(column) + len(new) for column, new in zip(stored, columns, strict=True)]
        if room is None or any(end > len(space) for end, space in zip(ends, room, strict=True)):
            room = self._room = tuple(
                np.empty(max(end, 2 * len(column)), dtype=np.int64)
                for end, column in zip(ends, stored, strict=True)
            )
            for column, space in zip(stored, room, strict=True):
                space[: len(column)] = column
        for column, new, space, end in zip(stored, columns, room, ends, strict=True):
            space[len(column) : end] = new
        self._stored = tuple(space[:end] for space, end in zip(room, ends, strict=True))

    def add_player(self, player: PlayerId) -> None:
        """Enter `player` in the table, with no result yet (entered players show with zeros)."""
        if player not in self.records:
            self.records[player] = PlayerTally()
            self._seating = None

    def add_results(self, results: Iterable[MatchResult]) -> None:
        """Add every result of `results` (see `add_result`)."""
        for result in results:
            self.add_result(result)

    def add_result(self, result: MatchResult) -> bool:
        """Count one finished match; False (and nothing changes) when its id was counted already.
        A `StandingsError` when the result is malformed (`check_result`)."""
        match_id = result.match_id
        if match_id in self._match_ids:
            return False
        seats = result.seats
        pattern = tuple([(seat.placement, seat.forfeited) for seat in seats])
        lines = self._lines.get(pattern)
        players = [seat.player for seat in seats]
        if lines is None or len(set(players)) != len(players):
            check_result(result)  # a known pattern has valid placements; only players can clash
            lines = self._seat_lines(result, pattern)
        records = self.records
        for seat, player, (place, units, sole_first, shared_first) in zip(
            seats, players, lines, strict=True
        ):
            record = records.get(player)
            if record is None:
                record = records[player] = PlayerTally()
            record.matches += 1
            record.points_units += units
            record.wins += sole_first
            record.draws += shared_first
            record.forfeits += seat.forfeited
            placements = record.placements
            if len(placements) < place:
                placements.extend([0] * (place - len(placements)))
            placements[place - 1] += 1
            score = seat.score
            if score is not None:
                record.scored += 1
                record.total_score += score
                if record.best_score is None or score > record.best_score:
                    record.best_score = score
            record.yardzees += seat.yardzees
            record.upper_bonuses += seat.upper_bonus
            record.yardkles += seat.yardkles
        self._match_ids.add(match_id)
        added_ids, added_sizes, added_players, added_places = self._added
        added_ids.append(match_id)
        added_sizes.append(len(players))
        added_players.extend(players)
        added_places.extend([line[0] for line in lines])
        self._seating = None
        return True

    def add_seat_columns(
        self,
        match_ids: npt.ArrayLike,
        players: npt.ArrayLike,
        placements: npt.ArrayLike,
        scores: npt.ArrayLike,
        yardzees: npt.ArrayLike,
        upper_bonuses: npt.ArrayLike,
        yardkles: npt.ArrayLike,
    ) -> int:
        """Count many finished matches at once, given as columns with one entry per seat: the
        seats of a match next to each other, in seat order. Each match counts as `add_result`
        of `MatchResult(match_id, (SeatResult(player, placement, score, yardzees=...,
        upper_bonus=..., yardkles=...), ...))` would: a score at every seat and no forfeit
        (give matches with a forfeit to `add_result`). Matches counted before are ignored; how
        many were new. A `StandingsError` (`check_result`'s) for a malformed match.

        The batch is counted with array operations, not a Python call per match: 20,000
        tables cost milliseconds, not a fifth of a second."""
        ids = np.asarray(match_ids, dtype=np.int64)
        seat_columns = [
            np.asarray(column, dtype=np.int64)
            for column in (players, placements, scores, yardzees, upper_bonuses, yardkles)
        ]
        if ids.ndim != 1 or any(column.shape != ids.shape for column in seat_columns):
            raise StandingsError("invalid_result", "The seat columns do not line up.")
        if not len(ids):
            return 0
        first = np.ones(len(ids), dtype=bool)
        first[1:] = ids[1:] != ids[:-1]
        starts = np.flatnonzero(first)
        table_ids = ids[starts]
        sizes = np.diff(np.append(starts, len(ids)))
        if len(np.unique(table_ids)) != len(table_ids):
            raise StandingsError("invalid_result", "The seats of a match must be side by side.")
        if self._match_ids:
            known = self._match_ids  # a set: no array of every counted id for a few new ones
            new = np.fromiter(
                (match_id not in known for match_id in table_ids.tolist()), bool, len(table_ids)
            )
            if not new.all():
                seat_is_new = np.repeat(new, sizes)
                seat_columns = [column[seat_is_new] for column in seat_columns]
                table_ids, sizes = table_ids[new], sizes[new]
                if not len(table_ids):
                    return 0
        if len(table_ids) < FEW_TABLES:
            self._add_few(table_ids, sizes, seat_columns)
        else:
            self._add_tables(table_ids, sizes, *seat_columns)
        return len(table_ids)

    def _add_few(self, table_ids: Column, sizes: Column, seat_columns: list[Column]) -> None:
        """`add_seat_columns` of a few tables not counted yet, each as `add_result` counts it:
        every one checked before any is counted."""
        seats = zip(*(column.tolist() for column in seat_columns), strict=True)
        results = [
            MatchResult(
                match_id=match_id,
                seats=tuple(
                    SeatResult(**dict(zip(_SEAT, seat, strict=True)))
                    for seat in islice(seats, size)
                ),
            )
            for match_id, size in zip(table_ids.tolist(), sizes.tolist(), strict=True)
        ]
        for result in results:
            check_result(result)
        self.add_results(results)

    def _add_tables(
        self,
        table_ids: Column,
        sizes: Column,
        players: Column,
        placements: Column,
        scores: Column,
        yardzees: Column,
        upper_bonuses: Column,
        yardkles: Column,
    ) -> None:
        """`add_seat_columns` for tables not counted yet (`sizes[t]` seats of match
        `table_ids[t]`)."""
        count, width = len(sizes), int(sizes.max())
        rows = np.repeat(np.arange(count), sizes)
        columns_at = ranks_within(sizes)
        placed = np.zeros((count, width), dtype=np.int64)  # 0: no seat
        placed[rows, columns_at] = placements
        seated = np.full((count, width), -1, dtype=np.int64)
        seated[rows, columns_at] = players
        by_player = np.sort(seated, axis=1)
        clash = ((by_player[:, 1:] == by_player[:, :-1]) & (by_player[:, 1:] >= 0)).any(axis=1)
        bad = (sizes < MIN_SEATS) | clash
        bad |= np.logical_or.reduceat(
            (placements < 1) | (placements > np.repeat(sizes, sizes)), np.cumsum(sizes) - sizes
        )
        if bad.any():  # check_result says what is wrong with the first one
            t = int(np.flatnonzero(bad)[0])
            check_result(
                _result_of(int(table_ids[t]), seated[t, : sizes[t]], placed[t, : sizes[t]])
            )
            raise StandingsError("invalid_result", f"Match {table_ids[t]} is malformed.")
        # One seat line per distinct pattern of placements (a league has only a few).
        patterns, pattern_of = distinct_rows(placed)
        keys = [
            tuple((int(place), False) for place in pattern if place)
            for pattern in patterns.tolist()
        ]
        scale = None
        while scale != self.scale:  # a finer scale met midway makes every line again
            scale = self.scale
            lines = [
                self._lines.get(key)
                or self._seat_lines(
                    _result_of(0, range(len(key)), [place for place, _ in key]), key
                )
                for key in keys
            ]
        line_columns = np.zeros((len(keys), 4, width), dtype=np.int64)
        for index, line in enumerate(lines):
            line_columns[index, :, : len(line)] = np.array(line, dtype=np.int64).T
        per_seat = line_columns[pattern_of][rows, :, columns_at]  # seats x (place, units, ...)
        places, units, sole_first, shared_first = per_seat.T
        ids, player_of = np.unique(players, return_inverse=True)
        player_of = player_of.ravel()
        order = np.argsort(player_of, kind="stable")
        run_starts = np.flatnonzero(np.r_[True, np.diff(player_of[order]) != 0])

        def summed(values: Column) -> list[int]:
            return np.add.reduceat(values[order], run_starts).tolist()  # type: ignore[no-any-return]

        matches = np.bincount(player_of, minlength=len(ids)).tolist()
        totals = zip(
            ids.tolist(),
            matches,
            summed(units),
            summed(sole_first),
            summed(shared_first),
            summed(scores),
            np.maximum.reduceat(scores[order], run_starts).tolist(),
            summed(yardzees),
            summed(upper_bonuses),
            summed(yardkles),
            np.bincount(player_of * width + places - 1, minlength=len(ids) * width)
            .reshape(len(ids), width)
            .tolist(),
            strict=True,
        )
        records = self.records
        for player, played, points, wins, draws, total, best, zees, bonuses, kles, at in totals:
            record = records.get(player)
            if record is None:
                record = records[player] = PlayerTally()
            record.matches += played
            record.points_units += points
            record.wins += wins
            record.draws += draws
            record.scored += played
            record.total_score += total
            if record.best_score is None or best > record.best_score:
                record.best_score = best
            record.yardzees += zees
            record.upper_bonuses += bonuses
            record.yardkles += kles
            while at and not at[-1]:
                at.pop()
            counts = record.placements
            if len(counts) < len(at):
                counts.extend([0] * (len(at) - len(counts)))
            for index, value in enumerate(at):
                counts[index] += value
        self._columns()
        self._append((table_ids, sizes, players, places))
        self._match_ids.update(table_ids.tolist())
        self._seating = None

    def add_bye(self, bye: Bye) -> bool:
        """Count one bye as a win worth the first place's points at a table of the stage's usual
        size; False when this bye was counted already."""
        if bye.key in self.bye_keys:
            return False
        units = self._units([self.points.bye_points(bye.table_size)])[0]
        self.bye_keys.add(bye.key)
        self.add_player(bye.player)
        record = self.records[bye.player]
        record.byes += 1
        record.wins += 1
        record.points_units += units
        return True

    def _seat_lines(
        self, result: MatchResult, pattern: tuple[tuple[int, bool], ...]
    ) -> tuple[_SeatLine, ...]:
        placements = effective_placements(result)
        forfeited = [gave_up for _, gave_up in pattern]
        units = self._units(self.points.match_points(placements, forfeited))
        firsts = placements.count(1)
        lines = tuple(
            (place, unit, place == 1 and firsts == 1, place == 1 and firsts > 1)
            for place, unit in zip(placements, units, strict=True)
        )
        self._lines[pattern] = lines
        return lines

    def _units(self, values: Iterable[Fraction]) -> list[int]:
        """`values` in units of 1/`scale`, first making the scale fine enough for all of them."""
        values = list(values)
        factor = math.lcm(*((value * self.scale).denominator for value in values))
        if factor != 1:
            self.scale *= factor
            for record in self.records.values():
                record.points_units *= factor
            self._lines.clear()  # their units were in the old scale
        return [int(value * self.scale) for value in values]

    def to_json(self) -> dict[str, Any]:
        """The whole tally as JSON, for a service to store and later `from_json` plus one more
        result. The tiebreak order is not part of it: ranking is done afresh from the tally.
        Seating and the players' totals are stored as columns, seating as base64 integers
        (tables by match id): 20,000 tables read back in milliseconds, not tens of them."""
        match_ids, sizes, players, places = self._columns()
        if (np.diff(match_ids) < 0).any():  # canonical: tables by match id
            order = np.argsort(match_ids, kind="stable")
            starts = np.cumsum(sizes) - sizes
            seat_rows = np.repeat(starts[order], sizes[order]) + ranks_within(sizes[order])
            match_ids, sizes, players, places = (
                match_ids[order],
                sizes[order],
                players[seat_rows],
                places[seat_rows],
            )
        columns = {"match_ids": match_ids, "sizes": sizes, "players": players, "places": places}
        return {
            "version": TALLY_VERSION,
            "game": self.game,
            "points": self.points.to_json(),
            "scale": self.scale,
            "tables": {name: _encode(column) for name, column in columns.items()},
            "byes": sorted(
                ([stage, round_, player] for stage, round_, player in self.bye_keys),
                key=lambda key: (key[0] is None, key[0] or 0, key[1], key[2]),
            ),
            "players": self._records_json(),
        }

    def _records_json(self) -> dict[str, list[Any]]:
        """The players' totals, one list per total (players by id)."""
        players = self.players
        records = [self.records[player] for player in players]
        columns: dict[str, list[Any]] = {"player": list(players)}
        for name in (*_COUNTS, "best_score"):
            columns[name] = [getattr(record, name) for record in records]
        columns["placements"] = [list(record.placements) for record in records]
        return columns

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> "Tally":
        """A tally stored by `to_json`; a `StandingsError` ("invalid_tally") when it cannot be read
        back (then build the tally afresh from the results)."""
        try:
            if data["version"] != TALLY_VERSION:
                raise StandingsError(
                    "invalid_tally", f"Tally version {data['version']!r} is not {TALLY_VERSION}."
                )
            tally = cls(game=data["game"], points=LeaguePoints.from_json(data["points"]))
            tally.scale = int(data["scale"])
            stored = data["players"]
            totals = [stored[name] for name in ("player", *_COUNTS, "best_score", "placements")]
            if len({len(column) for column in totals}) > 1:
                raise StandingsError("invalid_tally", "The stored totals do not line up.")
            for player, *counts, best, placements in zip(*totals, strict=True):
                record = PlayerTally()
                for name, count in zip(_COUNTS, counts, strict=True):
                    setattr(record, name, int(count))
                record.best_score = None if best is None else int(best)
                record.placements = [int(count) for count in placements]
                tally.records[int(player)] = record
            match_ids, sizes, players, places = (_decode(data["tables"][n]) for n in _SEATING)
            _check_seating(tally, match_ids, sizes, players, places)
            tally._stored = (match_ids, sizes, players, places)
            tally._match_ids = set(match_ids.tolist())
            tally.bye_keys = {
                (None if stage is None else int(stage), int(round_), int(player))
                for stage, round_, player in data["byes"]
            }
        except StandingsError as error:
            if error.code == "invalid_tally":
                raise
            raise StandingsError("invalid_tally", f"Stored tally: {error.message}") from error
        except (KeyError, TypeError, ValueError, AttributeError) as error:
            raise StandingsError(
                "invalid_tally", f"Stored tally is malformed: {error!r}."
            ) from error
        return tally


def _result_of(match_id: int, players: Iterable[int], placements: Iterable[int]) -> MatchResult:
    """A match of seats with a score and no forfeit, to check or to make seat lines of."""
    return MatchResult(
        match_id=match_id,
        seats=tuple(
            SeatResult(player=int(player), placement=int(place), score=0)
            for player, place in zip(players, placements, strict=True)
        ),
    )


def _check_seating(
    tally: Tally, match_ids: Column, sizes: Column, players: Column, places: Column
) -> None:
    """An `invalid_tally` error unless the stored columns describe tables of known players."""
    if len(sizes) != len(match_ids) or not len(players) == len(places) == int(sizes.sum()):
        raise StandingsError("invalid_tally", "The stored tables' columns do not line up.")
    if len(set(match_ids.tolist())) != len(match_ids):
        raise StandingsError("invalid_tally", "A match is stored twice.")
    if len(sizes) and (
        sizes.min() < MIN_SEATS or places.min() < 1 or (places > np.repeat(sizes, sizes)).any()
    ):
        raise StandingsError("invalid_tally", "A stored table has impossible seats.")
    known = np.array(sorted(tally.records), dtype=np.int64)
    if not np.isin(players, known).all():
        raise StandingsError("invalid_tally", "A stored table seats a player with no totals.")
