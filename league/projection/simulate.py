"""Simulating the rest of a stage from the players' ratings (docs/analysis.md, "Chance to
qualify").

`project_stage` simulates every run at once in arrays (`tables.py`, `brackets.py`: the same
model and rules); the run-by-run simulator below is the reference they are tested against, and
takes the stages they do not.

Every match left is decided by the players' ratings, with OpenSkill's own prediction: the
winner is drawn with `PlackettLuce.predict_win` of the table, the runner-up with
`predict_win` of the players left, and so on (the Plackett-Luce reading of the table); a match
being played may come with its own chances for each seat to win (an override), which then
draw the winner. Each run is then ranked by the stage's own rules: its standings
(`league.standings.rank_standings`: points and the tiebreak order) for a round robin or Swiss,
the bracket (`league.draw.advance_bracket`) for an elimination, and the next stage's cut
(`league.draw.qualifiers`, `group_qualifiers`) for who goes on.

Assumptions, stated: no draws (a shared place is rare at dice); a simulated match has no game
score, so score tiebreaks (average, best score) count the games already played; ratings do not
move within the simulation; future Swiss rounds are paired at random within score groups (the
players ordered by points, equal points at random, then cut into tables), not by the real
pairing, which avoids rematches."""

import bisect
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from league.draw import (
    Bracket,
    BracketState,
    SlotResult,
    advance_bracket,
    group_qualifiers,
    qualifiers,
    table_sizes,
)
from league.projection.brackets import BracketStage
from league.projection.model import (
    DEFAULT_RUNS,
    FORMATS,
    PlayerChances,
    Projection,
    StageSetup,
)
from league.projection.tables import TableStage, Unsupported
from league.rating import DEFAULT_SETTINGS, Rating, RatingSettings
from league.standings import (
    Bye,
    MatchResult,
    PlayerId,
    SeatResult,
    Standing,
    Tally,
    merge_groups,
    rank_for_cut,
    rank_standings,
)

Overrides = Mapping[int, Sequence[float]]
"""Outcome overrides: match id to each seat's chance to win (seat order), e.g. from the live
win probability of a match in progress."""

_Order = tuple[PlayerId, ...]

# A run's tally counts the stage's results again up to this many (about 8 microseconds each),
# and reads the stored tally back beyond (about 1 ms for 64 players, whatever the results).
RECOUNT_UP_TO = 150
# The bracket states kept by the simulated results that lead to them (a 64-player bracket's
# state is some 60 small objects).
BRACKET_STATES_KEPT = 4096
# Runs of a bracket simulated at once in arrays.
BRACKET_CHUNK = 1024

# Simulated Swiss matches have no id of their own: they count down from here, far below the
# walkovers' (minus a stage match's id).
_SIMULATED_IDS = -(2**40)


