"""Each player's chance to win a Yardkle game of 2 to 10 players, from any point of it.

RULES.md, "Yardkle": "Turn", "Entering the game", and "End" (once a player's banked score
reaches the target, every other player gets exactly one more turn, in seat order; the highest
score wins; equal scores share the placement). The model (docs/analysis.md, "Win probability:
Yardkle, three or more players"):

1. Every normal turn is played to maximise the points banked (`TurnStrategy`), so each
   player's banked points per turn have an exact distribution (`yardkle_turns`), one for a
   player on the board and one off it, and players' scores are independent Markov chains.
2. `RaceTables` precompute, from every score below the target and for every number of turns
   `k`: the chance not to have reached the target (`alive`), to reach it first at turn `k` with
   each score (`reach`), and, having not reached it, to beat a given leader in one final-round
   turn played to pass the leader, a tie counting half (`beat_odds` and `tie_odds`, exact
   from `TurnStrategy(need=..., tie=TIE)`). With `style="weak"` both kinds of turn are
   `weak_policy`'s instead. A player can be valued as a mixture of the two styles (`weak=`,
   the chance that they are `weak`, from `yardkle_style`): the two tables' rows are mixed.
3. The first player to reach the target is found by seat order; then the final round is a
   chain over the other players: each beats the current leader with its exact chance, and the
   new leader's score is taken as the old one plus `OVERSHOOT` (the one approximation in the
   final round; its error is measured with the rest, see `calibrate_yardkle`). A player who
   ties the leader shares the placement (RULES.md, "End"): the chain counts the tie as taking
   the lead at the same score with chance 1/2, which gives each of two tied players half of
   what is left when no later player passes them (exact for two; three tied get 1/2, 1/4, 1/4
   instead of thirds, a case far rarer than the tie itself).
"""

from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import cache
from math import ceil
from typing import Any, Final

import numpy as np

from scoring.analysis.rolls import FloatArray, IntArray
from scoring.analysis.yardkle import STEP, TIE, TurnStrategy
from scoring.game import invalid_state
from scoring.winprob.yardkle_style import WEIGHT, weak_shares
from scoring.winprob.yardkle_turns import (
    Style,
    TurnPolicy,
    banked_distribution,
    policy_of,
    turn_distribution,
    weak_policy,
)
from scoring.yardkle import DICE, YardkleRules

ABOVE: Final = 40
"""Scores from the target up are kept in this many steps of 50; higher ones are lumped."""
WINDOW: Final = 16
"""The batch (`win_probabilities_batch`) looks only at the 16 consecutive turns of the first
player to reach the target that hold the most of its chance, and renormalises; against all
turns that moves a chance by at most 0.0002 (6 players) to 0.0011 (3 players) on random
positions. `win_probabilities` looks at every turn."""
OVERSHOOT: Final = 7
"""Steps of 50 by which a final-round player who beats the leader ends above the old lead
(the mean of the exact distribution for a need of 1,001 is 7.4 steps)."""
_CHUNK: Final = 32
"""Positions per NumPy pass of the batch: small enough to stay in the cache."""
_ALIVE_EPSILON: Final = 1e-10
MAX_PLAYERS: Final = 10


@cache
def final_turn_policy(
    rules: YardkleRules, on_board: bool, behind: int, style: Style = "points"
) -> TurnPolicy:
    """A final-round turn `behind` steps of 50 behind the leader: to pass them, a tie worth
    half (`points`), or throwing until ahead (`weak`). Its rows reach one step past the need
    (off the board, the entry minimum): from there every choice is the same (bank after any
    set-aside that leaves a die)."""
    need = behind * STEP + 1
    top = behind + 2 if on_board else max(behind + 2, ceil(rules.entry_minimum / STEP) + 1)
    if style == "points":
        return policy_of(TurnStrategy(rules, on_board, need=need, tie=TIE), top)
    return weak_policy(rules, on_board, top, need=need)


