"""The tally: running totals per player, plus who sat at each table and where they finished,
from which every standings metric is computed (docs/standings.md, "The tally").

One pass over the results fills it; metrics then work on the tally, never on the results again.
Every total is a sum, a count or a maximum, and tables are kept by match id, so adding results in
any order, or the same match twice, gives the same tally: a stored tally plus one more result
equals a tally built from scratch. League points are kept as integer units of 1/`scale`, so sums
stay exact."""

import math
from collections.abc import Iterable, Mapping
from fractions import Fraction
from typing import Any, Final

from league.standings.errors import StandingsError
from league.standings.model import (
    Bye,
    GameName,
    MatchResult,
    PlayerId,
    check_game,
    check_result,
    effective_placements,
)
from league.standings.points import LeaguePoints

TALLY_VERSION: Final = 1

_COUNTS: Final = (
    "matches",
    "wins",
    "draws",
    "byes",
    "forfeits",
    "points_units",
    "total_score",
    "yardzees",
    "upper_bonuses",
    "yardkles",
)

# One seat's share of a match: effective placement, points in units, sole first, shared first.
_SeatLine = tuple[int, int, bool, bool]


class PlayerTally:
    """One player's running totals. `placements[i]` counts matches finished in place i + 1
    (byes not included); `points_units` are league points times the tally's `scale`; `wins`
    counts sole first places and byes, `draws` shared first places."""

    __slots__ = (
        "best_score",
        "byes",
        "draws",
        "forfeits",
        "matches",
        "placements",
        "points_units",
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
        self.total_score = 0
        self.best_score: int | None = None
        self.yardzees = 0
        self.upper_bonuses = 0
        self.yardkles = 0

    def to_json(self) -> dict[str, Any]:
        """The totals as JSON."""
        data: dict[str, Any] = {name: getattr(self, name) for name in _COUNTS}
        data["placements"] = list(self.placements)
        data["best_score"] = self.best_score
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> "PlayerTally":
        """Totals stored by `to_json`."""
        record = cls()
        for name in _COUNTS:
            setattr(record, name, int(data[name]))
        record.placements = [int(count) for count in data["placements"]]
        best = data["best_score"]
        record.best_score = None if best is None else int(best)
        return record


class Table:
    """Who sat at one finished match (in seat order) and their effective placements: what
    opponent metrics (Buchholz, head-to-head) need of a match."""

    __slots__ = ("placements", "players")

    def __init__(self, players: tuple[PlayerId, ...], placements: tuple[int, ...]) -> None:
        self.players = players
        self.placements = placements


class Tally:
    """The running totals of one standings table (a stage, an event or a whole league).

    Add results, byes and players in any order; a match id or a bye seen before is ignored.
    A result that changes (undone, voided, corrected) needs a tally built afresh."""

    def __init__(self, *, game: str, points: LeaguePoints | None = None) -> None:
        self.game: GameName = check_game(game)
        self.points = points if points is not None else LeaguePoints()
        self.scale = 1
        self.records: dict[PlayerId, PlayerTally] = {}
        self.tables: dict[int, Table] = {}
        self.bye_keys: set[tuple[int | None, int, PlayerId]] = set()
        # Seat lines by the match's (placement, forfeited) pattern: a league has only a few.
        self._lines: dict[tuple[tuple[int, bool], ...], tuple[_SeatLine, ...]] = {}
        self._tables_of: dict[PlayerId, list[Table]] | None = None

    @property
    def players(self) -> tuple[PlayerId, ...]:
        """Every player of the table, by id."""
        return tuple(sorted(self.records))

    def league_points(self, player: PlayerId) -> float:
        """`player`'s league points."""
        return self.records[player].points_units / self.scale

    def tables_of(self, player: PlayerId) -> list[Table]:
        """The tables `player` sat at (an index built once, on first use)."""
        if self._tables_of is None:
            index: dict[PlayerId, list[Table]] = {player: [] for player in self.records}
            for table in self.tables.values():
                for seated in table.players:
                    index[seated].append(table)
            self._tables_of = index
        return self._tables_of[player]

    def add_player(self, player: PlayerId) -> None:
        """Enter `player` in the table, with no result yet (entered players show with zeros)."""
        if player not in self.records:
            self.records[player] = PlayerTally()
            self._tables_of = None

    def add_results(self, results: Iterable[MatchResult]) -> None:
        """Add every result of `results` (see `add_result`)."""
        for result in results:
            self.add_result(result)

    def add_result(self, result: MatchResult) -> bool:
        """Count one finished match; False (and nothing changes) when its id was counted already.
        A `StandingsError` when the result is malformed (`check_result`)."""
        match_id = result.match_id
        if match_id in self.tables:
            return False
        seats = result.seats
        pattern = tuple([(seat.placement, seat.forfeited) for seat in seats])
        lines = self._lines.get(pattern)
        players = tuple([seat.player for seat in seats])
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
            record.total_score += score
            if record.best_score is None or score > record.best_score:
                record.best_score = score
            record.yardzees += seat.yardzees
            record.upper_bonuses += seat.upper_bonus
            record.yardkles += seat.yardkles
        self.tables[match_id] = Table(players, tuple([line[0] for line in lines]))
        self._tables_of = None
        return True

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
        result. The tiebreak order is not part of it: ranking is done afresh from the tally."""
        return {
            "version": TALLY_VERSION,
            "game": self.game,
            "points": self.points.to_json(),
            "scale": self.scale,
            "tables": [
                [match_id, list(table.players), list(table.placements)]
                for match_id, table in sorted(self.tables.items())
            ],
            "byes": sorted(
                ([stage, round_, player] for stage, round_, player in self.bye_keys),
                key=lambda key: (key[0] is None, key[0] or 0, key[1], key[2]),
            ),
            "players": [
                {"player": player, **self.records[player].to_json()} for player in self.players
            ],
        }

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
            for entry in data["players"]:
                tally.records[int(entry["player"])] = PlayerTally.from_json(entry)
            for match_id, players, placements in data["tables"]:
                seated = tuple(int(player) for player in players)
                places = tuple(int(place) for place in placements)
                if len(places) != len(seated) or any(p not in tally.records for p in seated):
                    raise StandingsError(
                        "invalid_tally", f"Match {match_id} does not match the players' totals."
                    )
                tally.tables[int(match_id)] = Table(seated, places)
            tally.bye_keys = {
                (None if stage is None else int(stage), int(round_), int(player))
                for stage, round_, player in data["byes"]
            }
        except StandingsError as error:
            if error.code == "invalid_tally":
                raise
            raise StandingsError("invalid_tally", f"Stored tally: {error.message}") from error
        except (KeyError, TypeError, ValueError) as error:
            raise StandingsError(
                "invalid_tally", f"Stored tally is malformed: {error!r}."
            ) from error
        return tally
