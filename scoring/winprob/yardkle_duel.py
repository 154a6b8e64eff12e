"""The chance to win a two-player Yardkle game, exactly, with both players maximising it.

RULES.md, "Yardkle": "Turn" (a Yardkle loses the turn total; hot dice throw six again before
banking), "Entering the game" (the first bank needs the entry minimum) and "End" (once a
player's score reaches the target, the other gets exactly one more turn; the highest score
wins; equal scores share the placement, counted here as half a win for each).

The game is a Markov decision process. Its states are the scores of the player to move and of
the other (steps of 50, below the target), the turn total, the dice left to throw, and the
final round. The value of a state is the chance that the player to move wins (a tie counts
1/2), both players maximising their own chance (docs/analysis.md, "Win probability: Yardkle,
two players"):

- banking `t` at score `a` against `b` is worth `1 - W(b, a + t)` below the target (the other
  moves next) and `1 - F(a + t - b)` at or above it (the other's final turn, `F` = their chance
  to finish above, ties 1/2); a Yardkle is worth `1 - W(b, a)`;
- every bank raises the sum of the scores, so the score pairs are solved from the largest sum
  down; within one sum only the Yardkle links `(a, b)` and `(b, a)`, a fixed point solved by
  Newton's method on the pair (each turn value is piecewise linear in what a Yardkle is worth);
- every legal set-aside is a choice (more points are not always better: reaching the target
  with a small lead hands the other a last turn); throws offering the same (points, dice left)
  pairs are grouped, their chances added (`throw_classes`), which changes no value;
- the turn total has no bound (hot dice), so the program stops at `top` (the target plus a
  margin, default 5,000 points): from there the player banks (after hot dice: throws six and
  banks after the first set-aside that leaves a die). That is the one approximation: at any
  state it errs by at most the other's chance to beat a lead of the margin in their last turn
  (0.5% at 5,000), and only where a turn gets there; raising the margin to 10,000 moves the
  start value by 3e-10 and no value by more than 2e-7 (docs/analysis.md).
"""

import hashlib
import os
from dataclasses import dataclass
from functools import cache
from math import ceil
from pathlib import Path
from time import process_time
from typing import Final, Self

import numpy as np

from scoring.analysis.option import Option, ranked
from scoring.analysis.rolls import BoolArray, FloatArray, IntArray
from scoring.analysis.table_file import load_table, save_table
from scoring.analysis.yardkle import STEP, TIE, read_total, throw_table
from scoring.dice import Dice
from scoring.game import invalid_state
from scoring.yardkle import DICE, YardkleRules, read_throw, set_aside_options

# The default rules' table, solved once and shipped with the code (`build_strategy
# --yardkle-duel` writes the same into STRATEGY_DIR): 320 KB, 69 s of one core to build.
SHIPPED_TABLE = Path(__file__).parent / "data" / "yardkle-duel-10000-500.npy"

MARGIN: Final = 5_000
"""Points above the target up to which the turn program runs; from there the player banks."""


_DELTA: Final = 1e-6
"""The step in the Yardkle's worth used to measure each turn value's slope for Newton."""

_TOLERANCE: Final = 1e-13
"""A score pair's fixed point is solved when its two values agree to this."""

_KEPT_TURNS: Final = 2_048
"""Score pairs whose turn program is kept (about 20 KB each)."""

# Row `T * _ROW + l` of a turn program holds the value with turn-end score `T` (steps of 50)
# and `l` dice left after a set-aside: l = 0 is hot dice (six must be thrown), 1 to 5 a choice.
_ROW: Final = DICE


_WIDTHS: Final = (1, 3, 5, 7, 11, 15)
"""Classes are padded to one of these numbers of options (repeating their first), so that the
best option of every class is a `max` over one axis of a few blocks (fast in NumPy)."""


