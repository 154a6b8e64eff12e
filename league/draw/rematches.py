"""Rematches in the losers bracket of a double elimination: how the drop orders were chosen and
how they fare (docs/draw.md, "Double elimination").

    python -m league.draw.rematches [--events N]   # the table of figures in docs/draw.md
    python -m league.draw.rematches --byes         # masks and figures with byes (minutes)

A losers-bracket match is a rematch when its two players met before (in the winners bracket:
two players meet at most once in the losers bracket, since the loser there is out). With
results at random (every match a coin toss), the expected number of rematches of a full
bracket of 2 ** R entrants can be computed exactly:

- whoever drops from winners match m of round b (its "source") survives the losers bracket
  up to a given slot with a probability that depends only on losers-bracket results: 1/2 a match;
- the players from sources (a, m) and (b, n), a < b, met before exactly when n's loser beat
  m's loser, which for m inside n's part of the bracket has probability 2 ** (a - b) (it must
  have won its rounds a + 1 to b - 1, then lost round b), and is 0 otherwise;
- winners-bracket and losers-bracket results are independent, so the chance of a rematch at a
  slot is the sum over pairs of sources of those probabilities multiplied.

`expected_rematches` computes it for any drop orders (one XOR mask per drop-in round), and
`best_masks` searches them (all combinations up to 64 entrants, a descent beyond); `drop_masks`
in `elimination.py` holds the result. `measure` plays seeded random events through
`advance_bracket`, byes included, and counts.
"""

import argparse
import itertools
import random
from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np
import numpy.typing as npt

from league.draw.advancement import advance_bracket
from league.draw.elimination import double_elimination, drop_masks, link_slots
from league.draw.model import Bracket, SlotResult, Source

Masks = tuple[int, ...]


def alternate_masks(rounds: int) -> Masks:
    """The drop orders used before issue 20: every other drop-in round reversed (the losers
    of winners round 2 reversed, of round 3 in order, and so on)."""
    return tuple(2 ** (rounds - step - 1) - 1 if step % 2 else 0 for step in range(1, rounds))


class _Sources:
    """Every winners-bracket match of a full bracket of 2 ** `rounds`, as an index, and the
    chance that the losers of two of them met before."""

    def __init__(self, rounds: int) -> None:
        self.rounds = rounds
        self.index = {
            (r, m): i
            for i, (r, m) in enumerate(
                (r, m) for r in range(1, rounds + 1) for m in range(2 ** (rounds - r))
            )
        }
        size = len(self.index)
        self.met = np.zeros((size, size))
        for (a, m), i in self.index.items():
            for (b, n), j in self.index.items():
                if a < b and m >> (b - a) == n:
                    self.met[i, j] = self.met[j, i] = 2.0 ** (a - b)

    def losers(self, round_: int, matches: Sequence[int]) -> npt.NDArray[np.float64]:
        """One row per match: the loser of winners match `m` of `round_`, surely."""
        rows = np.zeros((len(matches), len(self.index)))
        for row, match in enumerate(matches):
            rows[row, self.index[round_, match]] = 1.0
        return rows

    def rematches(self, one: npt.NDArray[np.float64], other: npt.NDArray[np.float64]) -> float:
        """Expected rematches over slots whose players come from these source rows."""
        return float(np.einsum("ik,kl,il->", one, self.met, other))


def expected_rematches(rounds: int, masks: Masks, byes: Sequence[bool] = ()) -> tuple[float, float]:
    """Expected losers-bracket rematches of a full bracket of 2 ** `rounds` entrants, results
    at random, with these drop masks: in all, and in the drop-in rounds alone."""
    sources = _Sources(rounds)
    state = _first_round(sources, byes)
    for mask in masks:
        state = _drop_in(sources, state, mask)
    return state.total, state.drop_in


@dataclass(frozen=True, slots=True)
class _State:
    """The losers bracket so far: expected rematches, and where its survivors come from."""

    total: float
    drop_in: float
    survivors: npt.NDArray[np.float64]
    present: npt.NDArray[np.bool_]
    masks: Masks = ()


def _first_round(sources: _Sources, byes: Sequence[bool] = ()) -> _State:
    """Losers round 1; `byes` marks the winners round-1 matches that are byes (no loser: one
    player, who goes on unopposed), none when empty."""
    pairs = 2 ** (sources.rounds - 2)
    played = np.array([not bye for bye in byes] if byes else [True] * 2 * pairs)
    losers = sources.losers(1, range(2 * pairs)) * played[:, None]
    survivors, present, total = _meet(
        sources, losers[0::2], played[0::2], losers[1::2], played[1::2]
    )
    return _State(total, 0.0, survivors, present)


def _meet(
    sources: _Sources,
    one: npt.NDArray[np.float64],
    one_present: npt.NDArray[np.bool_],
    other: npt.NDArray[np.float64],
    other_present: npt.NDArray[np.bool_],
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.bool_], float]:
    """Slots meeting these rows (a row of zeros when nobody comes: the other goes on without a
    match): where their winners come from, whether anyone does, and the expected rematches."""
    both = (one_present & other_present)[:, None]
    survivors = np.where(both, (one + other) / 2, one + other)
    return survivors, one_present | other_present, sources.rematches(one, other)


