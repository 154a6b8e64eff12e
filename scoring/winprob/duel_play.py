"""Two-player Yardkle games played out by simulation: the win-maximising strategy
(`YardkleDuel`) against the points-maximising one (`scoring.analysis.TurnStrategy`), to check
head to head that playing for the win wins more than half (docs/analysis.md, "Win
probability: Yardkle, two players").

Each seat plays RULES.md's Yardkle turn by turn with seeded dice: throw, set aside one of
`scoring.yardkle.set_aside_options`, bank or throw again, hot dice, the entry minimum, and the
final round (the other player's one last turn once a score reaches the target). Ties count 1/2.
"""

from collections.abc import Callable
from dataclasses import dataclass
from math import sqrt
from typing import Final, Literal

import numpy as np

from scoring.analysis.yardkle import STEP, TIE, TurnStrategy
from scoring.winprob.yardkle_duel import YardkleDuel, throw_classes
from scoring.yardkle import DICE, set_aside_options

Player = Literal["win", "points"]

_ROW: Final = DICE
_ROUNDING: Final = 1e-6
_CACHE: Final = 4_000
"""Score pairs whose turn program a simulation keeps (about 20 KB each)."""


@dataclass(frozen=True, slots=True)
class HeadToHead:
    """The result of `games` games: the win-maximiser's wins (a tie counts 1/2), also by the
    seat it had (it moves first in half of the games)."""

    games: int
    wins: float
    wins_first: float
    wins_second: float
    ties: int

    @property
    def share(self) -> float:
        """The win-maximiser's share of the games."""
        return self.wins / self.games

    @property
    def standard_error(self) -> float:
        """The standard error of `share` (binomial, ties counted as halves: at most this)."""
        return sqrt(self.share * (1.0 - self.share) / self.games)


# A decision rule: (dice thrown, turn total, scores of mover and other, final round) ->
# (set-aside, bank after it).
Chooser = Callable[[tuple[int, ...], int, int, int, bool], tuple[tuple[int, ...], bool]]


class _WinPlayer:
    """Chooses as `YardkleDuel` does: the set-aside and then bank or throw with the highest
    chance to win (ties in value: bank)."""

    def __init__(self, duel: YardkleDuel, programs: np.ndarray | None = None) -> None:
        self.duel = duel
        self.programs = programs
        self.turns: dict[tuple[int, int], tuple[np.ndarray, np.ndarray]] = {}
        self.offset = throw_classes().most_steps + 1

    def _values(self, a: int, b: int) -> tuple[np.ndarray, np.ndarray]:
        """The pair's turn program and its bank values by turn-end score."""
        found = self.turns.get((a, b))
        if found is None and self.programs is not None:
            if len(self.turns) >= _CACHE:
                self.turns.clear()
            bank, _ = self.duel._bank(np.array([a]), np.array([b]))
            found = self.turns[(a, b)] = (self.programs[a, b], bank[:, 0])
        if found is None:
            if len(self.turns) >= _CACHE:
                self.turns.clear()
            bank, _ = self.duel._bank(np.array([a]), np.array([b]))
            found = self.turns[(a, b)] = (self.duel._turn(a, b), bank[:, 0])
            self.duel._turns.clear()
        return found

    def __call__(
        self, dice: tuple[int, ...], total: int, mine: int, theirs: int, final_round: bool
    ) -> tuple[tuple[int, ...], bool]:
        a, b = mine // STEP, theirs // STEP
        best: tuple[float, tuple[int, ...], bool] = (-1.0, (), False)
        for selection, points in set_aside_options(list(dice)).items():
            score = a + (total + points) // STEP
            left = len(dice) - len(selection)
            if final_round:
                # A lead past the solved range leaves the last turn its least chance there.
                row = min(max(b - score, -1) + self.offset, len(self.duel._final) - 1)
                decide = float(self.duel._final[row, left])
                bank_value = 1.0 if score > b else TIE if score == b else 0.0
            else:
                if score >= self.duel.top:
                    bank_value = decide = 1.0  # beyond the solved range: bank
                else:
                    values, banks = self._values(a, b)
                    decide = float(values[score * _ROW + left])
                    bank_value = float(banks[score])
            can_bank = left > 0 and (mine > 0 or total + points >= self.duel.rules.entry_minimum)
            # Float32 programs (`YardkleDuel.turn_programs`) round: a bank within 1e-6 is taken.
            bank = can_bank and bank_value >= decide - _ROUNDING
            if decide > best[0]:
                best = (decide, selection, bank)
        return best[1], best[2]


class _PointsPlayer:
    """Chooses as `TurnStrategy` does: the most expected points this turn, and in the final
    round the highest chance of finishing strictly above the leader."""

    def __init__(self, duel: YardkleDuel) -> None:
        rules = duel.rules
        self.normal = {on: TurnStrategy(rules, on_board=on) for on in (True, False)}
        self.final: dict[int, TurnStrategy] = {}
        self.rules = rules

    def __call__(
        self, dice: tuple[int, ...], total: int, mine: int, theirs: int, final_round: bool
    ) -> tuple[tuple[int, ...], bool]:
        if final_round:
            need = theirs - mine + 1
            strategy = self.final.get(need)
            if strategy is None:
                strategy = self.final[need] = TurnStrategy(self.rules, mine > 0, need=need)
        else:
            strategy = self.normal[mine > 0]
        best = strategy.options(total, list(dice))[0]
        return best.set_aside or (), best.then == "bank"


def _turn(choose: Chooser, rng: np.random.Generator, mine: int, theirs: int, final: bool) -> int:
    """One turn (RULES.md, "Turn"): the points banked (0 after a Yardkle)."""
    total, dice = 0, DICE
    while True:
        thrown = tuple(sorted(int(d) for d in rng.integers(1, 7, size=dice)))
        if not set_aside_options(list(thrown)):
            return 0
        selection, bank = choose(thrown, total, mine, theirs, final)
        total += set_aside_options(list(thrown))[selection]
        dice -= len(selection)
        if bank:
            return total
        if dice == 0:
            dice = DICE  # hot dice


def play_game(
    duel: YardkleDuel, players: tuple[Chooser, Chooser], rng: np.random.Generator
) -> float:
    """One game (RULES.md, "End"): seat 0's result, 1 a win, 1/2 a tie, 0 a loss."""
    scores = [0, 0]
    seat = 0
    target = duel.rules.target
    while True:
        scores[seat] += _turn(players[seat], rng, scores[seat], scores[1 - seat], False)
        if scores[seat] >= target:
            other = 1 - seat
            scores[other] += _turn(players[other], rng, scores[other], scores[seat], True)
            if scores[0] == scores[1]:
                return TIE
            return 1.0 if scores[0] > scores[1] else 0.0
        seat = 1 - seat


def head_to_head(
    duel: YardkleDuel, games: int, seed: int = 0, *, programs: np.ndarray | None = None
) -> HeadToHead:
    """`games` seeded games of the win-maximiser against the points-maximiser, the
    win-maximiser first in the even-numbered games and second in the others. `programs`
    (`YardkleDuel.turn_programs()`) spares solving each score pair's turn when first met."""
    rng = np.random.default_rng(seed)
    win, points = _WinPlayer(duel, programs), _PointsPlayer(duel)
    first = second = 0.0
    ties = 0
    for game in range(games):
        if game % 2 == 0:
            result = play_game(duel, (win, points), rng)
            first += result
        else:
            result = 1.0 - play_game(duel, (points, win), rng)
            second += result
        ties += result == TIE
    return HeadToHead(
        games=games, wins=first + second, wins_first=first, wins_second=second, ties=ties
    )
