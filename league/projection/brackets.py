"""An elimination stage simulated for many runs at once, in arrays (docs/analysis.md, "Chance
to qualify", "Speed").

The bracket is played slot by slot in its own order (feeders first), each slot for every run
at once: its seats from its sources (a seed, or a place in an earlier slot), its finishing
order drawn from the players' chances, a grand-final reset only in the runs where the
losers-bracket player won the final. A run's final order is `advance_bracket`'s ranking (the
last slot that places a player: later levels first, then better places there), each tier by
seed. The slots decided so far are taken from `advance_bracket` once. A bracket whose results
this does not follow (a result kept for a slot still waiting, entrants not in seed order) goes
to the run-by-run simulator of `simulate.py`."""

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

from league.draw import Bracket, advance_bracket
from league.projection.tables import Array, Draw, Unsupported, pair_chances
from league.standings import PlayerId

_Source = tuple[str, int, int]
"""("seed", player index, 0) or ("slot", feeder's position in the plan, rank)."""


class _Plan:
    __slots__ = ("advance", "fixed", "key", "level", "match_id", "reset_of", "size", "sources")

    def __init__(
        self,
        key: str,
        level: int,
        advance: int,
        fixed: tuple[int, ...] | None,
        sources: list[_Source],
        reset_of: int | None,
        match_id: int | None,
    ) -> None:
        self.key, self.level, self.advance = key, level, advance
        self.fixed, self.sources, self.reset_of = fixed, sources, reset_of
        self.match_id = match_id
        self.size = len(fixed) if fixed is not None else 0


class BracketStage:
    """What every run of an elimination stage shares: the slots as a plan (decided ones with
    their order, the others with their sources) and the chances of every pair."""

    def __init__(
        self,
        setup: Any,
        draw: Draw,
        win_chances: Callable[[frozenset[PlayerId]], Mapping[PlayerId, float]],
        overrides: Mapping[int, Sequence[float]],
    ) -> None:
        bracket: Bracket = setup.bracket
        players = self.players = tuple(setup.players)
        if tuple(bracket.participants) != players:
            raise Unsupported("the bracket's entrants are not the stage's in seed order")
        self.count = len(players)
        self.index = {player: i for i, player in enumerate(players)}
        self.draw, self.win_chances, self.overrides = draw, win_chances, overrides
        self.withdrawn = frozenset(setup.withdrawn)
        state = advance_bracket(bracket, setup.slot_results)
        if any(not state.slots[key].decided for key in setup.slot_results):
            raise Unsupported("a result kept for a slot still waiting")
        position = {slot.key: i for i, slot in enumerate(bracket.slots)}
        self.plan: list[_Plan] = []
        for slot in bracket.slots:
            now = state.slots[slot.key]
            fixed = None
            if now.decided:
                fixed = tuple(self.index[p] for p in now.order)
            sources: list[_Source] = []
            for source in slot.sources:
                if source.seed is not None:
                    sources.append(("seed", self.index[players[source.seed - 1]], 0))
                else:
                    sources.append(("slot", position[str(source.slot)], source.rank or 1))
            self.plan.append(
                _Plan(
                    slot.key,
                    slot.level,
                    slot.advance,
                    fixed,
                    sources,
                    None if slot.reset_of is None else position[slot.reset_of],
                    setup.slot_matches.get(slot.key),
                )
            )
        self._pairs: Array | None = None

    def pairs(self) -> Array:
        if self._pairs is None:
            self._pairs = pair_chances(self.players, self.win_chances, self.withdrawn)
        return self._pairs

    def simulate(self, rng: np.random.Generator, runs: int) -> Array:
        """`runs` runs of the rest of the bracket: each run's final order (player indices,
        those who withdrew left out)."""
        count = self.count
        level = np.zeros((runs, count), dtype=np.int64)  # where each run ends: higher is better
        place = np.zeros((runs, count), dtype=np.int64)
        orders: list[Array] = []
        seats_of: list[Array] = []
        played_in: list[Array] = []
        rows = np.arange(runs)
        for plan in self.plan:
            if plan.fixed is not None:
                order = np.broadcast_to(np.array(plan.fixed, dtype=np.int64), (runs, plan.size))
                seats, played = order, np.ones(runs, dtype=bool)
            else:
                seats = self._seats(plan, orders, runs)
                played = np.ones(runs, dtype=bool)
                if plan.reset_of is not None:  # a reset: only where the challenger won
                    final, final_seats = orders[plan.reset_of], seats_of[plan.reset_of]
                    played = played_in[plan.reset_of] & (final[:, 0] == final_seats[:, 1])
                if seats.shape[1] <= plan.advance:  # a bye: by seed
                    order = np.sort(seats, axis=1)
                else:
                    order = self._play(plan, seats, rng.random(runs))
            orders.append(order)
            seats_of.append(seats)
            played_in.append(played)
            if order.shape[1]:
                where = rows[played]
                chosen = order[played]
                level[where[:, None], chosen] = plan.level + 1
                place[where[:, None], chosen] = np.arange(order.shape[1])
        gone = np.array([p in self.withdrawn for p in self.players], dtype=bool)
        index = np.broadcast_to(np.arange(count), (runs, count))
        ranked = np.lexsort((index, place, -level, np.broadcast_to(gone, (runs, count))), axis=1)
        return ranked[:, : count - int(gone.sum())]

    def _seats(self, plan: _Plan, orders: list[Array], runs: int) -> Array:
        columns = []
        for kind, value, rank in plan.sources:
            if kind == "seed":
                columns.append(np.full(runs, value, dtype=np.int64))
            elif rank <= orders[value].shape[1]:  # else the feeder gives nobody: a bye
                columns.append(orders[value][:, rank - 1])
        return np.stack(columns, axis=1) if columns else np.zeros((runs, 0), dtype=np.int64)

    def _play(self, plan: _Plan, seats: Array, uniforms: Array) -> Array:
        """Each run's finishing order of the slot's `seats` (player indices, seat order)."""
        first = None if plan.match_id is None else self.overrides.get(plan.match_id)
        if (seats == seats[0]).all():  # the same players in every run: one table of orders
            orders, cumulative = self.draw(tuple(self.players[i] for i in seats[0]), first)
            as_index = np.array([[self.index[p] for p in o] for o in orders], dtype=np.int64)
            return as_index[np.searchsorted(cumulative, uniforms, side="right")]
        if seats.shape[1] == 2 and first is None:
            won = uniforms < self.pairs()[seats[:, 0], seats[:, 1]]
            return np.where(won[:, None], seats, seats[:, ::-1])
        order = np.empty_like(seats)
        tables = zip(seats.tolist(), uniforms.tolist(), strict=True)
        for run, (table, uniform) in enumerate(tables):
            found, cumulative = self.draw(tuple(self.players[i] for i in table), first)
            chosen = found[int(np.searchsorted(cumulative, uniform, side="right"))]
            order[run] = [self.index[p] for p in chosen]
        return order
