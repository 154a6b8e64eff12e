"""Ranking: a tally and a tiebreak order in, the standings table out
(docs/standings.md, "Ranking and ties").

Players are split by each metric of the order in turn, best first; a metric only ever splits a
group the metrics before it left tied. Head-to-head is computed within such a group, and again
within any part of it that is still tied. Players equal on every metric share a place
(1, 1, 3); `rank_for_cut` then orders them by seed where a cut must separate them. A stage
played in groups ranks each group on its own, and `merge_groups` makes one order of them."""

from collections import defaultdict
from collections.abc import Collection, Iterable, Mapping, Sequence
from itertools import groupby

from league.standings.metrics import METRICS, GroupMetric, validate_tiebreak_order
from league.standings.model import Bye, MatchResult, PlayerId, Standing
from league.standings.points import LeaguePoints
from league.standings.tally import Tally

_Values = Mapping[PlayerId, float]


def compute_standings(
    results: Iterable[MatchResult],
    *,
    game: str,
    tiebreak_order: Sequence[str],
    byes: Iterable[Bye] = (),
    players: Iterable[PlayerId] = (),
    points: LeaguePoints | None = None,
    groups: Mapping[PlayerId, int] | None = None,
) -> tuple[Standing, ...]:
    """The standings table of `results` (in any order, duplicates of a match id counted once)
    and `byes`, with every player of `players` listed even without a result, ranked by
    `tiebreak_order` (docs/standings.md), each group on its own when `groups` is given."""
    order = validate_tiebreak_order(tiebreak_order, game=game)
    tally = Tally(game=game, points=points)
    for player in players:
        tally.add_player(player)
    tally.add_results(results)
    for bye in byes:
        tally.add_bye(bye)
    return rank_standings(tally, order, groups=groups)


def rank_standings(
    tally: Tally,
    tiebreak_order: Sequence[str],
    *,
    groups: Mapping[PlayerId, int] | None = None,
    withdrawn: Collection[PlayerId] = frozenset(),
) -> tuple[Standing, ...]:
    """One `Standing` per player of `tally`, best first, ranked by the metrics of
    `tiebreak_order` in turn; players equal on all of them share the place and are listed by
    id. A `StandingsError` when the order is not valid for the tally's game.

    `groups` (player to group number, a stage played in groups) ranks every group on its own:
    no metric compares players of different groups, each `Standing.rank` is the place within
    the group, and the table lists group 1 first (players with no group last).

    `withdrawn` players (withdrawn from the stage) are ranked after every player still playing
    (within their group), among themselves by the same metrics, and marked
    (`Standing.withdrawn`): a place in the table is a place among those still playing."""
    order = validate_tiebreak_order(tiebreak_order, game=tally.game)
    shown: dict[str, dict[PlayerId, float]] = {}
    groups_of = groups or {}
    tied = _by_group(tally.players, groups_of) if groups is not None else [list(tally.players)]
    if withdrawn:
        tied = [
            part
            for group in tied
            for part in (
                [p for p in group if p not in withdrawn],
                [p for p in group if p in withdrawn],
            )
            if part
        ]
    for key in order:
        metric = METRICS[key]()
        if isinstance(metric, GroupMetric):
            within: dict[PlayerId, float] = {}
            tied = _split_within(metric, tally, tied, within)
            shown[key] = within
        else:
            values = metric.values(tally)
            tied = [part for group in tied for part in _split(group, values, metric.descending)]
            shown[key] = dict(values)
    table: list[Standing] = []
    place, group_of_place = 1, None
    for group in tied:
        group_number = groups_of.get(group[0])
        if group_number != group_of_place:  # every group's places start at 1
            place, group_of_place = 1, group_number
        table.extend(
            standing_of(
                tally,
                player,
                place,
                {key: shown[key].get(player) for key in order},
                group_number,
                withdrawn=player in withdrawn,
            )
            for player in group
        )
        place += len(group)
    return tuple(table)


def _by_group(players: Sequence[PlayerId], groups: Mapping[PlayerId, int]) -> list[list[PlayerId]]:
    """`players` split by group, group 1 first, players with no group last (each part by id)."""
    parts: dict[int | None, list[PlayerId]] = defaultdict(list)
    for player in players:
        parts[groups.get(player)].append(player)
    return [parts[key] for key in sorted(parts, key=lambda g: (g is None, g or 0))]