@dataclass(frozen=True, slots=True)
class ThrowClasses:
    """Every throw of 1 to 6 dice with point dice, grouped by what it offers: the distinct
    (dice left, points) pairs of its legal set-asides (`scoring.yardkle.set_aside_options`).
    Throws offering the same pairs are one class, their chances added.

    `blocks`: per block of classes, `(steps, left)` arrays of shape (classes, width), in steps
    of 50 and dice left (0 is hot dice), a class's options padded by repeating its first.
    `chance[k - 1, class]` (classes in block order) is the chance that a throw of `k` dice falls
    in the class; `yardkle[k]` the chance of no point dice. `hot_dice_partial` (six dice, a
    class that can leave a die) and `hot_dice_forced` (every option sets all six aside) give
    the value above a winning total in the final round.
    """

    blocks: tuple[tuple[IntArray, IntArray], ...]
    chance: FloatArray
    yardkle: FloatArray
    hot_dice_partial: float
    hot_dice_forced: float
    most_steps: int


@cache
def throw_classes() -> ThrowClasses:
    """The throws of `scoring.analysis.yardkle.throw_table`, grouped (see `ThrowClasses`)."""
    table = throw_table()
    ends = [*table.starts[1:], len(table.steps)]
    grouped: dict[tuple[int, tuple[tuple[int, int], ...]], float] = {}
    for throw, (start, end) in enumerate(zip(table.starts, ends, strict=True)):
        offered = zip(table.left[start:end].tolist(), table.steps[start:end].tolist(), strict=True)
        key = (int(table.dice[throw]), tuple(sorted(set(offered))))
        grouped[key] = grouped.get(key, 0.0) + float(table.chance[throw])
    by_width: dict[int, list[tuple[int, tuple[tuple[int, int], ...], float]]] = {}
    for (count, options), weight in sorted(grouped.items()):
        width = next(w for w in _WIDTHS if w >= len(options))
        by_width.setdefault(width, []).append((count, options, weight))
    blocks: list[tuple[IntArray, IntArray]] = []
    chance = np.zeros((DICE, len(grouped)))
    partial = forced = 0.0
    number = 0
    for width, members in sorted(by_width.items()):
        steps = np.zeros((len(members), width), dtype=np.intp)
        left = np.zeros((len(members), width), dtype=np.intp)
        for row, (count, options, weight) in enumerate(members):
            padded = list(options) + [options[0]] * (width - len(options))
            left[row] = [dice_left for dice_left, _ in padded]
            steps[row] = [points for _, points in padded]
            chance[count - 1, number] = weight
            number += 1
            if count == DICE:
                if any(dice_left > 0 for dice_left, _ in options):
                    partial += weight
                else:
                    forced += weight
        blocks.append((steps, left))
    yardkle = np.zeros(DICE + 1)
    yardkle[1:] = 1.0 - chance.sum(axis=1)
    return ThrowClasses(
        blocks=tuple(blocks),
        chance=chance,
        yardkle=yardkle,
        hot_dice_partial=partial,
        hot_dice_forced=forced,
        most_steps=max(int(steps.max()) for steps, _ in blocks),
    )


def _best(values: FloatArray, offsets: tuple[IntArray, ...], row: int, m: int) -> FloatArray:
    """Each class's best option: `values[row + offset, :m]`, the most over its options."""
    found: FloatArray = np.concatenate([values[row + offset, :m].max(axis=1) for offset in offsets])
    return found