def _drop_in(sources: _Sources, state: _State, mask: int) -> _State:
    """The state after the next drop-in round with this mask, and the halving round after it."""
    step = len(state.masks) + 1
    count = 2 ** (sources.rounds - step - 1)
    dropped = sources.losers(step + 1, [i ^ mask for i in range(count)])
    everyone = np.ones(count, dtype=bool)
    survivors, present, here = _meet(sources, state.survivors, state.present, dropped, everyone)
    total = state.total + here
    if step < sources.rounds - 1:
        survivors, present, halving = _meet(
            sources, survivors[0::2], present[0::2], survivors[1::2], present[1::2]
        )
        total += halving
    return _State(total, state.drop_in + here, survivors, present, (*state.masks, mask))


def best_masks(rounds: int) -> tuple[float, Masks]:
    """The masks with the fewest expected rematches: every combination up to 6 rounds (64
    entrants); beyond, a descent that changes one round's mask at a time while that helps,
    from a few starting points (the draw's masks among them), so the best found, not proved.
    Ties go to the smaller masks, earlier rounds first."""
    sources = _Sources(rounds)
    ranges = [range(2 ** (rounds - step - 1)) for step in range(1, rounds)]
    if rounds <= 6:
        found = [(_total(sources, masks), masks) for masks in itertools.product(*ranges)]
        return min(found, key=lambda item: (round(item[0], 12), item[1]))
    starts = [
        drop_masks(rounds),
        (8,) * (rounds - 5) + (6, 0, 1, 0),
        (4,) * (rounds - 6) + (8, 6, 1, 1, 0),
    ]
    descended = []
    for start in starts:
        best, cost, better = list(start), _total(sources, start), True
        while better:
            better = False
            for step, masks in enumerate(ranges):
                for mask in masks:
                    trial = (*best[:step], mask, *best[step + 1 :])
                    total = _total(sources, trial)
                    if total < cost - 1e-12:
                        best, cost, better = list(trial), total, True
        descended.append((cost, tuple(best)))
    return min(descended, key=lambda item: (round(item[0], 12), item[1]))


# brackets-manager's default drop orders ("defaultMinorOrdering", past its first entry, which
# orders losers round 1), as masks by the number of winners rounds: natural 0, reverse
# count - 1, half_shift count / 2, pair_flip 1, and reverse_half_shift (each half reversed)
# count / 2 - 1. Some versions of its reverse_half_shift reverse the whole order instead
# (count - 1): `BRACKETS_MANAGER_ALSO` has that reading, for 16 entrants.
BRACKETS_MANAGER_MASKS: dict[int, Masks] = {
    2: (0,),
    3: (1, 0),
    4: (1, 1, 0),
    5: (7, 2, 0, 0),
    6: (15, 4, 1, 0, 0),
    7: (31, 8, 1, 1, 1, 0),
}
BRACKETS_MANAGER_ALSO: dict[int, Masks] = {4: (3, 1, 0)}


def byes_of(players: int) -> tuple[bool, ...]:
    """Which winners round-1 matches of the draw's double elimination of `players` are byes
    (one player, who goes on unopposed), top to bottom."""
    bracket = double_elimination(list(range(1, players + 1)))
    return tuple(
        len(slot.sources) < 2
        for slot in bracket.slots
        if slot.bracket == "winners" and slot.round == 1
    )


def best_masks_with_byes(players: int) -> tuple[float, Masks]:
    """The masks with the fewest expected rematches for the draw's bracket of `players`
    entrants, byes included: every combination of masks (every XOR order per drop-in round,
    which holds brackets-manager's natural, reverse, half_shift, reverse_half_shift and
    pair_flip), up to 64 entrants. Ties go to the masks of the full bracket, then to the
    smaller masks, earlier rounds first."""
    rounds = _rounds(players)
    if rounds > 6:
        raise ValueError("every combination only up to 64 entrants")
    sources = _Sources(rounds)
    byes = byes_of(players)
    full = drop_masks(rounds)
    ranges = [range(2 ** (rounds - step - 1)) for step in range(1, rounds)]
    found = [(_total(sources, masks, byes), masks) for masks in itertools.product(*ranges)]
    return min(found, key=lambda item: (round(item[0], 12), item[1] != full, item[1]))


def _total(sources: _Sources, masks: Masks, byes: Sequence[bool] = ()) -> float:
    state = _first_round(sources, byes)
    for mask in masks:
        state = _drop_in(sources, state, mask)
    return state.total


