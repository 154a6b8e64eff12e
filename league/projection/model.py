"""The plain data of a stage projection: the stage as it stands going in, each player's chances
coming out (docs/analysis.md, "Chance to qualify")."""

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from league.draw import Bracket, SlotResult
from league.standings import Bye, LeaguePoints, MatchResult, PlayerId

FormatName = Literal["round_robin", "swiss", "single_elimination", "double_elimination"]
FORMATS: tuple[FormatName, ...] = (
    "round_robin",
    "swiss",
    "single_elimination",
    "double_elimination",
)

# 2,100 runs: the standard error of a chance is at most sqrt(0.25 / 2100) = 1.09 points.
DEFAULT_RUNS = 2100


def standard_error(runs: int) -> float:
    """The largest standard error of a chance estimated from `runs` runs (that of a chance of
    one half), as a fraction: sqrt(1/4 / runs)."""
    return math.sqrt(0.25 / runs)


@dataclass(frozen=True, slots=True)
class Pending:
    """A match still to be played (or being played) whose players are known, in seat order:
    a round robin's, or one of the current Swiss round. `match_id` is the game's id, which an
    outcome override names."""

    match_id: int
    players: tuple[PlayerId, ...]
    round: int | None = None


@dataclass(frozen=True, slots=True)
class Qualifying:
    """Who goes on to the next stage (the fed stage's `source_top`, or `source_per_group` plus
    `source_best_rest`): docs/draw.md, "Round robin and groups"."""

    top: int = 0
    per_group: int = 0
    best_rest: int = 0


@dataclass(frozen=True, slots=True)
class StageSetup:
    """A running stage as the simulator takes it.

    `players` are its entrants in seed order (seed 1 first); `results` and `byes` what counts in
    its standings so far (as `league.results.load_results` gives them); `pending` the matches
    whose players are known and that have no result (round robin: every one left; Swiss: the
    current round's); `rounds` the Swiss rounds in all, the later ones drawn by the simulator.
    An elimination stage gives its `bracket` and the decided slots' `slot_results`, and
    `slot_matches` (slot key to match id) for slots being played, so that an override applies.
    `groups`: player to group, for a round robin played in groups; `withdrawn` players forfeit
    what they have left. `qualifying`: who goes on, None when no stage takes players from it."""

    format: FormatName
    game: str
    players: tuple[PlayerId, ...]
    tiebreak: tuple[str, ...]
    points: LeaguePoints = field(default_factory=LeaguePoints)
    table_size: int = 2
    results: tuple[MatchResult, ...] = ()
    byes: tuple[Bye, ...] = ()
    pending: tuple[Pending, ...] = ()
    rounds: int = 0
    stage_id: int | None = None
    groups: Mapping[PlayerId, int] | None = None
    withdrawn: frozenset[PlayerId] = frozenset()
    bracket: Bracket | None = None
    slot_results: Mapping[str, SlotResult] = field(default_factory=dict)
    slot_matches: Mapping[str, int] = field(default_factory=dict)
    qualifying: Qualifying | None = None


@dataclass(frozen=True, slots=True)
class PlayerChances:
    """One player's chances: `places[i]` to finish in place i + 1 (within their group for a
    stage played in groups; no place shared), `qualify` to go on to the next stage (None when no
    stage takes players from this one), `win` to come first in the stage's final order."""

    player: PlayerId
    places: tuple[float, ...]
    qualify: float | None
    win: float

    def to_json(self) -> dict[str, Any]:
        return {
            "player": self.player,
            "places": list(self.places),
            "qualify": self.qualify,
            "win": self.win,
        }


@dataclass(frozen=True, slots=True)
class Projection:
    """The chances of every player of a stage (in seed order) from `runs` simulated runs of the
    rest of it with random seed `seed`; every chance has a standard error of at most
    `standard_error` (a fraction)."""

    runs: int
    seed: int
    players: tuple[PlayerChances, ...]

    @property
    def standard_error(self) -> float:
        return standard_error(self.runs)

    def of(self, player: PlayerId) -> PlayerChances:
        """The chances of `player` (KeyError when not in the stage)."""
        for chances in self.players:
            if chances.player == player:
                return chances
        raise KeyError(player)

    def to_json(self) -> dict[str, Any]:
        return {
            "runs": self.runs,
            "seed": self.seed,
            "standard_error": round(self.standard_error, 6),
            "players": [chances.to_json() for chances in self.players],
        }