@cache
def final_turn_odds(
    rules: YardkleRules, on_board: bool, behind: int, style: Style = "points"
) -> tuple[float, float]:
    """The chances that one final-round turn banks more than `behind` steps of 50 (the
    leader's lead), and exactly that (a tie): played to pass the leader with a tie worth half
    (`TurnStrategy(need=..., tie=TIE)`: it banks a tie when throwing on is worth less), or by a
    weak player throwing until ahead (`weak_policy(need=...)`, which never banks a tie). The
    last bin of the distribution lumps every total from the need up."""
    policy = final_turn_policy(rules, on_board, behind, style)
    # Short of the leader (0), equal (1), past (2).
    fold = np.clip(np.arange(policy.levels) - behind + 1, 0, 2)
    banked = banked_distribution(policy, policy.levels, fold).start
    return float(banked[2]), float(banked[1])


@cache
def final_odds(rules: YardkleRules, style: Style) -> FloatArray:
    """`final_turn_odds` as a table, `[on_board, behind]`, for every lead a player below the
    target can face from a leader up to `ABOVE` steps past it (behind 0 cannot happen)."""
    if (shipped := SHIPPED.get((rules, style))) is not None:
        return shipped[1]
    top = ceil(rules.target / STEP) + ABOVE
    table = np.zeros((2, top + 1, 2))
    for on_board in (0, 1):
        for behind in range(1, top + 1):
            table[on_board, behind] = final_turn_odds(rules, bool(on_board), behind, style)
    return table


@dataclass(frozen=True, slots=True)
class RaceTables:
    """Per score level `s` below the target level `goal`, per number of own turns `k`:
    `alive[s, k]` (target not reached), `reach[s, k, x]` (first reached at turn `k`, with
    score level `goal + x`), `beat_odds[s, k, m]` (given not reached in `k` turns, the chance
    that a final-round turn then beats a leader at level `goal + m`) and `tie_odds` (that it
    ties them); `success[s, m]` and `tie[s, m]` are that last turn alone. `reach` and the odds
    are single precision: the calibration reads them millions of times, and their rounding
    (1e-7) is far below the model's error."""

    goal: int
    alive: FloatArray
    reach: FloatArray
    beat_odds: FloatArray
    tie_odds: FloatArray
    success: FloatArray
    tie: FloatArray

    def padded(self, horizon: int) -> "RaceTables":
        """The same tables run to `horizon` turns (nothing is left alive past their own)."""
        more = horizon - self.alive.shape[1]
        if more <= 0:
            return self
        grown: dict[str, Any] = {
            name: np.pad(table, [(0, 0), (0, more)] + [(0, 0)] * (table.ndim - 2))
            for name in ("alive", "reach", "beat_odds", "tie_odds")
            if (table := getattr(self, name)) is not None
        }
        return replace(self, **grown)


SHIPPED: dict[tuple[YardkleRules, Style], tuple[RaceTables, FloatArray]] = {}
"""A style's tables and final odds read from a file, used instead of building them: by ruleset
and style (`yardkle_race_file.YardkleRaceTables.install`)."""


