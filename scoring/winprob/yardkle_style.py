"""How a Yardkle player plays, estimated from their turns so far (docs/analysis.md, "Win
probability: Yardkle, three or more players", "Players' styles").

Two styles (`yardkle_turns.Style`): `points` (every normal turn for the most points banked,
`TurnStrategy`) and `weak` (`weak_policy`: bank from 300, or with two dice or fewer). The
evidence is the player's choices in normal turns (RULES.md, "Turn" steps 3 and 4): which dice
they set aside from a throw (the weak player takes the most points; the points strategy often
keeps fewer to throw more dice), and after a set-aside that leaves 1 to 5 dice with banking
allowed, whether they bank or throw on. Where the two styles differ, the player's choice
counts for the style that makes it (a set-aside that neither would take counts for neither).
Each choice is taken to follow the player's style but for a slip (`SLIP`), so a telling
choice weighs `log((1 - SLIP) / SLIP)`, and the prior leans to `points` (`PRIOR_WEAK`): a
player with no telling choice yet is valued as the points strategy mostly. A final round's
turn (played to pass the leader, not for points) tells nothing and is skipped.

`weak_share(evidence)` is the posterior chance that the player is `weak`; the race model
values each player as that mixture of the two styles (`yardkle_race`, `weak=`). The same
choice table serves one turn's throws (`turn_evidence`, the product) and simulated games in
step (`decision_evidence`, `calibrate_yardkle`), so the calibration measures what the product
computes.
"""

from collections.abc import Sequence
from functools import cache
from math import exp, log
from typing import Final

import numpy as np

from scoring.analysis.rolls import BoolArray, FloatArray, IntArray
from scoring.analysis.yardkle import STEP, TurnStrategy, throw_table
from scoring.winprob.yardkle_turns import TurnPolicy, policy_of, throw_code, weak_policy
from scoring.yardkle import DICE, YardkleRules, score_selection, set_aside_options

PRIOR_WEAK: Final = 0.2
"""The chance that a player is `weak` before any of their choices is seen."""
SLIP: Final = 0.1
"""The chance that a choice departs from the player's style."""
WEIGHT: Final = log((1 - SLIP) / SLIP)
"""What one telling choice adds to (or takes from) the log-odds of `weak`."""
LEVELS: Final = 400
"""Turn totals (steps of 50) the choice tables cover; above, both styles bank."""


@cache
def policies(rules: YardkleRules, on_board: bool) -> tuple[TurnPolicy, TurnPolicy]:
    """The normal turn of each style, `points` and `weak`, over `LEVELS` turn totals."""
    return policy_of(TurnStrategy(rules, on_board), LEVELS), weak_policy(rules, on_board, LEVELS)


@cache
def bank_tables(rules: YardkleRules, on_board: bool) -> tuple[BoolArray, BoolArray]:
    """`[level, left]`: whether the points style and the weak style bank with `level * 50`
    collected and `left` dice left (column 0, hot dice, never banks)."""
    points, weak = (policy.bank for policy in policies(rules, on_board))
    rows = min(len(points), len(weak))
    return points[:rows], weak[:rows]


def set_aside_evidence(
    rules: YardkleRules, on_board: BoolArray, level: IntArray, throw: IntArray, chosen: IntArray
) -> FloatArray:
    """Per set-aside (a `throw` row of `throw_table()` with `level * 50` collected before
    it, the set-aside `chosen` as an index into the table's set-asides): what it adds to the
    log-odds of `weak`."""
    found = np.zeros(len(level))
    for board in (False, True):
        points, weak = policies(rules, board)
        mine = on_board == board
        row = np.minimum(level[mine], points.levels - 1)
        says_points = points.choice[row, throw[mine]]
        says_weak = weak.choice[np.minimum(level[mine], weak.levels - 1), throw[mine]]
        picked = chosen[mine]
        sign = np.where(picked == says_weak, 1.0, np.where(picked == says_points, -1.0, 0.0))
        found[mine] = np.where(says_points != says_weak, sign * WEIGHT, 0.0)
    return found


