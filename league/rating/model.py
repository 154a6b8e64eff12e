"""The plain data of ratings: a rating, one row of rating history, the settings of the model and
a leaderboard line (docs/standings.md, "Ratings")."""

from collections.abc import Mapping
from dataclasses import asdict, dataclass
from datetime import datetime

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


@dataclass(frozen=True, slots=True)
class RatingReplay:
    """What a replay gives: every player's rating at the end (players of `start` who did not play
    keep theirs) and the history rows of the matches replayed, in the order they were applied."""

    ratings: Mapping[PlayerId, Rating]
    history: tuple[RatingChange, ...]


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
