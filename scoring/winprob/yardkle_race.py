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
   turn played for "bank at least `need`" (`beat_odds`, exact from `TurnStrategy(need=...)`).
   With `style="weak"` both kinds of turn are `weak_policy`'s instead.
3. The first player to reach the target is found by seat order; then the final round is a
   chain over the other players: each beats the current leader with its exact chance, and the
   new leader's score is taken as the old one plus `OVERSHOOT` (the one approximation in the
   final round; its error is measured with the rest, see `calibrate_yardkle`).
"""

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from math import ceil
from typing import Final

import numpy as np

from scoring.analysis.rolls import FloatArray, IntArray
from scoring.analysis.yardkle import STEP, TurnStrategy
from scoring.game import invalid_state
from scoring.winprob.yardkle_turns import (
    Style,
    banked_distribution,
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
def _success(rules: YardkleRules, on_board: bool, behind: int, style: Style = "points") -> float:
    """The chance that one final-round turn banks more than `behind` steps of 50 (the leader's
    lead): played for exactly that (`TurnStrategy(need=...)`), or by a weak player throwing
    until ahead (`weak_policy(need=...)`; the last bin lumps every total from the need up)."""
    need = behind * STEP + 1
    if style == "points":
        return TurnStrategy(rules, on_board, need=need).start_value
    policy = weak_policy(rules, on_board, behind + 2, need=need)
    return float(banked_distribution(policy, behind + 2).start[behind + 1])


@dataclass(frozen=True, slots=True)
class RaceTables:
    """Per score level `s` below the target level `goal`, per number of own turns `k`:
    `alive[s, k]` (target not reached), `reach[s, k, x]` (first reached at turn `k`, with
    score level `goal + x`), `beat_odds[s, k, m]` (given not reached in `k` turns, the chance
    that a final-round turn then beats a leader at level `goal + m`); `success[s, m]` is that
    last turn alone. `reach` and `beat_odds` are single precision: the calibration reads them
    millions of times, and their rounding (1e-7) is far below the model's error."""

    goal: int
    alive: FloatArray
    reach: FloatArray
    beat_odds: FloatArray
    success: FloatArray


@cache
def race_tables(rules: YardkleRules, style: Style = "points") -> RaceTables:
    """Build the tables (4 to 14 s by the load; cached per ruleset and style). `style` is how
    the players play their normal turns (the final round is always played to beat the
    leader)."""
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
    success = np.array(
        [
            [_success(rules, level > 0, goal + m - level, style) for m in range(ABOVE)]
            for level in range(goal)
        ]
    )
    alive, reach, beats = [], [np.zeros((goal, ABOVE))], []
    state = np.eye(goal)
    while True:
        alive.append(state.sum(axis=1))
        beats.append(state @ success)
        if alive[-1].max() < _ALIVE_EPSILON:
            break
        reach.append(state @ arrive)
        state = state @ move
    still = np.stack(alive, axis=1)
    odds = np.stack(beats, axis=1) / np.maximum(still, 1e-300)[..., None]
    return RaceTables(
        goal=goal,
        alive=still,
        reach=np.stack(reach, axis=1).astype(np.float32),
        beat_odds=np.minimum(odds, 1.0).astype(np.float32),
        success=success,
    )


def _shift_up(mass: FloatArray, steps: int) -> FloatArray:
    """`mass` over leader levels moved up by `steps`, the top level keeping what passes it."""
    shifted = np.zeros_like(mass)
    shifted[..., steps:] = mass[..., :-steps]
    shifted[..., -1] += mass[..., -steps:].sum(axis=-1)
    return shifted


def _race(
    alive: FloatArray, reach: FloatArray, beat_odds: FloatArray, rows: IntArray, window: int
) -> FloatArray:
    """Chances to win for a batch of positions before anyone reached the target.

    `rows[b, i]` is the table row of the player `i` places after the one to move (0 is the
    mover); the result is in the same order. Sources are `RaceTables` arrays (or with rows
    appended for a turn in progress)."""
    batch, players = rows.shape
    horizon = alive.shape[1]
    alive_now = alive[rows]  # (batch, players, k)
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
    lead = reach[rows[:, :, None], t] * others[b, finisher, t - 1][..., None]
    captured = lead.sum(axis=(1, 2, 3))
    chance = np.zeros((batch, players))
    # The final round: position r + m (mod players) plays its last turn, m = 1 .. players - 1.
    odds = []
    for m in range(1, players):
        seat = (np.arange(players) + m) % players  # per finisher r
        turns_done = np.where(seat > np.arange(players), 0, 1)[None, :, None] + t - 1
        mine = rows[:, seat][:, :, None]
        odds.append(beat_odds[mine, turns_done])
    fail_after = [np.ones_like(lead)]
    for beat in odds[::-1]:
        fail_after.append(fail_after[-1] * (1.0 - beat))
    fail_after = fail_after[::-1]  # fail_after[m]: every final player after step m fails
    chance += (lead * fail_after[0]).sum(axis=(2, 3))
    leader = lead
    for m, beat in enumerate(odds, start=1):
        won = _shift_up(leader * beat, OVERSHOOT)
        gained = (won * fail_after[m]).sum(axis=(2, 3))
        for r in range(players):
            chance[:, (r + m) % players] += gained[:, r]
        leader = leader * (1.0 - beat) + won
    found: FloatArray = chance / captured[:, None]
    return found