def decision_evidence(
    rules: YardkleRules, on_board: BoolArray, level: IntArray, left: IntArray, banked: BoolArray
) -> FloatArray:
    """Per choice (after a set-aside: turn total `level * 50`, `left` dice left, the player
    `on_board` or not, and whether they `banked`): what it adds to the log-odds of `weak`."""
    found = np.zeros(len(level))
    for board in (False, True):
        points, weak = bank_tables(rules, board)
        mine = on_board == board
        row = np.minimum(level[mine], len(points) - 1)
        column = np.minimum(left[mine], DICE - 1)
        says_points, says_weak = points[row, column], weak[row, column]
        telling = says_points != says_weak
        sign = np.where(banked[mine] == says_weak, 1.0, -1.0)
        found[mine] = np.where(telling, sign * WEIGHT, 0.0)
    return found


@cache
def _telling(rules: YardkleRules, on_board: bool) -> dict[tuple[int, int], bool]:
    """`bank_tables` as a lookup of the choices where the styles differ: `(level, left)` to
    whether the weak style banks there (levels past the tables: both bank)."""
    points, weak = bank_tables(rules, on_board)
    rows, columns = np.nonzero(points != weak)
    return {(int(r), int(c)): bool(weak[r, c]) for r, c in zip(rows, columns, strict=True)}


def turn_evidence(rules: YardkleRules, on_board: bool, turn: object) -> tuple[float, int]:
    """A stored normal turn's (`{"throws": [{"dice", "set_aside"}, ...], "end"}`, as
    `YardkleGame.play` accepted it) bank-or-throw choices: what they add to the log-odds of
    `weak` (as `decision_evidence` counts them), and the points the turn banked."""
    if not isinstance(turn, dict):
        return 0.0, 0
    throws = turn.get("throws") or []
    telling = _telling(rules, on_board)
    banked = turn.get("end") == "bank"
    points, weak = policies(rules, on_board)
    table, code = throw_table(), throw_code()
    evidence = 0.0
    total, dice = 0, DICE
    last = len(throws) - 1
    for number, throw in enumerate(throws):
        set_aside = throw.get("set_aside") or []
        if not set_aside:
            break  # a Yardkle: nothing was chosen
        thrown = sorted(throw["dice"])
        row = int(code[sum(face * 7**i for i, face in enumerate([0] * (DICE - dice) + thrown))])
        level = min(total // STEP, LEVELS - 1)
        says_points, says_weak = points.choice[level, row], weak.choice[level, row]
        if says_points != says_weak:
            options = list(set_aside_options(thrown))
            picked = table.starts[row] + options.index(tuple(sorted(set_aside)))
            if picked == says_weak:
                evidence += WEIGHT
            elif picked == says_points:
                evidence -= WEIGHT
        total += score_selection(set_aside)
        dice -= len(set_aside)
        if dice == 0:
            dice = DICE  # hot dice: six again, no choice
            continue
        weak_banks = telling.get((total // STEP, dice))
        if weak_banks is not None:
            chose_bank = number == last and banked
            evidence += WEIGHT if chose_bank == weak_banks else -WEIGHT
    return evidence, total if banked else 0


def weak_share(evidence: float) -> float:
    """The posterior chance that a player with this much evidence (log-odds) is `weak`."""
    odds = log(PRIOR_WEAK / (1 - PRIOR_WEAK)) + evidence
    return 1.0 / (1.0 + exp(-odds)) if odds > -700 else 0.0


def weak_shares(evidence: FloatArray) -> FloatArray:
    """`weak_share` of every entry."""
    odds = log(PRIOR_WEAK / (1 - PRIOR_WEAK)) + np.asarray(evidence, dtype=np.float64)
    found: FloatArray = 1.0 / (1.0 + np.exp(-odds))
    return found


def estimate(rules: YardkleRules, players: int, turns: Sequence[object]) -> list[float]:
    """Each seat's chance of being `weak`, from the turns of a game so far (stored payloads in
    play order, seat `i % players` for turn `i`: RULES.md, "Game"). A turn counts from the
    score its player had before it (on the board or not), and only before the final round."""
    scores = [0] * players
    evidence = [0.0] * players
    final_round = False
    for number, turn in enumerate(turns):
        seat = number % players
        found, banked = turn_evidence(rules, scores[seat] > 0, turn)
        if not final_round:
            evidence[seat] += found
        scores[seat] += banked
        final_round = final_round or scores[seat] >= rules.target
    return [weak_share(value) for value in evidence]