def _final_round(levels: int) -> FloatArray:
    """`final[u + most + 1, l]` (l = 0 hot dice, 1 to 5 dice left, 6 a throw of six): the
    chance that a player on their last turn (RULES.md, "End") finishes above the leader (a tie
    1/2) when they still lack `u` steps of 50 to tie, `u` from `-most - 1` to `levels - 1`,
    playing for that chance. Below 0 banking wins (1) and hot dice must throw six first; at 0
    banking ties (1/2)."""
    classes = throw_classes()
    most = classes.most_steps + 1
    final = np.zeros((most + levels, DICE + 1))
    final[:most, 1:DICE] = 1.0
    # Above the leader with hot dice: throw six, bank after any set-aside that leaves a die.
    ahead = classes.hot_dice_partial / (1.0 - classes.hot_dice_forced)
    final[:most, 0] = final[:most, DICE] = ahead
    for need in range(levels):
        row = most + need
        throws = _final_throws(final, need)
        final[row, 1:DICE] = throws[: DICE - 1]
        if need == 0:
            np.maximum(final[row, 1:DICE], TIE, out=final[row, 1:DICE])
        final[row, 0] = final[row, DICE] = throws[DICE - 1]
    return final


def _final_throws(final: FloatArray, need: int) -> FloatArray:
    """`[k - 1]`: throwing `k` dice on the last turn, lacking `need` steps to tie (from -1)."""
    classes = throw_classes()
    # Row `most + 1 + u` lacks `u`; a set-aside of `p` steps leads to `u - p`.
    flat = final.reshape(-1, 1)
    offsets = tuple(
        (classes.most_steps + 1 - steps) * (DICE + 1) + left for steps, left in classes.blocks
    )
    best = _best(flat, offsets, max(need, -1) * (DICE + 1), 1)[:, 0]
    throws: FloatArray = classes.chance @ best
    return throws


def table_name(rules: YardkleRules) -> str:
    """The table file's name (without extension): "yardkle-duel-10000-500"."""
    return f"yardkle-duel-{rules.target}-{rules.entry_minimum}"


def _fingerprint(rules: YardkleRules, margin: int) -> str:
    """What the table's numbers depend on: the rules, the margin, the throws and set-asides as
    `scoring.yardkle` scores them, the tie's worth. A table built before a change to any of
    these is refused on load."""
    digest = hashlib.sha256()
    digest.update(repr((rules.to_json(), margin, TIE, STEP, _WIDTHS)).encode())
    classes = throw_classes()
    for steps, left in classes.blocks:
        digest.update(np.ascontiguousarray(steps).tobytes())
        digest.update(np.ascontiguousarray(left).tobytes())
    digest.update(np.ascontiguousarray(classes.chance).tobytes())
    return digest.hexdigest()


@dataclass(frozen=True, slots=True)
class Position:
    """A checked position, in steps of 50: the mover's score `a` and the other's `b`, the
    turn-end score `score` (a + turn total), the dice left after a set-aside (`dice_left`, 0
    hot dice; 6 the start of a turn), `mover` (0 or 1) and `final_round` (the other has reached
    the target and this is the mover's last turn)."""

    a: int
    b: int
    score: int
    dice_left: int
    mover: int
    final_round: bool

    def seats(self, chance: float) -> tuple[float, float]:
        """The mover's chance and the other's, in seat order."""
        return (chance, 1.0 - chance) if self.mover == 0 else (1.0 - chance, chance)


@dataclass(frozen=True, slots=True)
class _Level:
    """The score pairs solved together (one sum of scores), as columns sorted by the mover's
    score `a` (so `b` = sum - a falls; column `i`'s partner `(b, a)` is column `n - 1 - i`)."""

    a: IntArray
    b: IntArray


