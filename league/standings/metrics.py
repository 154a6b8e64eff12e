"""Standings metrics: the registry of everything a table can be ranked by
(docs/standings.md, "Metrics").

A metric computes its value for every player at once from the tally, so ranking never goes back
to the results. A tiebreak order is a list of metric keys, like `["points", "head_to_head",
"buchholz"]`; `validate_tiebreak_order` checks one before it is stored or used."""

from abc import ABC, abstractmethod
from collections.abc import Collection, Iterable, Mapping, Sequence
from typing import Any, ClassVar, Final, TypeVar

import numpy as np

from league.standings.errors import StandingsError
from league.standings.model import GAMES, GameName, PlayerId, check_game
from league.standings.seating import Column, Seating
from league.standings.tally import Tally

METRICS: dict[str, type["Metric"]] = {}
"""Every metric by key. Add one with `@register`."""

DEFAULT_TIEBREAK_ORDER: tuple[str, ...] = (
    "points",
    "head_to_head",
    "buchholz",
    "wins",
    "average_score",
    "best_score",
)

MIN_CUT = 3  # median Buchholz drops two opponents, so it needs three to leave any


# Whose values one more result can change (`Metric.reach`), which decides how much a refresh
# after it computes again (`league.standings.incremental`).
OWN: Final = "own"  # only its players': a value of the player's own totals
OPPONENTS_POINTS: Final = "opponents_points"  # also their opponents': a sum of opponents' points
ANYONE: Final = "anyone"  # anyone's: computed again for every player


class Metric(ABC):
    """One way to rank players. Higher values rank first unless `descending` is False."""

    key: ClassVar[str]
    label: ClassVar[str]
    # What it means, in a sentence an organizer choosing a tiebreak order reads.
    description: ClassVar[str] = ""
    descending: ClassVar[bool] = True
    games: ClassVar[frozenset[GameName]] = frozenset(GAMES)
    reach: ClassVar[str] = ANYONE

    @abstractmethod
    def values(self, tally: Tally) -> Mapping[PlayerId, float]:
        """The metric for every player of `tally`, in one pass over its totals."""

    def values_for(self, tally: Tally, players: Iterable[PlayerId]) -> dict[PlayerId, float]:
        """The metric for `players` only (a metric of reach `OWN` computes only theirs)."""
        values = self.values(tally)
        return {player: values[player] for player in players}


class GroupMetric(Metric):
    """A metric whose value depends on who else is tied (head-to-head): ranking computes it only
    for groups still tied by the metrics before it, and again for any part it leaves tied."""

    def values(self, tally: Tally) -> Mapping[PlayerId, float]:
        """The metric with the whole table as one group."""
        return self.values_within(tally, [tally.players])

    @abstractmethod
    def values_within(
        self,
        tally: Tally,
        groups: Sequence[Collection[PlayerId]],
        seating: Seating | None = None,
    ) -> Mapping[PlayerId, float]:
        """The metric for every player of `groups` (disjoint), each counting only what happened
        among the players of their own group; all groups at once, in one pass. `seating`: the
        tables to look at, in `tally.seating()`'s numbering (default: every table); any part
        of it that holds every table where players of one group met gives the same values."""


class TotalMetric(Metric):
    """A metric that is one of the totals the tally keeps of every player (`PlayerTally`), by
    name; 0 for a total not reached yet (no best game)."""

    total: ClassVar[str]
    reach = OWN

    def values(self, tally: Tally) -> Mapping[PlayerId, float]:
        total = self.total
        return {p: getattr(r, total) or 0 for p, r in tally.records.items()}

    def values_for(self, tally: Tally, players: Iterable[PlayerId]) -> dict[PlayerId, float]:
        total, records = self.total, tally.records
        return {p: getattr(records[p], total) or 0 for p in players}


MetricClass = TypeVar("MetricClass", bound=type[Metric])


def register(metric: MetricClass) -> MetricClass:
    """Class decorator: make `metric` available to tiebreak orders under its `key`."""
    if metric.key in METRICS:
        raise ValueError(f"A standings metric with key {metric.key!r} exists already.")
    METRICS[metric.key] = metric
    return metric


def metrics_for(game: str) -> list[type[Metric]]:
    """The standings metrics a league of `game` can rank by, in the registry's order."""
    return [metric for metric in METRICS.values() if game in metric.games]


def metric_keys(game: str | None = None) -> list[str]:
    """The keys of the metrics a league of `game` can rank by (every metric with None), sorted."""
    return sorted(METRICS if game is None else (metric.key for metric in metrics_for(game)))