class _Outcomes:
    """Finishing orders of tables and their chances, from the ratings, cached by table."""

    def __init__(
        self,
        ratings: Mapping[PlayerId, Rating],
        settings: RatingSettings,
        withdrawn: frozenset[PlayerId],
    ) -> None:
        self.model = settings.model()
        self.initial = settings.initial
        self.ratings = ratings
        self.withdrawn = withdrawn
        self._rated: dict[PlayerId, Any] = {}
        self._wins: dict[frozenset[PlayerId], dict[PlayerId, float]] = {}
        self._tables: dict[tuple[Any, ...], tuple[list[_Order], list[float]]] = {}

    def _rating(self, player: PlayerId) -> Any:
        rated = self._rated.get(player)
        if rated is None:
            rating = self.ratings.get(player, self.initial)
            rated = self._rated[player] = self.model.rating(mu=rating.mu, sigma=rating.sigma)
        return rated

    def win_chances(self, players: frozenset[PlayerId]) -> dict[PlayerId, float]:
        """Each player's chance to win a table of `players` (OpenSkill's `predict_win`)."""
        chances = self._wins.get(players)
        if chances is None:
            ordered = sorted(players)
            if len(ordered) == 1:
                chances = {ordered[0]: 1.0}
            else:
                predicted = self.model.predict_win([[self._rating(p)] for p in ordered])
                chances = dict(zip(ordered, predicted, strict=True))
            self._wins[players] = chances
        return chances

    def table(
        self, players: Sequence[PlayerId], first: Sequence[float] | None = None
    ) -> tuple[list[_Order], list[float]]:
        """Every finishing order of a table of `players` (seat order) with its cumulative
        chance; `first`: each seat's chance to win, instead of the ratings'. Withdrawn players
        forfeit: last, in seat order."""
        key = (tuple(players), None if first is None else tuple(first))
        found = self._tables.get(key)
        if found is not None:
            return found
        playing = [p for p in players if p not in self.withdrawn]
        gone = tuple(p for p in players if p in self.withdrawn)
        orders: list[_Order] = []
        chances: list[float] = []
        if first is not None and len(playing) > 1:
            given = dict(zip(players, _normalised(first, len(players)), strict=True))
            total = sum(given[p] for p in playing)
            starts = [(p, given[p] / total if total > 0 else 1 / len(playing)) for p in playing]
        else:
            starts = [(p, c) for p, c in self.win_chances(frozenset(playing)).items()]
        for winner, chance in starts:
            if chance <= 0:
                continue
            rest = frozenset(playing) - {winner}
            for order, then in self._orders(rest):
                orders.append((winner, *order, *gone))
                chances.append(chance * then)
        if not orders:  # nobody plays: everyone forfeits
            orders, chances = [tuple(players)], [1.0]
        cumulative = np.cumsum(chances).tolist()
        cumulative[-1] = float("inf")  # rounding never leaves a draw unplaced
        self._tables[key] = (orders, cumulative)
        return orders, cumulative

    def _orders(self, players: frozenset[PlayerId]) -> list[tuple[_Order, float]]:
        """Every order of `players` with its chance, each place drawn from those left."""
        if len(players) <= 1:
            return [(tuple(players), 1.0)]
        found: list[tuple[_Order, float]] = []
        for winner, chance in self.win_chances(players).items():
            for order, then in self._orders(players - {winner}):
                found.append(((winner, *order), chance * then))
        return found


def _normalised(chances: Sequence[float], seats: int) -> list[float]:
    values = [float(c) for c in chances]
    if len(values) != seats or any(not c >= 0 for c in values) or sum(values) <= 0:
        raise ValueError(
            f"An outcome override gives each of the {seats} seats a chance of 0 or more, "
            f"not {list(chances)!r}."
        )
    total = sum(values)
    return [c / total for c in values]


def _draw(outcomes: tuple[list[_Order], list[float]], uniform: float) -> _Order:
    orders, cumulative = outcomes
    return orders[bisect.bisect_right(cumulative, uniform)]


def _result(
    match_id: int, players: Sequence[PlayerId], order: _Order, withdrawn: frozenset[PlayerId]
) -> MatchResult:
    place = {player: index for index, player in enumerate(order, start=1)}
    return MatchResult(
        match_id=match_id,
        seats=tuple(
            SeatResult(player=p, placement=place[p], score=None, forfeited=p in withdrawn)
            for p in players
        ),
    )