class YardkleDuel:
    """The solved two-player game for one ruleset (RULES.md, "Yardkle"): `start_value` is the
    first player's chance to win with both playing to win; `win_probability`, `bank_or_throw`
    and `options` answer for any position.

    `build(rules)` solves it (seconds for a game to 1,000; over a minute of one core for the
    default rules, docs/benchmarks.md, so `manage.py build_strategy --yardkle-duel` writes that
    table and `load` reads it). Scores are in points; a player's score below the target is a
    multiple of 50, 0 or at least the entry minimum.
    """

    __slots__ = ("_final", "_turns", "build_seconds", "margin", "rules", "target", "top", "wins")

    def __init__(self, rules: YardkleRules, wins: FloatArray, margin: int = MARGIN) -> None:
        self.rules = rules
        self.margin = margin
        self.target = ceil(rules.target / STEP)
        self.top = self.target + ceil(margin / STEP)
        if wins.shape != (self.target, self.target):
            raise ValueError(f"a table of {wins.shape} is not one of {self.target} scores")
        self.wins = wins
        self._final = _final_round(self._rows())
        self._turns: dict[tuple[int, int], FloatArray] = {}
        self.build_seconds = 0.0

    def _rows(self) -> int:
        return self.top + throw_classes().most_steps + 1

    @classmethod
    def build(cls, rules: YardkleRules | None = None, *, margin: int = MARGIN) -> "YardkleDuel":
        """Solve the game for `rules` (default: the default ruleset) by value iteration over
        the score pairs, from the largest sum of scores down (see the module docstring)."""
        started = process_time()
        rules = rules if rules is not None else YardkleRules()
        target = ceil(rules.target / STEP)
        duel = cls(rules, np.full((target, target), np.nan), margin)
        wins = duel.wins
        for total in range(2 * target - 2, -1, -1):
            low = max(0, total - target + 1)
            a = np.arange(low, total - low + 1)
            level = _Level(a=a, b=total - a)
            wins[level.a, level.b] = duel._solve_level(level)
        duel.build_seconds = process_time() - started
        return duel

    @classmethod
    def load(
        cls,
        rules: YardkleRules | None,
        directory: str | os.PathLike[str],
        *,
        margin: int = MARGIN,
    ) -> Self:
        """The table saved in `directory` for `rules` and `margin` (`manage.py build_strategy
        --yardkle-duel` writes the default one). Raises `StrategyTableMissing` or
        `StrategyTableCorrupt` (`scoring.analysis`), never answers from a wrong table."""
        rules = rules if rules is not None else YardkleRules()
        target = ceil(rules.target / STEP)
        wins, manifest = load_table(
            directory,
            table_name(rules),
            fingerprint=_fingerprint(rules, margin),
            shape=(target, target),
        )
        duel = cls(rules, np.asarray(wins), margin)
        duel.build_seconds = float(manifest.get("build_seconds", 0.0))
        return duel

    def save(self, directory: str | os.PathLike[str]) -> Path:
        """Write the table (the chance at the start of every turn) and its manifest into
        `directory`; returns the table's path."""
        facts = {
            "game": "yardkle-duel",
            "rules": self.rules.to_json(),
            "margin": self.margin,
            "start_value": self.start_value,
            "build_seconds": self.build_seconds,
        }
        return save_table(
            directory,
            table_name(self.rules),
            self.wins,
            fingerprint=_fingerprint(self.rules, self.margin),
            facts=facts,
        )

    def _guess(self, level: _Level) -> FloatArray:
        """A first guess of each column's partner value `W(b, a)`, from the next sum up."""
        target = self.target
        guess = np.full(len(level.a), 0.5)
        up = level.a + 1 < target
        guess[up] = self.wins[level.b[up], level.a[up] + 1]
        side = ~up & (level.b + 1 < target)
        guess[side] = self.wins[level.b[side] + 1, level.a[side]]
        return guess

    def _solve_level(self, level: _Level) -> FloatArray:
        """Every `W(a, b)` of one sum of scores: Newton's method on `W_i = V_i(1 - W_j)`,
        each turn value `V_i` computed with what a Yardkle is worth (`x`) and with `x` plus
        `_DELTA` to measure its slope; once no choice changes, one step is exact."""
        a = np.repeat(level.a, 2)
        b = np.repeat(level.b, 2)
        x = 1.0 - self._guess(level)
        for _ in range(50):
            both = np.repeat(x, 2)
            both[1::2] += _DELTA
            turns = self._turn_program(a, b, both)
            values = self._starts(turns, a)
            value, raised = values[::2], values[1::2]
            if np.abs(value - (1.0 - x[::-1])).max() <= _TOLERANCE:
                return value
            slope = (raised - value) / _DELTA
            base = value + slope * (1.0 - x)
            solved = (base - slope * base[::-1]) / (1.0 - slope * slope[::-1])
            x = 1.0 - solved[::-1]
        raise ArithmeticError(f"the score pairs with sum {level.a[0] + level.b[0]} do not settle")

    def _starts(self, turns: FloatArray, a: IntArray) -> FloatArray:
        """Each column's value at the start of its turn: six dice thrown with a total of 0."""
        start: FloatArray = turns[a * _ROW, np.arange(len(a))]
        return start

    def _bank(self, a: IntArray, b: IntArray) -> tuple[FloatArray, BoolArray]:
        """`bank[T, column]`: banking with a turn-end score of `T` steps, and whether that is
        allowed (a turn total of 50 or more, and the entry minimum off the board)."""
        rows = self._rows()
        scores = np.arange(rows)[:, None]
        below = np.minimum(scores, self.target - 1)
        later = (scores > a) & (scores < self.target)
        bank = np.where(later, 1.0 - self.wins[b[None, :], below], 0.0)
        # At the target the other plays a last turn, lacking the lead to tie.
        lead = np.clip(scores - b, 0, rows - 1) + throw_classes().most_steps + 1
        bank = np.where(scores >= self.target, 1.0 - self._final[lead, DICE], bank)
        entry = max(1, ceil(self.rules.entry_minimum / STEP))
        allowed = scores - a >= np.where(a == 0, entry, 1)
        return bank, allowed

    def _turn_program(self, a: IntArray, b: IntArray, x: FloatArray) -> FloatArray:
        """`turns[T * 6 + l, column]`: the value, for the player to move at score `a` against
        `b`, of a turn-end score `T` with `l` dice left after a set-aside (l = 0: hot dice),
        choosing best between banking (when allowed) and throwing; row `T * 6` (l = 0) is also
        the value of throwing six at `T`. A Yardkle is worth `x`. Columns sorted by `a`."""
        classes = throw_classes()
        bank, allowed = self._bank(a, b)
        rows = self._rows()
        turns = np.repeat(bank, _ROW, axis=0)
        # From `top` up the player banks, and after hot dice banks after the next throw that
        # leaves a die (six dice again when it cannot): a closed form, as in `TurnStrategy`.
        hot = turns[self.top * _ROW :: _ROW]
        hot[:] = (classes.hot_dice_partial * hot + classes.yardkle[DICE] * x) / (
            1.0 - classes.hot_dice_forced
        )
        offsets = tuple(steps * _ROW + left for steps, left in classes.blocks)
        yardkle = classes.yardkle[1:, None] * x[None, :]
        active = np.searchsorted(a, np.arange(rows), side="right")
        for score in range(self.top - 1, int(a[0]) - 1, -1):
            m = int(active[score])
            best = _best(turns, offsets, score * _ROW, m)
            throws = classes.chance @ best + yardkle[:, :m]
            row = score * _ROW
            turns[row, :m] = throws[DICE - 1]
            choice = throws[: DICE - 1]
            can = allowed[score, :m]
            turns[row + 1 : row + _ROW, :m] = np.where(
                can, np.maximum(choice, bank[score, :m]), choice
            )
        return turns

    @property
    def start_value(self) -> float:
        """The first player's chance to win (ties 1/2), both playing to win."""
        return float(self.wins[0, 0])

    def position(
        self,
        scores: object,
        to_move: object = 0,
        turn_total: object = 0,
        dice_left: object = DICE,
        final_round: object = False,
    ) -> Position:
        """Check a position as a game can reach it (`invalid_state` otherwise): `scores` the
        two players' banked points in seat order, `to_move` the seat whose turn it is,
        `turn_total` the points collected this turn, `dice_left` the dice left after the last
        set-aside (0 after hot dice; 6 with a turn total of 0 is the start of the turn),
        `final_round` whether the other player has reached the target (RULES.md, "End")."""
        if (
            not isinstance(scores, tuple | list)
            or len(scores) != 2
            or any(type(score) is not int or score < 0 or score % STEP for score in scores)
        ):
            raise invalid_state("scores", f"{scores!r} are not two scores (0, 50, 100 ...)")
        if to_move not in (0, 1) or type(to_move) is not int:
            raise invalid_state("to_move", f"{to_move!r} is not seat 0 or 1")
        if type(final_round) is not bool:
            raise invalid_state("final_round", f"{final_round!r} is not true or false")
        target = self.rules.target
        mine, theirs = scores[to_move], scores[1 - to_move]
        for score in scores:
            if 0 < score < self.rules.entry_minimum:
                raise invalid_state(
                    "scores", f"{score:,} is below the entry minimum ({self.rules.entry_minimum:,})"
                )
        if mine >= target or (theirs >= target) != final_round:
            raise invalid_state(
                "scores",
                f"{scores!r} with final_round={final_round} (the player to move is below the "
                f"target, {target:,}; the other is at it or above exactly in the final round)",
            )
        if type(dice_left) is not int or not 0 <= dice_left <= DICE:
            raise invalid_state("dice_left", f"{dice_left!r} is not 0 to {DICE} dice")
        if dice_left == DICE:
            if turn_total != 0:
                raise invalid_state(
                    "dice_left", "is 6 only at the start of a turn (0 after hot dice)"
                )
            total = 0
        else:
            # The dice left are what the next throw uses (six after hot dice).
            total = read_total(turn_total, dice_left or DICE)
        if final_round and theirs >= self.top * STEP:
            raise invalid_state(
                "scores", f"{theirs:,} is beyond the solved range ({self.top * STEP:,})"
            )
        position = Position(
            a=mine // STEP,
            b=theirs // STEP,
            score=(mine + total) // STEP,
            dice_left=dice_left,
            mover=to_move,
            final_round=final_round,
        )
        if position.score >= self.top:
            raise invalid_state(
                "turn_total",
                f"{total:,} lifts the score above {self.top * STEP:,}, beyond the solved range "
                f"(the target plus {self.margin:,})",
            )
        return position

    def win_probability(
        self,
        scores: object,
        to_move: object = 0,
        turn_total: object = 0,
        dice_left: object = DICE,
        final_round: object = False,
    ) -> tuple[float, float]:
        """Each player's chance to win (seat order; a tie counts 1/2 for each), both playing
        to win from here; the player to move chooses best at this point (bank or throw).
        Arguments as for `position`."""
        at = self.position(scores, to_move, turn_total, dice_left, final_round)
        row = 0 if at.dice_left == DICE else at.dice_left
        if at.final_round:
            return at.seats(float(self._final[self._lacking(at, at.score), row]))
        return at.seats(float(self._turn(at.a, at.b)[at.score * _ROW + row]))

    def bank_or_throw(
        self,
        scores: object,
        to_move: object,
        turn_total: object,
        dice_left: object,
        final_round: object = False,
    ) -> list[Option]:
        """After a set-aside: banking (when allowed) and throwing the dice left (0 after hot
        dice: six, and no bank), each with the mover's chance to win, best first."""
        at = self.position(scores, to_move, turn_total, dice_left, final_round)
        if at.dice_left == DICE:
            raise invalid_state("dice_left", "6: the turn has not started, so nothing to choose")
        return ranked(self._then(at, at.score, at.dice_left))

    def options(
        self,
        scores: object,
        to_move: object,
        turn_total: object,
        dice: object,
        final_round: object = False,
    ) -> list[Option]:
        """For a throw of `dice` with `turn_total` collected before it: every legal set-aside
        (`scoring.yardkle.set_aside_options`) then banking or throwing again, each with the
        mover's chance to win, best first; empty for a Yardkle."""
        thrown: Dice = read_throw(dice)
        start = turn_total == 0 and len(thrown) == DICE
        before = DICE if start else len(thrown) % DICE
        at = self.position(scores, to_move, turn_total, before, final_round)
        found = []
        for selection, points in set_aside_options(list(thrown)).items():
            score = at.score + points // STEP
            for then in self._then(at, score, len(thrown) - len(selection)):
                found.append(Option(then.value, set_aside=selection, points=points, then=then.then))
        return ranked(found)

    def _lacking(self, at: Position, score: int) -> int:
        """The final-round table's row: the steps still lacking to tie the leader."""
        return max(at.b - score, -1) + throw_classes().most_steps + 1

    def _then(self, at: Position, score: int, left: int) -> list[Option]:
        """Banking (if allowed) and throwing after a set-aside leaving `left` dice at the
        turn-end score `score`, valued as the mover's chance to win."""
        thrown = DICE if left == 0 else left
        if at.final_round:
            lacking = at.b - score
            throw = float(_final_throws(self._final, lacking)[thrown - 1])
            bank = 1.0 if lacking < 0 else TIE if lacking == 0 else 0.0
        else:
            turns = self._turn(at.a, at.b)
            bank = float(self._bank_value(at.a, at.b, score))
            if score >= self.top:
                # Beyond the solved range the program banks (after hot dice: throws six, then
                # banks after the first set-aside that leaves a die).
                if 0 < left < DICE:
                    return [Option(value=bank, then="bank")]
                return [Option(value=float(turns[score * _ROW]), then="throw")]
            throw = float(self._throws(turns, score, at.a, at.b)[thrown - 1])
        options = [Option(value=throw, then="throw")]
        entry = at.a > 0 or (score - at.a) * STEP >= self.rules.entry_minimum
        if 0 < left < DICE and entry:
            options.insert(0, Option(value=bank, then="bank"))
        return options

    def _bank_value(self, a: int, b: int, score: int) -> float:
        bank, _ = self._bank(np.array([a]), np.array([b]))
        return float(bank[score, 0])

    def _throws(self, turns: FloatArray, score: int, a: int, b: int) -> FloatArray:
        """`[k - 1]`: throwing `k` dice at the turn-end score `score` (steps)."""
        classes = throw_classes()
        offsets = tuple(steps * _ROW + left for steps, left in classes.blocks)
        best = _best(turns.reshape(-1, 1), offsets, score * _ROW, 1)[:, 0]
        yardkle = 1.0 - self.wins[b, a]
        throws: FloatArray = classes.chance @ best + classes.yardkle[1:] * yardkle
        return throws

    def turn_programs(self) -> np.ndarray:
        """Every score pair's turn program at once, `[a, b, T * 6 + l]` in float32 (for
        simulations: 350 MB for the default rules), solved a sum of scores at a time."""
        rows = self._rows() * _ROW
        programs = np.zeros((self.target, self.target, rows), dtype=np.float32)
        for total in range(2 * self.target - 1):
            low = max(0, total - self.target + 1)
            a = np.arange(low, total - low + 1)
            b = total - a
            turns = self._turn_program(a, b, 1.0 - self.wins[b, a])
            programs[a, b] = turns.T
        return programs

    def _turn(self, a: int, b: int) -> FloatArray:
        """The turn program of one score pair (`_turn_program`, one column), kept."""
        found = self._turns.get((a, b))
        if found is None:
            if len(self._turns) >= _KEPT_TURNS:
                self._turns.clear()
            x = np.array([1.0 - self.wins[b, a]])
            found = self._turn_program(np.array([a]), np.array([b]), x)[:, 0]
            self._turns[(a, b)] = found
        return found