@cache
def race_tables(rules: YardkleRules, style: Style = "points") -> RaceTables:
    """Build the tables (4 to 14 s by the load; cached per ruleset and style), or take those
    read from a file (`SHIPPED`). `style` is how the players play their normal turns (the
    final round is always played to beat the leader)."""
    if (shipped := SHIPPED.get((rules, style))) is not None:
        return shipped[0]
    goal = ceil(rules.target / STEP)
    bins = goal + ABOVE
    move = np.zeros((goal, goal))
    arrive = np.zeros((goal, ABOVE))
    for level in range(goal):
        turn = turn_distribution(rules, level > 0, bins, style).start
        dest = level + np.arange(bins)
        below = dest < goal
        move[level, dest[below]] += turn[below]
        np.add.at(arrive[level], np.minimum(dest[~below] - goal, ABOVE - 1), turn[~below])
    final = np.array(
        [
            [final_turn_odds(rules, level > 0, goal + m - level, style) for m in range(ABOVE)]
            for level in range(goal)
        ]
    )
    success, tie = final[..., 0], final[..., 1]
    alive, reach, beats, ties = [], [np.zeros((goal, ABOVE))], [], []
    state = np.eye(goal)
    while True:
        alive.append(state.sum(axis=1))
        beats.append(state @ success)
        ties.append(state @ tie)
        if alive[-1].max() < _ALIVE_EPSILON:
            break
        reach.append(state @ arrive)
        state = state @ move
    still = np.stack(alive, axis=1)
    scale = np.maximum(still, 1e-300)[..., None]
    odds = np.stack(beats, axis=1) / scale
    tie_odds = np.stack(ties, axis=1) / scale
    return RaceTables(
        goal=goal,
        alive=still,
        reach=np.stack(reach, axis=1).astype(np.float32),
        beat_odds=np.minimum(odds, 1.0).astype(np.float32),
        tie_odds=np.minimum(tie_odds, 1.0).astype(np.float32),
        success=success,
        tie=tie,
    )


GRADES: Final = 4
"""The batch's mixtures: a player's evidence, in telling choices (`yardkle_style.WEIGHT`), from
`-GRADES` to `GRADES`; beyond, the chance of `weak` is within 4e-5 of 0 or 1."""


def graded_shares() -> FloatArray:
    """The chance of `weak` at each grade of evidence, `-GRADES` to `GRADES`."""
    return weak_shares(np.arange(-GRADES, GRADES + 1, dtype=np.float64) * WEIGHT)


def grade_of(weak: FloatArray) -> IntArray:
    """The grade (an index into `graded_shares()`) nearest each chance of `weak`."""
    grades = graded_shares()
    found: IntArray = np.abs(np.asarray(weak)[..., None] - grades).argmin(axis=-1)
    return found


def _mix(points: RaceTables, weak: RaceTables, q: FloatArray) -> RaceTables:
    """The rows of a player who is `weak` with chance `q` (per row, or one for all): `alive`
    and `reach` weighted `1 - q` and `q`, the final round's odds weighted by each style's
    chance of still being below the target. A player's chances are linear in their own row
    (the players' turns are independent), so this is exact for the mixture."""
    q = np.asarray(q, dtype=np.float64).reshape(-1, *([1] * (points.alive.ndim - 1)))
    p, w = (1 - q) * points.alive, q * weak.alive
    alive = p + w
    scale = np.maximum(alive, 1e-300)[..., None]

    def odds(mine: FloatArray, theirs: FloatArray) -> FloatArray:
        return ((p[..., None] * mine + w[..., None] * theirs) / scale).astype(np.float32)

    flat = q.reshape(-1, 1)
    return RaceTables(
        goal=points.goal,
        alive=alive,
        reach=((1 - q[..., None]) * points.reach + q[..., None] * weak.reach).astype(np.float32),
        beat_odds=odds(points.beat_odds, weak.beat_odds),
        tie_odds=odds(points.tie_odds, weak.tie_odds),
        success=(1 - flat) * points.success + flat * weak.success,
        tie=(1 - flat) * points.tie + flat * weak.tie,
    )


@cache
def graded_tables(rules: YardkleRules) -> RaceTables:
    """The two styles' tables mixed (`_mix`) at every grade of `graded_shares()`, one block of
    `goal` rows per grade (grade `g`, score level `s`: row `g * goal + s`), for the batch."""
    points, weak = style_tables(rules)
    blocks = [_mix(points, weak, np.full(points.goal, q)) for q in graded_shares()]
    return RaceTables(
        goal=points.goal,
        alive=np.concatenate([b.alive for b in blocks]),
        reach=np.concatenate([b.reach for b in blocks]),
        beat_odds=np.concatenate([b.beat_odds for b in blocks]),
        tie_odds=np.concatenate([b.tie_odds for b in blocks]),
        success=np.concatenate([b.success for b in blocks]),
        tie=np.concatenate([b.tie for b in blocks]),
    )