def merge_groups(
    table: Iterable[Standing], tiebreak_order: Sequence[str]
) -> tuple[tuple[PlayerId, ...], ...]:
    """One order, as tiers best first, of a table ranked in groups (`rank_standings` with
    `groups`): by place within the group (every group's 1st before any 2nd), then players of
    the same place by the metrics of `tiebreak_order` that value a player by their own results,
    that is every metric but those computed among the tied (head-to-head), which would compare
    players of different groups who never met. Players equal on all of them share a tier,
    listed by group, then by id. For a table ranked as one, these are its places."""
    keys = [
        key
        for key in validate_tiebreak_order(tiebreak_order)
        if not issubclass(METRICS[key], GroupMetric)
    ]
    by_place: dict[int, list[Standing]] = defaultdict(list)
    for standing in table:
        by_place[standing.rank].append(standing)
    tiers: list[tuple[PlayerId, ...]] = []
    for place in sorted(by_place):
        runs = [sorted(by_place[place], key=lambda s: (s.group is None, s.group or 0, s.player))]
        for key in keys:
            descending = METRICS[key].descending
            runs = [part for run in runs for part in _split_standings(run, key, descending)]
        tiers.extend(tuple(standing.player for standing in run) for run in runs)
    return tuple(tiers)


def _split_standings(run: list[Standing], key: str, descending: bool) -> list[list[Standing]]:
    """`run` cut into runs of equal `metrics[key]`, best first; the order within a run kept."""
    if len(run) == 1:
        return [run]
    worst = float("-inf") if descending else float("inf")

    def value(standing: Standing) -> float:
        found = standing.metrics.get(key)
        return worst if found is None else found

    ordered = sorted(run, key=value, reverse=descending)
    return [list(part) for _, part in groupby(ordered, key=value)]


def rank_for_cut(
    standings: Iterable[Standing], *, seeds: Mapping[PlayerId, int]
) -> tuple[PlayerId, ...]:
    """The players best first with no place shared, for taking the top N at an advancement cut:
    by rank (the tiebreak order decided it), then by seed (1 is the top seed; players without a
    seed after those with one), then by player id. Never by chance."""
    return tuple(
        standing.player
        for standing in sorted(
            standings,
            key=lambda s: (s.rank, s.player not in seeds, seeds.get(s.player, 0), s.player),
        )
    )


def _split(group: list[PlayerId], values: _Values, descending: bool) -> list[list[PlayerId]]:
    """`group` cut into runs of equal value, best run first; the order within a run is kept."""
    if len(group) == 1:
        return [group]
    ordered = sorted(group, key=values.__getitem__, reverse=descending)
    return [list(run) for _, run in groupby(ordered, key=values.__getitem__)]


def _split_within(
    metric: GroupMetric,
    tally: Tally,
    groups: list[list[PlayerId]],
    shown: dict[PlayerId, float],
) -> list[list[PlayerId]]:
    """`groups` cut by a group metric, computed for all tied groups at once and then again among
    exactly the players of every part still tied, until no part splits further. `shown` keeps
    each player's value from the largest group they were compared in."""
    pending = {index for index, group in enumerate(groups) if len(group) > 1}
    while pending:
        values = metric.values_within(tally, [groups[index] for index in sorted(pending)])
        for index in pending:
            for player in groups[index]:
                shown.setdefault(player, values[player])
        refined: list[list[PlayerId]] = []
        still_tied: set[int] = set()
        for index, group in enumerate(groups):
            parts = _split(group, values, metric.descending) if index in pending else [group]
            if len(parts) > 1:
                # A part that is still tied is compared again among exactly its players.
                still_tied.update(len(refined) + i for i, part in enumerate(parts) if len(part) > 1)
            refined.extend(parts)
        groups, pending = refined, still_tied
    return groups


def standing_of(
    tally: Tally,
    player: PlayerId,
    rank: int,
    metrics: dict[str, float | None],
    group: int | None = None,
    *,
    withdrawn: bool = False,
) -> Standing:
    """The `Standing` of `player` of `tally` at `rank`, with the values of the order's metrics."""
    record = tally.records[player]
    yardzee = tally.game == "yardzee"
    return Standing(
        player=player,
        rank=rank,
        matches=record.matches,
        wins=record.wins,
        draws=record.draws,
        byes=record.byes,
        forfeits=record.forfeits,
        placements=tuple(record.placements),
        points=tally.league_points(player),
        total_score=record.total_score,
        average_score=record.average_score,
        best_score=record.best_score,
        yardzees=record.yardzees if yardzee else None,
        upper_bonuses=record.upper_bonuses if yardzee else None,
        yardkles=None if yardzee else record.yardkles,
        metrics=metrics,
        group=group,
        withdrawn=withdrawn,
    )
