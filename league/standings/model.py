"""The plain data of standings: finished match results and byes going in, one `Standing` per
player coming out. Frozen, typed, free of the database (docs/standings.md, "Data model")."""

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Literal, get_args

from league.standings.errors import StandingsError

PlayerId = int
"""A player, as the caller knows it (a player's primary key)."""

GameName = Literal["yardzee", "yardkle"]
GAMES: tuple[GameName, ...] = get_args(GameName)

MIN_SEATS = 2

FinishOrder = tuple[bool, datetime, int]


def finish_order(finished_at: datetime | None, match_id: int) -> FinishOrder:
    """A sort key for the order matches finished in: by finish time, equal times by match id,
    unknown times after all known ones."""
    if finished_at is None:
        return (True, datetime.min, match_id)
    return (False, finished_at, match_id)


@dataclass(frozen=True, slots=True)
class SeatResult:
    """One player's line in a finished match.

    `placement` is 1-based and tied players share the better place (1, 1, 3); only the order of
    placements is used, and a forfeited seat counts as last whatever its placement. `score` is
    the seat's game score, None when the player played no game at this table (a walkover, or a
    forfeit added to a table that played on): such a seat counts as a match, a win or a loss,
    but not in the scores' total, average and best.
    `yardzees` is, for Yardzee, the Yardzee box when it scored 50 (1) plus every Yardzee bonus
    (one per 100-point check mark); `upper_bonus` is 1 when the upper bonus of 35 was scored.
    `yardkles` is, for Yardkle, how many of the player's turns ended in a Yardkle."""

    player: PlayerId
    placement: int
    score: int | None
    forfeited: bool = False
    yardzees: int = 0
    upper_bonus: int = 0
    yardkles: int = 0


@dataclass(frozen=True, slots=True)
class MatchResult:
    """A finished match: its seats (in seat order) and when it finished.

    `round` is the stage round it belongs to (Swiss, round robin), None outside rounds.
    `finished_at` orders matches for ratings, with `match_id` breaking equal times; give aware
    datetimes (the database's UTC) throughout, or None for all when the time is unknown."""

    match_id: int
    seats: tuple[SeatResult, ...]
    round: int | None = None
    finished_at: datetime | None = None

    @property
    def order_key(self) -> FinishOrder:
        """Where the match comes in the order matches finished (`finish_order`)."""
        return finish_order(self.finished_at, self.match_id)


@dataclass(frozen=True, slots=True)
class Bye:
    """Player `player` had no table in round `round` of stage `stage`: it counts as a win.

    `table_size` is the stage's usual table size: a bye is worth the first-place points of such a
    table (the win points when it is 2). `stage` tells byes of the same round number in
    different stages apart (in a league table across events)."""

    player: PlayerId
    round: int
    table_size: int
    stage: int | None = None

    @property
    def key(self) -> tuple[int | None, int, PlayerId]:
        """What makes a bye unique: the same bye given twice counts once."""
        return (self.stage, self.round, self.player)


@dataclass(frozen=True, slots=True)
class Standing:
    """One player's line of a standings table.

    `rank` is shared by players equal on every metric of the tiebreak order (1, 1, 3).
    `wins` counts sole first places and byes; `draws` shared first places.
    `placements[i]` is how many matches the player finished in place i + 1 (byes not included).
    `points` are league points. The game counts are None when the game does not have them.
    `metrics` holds the value of every metric of the tiebreak order, in that order; a
    head-to-head value is None for a player who was not tied when it applied.
    `group` is the group the player was ranked in (a stage played in groups: `rank` is then
    the place within the group), None for a table ranked as one. `withdrawn`: the player has
    withdrawn from the stage, and is ranked after those still playing."""

    player: PlayerId
    rank: int
    matches: int
    wins: int
    draws: int
    byes: int
    forfeits: int
    placements: tuple[int, ...]
    points: float
    total_score: int
    average_score: float
    best_score: int | None
    yardzees: int | None
    upper_bonuses: int | None
    yardkles: int | None
    metrics: Mapping[str, float | None]
    group: int | None = None
    withdrawn: bool = False


def check_game(game: str) -> GameName:
    """`game` as a `GameName`, or a `StandingsError` naming the games there are."""
    for name in GAMES:
        if game == name:
            return name
    raise StandingsError("unknown_game", f"Unknown game {game!r}: use one of {', '.join(GAMES)}.")


def check_result(result: MatchResult) -> None:
    """A `StandingsError` unless `result` has two or more seats, each player once, each
    placement from 1 to the number of seats."""
    seats = result.seats
    if len(seats) < MIN_SEATS:
        raise StandingsError(
            "invalid_result", f"Match {result.match_id} has {len(seats)} seat(s), not 2 or more."
        )
    if len({seat.player for seat in seats}) != len(seats):
        raise StandingsError("invalid_result", f"Match {result.match_id} seats a player twice.")
    for seat in seats:
        if not 1 <= seat.placement <= len(seats):
            raise StandingsError(
                "invalid_result",
                f"Match {result.match_id}: placement {seat.placement} of player {seat.player} "
                f"is not from 1 to {len(seats)}.",
            )


def effective_placements(result: MatchResult) -> tuple[int, ...]:
    """Each seat's place as standings and ratings count it, in seat order
    (docs/standings.md, "Placements and forfeits").

    Seats that did not forfeit are ranked among themselves by their placements, ties sharing the
    better place (1, 1, 3); every forfeited seat takes the last place of the table."""
    seats = result.seats
    last = len(seats)
    playing = [seat.placement for seat in seats if not seat.forfeited]
    return tuple(
        last if seat.forfeited else 1 + sum(1 for other in playing if other < seat.placement)
        for seat in seats
    )