@cache
def style_tables(rules: YardkleRules) -> tuple[RaceTables, RaceTables]:
    """The `points` and the `weak` tables, run to the same number of turns (to mix them)."""
    points, weak = race_tables(rules, "points"), race_tables(rules, "weak")
    horizon = max(points.alive.shape[1], weak.alive.shape[1])
    return points.padded(horizon), weak.padded(horizon)


def _shift_up(mass: FloatArray, steps: int) -> FloatArray:
    """`mass` over leader levels moved up by `steps`, the top level keeping what passes it."""
    shifted = np.zeros_like(mass)
    shifted[..., steps:] = mass[..., :-steps]
    shifted[..., -1] += mass[..., -steps:].sum(axis=-1)
    return shifted


def _race(tables: RaceTables, rows: IntArray, window: int) -> FloatArray:
    """Chances to win for a batch of positions before anyone reached the target.

    `rows[b, i]` is the table row of the player `i` places after the one to move (0 is the
    mover); the result is in the same order. `tables` are a style's, a mixture's
    (`graded_tables`), or one position's rows (`win_probabilities`)."""
    batch, players = rows.shape
    alive_now = tables.alive[rows]  # (batch, players, k)
    horizon = alive_now.shape[2]
    # k_q for the finisher's turn t (index t - 1 below): t for those before it, t - 1 after.
    at_t = alive_now[:, :, 1:]
    at_t_before = alive_now[:, :, :-1]
    before = np.cumprod(np.concatenate([np.ones_like(at_t[:, :1]), at_t[:, :-1]], axis=1), axis=1)
    after_rev = np.cumprod(
        np.concatenate([np.ones_like(at_t[:, :1]), at_t_before[:, :0:-1]], axis=1), axis=1
    )
    after = after_rev[:, ::-1]
    others = before * after
    first = (at_t_before - at_t) * others  # (batch, finisher, t - 1)
    total = first.sum(axis=1)
    # The window of turns holding the most of that chance.
    width = min(window, horizon - 1)
    cumulative = np.concatenate([np.zeros((batch, 1)), np.cumsum(total, axis=1)], axis=1)
    start = np.argmax(cumulative[:, width:] - cumulative[:, :-width], axis=1)
    turns = start[:, None] + np.arange(width) + 1  # (batch, window): the finisher's turn t
    b = np.arange(batch)[:, None, None]
    finisher = np.arange(players)[None, :, None]
    t = turns[:, None, :]
    lead = tables.reach[rows[:, :, None], t] * others[b, finisher, t - 1][..., None]
    captured = lead.sum(axis=(1, 2, 3))
    chance = np.zeros((batch, players))
    # The final round: position r + m (mod players) plays its last turn, m = 1 .. players - 1.
    # A tie takes the lead at the same level with chance 1/2 (a share, module docstring).
    odds = []
    for m in range(1, players):
        seat = (np.arange(players) + m) % players  # per finisher r
        turns_done = np.where(seat > np.arange(players), 0, 1)[None, :, None] + t - 1
        mine = rows[:, seat][:, :, None]
        odds.append((tables.beat_odds[mine, turns_done], tables.tie_odds[mine, turns_done]))
    fail_after = [np.ones_like(lead)]
    for beat, tie in odds[::-1]:
        fail_after.append(fail_after[-1] * (1.0 - beat - TIE * tie))
    fail_after = fail_after[::-1]  # fail_after[m]: every final player after step m fails
    chance += (lead * fail_after[0]).sum(axis=(2, 3))
    leader = lead
    for m, (beat, tie) in enumerate(odds, start=1):
        tied = leader * (TIE * tie)
        won = _shift_up(leader * beat, OVERSHOOT) + tied
        gained = (won * fail_after[m]).sum(axis=(2, 3))
        for r in range(players):
            chance[:, (r + m) % players] += gained[:, r]
        leader = leader * (1.0 - beat) + won - tied  # a tie leaves the level as it was
    found: FloatArray = chance / captured[:, None]
    return found


