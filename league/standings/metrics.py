"""Standings metrics: the registry of everything a table can be ranked by
(docs/standings.md, "Metrics").

A metric computes its value for every player at once from the tally, so ranking never goes back
to the results. A tiebreak order is a list of metric keys, like `["points", "head_to_head",
"buchholz"]`; `validate_tiebreak_order` checks one before it is stored or used."""

import math
from abc import ABC, abstractmethod
from collections.abc import Collection, Iterable, Mapping, Sequence
from typing import Any, ClassVar, TypeVar

from league.standings.errors import StandingsError
from league.standings.model import GAMES, GameName, PlayerId, check_game
from league.standings.tally import Table, Tally

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


class Metric(ABC):
    """One way to rank players. Higher values rank first unless `descending` is False."""

    key: ClassVar[str]
    label: ClassVar[str]
    descending: ClassVar[bool] = True
    games: ClassVar[frozenset[GameName]] = frozenset(GAMES)

    @abstractmethod
    def values(self, tally: Tally) -> Mapping[PlayerId, float]:
        """The metric for every player of `tally`, in one pass over its totals."""


class GroupMetric(Metric):
    """A metric whose value depends on who else is tied (head-to-head): ranking computes it only
    for groups still tied by the metrics before it, and again for any part it leaves tied."""

    def values(self, tally: Tally) -> Mapping[PlayerId, float]:
        """The metric with the whole table as one group."""
        return self.values_within(tally, [tally.players])

    @abstractmethod
    def values_within(
        self, tally: Tally, groups: Sequence[Collection[PlayerId]]
    ) -> Mapping[PlayerId, float]:
        """The metric for every player of `groups` (disjoint), each counting only what happened
        among the players of their own group; all groups at once, in one pass."""


MetricClass = TypeVar("MetricClass", bound=type[Metric])


def register(metric: MetricClass) -> MetricClass:
    """Class decorator: make `metric` available to tiebreak orders under its `key`."""
    if metric.key in METRICS:
        raise ValueError(f"A standings metric with key {metric.key!r} exists already.")
    METRICS[metric.key] = metric
    return metric


def validate_tiebreak_order(order: Any, *, game: str | None = None) -> tuple[str, ...]:
    """`order` as a tuple of metric keys, or a `StandingsError` the API can show: not a non-empty
    list of strings (`tiebreak_order`), a key no metric has (`unknown_metric`), a key twice
    (`duplicate_metric`), or a metric of the other game (`metric_not_for_game`)."""
    if isinstance(order, str) or not isinstance(order, list | tuple) or not order:
        raise StandingsError(
            "tiebreak_order", "A tiebreak order is a non-empty list of metric keys."
        )
    known = ", ".join(sorted(METRICS))
    seen: set[str] = set()
    for key in order:
        if not isinstance(key, str):
            raise StandingsError("tiebreak_order", f"Metric key {key!r} is not a string.")
        if key not in METRICS:
            raise StandingsError(
                "unknown_metric", f"Unknown standings metric {key!r}; known metrics: {known}."
            )
        if key in seen:
            raise StandingsError(
                "duplicate_metric", f"Metric {key!r} appears twice in the tiebreak order."
            )
        seen.add(key)
        if game is not None and check_game(game) not in METRICS[key].games:
            raise StandingsError(
                "metric_not_for_game", f"Metric {key!r} does not apply to {game} leagues."
            )
    return tuple(order)


@register
class Points(Metric):
    """League points (docs/standings.md, "League points")."""

    key = "points"
    label = "Points"

    def values(self, tally: Tally) -> Mapping[PlayerId, float]:
        scale = tally.scale
        return {p: r.points_units / scale for p, r in tally.records.items()}


@register
class Wins(Metric):
    """Sole first places, byes included."""

    key = "wins"
    label = "Wins"

    def values(self, tally: Tally) -> Mapping[PlayerId, float]:
        return {p: r.wins for p, r in tally.records.items()}


@register
class HeadToHead(GroupMetric):
    """Among exactly the tied players: one point for every match placed ahead of another of them,
    half a point for every match placed level; results against anyone else do not count."""

    key = "head_to_head"
    label = "Head-to-head"

    def values_within(
        self, tally: Tally, groups: Sequence[Collection[PlayerId]]
    ) -> Mapping[PlayerId, float]:
        group_of = {player: index for index, group in enumerate(groups) for player in group}
        half_points = dict.fromkeys(group_of, 0)  # 2 per tied opponent placed behind, 1 level
        group = group_of.get
        for table in _tables_among(tally, group_of):
            players = table.players
            # A seat outside every group gets a tag of its own, so it pairs with nobody.
            tags = [group(player, -1 - seat) for seat, player in enumerate(players)]
            if len(set(tags)) == len(tags):
                continue  # no two players of one group at this table: the common case
            places = table.placements
            for i, tag in enumerate(tags):
                for j in range(i + 1, len(tags)):
                    if tags[j] != tag:
                        continue
                    if places[i] < places[j]:
                        half_points[players[i]] += 2
                    elif places[j] < places[i]:
                        half_points[players[j]] += 2
                    else:
                        half_points[players[i]] += 1
                        half_points[players[j]] += 1
        return {player: half / 2 for player, half in half_points.items()}


