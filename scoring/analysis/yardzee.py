"""Optimal solitaire Yardzee: the value of every state, and of every choice inside a turn.

RULES.md, "Yardzee". The state table (`scoring.analysis.yardzee_table`) holds, for every state
at the start of a turn, the expected points still to come under optimal play; from it a turn is
solved backwards for one state at a time to value each keep after the first and second rolls
and each box at the end. The objective is the player's own expected score (the solitaire
optimum), not the chance of beating particular opponents: docs/analysis.md.

```python
strategy = Strategy.load(YardzeeRules(), "var/strategy")     # or Strategy.build(rules)
state = YardzeeState.of_boxes(game.scorecard(seat).boxes)
strategy.keep_options(state, [3, 3, 5, 2, 6], rolls_left=2)  # best first
strategy.box_options(state, [3, 3, 3, 3, 1])
```
"""

import hashlib
import os
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final, Self

import numpy as np

from scoring.analysis import yardzee_table as solver
from scoring.analysis.option import Option, ranked
from scoring.analysis.rolls import LAYER_INDEX, FloatArray
from scoring.analysis.table_file import load_table, save_table
from scoring.dice import parts, read_dice, show
from scoring.errors import RuleViolation
from scoring.game import game_over, invalid_state
from scoring.json_input import brief
from scoring.yardzee import (
    CATEGORIES,
    DICE,
    MAX_ROLLS,
    UPPER_BONUS,
    UPPER_BONUS_AT,
    UPPER_BOXES,
    YARDZEE,
    YardzeeRules,
    check_box_points,
    placement_points,
    yardzee_bonus,
)

_BOX_OF: Final = {name: box for box, name in enumerate(CATEGORIES)}
_MOST_UPPER: Final = sum(5 * face for face in range(1, 7))
# Turn solutions kept per strategy (about 13 KB each): a page of options asks again for the
# same position, and a game's analysis solves all of its positions in one batch first.
_TURNS_KEPT: Final = 512


@dataclass(frozen=True, slots=True)
class YardzeeState:
    """A player's position at the start of a turn, as far as the future is concerned:
    the `filled` boxes (names), the `upper_total` (the six upper boxes' sum so far) and
    whether the Yardzee box holds 50 (`yardzee_50`; RULES.md, "Yardzee bonus", "Joker").

    Raises `RuleViolation` for a position no game can reach: an unknown box (`unknown_box`),
    an upper total the filled upper boxes cannot make or a 50 in an open Yardzee box
    (`invalid_state`).
    """

    filled: frozenset[str] = field(default_factory=frozenset)
    upper_total: int = 0
    yardzee_50: bool = False

    def __post_init__(self) -> None:
        for name in self.filled:
            if name not in _BOX_OF:
                raise RuleViolation(
                    "unknown_box",
                    f"There is no box {name!r}; boxes: {', '.join(CATEGORIES)}.",
                    details={"box": str(name)[:40]},
                )
        mask = self.mask
        most = sum(5 * (box + 1) for box in range(len(UPPER_BOXES)) if mask >> box & 1)
        if (
            type(self.upper_total) is not int
            or not 0 <= self.upper_total <= most
            or not solver.reachable(mask, min(self.upper_total, UPPER_BONUS_AT), self.yardzee_50)
        ):
            if self.yardzee_50 and "yardzee" not in self.filled:
                raise invalid_state("yardzee_50", "is set but the Yardzee box is open")
            raise invalid_state(
                "upper_total", f"{self.upper_total!r} is not a sum the filled upper boxes can make"
            )

    @classmethod
    def start(cls) -> Self:
        """An empty scorecard."""
        return cls()

    @classmethod
    def of_boxes(cls, boxes: Mapping[str, object], field: str = "boxes") -> Self:
        """The state of a scorecard column: box names to their points, or None (or absent)
        while open (`Scorecard.boxes`, the `boxes` of a stored Yardzee state, or a position
        from a client). Every box holds points the rules can give it
        (`scoring.yardzee.check_box_points`): otherwise `invalid_state` naming
        `{field}.{box}`; a name that is no box is `unknown_box`."""
        for name in boxes:
            if name not in _BOX_OF:
                raise RuleViolation(
                    "unknown_box",
                    f"There is no box {brief(name)}; boxes: {', '.join(CATEGORIES)}.",
                    details={"box": str(name)[:40], "field": field},
                )
        column = {
            name: check_box_points(name, boxes.get(name), f"{field}.{name}") for name in CATEGORIES
        }
        filled = frozenset(name for name, points in column.items() if points is not None)
        upper = sum(column[name] or 0 for name in UPPER_BOXES)
        return cls(filled, upper, column["yardzee"] == solver.YARDZEE_POINTS)

    @property
    def mask(self) -> int:
        """The filled boxes as bits, bit `b` for `CATEGORIES[b]`."""
        return sum(1 << _BOX_OF[name] for name in self.filled)

    @property
    def index(self) -> int:
        """The state's position in the table."""
        return solver.state_index(self.mask, min(self.upper_total, UPPER_BONUS_AT), self.yardzee_50)

    @property
    def is_over(self) -> bool:
        """Whether every box is filled (the player's game has ended)."""
        return len(self.filled) == len(CATEGORIES)

    def column(self) -> list[int | None]:
        """A scorecard column in this state, for `scoring.yardzee.placement_points`: only
        which boxes are open matters there, and whether the Yardzee box holds 50."""
        column: list[int | None] = [0 if name in self.filled else None for name in CATEGORIES]
        if self.yardzee_50:
            column[YARDZEE] = solver.YARDZEE_POINTS
        return column

    def after(self, box: str, points: int) -> "YardzeeState":
        """The state after filling `box` with `points` (bonuses are not part of a state)."""
        upper = self.upper_total + (points if box in UPPER_BOXES else 0)
        fifty = self.yardzee_50 or (box == "yardzee" and points == solver.YARDZEE_POINTS)
        return YardzeeState(self.filled | {box}, upper, fifty)