def win_probabilities_batch(
    scores: IntArray,
    to_move: IntArray,
    rules: YardkleRules | None = None,
    window: int = WINDOW,
    style: Style = "points",
    weak: FloatArray | None = None,
) -> FloatArray:
    """`win_probabilities` for many positions at once, each at the start of a turn before the
    final round: `scores[b]` by seat (multiples of 50, all below the target), `to_move[b]` the
    seat about to play, `weak[b]` (if given, by seat) each player's chance of being `weak`
    (else all play `style`), taken at the nearest of `graded_shares()` (exact for the chances
    `yardkle_style` gives evidence of up to `GRADES` telling choices either way, within 4e-5
    beyond). Fast enough for the calibration's millions of positions."""
    rules = rules or YardkleRules()
    levels = np.asarray(scores) // STEP
    if weak is None:
        tables = race_tables(rules, style)
    else:
        tables = graded_tables(rules)
        levels = levels + grade_of(weak) * tables.goal
    batch, players = levels.shape
    order = (np.asarray(to_move)[:, None] + np.arange(players)) % players
    rows = np.take_along_axis(levels, order, axis=1)
    found = np.empty((batch, players))
    for low in range(0, batch, _CHUNK):
        high = low + _CHUNK
        part = _race(tables, rows[low:high], window)
        np.put_along_axis(found[low:high], order[low:high], part, axis=1)
    return found