class _Run:
    """What every run shares: the stage, the tally of what is played, the outcomes, the cut."""

    def __init__(
        self,
        setup: StageSetup,
        outcomes: _Outcomes,
        overrides: Overrides,
    ) -> None:
        self.setup = setup
        self.outcomes = outcomes
        self.overrides = overrides
        self.seeds = {player: seed for seed, player in enumerate(setup.players, start=1)}
        base = Tally(game=setup.game, points=setup.points)
        for player in setup.players:
            base.add_player(player)
        base.add_results(setup.results)
        for bye in setup.byes:
            base.add_bye(bye)
        self.base = base.to_json()
        # Points for pairing Swiss rounds (floats: the standings count exactly, in the tally).
        self.base_points = {player: base.league_points(player) for player in base.players}
        self.bye_points = float(setup.points.bye_points(setup.table_size))
        self.rankings: dict[Any, tuple[list[PlayerId], list[list[PlayerId]] | None]] = {}
        self.bracket_states: dict[tuple[tuple[str, _Order], ...], BracketState] = {}
        self._results: dict[tuple[int, _Order], MatchResult] = {}
        self._points: dict[tuple[Any, ...], tuple[float, ...]] = {}

    def match_points(self, players: Sequence[PlayerId], order: _Order) -> tuple[float, ...]:
        """The league points each seat of a simulated match takes (the stage's scheme)."""
        found = self._points.get((players, order))
        if found is None:
            place = {player: index for index, player in enumerate(order, start=1)}
            placements = tuple(place[p] for p in players)
            forfeited = tuple(p in self.setup.withdrawn for p in players)
            points = self.setup.points.match_points(placements, forfeited)
            found = self._points[tuple(players), order] = tuple(map(float, points))
        return found

    def tally(self) -> Tally:
        """A fresh copy of the tally of what is played: counted again (the scheme shared, so
        checked once) while that is quicker than reading the stored one back."""
        setup = self.setup
        if len(setup.results) > RECOUNT_UP_TO:
            return Tally.from_json(self.base)
        tally = Tally(game=setup.game, points=setup.points)
        for player in setup.players:
            tally.add_player(player)
        tally.add_results(setup.results)
        for bye in setup.byes:
            tally.add_bye(bye)
        return tally

    def result(self, match_id: int, players: Sequence[PlayerId], order: _Order) -> MatchResult:
        key = (match_id, order)
        found = self._results.get(key)
        if found is None:
            found = self._results[key] = _result(match_id, players, order, self.setup.withdrawn)
        return found

    def outcomes_of(
        self, match_id: int | None, players: Sequence[PlayerId]
    ) -> tuple[list[_Order], list[float]]:
        first = self.overrides.get(match_id) if match_id is not None else None
        return self.outcomes.table(players, first)

    # --- The final order of a run ------------------------------------------------------------

    def ranked(self, tally: Tally) -> tuple[list[PlayerId], list[list[PlayerId]] | None]:
        """The stage's final order of a run ranked by its standings, no place shared (cut
        order: tiers by seed), and for a stage in groups each group's order."""
        setup = self.setup
        table = rank_standings(
            tally, setup.tiebreak, groups=setup.groups, withdrawn=setup.withdrawn
        )
        if setup.groups is None:  # its places are its order (`merge_groups` would say so)
            tiers: dict[int, list[PlayerId]] = {}
            for standing in table:
                tiers.setdefault(standing.rank, []).append(standing.player)
            return self.cut_order([tiers[rank] for rank in sorted(tiers)]), None
        overall = self.cut_order(merge_groups(table, setup.tiebreak))
        by_group: dict[int, list[Standing]] = {}
        for standing in table:
            by_group.setdefault(standing.group or 0, []).append(standing)
        return overall, [
            [p for p in rank_for_cut(rows, seeds=self.seeds) if p not in setup.withdrawn]
            for _, rows in sorted(by_group.items())
        ]

    def cut_order(self, tiers: Sequence[Sequence[PlayerId]]) -> list[PlayerId]:
        """Tiers of a final order as the next stage takes them: each tier by seed, players who
        withdrew passed over (`league.services.stages.start`)."""
        withdrawn, seeds = self.setup.withdrawn, self.seeds
        return [
            p
            for tier in tiers
            for p in sorted(tier, key=lambda p: seeds.get(p, 0))
            if p not in withdrawn
        ]

    def qualified(
        self, overall: Sequence[PlayerId], groups: Sequence[Sequence[PlayerId]] | None
    ) -> tuple[PlayerId, ...]:
        """Who goes on from a run's final order (the next stage's cut)."""
        rule = self.setup.qualifying
        if rule is None or not overall:
            return ()
        if rule.per_group and groups:
            top = min([rule.per_group, *(len(g) for g in groups)])
            if top < 1:
                return ()
            rest = len(overall) - sum(min(top, len(g)) for g in groups)
            return group_qualifiers(
                groups, top, best_rest=min(rule.best_rest, rest), overall=overall
            )
        top = min(rule.top, len(overall))
        # A fed stage takes two or more (`qualifiers` says so); one is its winner.
        return qualifiers(overall, top) if top >= 2 else tuple(overall[:top])


