"""Advancement: who sits where in a bracket given the results so far (docs/draw.md,
"Advancement").

A pure function of the bracket and the set of results: a result that arrives twice or out of
order changes nothing, and undoing one is removing it from the set. Places tied at a table are
ordered by the caller's tiebreak key (the stage's tiebreak order), then by seed; never by chance.
"""

from collections import defaultdict, deque
from collections.abc import Callable, Mapping, Sequence

from league.draw.errors import DrawError
from league.draw.model import (
    Bracket,
    BracketState,
    PlayerId,
    Slot,
    SlotResult,
    SlotState,
)

Tiebreak = Callable[[PlayerId], Sequence[float]]
"""A player's tiebreak key, smaller first (e.g. `(-wins, -points)` from the stage standings).
It must not change for a slot once that slot is decided, or an earlier cut could move."""


def advance_bracket(
    bracket: Bracket,
    results: Mapping[str, SlotResult],
    *,
    tiebreak: Tiebreak | None = None,
) -> BracketState:
    """Where the bracket stands given `results` (slot key to result): every slot's seats,
    the slots ready to be played, the slots decided by byes, and once every slot is decided
    the champion and the final ranking.

    A slot is `waiting` while a feeder is undecided, `ready` once its seats are known, `played`
    once a result decides it (a walkover included), `bye` when it seats no more players than
    advance from it, and `skipped` for a grand-final reset that is not needed. A result for a
    slot still waiting is kept until its seats are known; its players must then be the seated
    ones (`DrawError` `result_players`)."""
    keys = {slot.key for slot in bracket.slots}
    for key in results:
        if key not in keys:
            raise DrawError("unknown_slot", f"The bracket has no slot {key!r}.")
    seeds = {player: seed for seed, player in enumerate(bracket.participants, start=1)}

    def order(players: Sequence[PlayerId], result: SlotResult | None) -> tuple[PlayerId, ...]:
        def key(player: PlayerId) -> tuple[bool, int, tuple[float, ...], int]:
            forfeited = result is not None and player in result.forfeited
            place = result.placements.get(player, 0) if result is not None else 0
            return (forfeited, place, tuple(tiebreak(player)) if tiebreak else (), seeds[player])

        return tuple(sorted(players, key=key))

    states: dict[str, SlotState] = {}
    for slot in bracket.slots:
        states[slot.key] = _slot_state(slot, bracket, states, results.get(slot.key), order)
    finished = all(state.decided for state in states.values())
    ranking = _ranking(bracket, states) if finished else ()
    return BracketState(
        slots=states,
        ready=tuple(key for key, state in states.items() if state.status == "ready"),
        byes=tuple(key for key, state in states.items() if state.status == "bye"),
        finished=finished,
        champion=ranking[0][0] if ranking and len(ranking[0]) == 1 else None,
        ranking=ranking,
    )


def dependent_slots(bracket: Bracket, key: str) -> tuple[str, ...]:
    """Every later slot that a result of slot `key` feeds, directly or through others, in
    bracket order: undoing that result must be refused while one of them has started."""
    bracket.slot(key)  # raises `unknown_slot`
    fed_by: dict[str, set[str]] = defaultdict(set)
    for slot in bracket.slots:
        for source in slot.sources:
            if source.slot is not None:
                fed_by[source.slot].add(slot.key)
        if slot.reset_of is not None:
            fed_by[slot.reset_of].add(slot.key)
    reached: set[str] = set()
    queue = deque([key])
    while queue:
        for later in fed_by[queue.popleft()] - reached:
            reached.add(later)
            queue.append(later)
    return tuple(slot.key for slot in bracket.slots if slot.key in reached)


def _slot_state(
    slot: Slot,
    bracket: Bracket,
    states: Mapping[str, SlotState],
    result: SlotResult | None,
    order: Callable[[Sequence[PlayerId], SlotResult | None], tuple[PlayerId, ...]],
) -> SlotState:
    seats: list[PlayerId | None] = []
    known = True
    for source in slot.sources:
        if source.seed is not None:
            seats.append(bracket.participants[source.seed - 1])
            continue
        feeder = states[str(source.slot)]
        rank = source.rank or 1
        known = known and feeder.decided
        seats.append(feeder.order[rank - 1] if rank <= len(feeder.order) else None)
    if slot.reset_of is not None and not _reset_needed(states[slot.reset_of]):
        return SlotState(slot.key, "skipped", (None,) * len(slot.sources))
    if not known:
        return SlotState(slot.key, "waiting", tuple(seats))
    players = [p for p in seats if p is not None]
    if len(players) <= slot.advance:
        if result is not None:
            raise DrawError("result_for_bye", f"Slot {slot.key} is decided by a bye.")
        return SlotState(slot.key, "bye", tuple(seats), order(players, None))
    if result is None:
        return SlotState(slot.key, "ready", tuple(seats))
    reported = set(result.placements) | result.forfeited
    overlap = set(result.placements) & result.forfeited
    walkover = not result.placements and result.forfeited <= set(players)
    if walkover and len(players) - len(result.forfeited) > slot.advance:
        return SlotState(slot.key, "ready", tuple(seats))  # the others still play
    if overlap or not (walkover or reported == set(players)):
        raise DrawError(
            "result_players",
            f"The result for {slot.key} names {sorted(reported)}; "
            f"seated there are {sorted(players)}.",
        )
    return SlotState(slot.key, "played", tuple(seats), order(players, result))


def _reset_needed(final: SlotState) -> bool:
    """A reset is played only when the losers-bracket player (second seat) won the final; while
    the final is undecided the reset counts as needed, so it waits."""
    if not final.decided:
        return True
    challenger = final.seats[1] if len(final.seats) > 1 else None
    return final.status == "played" and challenger is not None and final.order[0] == challenger


def _ranking(bracket: Bracket, states: Mapping[str, SlotState]) -> tuple[tuple[PlayerId, ...], ...]:
    """The final ranking: a player's run ends in the last slot that places them; later levels
    rank higher, then better places there; players equal on both share a tier, by seed."""
    finish: dict[PlayerId, tuple[int, int]] = {}
    for slot in bracket.slots:
        for place, player in enumerate(states[slot.key].order):
            finish[player] = (-slot.level, place)
    seeds = {player: seed for seed, player in enumerate(bracket.participants)}
    tiers: dict[tuple[int, int], list[PlayerId]] = defaultdict(list)
    for player in sorted(finish, key=lambda p: (finish[p], seeds[p])):
        tiers[finish[player]].append(player)
    return tuple(tuple(tiers[key]) for key in sorted(tiers))