def rules_fingerprint(rules: YardzeeRules) -> str:
    """What a table's numbers depend on: the rules as `scoring.yardzee` scores them, the
    table's layout. A table built before a change to any of these is refused on load."""
    digest = hashlib.sha256()
    digest.update(repr((rules.to_json(), UPPER_BONUS, UPPER_BONUS_AT, solver.STATES)).encode())
    jokers = solver.joker_table(rules.joker)
    for part in (solver.SCORES, jokers.allowed, jokers.points):
        digest.update(np.ascontiguousarray(part).tobytes())
    digest.update(str(jokers.bonus).encode())
    return digest.hexdigest()


def table_name(rules: YardzeeRules) -> str:
    """The table file's name (without extension) for a ruleset: "yardzee-forced"."""
    return f"yardzee-{rules.joker}"


class Strategy:
    """The optimal solitaire strategy for one Yardzee ruleset (RULES.md, "Yardzee").

    `Strategy.build(rules)` solves the game in memory (seconds: docs/benchmarks.md);
    `Strategy.load(rules, directory)` memory-maps a table saved by `save` (what
    `manage.py build_strategy` writes), so processes share one copy. Values are expected points
    still to come in the player's game, bonuses included.
    """

    __slots__ = ("_rules", "_table", "_turns", "build_seconds")

    def __init__(self, rules: YardzeeRules, table: FloatArray, build_seconds: float | None = None):
        if table.shape != (solver.STATES,):
            raise ValueError(f"a Yardzee table has shape ({solver.STATES},), not {table.shape}")
        self._rules = rules
        self._table = table
        self._turns: dict[int, solver.TurnValues] = {}
        self.build_seconds = build_seconds

    @classmethod
    def build(cls, rules: YardzeeRules | None = None) -> Self:
        """Solve the game for `rules` (the default ruleset when None) by backward induction."""
        rules = rules if rules is not None else YardzeeRules()
        started = time.perf_counter()
        table = solver.build(rules.joker)
        return cls(rules, table, build_seconds=time.perf_counter() - started)

    @classmethod
    def load(
        cls,
        rules: YardzeeRules | None,
        directory: str | os.PathLike[str],
        *,
        verify: bool = True,
    ) -> Self:
        """The table saved in `directory` for `rules`, memory-mapped read-only. Raises
        `StrategyTableMissing` or `StrategyTableCorrupt` (never answers from a wrong table);
        `verify=False` skips reading every page for the checksum."""
        rules = rules if rules is not None else YardzeeRules()
        table, _ = load_table(
            directory,
            table_name(rules),
            fingerprint=rules_fingerprint(rules),
            shape=(solver.STATES,),
            verify=verify,
        )
        return cls(rules, table)

    def save(self, directory: str | os.PathLike[str]) -> Path:
        """Write the table and its manifest into `directory`; returns the table's path."""
        facts = {
            "game": "yardzee",
            "rules": self._rules.to_json(),
            "start_value": self.start_value,
            "build_seconds": self.build_seconds,
        }
        return save_table(
            directory,
            table_name(self._rules),
            np.asarray(self._table),
            fingerprint=rules_fingerprint(self._rules),
            facts=facts,
        )

    @property
    def rules(self) -> YardzeeRules:
        """The ruleset this strategy is optimal for."""
        return self._rules

    @property
    def table(self) -> FloatArray:
        """The state table itself (memory-mapped read-only when loaded): the expected points
        still to come from each state, NaN for states no game reaches."""
        return self._table

    @property
    def start_value(self) -> float:
        """The expected score of a whole game under optimal play."""
        return float(self._table[YardzeeState.start().index])

    def state_value(self, state: YardzeeState) -> float:
        """The expected points still to come from the start of a turn in `state`."""
        value = float(self._table[state.index])
        if value != value:  # NaN: a YardzeeState is checked, so only a bad table gets here
            raise invalid_state("state", "has no value in the strategy table")
        return value

    def solve(self, states: Iterable[YardzeeState]) -> None:
        """Solve the turns of these positions together (one batch is far cheaper than one
        position at a time), so that their options come back at once: `analyse_game` does
        this for every turn of a game. Positions already solved are kept."""
        self._solved(sorted({state.index for state in states if not state.is_over}))

    def forget(self) -> None:
        """Drop every solved turn (benchmarks measure a cold start with it)."""
        self._turns.clear()

    def _solved(self, indexes: list[int]) -> list[solver.TurnValues]:
        missing = [index for index in indexes if index not in self._turns]
        if missing:
            if len(self._turns) + len(missing) > _TURNS_KEPT:
                # Full: start again, solving every position asked for (those kept a moment ago
                # go with the rest, so they are solved anew, not looked up).
                self._turns.clear()
                missing = list(dict.fromkeys(indexes))
            batch = solver.turn_values(self._table, np.array(missing), self._rules.joker)
            for column, index in enumerate(missing):
                self._turns[index] = solver.column_of(batch, column)
        return [self._turns[index] for index in indexes]

    def _turn(self, index: int) -> solver.TurnValues:
        """The solved turn of the position at this table index."""
        found = self._turns.get(index)
        return found if found is not None else self._solved([index])[0]

    def _open_turn(self, state: YardzeeState) -> solver.TurnValues:
        if state.is_over:
            raise game_over()
        return self._turn(state.index)

    def keep_options(self, state: YardzeeState, dice: object, rolls_left: int) -> list[Option]:
        """After a roll with `rolls_left` rolls still allowed (2 after the first roll, 1 after
        the second), every distinct keep of the dice showing, best first; keeping all five is
        stopping, valued as the best box for them (RULES.md, Yardzee "Turn")."""
        showing = read_dice(dice, "dice", DICE)
        keeps = self._keeps(state, rolls_left)
        options = [
            Option(float(keeps[len(keep)][LAYER_INDEX[keep], 0]), 0.0, keep)
            for keep in sorted(parts(showing), key=lambda keep: (-len(keep), keep))
        ]
        return ranked(options)

    def keep_option(
        self, state: YardzeeState, dice: object, rolls_left: int, keep: object
    ) -> Option:
        """One keep's option (its value and loss) among `keep_options`; a keep that is not
        among the dice showing is `keep_not_in_roll`."""
        showing = read_dice(dice, "dice", DICE)
        kept = read_dice(keep, "keep")
        if kept not in parts(showing):
            raise RuleViolation(
                "keep_not_in_roll",
                f"The keep {show(kept)} is not among the dice showing, {show(showing)}.",
                details={"keep": list(kept), "showing": list(showing)},
            )
        return next(
            option
            for option in self.keep_options(state, showing, rolls_left)
            if option.keep == kept
        )

    def _keeps(self, state: YardzeeState, rolls_left: object) -> tuple[FloatArray, ...]:
        turn = self._open_turn(state)
        if rolls_left == MAX_ROLLS - 1 and type(rolls_left) is int:
            return turn.middle.keeps
        if rolls_left == 1 and type(rolls_left) is int:
            return turn.last.keeps
        raise invalid_state(
            "rolls_left", f"{rolls_left!r} is not 1 or 2 (a keep is chosen after roll 1 or 2)"
        )

    def box_options(self, state: YardzeeState, dice: object) -> list[Option]:
        """For final dice, every open box the rules allow, best first: its points, plus the
        upper and Yardzee bonuses earned now, plus the value of the state after (RULES.md,
        "Boxes", "Upper bonus", "Yardzee bonus", "Joker")."""
        showing = read_dice(dice, "dice", DICE)
        if state.is_over:
            raise game_over()
        column = state.column()
        bonus = yardzee_bonus(column, showing)
        mask = state.mask
        upper = min(state.upper_total, UPPER_BONUS_AT)
        options = []
        for box, points in placement_points(column, showing, self._rules.joker).items():
            after_upper, earned, fifty = upper, 0, state.yardzee_50
            if box < len(UPPER_BOXES):
                after_upper = min(upper + points, UPPER_BONUS_AT)
                earned = UPPER_BONUS if upper < UPPER_BONUS_AT <= upper + points else 0
            elif box == YARDZEE:
                fifty = points == solver.YARDZEE_POINTS
            after = solver.state_index(mask | 1 << box, after_upper, fifty)
            value = self._table[after] + (points + earned + bonus)
            options.append(Option(float(value), 0.0, None, CATEGORIES[box], points))
        return ranked(options)

    def box_option(self, state: YardzeeState, dice: object, box: object) -> Option:
        """One box's option among `box_options`: `unknown_box`, `box_filled` or
        `joker_forbids_box` when the rules do not allow it."""
        name = box if type(box) is str else ""
        if name not in _BOX_OF:
            raise RuleViolation(
                "unknown_box",
                f"There is no box {str(box)[:40]!r}; boxes: {', '.join(CATEGORIES)}.",
                details={"box": str(box)[:40]},
            )
        if name in state.filled:
            raise RuleViolation(
                "box_filled",
                f"The {name} box is already filled; a box is filled only once.",
                details={"box": name},
            )
        options = self.box_options(state, dice)
        for option in options:
            if option.box == name:
                return option
        raise RuleViolation(
            "joker_forbids_box",
            f"These dice cannot go in {name}; the joker rule allows: "
            f"{', '.join(str(option.box) for option in options)}.",
            details={"box": name, "allowed": [option.box for option in options]},
        )