def validate_tiebreak_order(order: Any, *, game: str | None = None) -> tuple[str, ...]:
    """`order` as a tuple of metric keys, or a `StandingsError` the API can show: not a non-empty
    list of strings (`tiebreak_order`), a key no metric has (`unknown_metric`, listing the
    metrics of `game`: `details.metrics`), a key twice (`duplicate_metric`), or a metric of the
    other game (`metric_not_for_game`); each of the last three names its key (`details.metric`).
    """
    if isinstance(order, str) or not isinstance(order, list | tuple) or not order:
        raise StandingsError(
            "tiebreak_order", "A tiebreak order is a non-empty list of metric keys."
        )
    checked = None if game is None else check_game(game)
    seen: set[str] = set()
    for key in order:
        if not isinstance(key, str):
            raise StandingsError("tiebreak_order", f"Metric key {key!r} is not a string.")
        if key not in METRICS:
            keys = metric_keys(checked)
            whose = "known metrics"
            if checked is not None:
                whose = f"the metrics of {checked.title()} leagues"
            raise StandingsError(
                "unknown_metric",
                f"Unknown standings metric {key!r}; {whose}: {', '.join(keys)}.",
                details={"metric": key, "metrics": keys},
            )
        if key in seen:
            raise StandingsError(
                "duplicate_metric",
                f"Metric {key!r} appears twice in the tiebreak order.",
                details={"metric": key},
            )
        seen.add(key)
        if checked is not None and checked not in METRICS[key].games:
            raise StandingsError(
                "metric_not_for_game",
                f"Metric {key!r} does not apply to {checked.title()} leagues.",
                details={"metric": key},
            )
    return tuple(order)


@register
class Points(Metric):
    """League points (docs/standings.md, "League points")."""

    key = "points"
    label = "Points"
    description = "League points from every match, forfeit and bye (the league's points scheme)."
    reach = OWN

    def values(self, tally: Tally) -> Mapping[PlayerId, float]:
        scale = tally.scale
        return {p: r.points_units / scale for p, r in tally.records.items()}

    def values_for(self, tally: Tally, players: Iterable[PlayerId]) -> dict[PlayerId, float]:
        scale, records = tally.scale, tally.records
        return {p: records[p].points_units / scale for p in players}


@register
class Wins(TotalMetric):
    """Sole first places, byes included."""

    key = "wins"
    label = "Wins"
    description = "Sole first places, byes included."
    total = "wins"


@register
class HeadToHead(GroupMetric):
    """Among exactly the tied players: one point for every match placed ahead of another of them,
    half a point for every match placed level; results against anyone else do not count."""

    key = "head_to_head"
    label = "Head-to-head"
    description = (
        "Among exactly the players still tied: a point for each match a player finished "
        "ahead of another of them, half a point for each level finish; results against "
        "anyone else do not count."
    )

    def values_within(
        self,
        tally: Tally,
        groups: Sequence[Collection[PlayerId]],
        seating: Seating | None = None,
    ) -> Mapping[PlayerId, float]:
        seating = tally.seating() if seating is None else seating
        seats, places = seating.seats, seating.places
        members = [player for group in groups for player in group]
        # Each player's group number by index; -1 for everyone else and for the empty seats.
        group_of = np.full(seating.nobody + 1, -1, dtype=np.int64)
        group_of[np.searchsorted(seating.players, members)] = np.repeat(
            np.arange(len(groups)), [len(group) for group in groups]
        )
        tags = group_of[seats]
        # Every pair of seats of a table at once (seat i before seat j): where two players of
        # one group met, each gets 2 half points for finishing ahead, 1 for a level place.
        first, second = np.triu_indices(seats.shape[1], k=1)
        met = (tags[:, first] >= 0) & (tags[:, first] == tags[:, second])
        place_i, place_j = places[:, first][met], places[:, second][met]
        level = place_i == place_j
        half_points = seating.per_seat_sum_at(
            np.concatenate([seats[:, first][met], seats[:, second][met]]),
            np.concatenate([2 * (place_i < place_j) + level, 2 * (place_j < place_i) + level]),
        )
        halves = half_points[np.searchsorted(seating.players, members)].tolist()
        return {player: half / 2 for player, half in zip(members, halves, strict=True)}


def _units_by_index(tally: Tally) -> tuple[Seating, Column, Column]:
    """The seating, and every player's league points and matches played, by index."""
    seating = tally.seating()
    records = tally.records
    units = seating.column({p: r.points_units for p, r in records.items()})
    matches = seating.column({p: r.matches for p, r in records.items()})
    return seating, units, matches


def buchholz_units(tally: Tally) -> dict[PlayerId, int]:
    """Every player's Buchholz in the tally's units of league points (exact integers)."""
    seating, units, matches = _units_by_index(tally)
    return seating.by_player(_opponent_units(seating, units, matches))


def buchholz_units_by_index(tally: Tally) -> Column:
    """`buchholz_units` as a column in the order of `tally.seating().players`."""
    seating, units, matches = _units_by_index(tally)
    return _opponent_units(seating, units, matches)[: seating.nobody]