def project_stage(
    setup: StageSetup,
    ratings: Mapping[PlayerId, Rating],
    *,
    runs: int = DEFAULT_RUNS,
    seed: int = 0,
    overrides: Overrides | None = None,
    settings: RatingSettings = DEFAULT_SETTINGS,
    arrays: bool = True,
) -> Projection:
    """Each player's chance to finish in each place, to qualify and to win the stage, from
    `runs` simulations of the rest of it (random seed `seed`: the same inputs give the same
    figures). `ratings`: each player's rating (a player without one has a new player's);
    `overrides`: for matches being played, each seat's chance to win (match id to chances in
    seat order). Every chance has a standard error of at most sqrt(1/4 / runs).

    `arrays`: simulate every run at once in arrays (`tables.py`, `brackets.py`); False, or a
    stage they do not take, simulates run by run, the reference the arrays are tested against
    (the same model, another random stream)."""
    if setup.format not in FORMATS:
        raise ValueError(f"Unknown stage format {setup.format!r}.")
    if runs < 1:
        raise ValueError(f"A projection needs one run or more, not {runs}.")
    outcomes = _Outcomes(ratings, settings, setup.withdrawn)
    shared = _Run(setup, outcomes, overrides or {})
    rng = np.random.default_rng(seed)
    players = setup.players
    group_sizes: dict[int, int] = {}
    for player in players:
        group = (setup.groups or {}).get(player, 0)
        group_sizes[group] = group_sizes.get(group, 0) + 1
    counts = _Counts(shared, max(group_sizes.values(), default=0))
    if arrays:
        try:
            _array_runs(shared, rng, runs, counts)
        except Unsupported:
            arrays = False
            rng = np.random.default_rng(seed)
            counts = _Counts(shared, counts.places.shape[1])
    if not arrays:
        simulate = _bracket_run if setup.bracket is not None else _table_run
        for _ in range(runs):
            counts.add(*simulate(shared, rng))
    goes_on = setup.qualifying is not None
    return Projection(
        runs=runs,
        seed=seed,
        players=tuple(
            PlayerChances(
                player=player,
                places=tuple(
                    (
                        counts.places[i, : group_sizes[(setup.groups or {}).get(player, 0)]] / runs
                    ).tolist()
                ),
                qualify=float(counts.qualified[i] / runs) if goes_on else None,
                win=float(counts.won[i] / runs),
            )
            for i, player in enumerate(players)
        ),
    )


class _Counts:
    """How often each player finished in each place, went on and won, over the runs."""

    def __init__(self, shared: _Run, width: int) -> None:
        self.shared = shared
        players = shared.setup.players
        self.players = np.array(players, dtype=np.int64)
        self.index = {player: i for i, player in enumerate(players)}
        self.places = np.zeros((len(players), width), dtype=np.int64)
        self.qualified = np.zeros(len(players), dtype=np.int64)
        self.won = np.zeros(len(players), dtype=np.int64)

    def add(self, overall: list[PlayerId], groups: list[list[PlayerId]] | None) -> None:
        """One run's final order (and each group's), as player ids."""
        index = self.index
        for order in groups if groups is not None else [overall]:
            for place, player in enumerate(order):
                self.places[index[player], place] += 1
        for player in self.shared.qualified(overall, groups):
            self.qualified[index[player]] += 1
        if overall:
            self.won[index[overall[0]]] += 1

    def add_runs(self, overall: Any, groups: Sequence[Any] | None) -> None:
        """Many runs' final orders as arrays of player indices, a row a run."""
        for order in groups if groups is not None else [overall]:
            if order.shape[1]:
                np.add.at(self.places, (order, np.arange(order.shape[1])), 1)
        if overall.shape[1]:
            self.won += np.bincount(overall[:, 0], minlength=len(self.won))
        if self.shared.setup.qualifying is None:
            return
        ids = self.players
        as_ids = ids[overall].tolist()
        by_group = [ids[order].tolist() for order in groups] if groups is not None else None
        index = self.index
        for run, order in enumerate(as_ids):
            runs_groups = [group[run] for group in by_group] if by_group is not None else None
            for player in self.shared.qualified(order, runs_groups):
                self.qualified[index[player]] += 1


def _array_runs(shared: _Run, rng: np.random.Generator, runs: int, counts: _Counts) -> None:
    """Every run at once in arrays (`tables.py`, `brackets.py`), in chunks of runs; `Unsupported`
    when the stage needs the run-by-run simulator."""
    setup, outcomes = shared.setup, shared.outcomes
    if setup.bracket is not None:
        bracket = BracketStage(setup, outcomes.table, outcomes.win_chances, shared.overrides)
        for start in range(0, runs, BRACKET_CHUNK):
            counts.add_runs(bracket.simulate(rng, min(BRACKET_CHUNK, runs - start)), None)
        return
    stage = TableStage(setup, outcomes.table, outcomes.win_chances, shared.overrides)
    for start in range(0, runs, stage.chunk):
        counts.add_runs(*stage.rank(stage.simulate(rng, min(stage.chunk, runs - start))))


_Played = tuple[int, tuple[PlayerId, ...], _Order]
"""A simulated match: its id, its players in seat order, their finishing order."""


