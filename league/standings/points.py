"""League points: what a match, a forfeit or a bye is worth (docs/standings.md, "League points").

Pairs (two seats) score win/draw/loss; tables of three or more score by placement, tied players
sharing the average of the places they tie for. Points are exact fractions here, so sums never
depend on the order results are added in."""

import math
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import pairwise
from types import MappingProxyType
from typing import Any

from league.standings.errors import StandingsError

PAIR = 2


def exact(value: float) -> Fraction:
    """`value` as an exact fraction as written (0.1 is 1/10, not the nearest binary float)."""
    return Fraction(value) if isinstance(value, int) else Fraction(repr(value))


# The largest league points a place or result may be worth, and the finest step (0.001): the
# exact sums are kept as 64-bit integer units, which a number of any size or any number of
# decimals would overflow (Buchholz sums every opponent's total).
POINTS_MAX = 1000
POINTS_DECIMALS = 3


def _checked_number(value: Any, what: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise StandingsError("league_points", f"{what} must be a finite number, not {value!r}.")
    if abs(value) > POINTS_MAX or (exact(value) * 10**POINTS_DECIMALS).denominator != 1:
        raise StandingsError(
            "league_points",
            f"{what} must be between -{POINTS_MAX} and {POINTS_MAX}, with at most "
            f"{POINTS_DECIMALS} decimals, not {value!r}.",
        )
    return value


def _table_size(key: Any) -> int:
    """A table size of `placement`, a key written as its number ("4"): "04", " 4", "+4" or
    a full-width digit would be the same size as "4", so one object could give two schemes
    for it and one would be dropped without a word."""
    size = key if isinstance(key, int) and not isinstance(key, bool) else None
    if isinstance(key, str) and key.isascii() and key.isdigit() and str(int(key)) == key:
        size = int(key)
    if size is None:
        raise StandingsError(
            "league_points",
            f'{key!r} is not a table size: write it as a whole number, e.g. "4".',
        )
    return size


@dataclass(frozen=True, slots=True)
class LeaguePoints:
    """A league points scheme: `win`/`draw`/`loss` for pairs (default 3/1/0), and for tables of
    three or more, `placement[size]` the points for 1st, 2nd, ... last at a table of that size
    (default for a size not given: size - 1 for 1st down to 0 for last)."""

    win: float = 3
    draw: float = 1
    loss: float = 0
    placement: Mapping[int, tuple[float, ...]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for name in ("win", "draw", "loss"):
            _checked_number(getattr(self, name), f"League points for a {name}")
        if not self.win >= self.draw >= self.loss:
            raise StandingsError(
                "league_points", "League points must not rise from win to draw to loss."
            )
        checked: dict[int, tuple[float, ...]] = {}
        for size, points in self.placement.items():
            if isinstance(size, bool) or not isinstance(size, int) or size <= PAIR:
                raise StandingsError(
                    "league_points",
                    f"Placement points are for tables of 3 or more players, not {size!r} "
                    "(pairs score win/draw/loss).",
                )
            values = tuple(
                _checked_number(v, f"Placement points at a table of {size}") for v in points
            )
            if len(values) != size:
                raise StandingsError(
                    "league_points",
                    f"A table of {size} needs {size} placement points, not {len(values)}.",
                )
            if any(better < worse for better, worse in pairwise(values)):
                raise StandingsError(
                    "league_points", f"Placement points at a table of {size} must not rise."
                )
            checked[size] = values
        # Frozen for real: a scheme is shared by every tally that uses it.
        object.__setattr__(self, "placement", MappingProxyType(checked))

    def placement_scale(self, seats: int) -> tuple[Fraction, ...]:
        """Points for 1st, 2nd, ... last at a table of `seats` (3 or more)."""
        given = self.placement.get(seats)
        if given is None:
            return tuple(Fraction(seats - 1 - place) for place in range(seats))
        return tuple(exact(value) for value in given)

    def match_points(
        self, placements: Sequence[int], forfeited: Sequence[bool]
    ) -> tuple[Fraction, ...]:
        """Each seat's league points from its effective placement (`effective_placements`):
        pairs win/draw/loss, tables by placement with ties averaged; a forfeit scores the loss
        (pairs) or the last place's points (tables), never a share of better places."""
        if len(placements) == PAIR:
            return tuple(
                self._pair_points(mine, theirs, gave_up)
                for mine, theirs, gave_up in zip(
                    placements, reversed(placements), forfeited, strict=True
                )
            )
        scale = self.placement_scale(len(placements))
        tied = Counter(p for p, gave_up in zip(placements, forfeited, strict=True) if not gave_up)
        return tuple(
            scale[-1]
            if gave_up
            else sum(scale[place - 1 : place - 1 + tied[place]], Fraction(0)) / tied[place]
            for place, gave_up in zip(placements, forfeited, strict=True)
        )

    def _pair_points(self, mine: int, theirs: int, gave_up: bool) -> Fraction:
        if gave_up or mine != 1:
            return exact(self.loss)
        return exact(self.draw) if theirs == 1 else exact(self.win)

    def bye_points(self, table_size: int) -> Fraction:
        """A bye is a win: the win points when the stage plays pairs, otherwise the first place's
        points at a table of the stage's usual size."""
        if table_size < PAIR:
            raise StandingsError(
                "invalid_bye", f"A stage's table size is 2 or more, not {table_size}."
            )
        return exact(self.win) if table_size == PAIR else self.placement_scale(table_size)[0]

    def to_json(self) -> dict[str, Any]:
        """The scheme as JSON (table sizes as string keys), as `from_json` reads it."""
        return {
            "win": self.win,
            "draw": self.draw,
            "loss": self.loss,
            "placement": {str(size): list(points) for size, points in self.placement.items()},
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> "LeaguePoints":
        """A scheme from league or stage settings: any of `win`, `draw`, `loss` and `placement`
        (`{"4": [5, 3, 1, 0]}`); what is left out keeps its default."""
        if not isinstance(data, Mapping):
            raise StandingsError("league_points", "League points settings must be an object.")
        unknown = sorted(set(data) - {"win", "draw", "loss", "placement"})
        if unknown:
            raise StandingsError(
                "league_points", f"Unknown league points setting(s): {', '.join(unknown)}."
            )
        placement = data.get("placement", {})
        if not isinstance(placement, Mapping):
            raise StandingsError("league_points", "Placement points must be an object.")
        tables: dict[int, tuple[float, ...]] = {}
        for size, points in placement.items():
            table_size = _table_size(size)
            if not isinstance(points, list | tuple):
                raise StandingsError(
                    "league_points", f"Placement points at a table of {size} must be a list."
                )
            tables[table_size] = tuple(points)
        defaults = cls()
        return cls(
            win=data.get("win", defaults.win),
            draw=data.get("draw", defaults.draw),
            loss=data.get("loss", defaults.loss),
            placement=tables,
        )