def _read_position(
    scores: Sequence[int],
    to_move: int,
    turn_total: int,
    dice_left: int,
    final_round_from: int | None,
    rules: YardkleRules,
) -> list[int]:
    """The scores in steps of 50, after checking the position is one a game can reach."""
    players = len(scores)
    if not 2 <= players <= MAX_PLAYERS:
        raise invalid_state("scores", f"has {players} players, not 2 to {MAX_PLAYERS}")
    for score in scores:
        if type(score) is not int or score < 0 or score % STEP:
            raise invalid_state("scores", f"holds {score!r}, not a banked score (0, 50, 100 ...)")
    if type(to_move) is not int or not 0 <= to_move < players:
        raise invalid_state("to_move", f"{to_move!r} is not a seat from 0 to {players - 1}")
    if type(turn_total) is not int or turn_total < 0 or turn_total % STEP:
        raise invalid_state("turn_total", f"{turn_total!r} is not a turn total (0, 50, 100 ...)")
    if type(dice_left) is not int or not 0 <= dice_left <= DICE:
        raise invalid_state("dice_left", f"{dice_left!r} is not 0 to {DICE} dice")
    if turn_total == 0 and dice_left != DICE:
        raise invalid_state("dice_left", "is not 6 at the start of a turn (turn total 0)")
    reached = [seat for seat, score in enumerate(scores) if score >= rules.target]
    if final_round_from is None:
        if reached:
            raise invalid_state("final_round_from", "is empty but a score reached the target")
    elif final_round_from not in reached:
        raise invalid_state("final_round_from", "is not a seat that reached the target")
    return [score // STEP for score in scores]


def _turn_in_progress(
    tables: RaceTables,
    rules: YardkleRules,
    level: int,
    turn_level: int,
    dice_left: int,
    style: Style,
) -> RaceTables:
    """One row of tables for the mover whose turn is in progress: its banked points this turn
    (exact, `turn_distribution`) followed by the tables."""
    bins = tables.goal + ABOVE
    dist = turn_distribution(rules, level > 0, bins, style)
    if turn_level >= bins:
        turn_level = bins - 1
    banked = dist.throw[0, DICE] if turn_level == 0 else dist.after[turn_level, dice_left % DICE]
    dest = level + np.arange(bins)
    below = np.zeros(tables.goal)
    np.add.at(below, dest[dest < tables.goal], banked[dest < tables.goal])
    over = np.zeros(ABOVE)
    np.add.at(
        over,
        np.minimum(dest[dest >= tables.goal] - tables.goal, ABOVE - 1),
        banked[dest >= tables.goal],
    )
    alive = np.concatenate([[1.0], below @ tables.alive[:, :-1]])
    reach = np.zeros_like(tables.reach[0])
    reach[1] = over
    reach[2:] = np.einsum("s,skx->kx", below, tables.reach[:, 1:-1])
    scale = np.maximum(alive[1:], 1e-300)[:, None]
    weights = below[:, None] * tables.alive[:, :-1]
    odds = []
    for table, now in ((tables.beat_odds, tables.success), (tables.tie_odds, tables.tie)):
        row = np.empty_like(table[0])
        row[0] = now[level]
        row[1:] = np.einsum("sk,skm->km", weights, table[:, :-1]) / scale
        odds.append(np.minimum(row, 1.0))
    return RaceTables(
        goal=tables.goal,
        alive=alive[None],
        reach=reach[None],
        beat_odds=odds[0][None],
        tie_odds=odds[1][None],
        success=tables.success[level][None],
        tie=tables.tie[level][None],
    )


def _rows(tables: RaceTables, levels: list[int], mover: RaceTables | None) -> RaceTables:
    """The tables' rows of these score levels, in this order (the first replaced by the
    mover's turn in progress, if any): all `_race` reads for one position."""
    picked = [
        np.asarray(getattr(tables, name))[levels]
        for name in ("alive", "reach", "beat_odds", "tie_odds", "success", "tie")
    ]
    if mover is not None:
        for table, name in zip(
            picked, ("alive", "reach", "beat_odds", "tie_odds", "success", "tie"), strict=True
        ):
            table[0] = getattr(mover, name)[0]
    alive, reach, beat, tie, success, ties = picked
    return RaceTables(tables.goal, alive, reach, beat, tie, success, ties)


def _read_weak(weak: Sequence[float] | None, players: int) -> list[float] | None:
    """Each seat's chance of being `weak` (0 to 1), if given."""
    if weak is None:
        return None
    shares = list(weak)
    if len(shares) != players or not all(
        isinstance(q, int | float) and 0.0 <= q <= 1.0 for q in shares
    ):
        raise invalid_state("weak", f"is not a chance from 0 to 1 for each of the {players} seats")
    return [float(q) for q in shares]


def final_round_chances(
    rules: YardkleRules,
    levels: list[int],
    to_move: int,
    final_round_from: int,
    turn_level: int,
    dice_left: int,
    style: Style = "points",
    weak: Sequence[float] | None = None,
) -> list[float]:
    """The final round in progress (RULES.md, "End"): the players from `to_move` up to the one
    who reached the target each play one turn to pass the leader; a player who does leads by
    `OVERSHOOT` more (exactly, for a mover who banks now); one who ties takes the lead at the
    same score with chance 1/2 (a share, module docstring). If no one passes, the leaders share
    the win. `weak` (by seat) mixes each player's final turn of the two styles."""
    players = len(levels)
    to_play = []
    seat = to_move
    while seat != final_round_from:
        to_play.append(seat)
        seat = (seat + 1) % players
    top = max(levels)
    leaders = [seat for seat, level in enumerate(levels) if level == top]
    span = ABOVE

    def turn_odds(seat: int, style: Style) -> FloatArray:
        on_board = levels[seat] > 0
        behind = top + np.arange(span) - levels[seat]
        known = final_odds(rules, style)[int(on_board)]
        if behind[-1] < len(known):
            found: FloatArray = known[behind]
            return found
        return np.array([final_turn_odds(rules, on_board, int(b), style) for b in behind])

    if weak is None:
        odds = np.array([turn_odds(seat, style) for seat in to_play]).reshape(-1, span, 2)
    else:
        odds = np.array(
            [
                (1 - weak[seat]) * turn_odds(seat, "points") + weak[seat] * turn_odds(seat, "weak")
                for seat in to_play
            ]
        ).reshape(-1, span, 2)
    beats, ties = odds[..., 0], odds[..., 1]
    exact_to: int | None = None
    if to_play and (turn_level, dice_left) != (0, DICE):
        # The mover's turn in progress, played to pass (a tie worth half): its chance, all
        # counted as passing (at the tie total, banking is worth the half exactly).
        behind = top - levels[to_move]
        strategy = TurnStrategy(rules, levels[to_move] > 0, need=behind * STEP + 1, tie=TIE)
        total = turn_level * STEP
        throws = dice_left or DICE
        value = strategy.throw_value(total, throws)
        if 0 < dice_left < DICE and strategy.can_bank(total):
            if strategy.bank_value(total) >= value:
                exact_to = min(levels[to_move] + turn_level - top, span - 1)
            value = max(value, strategy.bank_value(total))
        beats[0, 0], ties[0, 0] = value, 0.0
    fail_after = [np.ones(span)]
    for beat, tie in zip(beats[::-1], ties[::-1], strict=True):
        fail_after.append(fail_after[-1] * (1.0 - beat - TIE * tie))
    fail_after = fail_after[::-1]
    chance = [0.0] * players
    for seat in leaders:
        chance[seat] = float(fail_after[0][0]) / len(leaders)
    leader = np.zeros(span)
    leader[0] = 1.0
    for step, (seat, beat, tie) in enumerate(zip(to_play, beats, ties, strict=True)):
        tied = leader * (TIE * tie)
        if step == 0 and exact_to is not None:
            won = np.zeros(span)
            won[exact_to] = float(leader[0] * beat[0])
        else:
            won = _shift_up(leader * beat, OVERSHOOT)
        won = won + tied
        chance[seat] += float((won * fail_after[step + 1]).sum())
        leader = leader * (1.0 - beat) + won - tied  # a tie leaves the level as it was
    return chance


def win_probabilities(
    scores: Sequence[int],
    to_move: int,
    turn_total: int = 0,
    dice_left: int = DICE,
    final_round_from: int | None = None,
    rules: YardkleRules | None = None,
    style: Style = "points",
    weak: Sequence[float] | None = None,
) -> list[float]:
    """Each seat's chance to win (a shared first place counts as a share), for 2 to 10 players
    (RULES.md, "Yardkle", "End"; the model is in the module docstring).

    `scores` are the banked scores by seat; `to_move` the seat whose turn it is; `turn_total`
    and `dice_left` where that turn stands after a set-aside (0 and 6 before its first throw;
    0 or 6 dice left after hot dice); `final_round_from` the seat that reached the target, once
    one has (the game's `final_round_by`); `style` how the players play their normal turns
    (`points`, the default, or `weak`: `yardkle_turns.weak_policy`), or `weak`, by seat, each
    player's chance of playing `weak` (`yardkle_style.estimate`: the two styles mixed)."""
    rules = rules or YardkleRules()
    levels = _read_position(scores, to_move, turn_total, dice_left, final_round_from, rules)
    shares = _read_weak(weak, len(levels))
    if final_round_from is not None:
        return final_round_chances(
            rules, levels, to_move, final_round_from, turn_total // STEP, dice_left, style, shares
        )
    players = len(levels)
    order = [(to_move + i) % players for i in range(players)]
    ordered = [levels[seat] for seat in order]
    in_progress = turn_total or dice_left != DICE
    if shares is None:
        tables = [race_tables(rules, style)]
        styles: list[Style] = [style]
    else:
        tables = list(style_tables(rules))
        styles = ["points", "weak"]
    picked = []
    for table, kind in zip(tables, styles, strict=True):
        mover = None
        if in_progress:
            mover = _turn_in_progress(
                table, rules, levels[to_move], turn_total // STEP, dice_left, kind
            )
        picked.append(_rows(table, ordered, mover))
    if shares is None:
        rows_of = picked[0]
    else:
        rows_of = _mix(picked[0], picked[1], np.array([shares[seat] for seat in order]))
    rows = np.arange(players)[None]
    found = _race(rows_of, rows, rows_of.alive.shape[1])[0]
    chance = [0.0] * players
    for place, seat in enumerate(order):
        chance[seat] = float(found[place])
    return chance
