"""The plain data of ratings: a rating, one row of rating history, the settings of the model and
a leaderboard line (docs/standings.md, "Ratings")."""

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import asdict, dataclass, fields
from datetime import datetime
from typing import Any, overload

import numpy as np
import numpy.typing as npt
from openskill.models import PlackettLuce

from league.standings.model import FinishOrder, PlayerId, finish_order

Z = 3.0  # the ordinal is mu - 3 sigma: a skill the player very likely has at least


@dataclass(frozen=True, slots=True)
class Rating:
    """A player's skill estimate: mean `mu` and uncertainty `sigma`."""

    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        """The conservative skill the leaderboard ranks by: mu - 3 sigma (OpenSkill's ordinal)."""
        return self.mu - Z * self.sigma


@dataclass(frozen=True, slots=True)
class RatingChange:
    """One row of the rating history: `player`'s rating after match `match_id`, where they took
    `placement` (the effective placement: forfeits last)."""

    match_id: int
    finished_at: datetime | None
    player: PlayerId
    placement: int
    mu: float
    sigma: float
    ordinal: float

    @property
    def rating(self) -> Rating:
        """The rating after the match."""
        return Rating(self.mu, self.sigma)

    @property
    def order_key(self) -> FinishOrder:
        """Where the match comes in the order matches finished."""
        return finish_order(self.finished_at, self.match_id)


@dataclass(frozen=True, slots=True, eq=False)
class RatingHistory(Sequence[RatingChange]):
    """History rows held as columns, one entry a row (the fields of `RatingChange`): a sequence
    of `RatingChange`s, made when read. A replay gives its rows this way, because the service
    that stores them writes the columns as they are (docs/standings.md, "Our own arithmetic"),
    and making a Python object a row cost as much as the arithmetic itself."""

    match_id: npt.NDArray[np.int64]
    finished_at: npt.NDArray[np.object_]
    """datetime or None"""
    player: npt.NDArray[np.int64]
    placement: npt.NDArray[np.int64]
    mu: npt.NDArray[np.float64]
    sigma: npt.NDArray[np.float64]
    ordinal: npt.NDArray[np.float64]

    def __len__(self) -> int:
        return len(self.player)

    @overload
    def __getitem__(self, index: int) -> RatingChange: ...
    @overload
    def __getitem__(self, index: slice) -> "RatingHistory": ...
    def __getitem__(self, index: int | slice) -> "RatingChange | RatingHistory":
        if isinstance(index, slice):
            return RatingHistory(**{name: self._column(name)[index] for name in _CHANGE_FIELDS})
        return RatingChange(*(column[0] for column in self._lists([index])))

    def __iter__(self) -> Iterator[RatingChange]:
        return map(RatingChange, *self._lists(slice(None)))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, RatingHistory):
            return NotImplemented
        return all(
            self._column(name).tolist() == other._column(name).tolist() for name in _CHANGE_FIELDS
        )

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"RatingHistory({list(self)!r})"

    def _column(self, name: str) -> npt.NDArray[Any]:
        column: npt.NDArray[Any] = getattr(self, name)
        return column

    def _lists(self, index: list[int] | slice) -> list[list[Any]]:
        """The columns' entries at `index` as Python values (ints, floats, datetimes)."""
        return [self._column(name)[index].tolist() for name in _CHANGE_FIELDS]


_CHANGE_FIELDS = [field.name for field in fields(RatingChange)]


@dataclass(frozen=True, slots=True)
class RatingReplay:
    """What a replay gives: every player's rating at the end (players of `start` who did not play
    keep theirs) and the history rows of the matches replayed, in the order they were applied."""

    ratings: Mapping[PlayerId, Rating]
    history: RatingHistory


@dataclass(frozen=True, slots=True)
class LeaderboardEntry:
    """One line of a rating leaderboard; players with equal ordinals share the rank."""

    rank: int
    player: PlayerId
    mu: float
    sigma: float
    ordinal: float


@dataclass(frozen=True, slots=True)
class RatingSettings:
    """OpenSkill Plackett-Luce parameters (its defaults): a new player's `mu` and `sigma`, the
    performance spread `beta`, the variance floor `kappa`, the drift `tau` added before every
    match, and `limit_sigma` to forbid sigma from growing."""

    mu: float = 25.0
    sigma: float = 25.0 / 3.0
    beta: float = 25.0 / 6.0
    kappa: float = 0.0001
    tau: float = 25.0 / 300.0
    limit_sigma: bool = False

    def model(self) -> PlackettLuce:
        """The OpenSkill model with these parameters."""
        return PlackettLuce(**asdict(self))

    @property
    def initial(self) -> Rating:
        """A new player's rating."""
        return Rating(self.mu, self.sigma)