def with_masks(bracket: Bracket, masks: Masks) -> Bracket:
    """A double-elimination bracket whose drop-in slots take their losers in these orders
    instead (to compare orders on the same bracket)."""
    slots = []
    for slot in bracket.slots:
        if slot.bracket == "losers" and slot.round % 2 == 0:
            step = slot.round // 2
            dropped = ((slot.index - 1) ^ masks[step - 1]) + 1
            slot = replace(slot, sources=(slot.sources[0], Source.loser(f"W{step + 1}-{dropped}")))
        slots.append(replace(slot, exits=()))
    return replace(bracket, slots=link_slots(slots))


def play(bracket: Bracket, rng: random.Random) -> tuple[int, int]:
    """One event with every match a coin toss, through `advance_bracket`: its losers-bracket
    rematches, in all and in the drop-in rounds."""
    results: dict[str, SlotResult] = {}
    met: set[frozenset[int]] = set()
    total = drop_in = 0
    state = advance_bracket(bracket, results)
    while not state.finished:
        for key in state.ready:
            players = state.slots[key].players
            pair = frozenset(players)
            slot = bracket.slot(key)
            if slot.bracket == "losers" and pair in met:
                total += 1
                drop_in += slot.round % 2 == 0
            met.add(pair)
            winner = rng.choice(players)
            results[key] = SlotResult({p: 1 if p == winner else 2 for p in players})
        state = advance_bracket(bracket, results)
    return total, drop_in


def measure(
    players: int, *, events: int, seed: int, masks: Masks | None = None
) -> tuple[float, float]:
    """Mean losers-bracket rematches per event (in all, in the drop-in rounds) over `events`
    seeded random events of `players` entrants (byes included), with the draw's drop orders or
    these masks."""
    bracket = double_elimination(list(range(1, players + 1)))
    if masks is not None:
        bracket = with_masks(bracket, masks)
    rng = random.Random(seed)  # noqa: S311 - a reproducible measurement
    totals = [play(bracket, rng) for _ in range(events)]
    return (
        sum(t for t, _ in totals) / events,
        sum(d for _, d in totals) / events,
    )


def _rounds(players: int) -> int:
    rounds = 1
    while 2**rounds < players:
        rounds += 1
    return rounds


def table(events: int) -> str:
    """The markdown table of docs/draw.md: rematches per event, before and after."""
    lines = [
        "| entrants | before: all | before: drop-in rounds | now: all | now: drop-in rounds "
        "| now, exact (full brackets) |",
        "|---|---|---|---|---|---|",
    ]
    for players in (8, 12, 16, 24, 32, 48, 64, 128, 256):
        rounds = _rounds(players)
        seed = 2026 + players
        before = measure(players, events=events, seed=seed, masks=alternate_masks(rounds))
        now = measure(players, events=events, seed=seed)
        exact = (
            f"{expected_rematches(rounds, drop_masks(rounds))[0]:.3f}"
            if 2**rounds == players
            else ""
        )
        lines.append(
            f"| {players} | {before[0]:.2f} | {before[1]:.2f} | {now[0]:.2f} | {now[1]:.2f} "
            f"| {exact} |"
        )
    return "\n".join(lines)


def byes_table(sizes: Sequence[int] = (6, 10, 12, 17, 18, 19, 20, 21, 22, 24, 48)) -> str:
    """The markdown table of docs/draw.md for brackets with byes: expected rematches (exact,
    every match a coin toss), in all and in the drop-in rounds, with the draw's masks, the
    full bracket's and brackets-manager's."""
    lines = [
        "| entrants | masks | all | drop-in rounds | full bracket's masks: all "
        "| brackets-manager: all | brackets-manager: drop-in rounds |",
        "|---|---|---|---|---|---|---|",
    ]
    for players in sizes:
        rounds = _rounds(players)
        byes = byes_of(players)
        masks = drop_masks(rounds, players)
        ours = expected_rematches(rounds, masks, byes)
        full = expected_rematches(rounds, drop_masks(rounds), byes)
        manager = expected_rematches(rounds, BRACKETS_MANAGER_MASKS[rounds], byes)
        lines.append(
            f"| {players} | {', '.join(map(str, masks))} | {ours[0]:.3f} | {ours[1]:.3f} "
            f"| {full[0]:.3f} | {manager[0]:.3f} | {manager[1]:.3f} |"
        )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m league.draw.rematches")
    parser.add_argument("--events", type=int, default=2000, help="random events per size")
    parser.add_argument("--masks", action="store_true", help="search the masks (slow)")
    parser.add_argument(
        "--byes", action="store_true", help="the masks for brackets with byes, up to 64"
    )
    args = parser.parse_args(argv)
    if args.byes:
        for players in range(5, 65):
            rounds = _rounds(players)
            if 2**rounds != players:
                expected, masks = best_masks_with_byes(players)
                change = "" if masks == drop_masks(rounds) else " (not the full bracket's)"
                print(f"{players} entrants: masks {masks}, {expected:.4f} expected{change}")
        print(byes_table())
        return
    if args.masks:
        for rounds in range(2, 10):
            expected, masks = best_masks(rounds)
            print(f"{2**rounds} entrants: masks {masks}, {expected:.4f} rematches expected")
        return
    print(table(args.events))


if __name__ == "__main__":
    main()