def win_probabilities_batch(
    scores: IntArray,
    to_move: IntArray,
    rules: YardkleRules | None = None,
    window: int = WINDOW,
    style: Style = "points",
) -> FloatArray:
    """`win_probabilities` for many positions at once, each at the start of a turn before the
    final round: `scores[b]` by seat (multiples of 50, all below the target), `to_move[b]` the
    seat about to play. Fast enough for the calibration's millions of positions."""
    tables = race_tables(rules or YardkleRules(), style)
    levels = np.asarray(scores) // STEP
    batch, players = levels.shape
    order = (np.asarray(to_move)[:, None] + np.arange(players)) % players
    rows = np.take_along_axis(levels, order, axis=1)
    found = np.empty((batch, players))
    for low in range(0, batch, _CHUNK):
        high = low + _CHUNK
        part = _race(tables.alive, tables.reach, tables.beat_odds, rows[low:high], window)
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
) -> tuple[FloatArray, FloatArray, FloatArray]:
    """Rows of `alive`, `reach` and `beat_odds` for the mover whose turn is in progress: its
    banked points this turn (exact, `turn_distribution`) followed by the tables."""
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
    odds = np.empty_like(tables.beat_odds[0])
    odds[0] = tables.success[level]
    weighted = tables.beat_odds[:, :-1] * tables.alive[:, :-1, None]
    odds[1:] = np.einsum("s,skm->km", below, weighted) / np.maximum(alive[1:], 1e-300)[:, None]
    return alive, reach, np.minimum(odds, 1.0)


def _final_round(
    rules: YardkleRules,
    levels: list[int],
    to_move: int,
    final_round_from: int,
    turn_level: int,
    dice_left: int,
    style: Style = "points",
) -> list[float]:
    """The final round in progress (RULES.md, "End"): the players from `to_move` up to the one
    who reached the target each play one turn for "bank more than the leader"; a player who
    does leads by `OVERSHOOT` more (exactly, for a mover who banks now). If no one does, the
    leaders share the win."""
    players = len(levels)
    to_play = []
    seat = to_move
    while seat != final_round_from:
        to_play.append(seat)
        seat = (seat + 1) % players
    top = max(levels)
    leaders = [seat for seat, level in enumerate(levels) if level == top]
    span = ABOVE
    odds = np.array(
        [
            [_success(rules, levels[seat] > 0, top + m - levels[seat], style) for m in range(span)]
            for seat in to_play
        ]
    )
    exact_to: int | None = None
    if to_play and (turn_level, dice_left) != (0, DICE):
        behind = top - levels[to_move]
        strategy = TurnStrategy(rules, levels[to_move] > 0, need=behind * STEP + 1)
        total = turn_level * STEP
        throws = dice_left or DICE
        value = strategy.throw_value(total, throws)
        if 0 < dice_left < DICE and strategy.can_bank(total):
            if strategy.bank_value(total) >= value:
                exact_to = min(levels[to_move] + turn_level - top, span - 1)
            value = max(value, strategy.bank_value(total))
        odds[0, 0] = value
    fail_after = [np.ones(span)]
    for beat in odds[::-1]:
        fail_after.append(fail_after[-1] * (1.0 - beat))
    fail_after = fail_after[::-1]
    chance = [0.0] * players
    for seat in leaders:
        chance[seat] = float(fail_after[0][0]) / len(leaders)
    leader = np.zeros(span)
    leader[0] = 1.0
    for step, (seat, beat) in enumerate(zip(to_play, odds, strict=True)):
        if step == 0 and exact_to is not None:
            won = np.zeros(span)
            won[exact_to] = float(leader[0] * beat[0])
        else:
            won = _shift_up(leader * beat, OVERSHOOT)
        chance[seat] += float((won * fail_after[step + 1]).sum())
        leader = leader * (1.0 - beat) + won
    return chance


def win_probabilities(
    scores: Sequence[int],
    to_move: int,
    turn_total: int = 0,
    dice_left: int = DICE,
    final_round_from: int | None = None,
    rules: YardkleRules | None = None,
    style: Style = "points",
) -> list[float]:
    """Each seat's chance to win (a shared first place counts as a share), for 2 to 10 players
    (RULES.md, "Yardkle", "End"; the model is in the module docstring).

    `scores` are the banked scores by seat; `to_move` the seat whose turn it is; `turn_total`
    and `dice_left` where that turn stands after a set-aside (0 and 6 before its first throw;
    0 or 6 dice left after hot dice); `final_round_from` the seat that reached the target, once
    one has (the game's `final_round_by`); `style` how the players play their normal turns
    (`points`, the default, or `weak`: `yardkle_turns.weak_policy`)."""
    rules = rules or YardkleRules()
    levels = _read_position(scores, to_move, turn_total, dice_left, final_round_from, rules)
    if final_round_from is not None:
        return _final_round(
            rules, levels, to_move, final_round_from, turn_total // STEP, dice_left, style
        )
    tables = race_tables(rules, style)
    players = len(levels)
    order = [(to_move + i) % players for i in range(players)]
    rows = np.array([[levels[seat] for seat in order]])
    alive, reach, odds = tables.alive, tables.reach, tables.beat_odds
    if turn_total or dice_left != DICE:
        mover = _turn_in_progress(
            tables, rules, levels[to_move], turn_total // STEP, dice_left, style
        )
        alive = np.concatenate([alive, mover[0][None]])
        reach = np.concatenate([reach, mover[1][None].astype(reach.dtype)])
        odds = np.concatenate([odds, mover[2][None].astype(odds.dtype)])
        rows[0, 0] = len(alive) - 1
    found = _race(alive, reach, odds, rows, len(alive[0]))[0]
    chance = [0.0] * players
    for place, seat in enumerate(order):
        chance[seat] = float(found[place])
    return chance