def _opponent_units(seating: Seating, units: Column, matches: Column) -> Column:
    """Buchholz in units: the sum over a player's matches of everyone else's points at the table,
    which is the table's sum less the player's own points, once per match."""
    seats = seating.seats
    table_units = units[seats].sum(axis=1)
    at_tables = seating.per_seat_sum(np.broadcast_to(table_units[:, None], seats.shape))
    return at_tables - matches * units


@register
class Buchholz(Metric):
    """The sum of the league points of every opponent met, once per match against them (all
    other seats of a table are opponents; byes add nothing)."""

    key = "buchholz"
    label = "Buchholz"
    description = (
        "The league points of every opponent met, added up once per match against them: "
        "a stronger field ranks higher."
    )
    reach = OPPONENTS_POINTS

    def values(self, tally: Tally) -> Mapping[PlayerId, float]:
        scale = tally.scale
        return {player: total / scale for player, total in buchholz_units(tally).items()}


@register
class MedianBuchholz(Metric):
    """Buchholz without the best and the worst opponent (one entry each, over all matches);
    0 with fewer than three opponents."""

    key = "median_buchholz"
    label = "Median Buchholz"
    description = (
        "Buchholz without the single best and the single worst opponent; 0 with fewer "
        "than three opponents."
    )

    def values(self, tally: Tally) -> Mapping[PlayerId, float]:
        seating, units, matches = _units_by_index(tally)
        seats, nobody = seating.seats, seating.nobody
        at_seat = units[seats]
        empty = seats == nobody
        lowest, highest = np.iinfo(np.int64).min, np.iinfo(np.int64).max
        by_high = np.sort(np.where(empty, lowest, at_seat), axis=1)
        by_low = np.sort(np.where(empty, highest, at_seat), axis=1)
        top, runner_up = by_high[:, -1:], by_high[:, -2:-1]
        bottom, next_up = by_low[:, :1], by_low[:, 1:2]
        # The best other seat is the top one, unless it is the player's own.
        best = np.full(nobody + 1, lowest, dtype=np.int64)
        np.maximum.at(best, seats.ravel(), np.where(at_seat == top, runner_up, top).ravel())
        worst = np.full(nobody + 1, highest, dtype=np.int64)
        np.minimum.at(worst, seats.ravel(), np.where(at_seat == bottom, next_up, bottom).ravel())
        opponents = seating.per_seat_sum(np.broadcast_to(seating.sizes[:, None] - 1, seats.shape))
        # Too few opponents: 0. (Their best and worst may still be the int64 extremes, which
        # must not take part in the subtraction.)
        enough = opponents >= MIN_CUT
        best, worst = np.where(enough, best, 0), np.where(enough, worst, 0)
        cut = np.where(enough, _opponent_units(seating, units, matches) - best - worst, 0)
        scale = tally.scale
        return {player: total / scale for player, total in seating.by_player(cut).items()}


@register
class AverageScore(Metric):
    """Total game score over the matches played with a score (0 with none): a walkover or a
    forfeit has no game score."""

    key = "average_score"
    label = "Average score"
    description = "Game score per game played (0 with none; walkovers and forfeits not counted)."
    reach = OWN

    def values(self, tally: Tally) -> Mapping[PlayerId, float]:
        return {p: r.average_score for p, r in tally.records.items()}

    def values_for(self, tally: Tally, players: Iterable[PlayerId]) -> dict[PlayerId, float]:
        records = tally.records
        return {p: records[p].average_score for p in players}


@register
class TotalScore(TotalMetric):
    """The sum of the player's game scores."""

    key = "total_score"
    label = "Total score"
    description = "All the player's game scores added up."
    total = "total_score"


@register
class BestScore(TotalMetric):
    """The player's highest game score (0 with no match)."""

    key = "best_score"
    label = "Best game"
    description = "The player's highest game score."
    total = "best_score"


@register
class Yardzees(TotalMetric):
    """Yardzee: Yardzee boxes scored at 50 plus Yardzee bonuses."""

    key = "yardzees"
    label = "Yardzees"
    description = "Yardzee boxes scored at 50 plus Yardzee bonuses."
    games = frozenset({"yardzee"})
    total = "yardzees"


@register
class UpperBonuses(TotalMetric):
    """Yardzee: games with the upper bonus."""

    key = "upper_bonuses"
    label = "Upper bonuses"
    description = "Games in which the player scored the upper bonus."
    games = frozenset({"yardzee"})
    total = "upper_bonuses"


@register
class Yardkles(TotalMetric):
    """Yardkle: turns that ended in a Yardkle; fewer ranks first."""

    key = "yardkles"
    label = "Yardkles"
    description = "Turns that ended in a Yardkle (no point dice); fewer ranks first."
    descending = False
    games = frozenset({"yardkle"})
    total = "yardkles"