def _tables_among(tally: Tally, players: Collection[PlayerId]) -> Iterable[Table]:
    """The tables where any of `players` sat: all tables, or when the players have played fewer
    matches than there are tables, only theirs (each once)."""
    if sum(tally.records[player].matches for player in players) >= len(tally.tables):
        return tally.tables.values()
    tables = {id(table): table for player in players for table in tally.tables_of(player)}
    return tables.values()


def _opponent_units(tally: Tally) -> dict[PlayerId, int]:
    """Buchholz in units: the sum over a player's matches of everyone else's points at the table,
    which is the table's sum less the player's own points, once per match."""
    units = {p: r.points_units for p, r in tally.records.items()}
    at_tables = dict.fromkeys(units, 0)
    for table in tally.tables.values():
        players = table.players
        table_units = sum(map(units.__getitem__, players))
        for player in players:
            at_tables[player] += table_units
    return {p: at_tables[p] - r.matches * units[p] for p, r in tally.records.items()}


@register
class Buchholz(Metric):
    """The sum of the league points of every opponent met, once per match against them (all
    other seats of a table are opponents; byes add nothing)."""

    key = "buchholz"
    label = "Buchholz"

    def values(self, tally: Tally) -> Mapping[PlayerId, float]:
        scale = tally.scale
        return {p: units / scale for p, units in _opponent_units(tally).items()}


@register
class MedianBuchholz(Metric):
    """Buchholz without the best and the worst opponent (one entry each, over all matches);
    0 with fewer than three opponents."""

    key = "median_buchholz"
    label = "Median Buchholz"

    def values(self, tally: Tally) -> Mapping[PlayerId, float]:
        units = {p: r.points_units for p, r in tally.records.items()}
        total = dict.fromkeys(units, 0)
        best: dict[PlayerId, float] = dict.fromkeys(units, -math.inf)
        worst: dict[PlayerId, float] = dict.fromkeys(units, math.inf)
        opponents = dict.fromkeys(units, 0)
        for table in tally.tables.values():
            players = table.players
            seat_units = [units[player] for player in players]
            ordered = sorted(seat_units)
            top, runner_up, bottom, next_up = ordered[-1], ordered[-2], ordered[0], ordered[1]
            table_units = sum(seat_units)
            others = len(players) - 1
            for player, mine in zip(players, seat_units, strict=True):
                # The best other seat is the top one, unless it is the player's own.
                high = runner_up if mine == top else top
                low = next_up if mine == bottom else bottom
                if high > best[player]:
                    best[player] = high
                if low < worst[player]:
                    worst[player] = low
                total[player] += table_units - mine
                opponents[player] += others
        scale = tally.scale
        return {
            player: (total[player] - best[player] - worst[player]) / scale
            if opponents[player] >= MIN_CUT
            else 0.0
            for player in units
        }


@register
class AverageScore(Metric):
    """Total game score over matches played (0 with no match)."""

    key = "average_score"
    label = "Average score"

    def values(self, tally: Tally) -> Mapping[PlayerId, float]:
        return {
            p: r.total_score / r.matches if r.matches else 0.0 for p, r in tally.records.items()
        }


@register
class TotalScore(Metric):
    """The sum of the player's game scores."""

    key = "total_score"
    label = "Total score"

    def values(self, tally: Tally) -> Mapping[PlayerId, float]:
        return {p: r.total_score for p, r in tally.records.items()}


@register
class BestScore(Metric):
    """The player's highest game score (0 with no match)."""

    key = "best_score"
    label = "Best game"

    def values(self, tally: Tally) -> Mapping[PlayerId, float]:
        return {p: r.best_score or 0 for p, r in tally.records.items()}


@register
class Yardzees(Metric):
    """Yardzee: Yardzee boxes scored at 50 plus Yardzee bonuses."""

    key = "yardzees"
    label = "Yardzees"
    games = frozenset({"yardzee"})

    def values(self, tally: Tally) -> Mapping[PlayerId, float]:
        return {p: r.yardzees for p, r in tally.records.items()}


@register
class UpperBonuses(Metric):
    """Yardzee: games with the upper bonus."""

    key = "upper_bonuses"
    label = "Upper bonuses"
    games = frozenset({"yardzee"})

    def values(self, tally: Tally) -> Mapping[PlayerId, float]:
        return {p: r.upper_bonuses for p, r in tally.records.items()}


@register
class Yardkles(Metric):
    """Yardkle: turns that ended in a Yardkle; fewer ranks first."""

    key = "yardkles"
    label = "Yardkles"
    descending = False
    games = frozenset({"yardkle"})

    def values(self, tally: Tally) -> Mapping[PlayerId, float]:
        return {p: r.yardkles for p, r in tally.records.items()}