def _table_run(
    shared: _Run, rng: np.random.Generator
) -> tuple[list[PlayerId], list[list[PlayerId]] | None]:
    """One run of a round robin or Swiss: the matches left, then (Swiss) the rounds not drawn
    yet, paired at random within score groups; ranked by the stage's standings. Runs that
    come out the same are ranked once (a small stage has only a few outcomes)."""
    setup = shared.setup
    played: list[_Played] = []
    byes: list[Bye] = []
    uniforms = rng.random(len(setup.pending)).tolist()
    for match, uniform in zip(setup.pending, uniforms, strict=True):
        order = _draw(shared.outcomes_of(match.match_id, match.players), uniform)
        played.append((match.match_id, match.players, order))
    if setup.format == "swiss":
        _swiss_rounds(shared, played, byes, rng)
    key = (tuple(played), tuple(bye.key for bye in byes))
    found = shared.rankings.get(key)
    if found is None:
        tally = shared.tally()
        for match_id, players, order in played:
            tally.add_result(shared.result(match_id, players, order))
        for bye in byes:
            tally.add_bye(bye)
        found = shared.rankings[key] = shared.ranked(tally)
    return found


def _current_round(setup: StageSetup) -> int:
    rounds = [r.round or 0 for r in setup.results] + [m.round or 0 for m in setup.pending]
    return max([*rounds, *(bye.round for bye in setup.byes)], default=0)


def _swiss_rounds(
    shared: _Run, played: list[_Played], byes: list[Bye], rng: np.random.Generator
) -> None:
    """The Swiss rounds not drawn yet, each paired at random within score groups: the players
    still playing ordered by league points (the stage's scheme, `LeaguePoints`), equal points
    at random, cut into tables (`table_sizes`); with pairs and an odd count the last one has a
    bye. `played` holds the run's matches so far, and gets these rounds' too."""
    setup = shared.setup
    playing = [p for p in setup.players if p not in setup.withdrawn]
    points = dict(shared.base_points)
    for _match_id, players, order in played:
        for player, gained in zip(players, shared.match_points(players, order), strict=True):
            points[player] += gained
    match_id = _SIMULATED_IDS
    sizes = table_sizes(len(playing), setup.table_size)
    table = shared.outcomes.table
    for number in range(_current_round(setup) + 1, setup.rounds + 1):
        by_points = np.lexsort((rng.random(len(playing)), -np.array([points[p] for p in playing])))
        ranked = [playing[i] for i in by_points.tolist()]
        uniforms = rng.random(len(sizes)).tolist()
        start = 0
        for size, uniform in zip(sizes, uniforms, strict=True):
            seated = tuple(ranked[start : start + size])
            start += size
            if size == 1:
                byes.append(Bye(seated[0], number, setup.table_size, setup.stage_id))
                points[seated[0]] += shared.bye_points
                continue
            drawn = _draw(table(seated), uniform)
            played.append((match_id, seated, drawn))
            for player, gained in zip(seated, shared.match_points(seated, drawn), strict=True):
                points[player] += gained
            match_id -= 1


def _bracket_run(
    shared: _Run, rng: np.random.Generator
) -> tuple[list[PlayerId], list[list[PlayerId]] | None]:
    """One run of an elimination stage: the ready slots played until the bracket finishes;
    its final ranking is the order. Where the bracket stands after the same simulated results
    is worked out once (up to BRACKET_STATES_KEPT of them: a small bracket has only a few)."""
    setup = shared.setup
    bracket: Bracket | None = setup.bracket
    assert bracket is not None  # noqa: S101 - chosen by the caller for brackets only
    results: dict[str, SlotResult] = dict(setup.slot_results)
    decided: tuple[tuple[str, _Order], ...] = ()
    states = shared.bracket_states
    while True:
        state = states.get(decided)
        if state is None:
            state = advance_bracket(bracket, results)
            if len(states) < BRACKET_STATES_KEPT:
                states[decided] = state
        if state.finished or not state.ready:
            break
        for key in state.ready:
            players = state.slots[key].players
            order = _draw(
                shared.outcomes_of(setup.slot_matches.get(key), players), float(rng.random())
            )
            results[key] = SlotResult(
                placements={player: place for place, player in enumerate(order, start=1)}
            )
            decided = (*decided, (key, order))
    return shared.cut_order(state.ranking), None
