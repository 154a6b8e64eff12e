"""Yardkle, the six-dice game: combinations, throws, hot dice, entering the game, the end.

Implements RULES.md, "Yardkle": "Game", "Point dice and combinations", "Turn", "Entering the
game", "End" and "Ruleset options". A turn is the JSON of DESIGN.md ("Turn JSON"):
`{"throws": [{"dice": [...], "set_aside": [...]}, ...], "end": "bank"}`.
"""

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from itertools import combinations, combinations_with_replacement, permutations
from typing import Any, ClassVar, Final, Literal

from scoring.dice import PARTS, Dice, contains, parts, read_dice, show
from scoring.errors import RuleViolation
from scoring.game import JsonObject, RulesFromJson, SeatedGame, check_seat, game_over, invalid_state
from scoring.json_input import check_points, invalid_option, read_list, read_object, read_str

DICE: Final = 6
MAX_TARGET: Final = 1_000_000
# Throws in one turn: a limit far above any real turn (a turn of 100 throws would have rolled
# hot dice over a dozen times running), so an absurd turn cannot bloat a match and its pages.
MAX_THROWS: Final = 100

End = Literal["bank", "yardkle"]
YARDKLE_END: Final[End] = "yardkle"
ENDS: Final[tuple[End, ...]] = ("bank", YARDKLE_END)


def _combinations() -> list[tuple[Dice, int]]:
    """Every combination of RULES.md, "Point dice and combinations", as (dice, points).
    Four or five of a kind are not listed: they score as a three of a kind plus singles."""
    faces = range(1, 7)
    table: list[tuple[Dice, int]] = [((1,), 100), ((5,), 50)]
    table += [((face,) * 3, 1000 if face == 1 else 100 * face) for face in faces]
    table += [((a, a, b, b, c, c), 1500) for a, b, c in combinations(faces, 3)]
    table.append(((1, 2, 3, 4, 5, 6), 1500))
    table += [((a, a, a, b, b, b), 2500) for a, b in combinations(faces, 2)]
    table += [((four,) * 4 + (two,) * 2, 3000) for four, two in permutations(faces, 2)]
    table += [((face,) * 6, 3000) for face in faces]
    return table


COMBINATIONS: Final[tuple[tuple[Dice, int], ...]] = tuple(_combinations())


def _best_splits() -> dict[Dice, int]:
    """The best points of every selection of dice that splits exactly into combinations
    (RULES.md, "Point dice and combinations"), keyed by the sorted dice. Built up from the
    empty selection by adding one combination at a time, smallest selections first, so each
    selection's best is final before it is extended."""
    best: dict[Dice, int] = {(): 0}
    for size in range(DICE):
        for selection, points in [item for item in best.items() if len(item[0]) == size]:
            for combination, extra in COMBINATIONS:
                if size + len(combination) <= DICE:
                    merged = tuple(sorted(selection + combination))
                    best[merged] = max(best.get(merged, 0), points + extra)
    return best


def _throws_with_points() -> frozenset[Dice]:
    """Every throw of 1 to 6 dice (sorted) that holds at least one combination."""
    with_points: set[Dice] = set()
    for combination, _ in COMBINATIONS:
        for size in range(DICE - len(combination) + 1):
            for others in combinations_with_replacement(range(1, 7), size):
                with_points.add(tuple(sorted(combination + others)))
    return frozenset(with_points)


# Lookups keyed by sorted dice: 127 valid selections, 852 throws with point dice.
_SELECTION_POINTS: Final = _best_splits()
_WITH_POINTS: Final = _throws_with_points()
_THROW_KEYS: Final = frozenset({"dice", "set_aside"})
_PREVIEW_KEYS: Final = frozenset({"throws", "dice"})
_TURN_REQUIRED: Final = frozenset({"throws", "end"})
_TURN_KEYS: Final = _TURN_REQUIRED | {"points", "player"}
# DESIGN.md's example turn, without its player and with the 450 points its throws bank (DESIGN.md
# claims 1,450): the API documents it (with the player), the tests play it.
EXAMPLE_TURN: Final[JsonObject] = {
    "throws": [
        {"dice": [1, 5, 3, 3, 3, 2], "set_aside": [1, 3, 3, 3]},
        {"dice": [5, 2], "set_aside": [5]},
    ],
    "end": "bank",
    "points": 450,
}
_STATE_KEYS: Final = frozenset(
    {"game", "version", "rules", "scores", "turns_played", "final_round_by"}
)
_THROW_FIELDS: Final = tuple(
    (f"throws[{number}]", f"throws[{number}].dice", f"throws[{number}].set_aside")
    for number in range(32)
)


def _throw_fields(number: int) -> tuple[str, str, str]:
    """The JSON paths of a throw, its dice and its set-aside dice, for error messages
    (prebuilt for the first 32 throws: this runs for every throw)."""
    if number < len(_THROW_FIELDS):
        return _THROW_FIELDS[number]
    return f"throws[{number}]", f"throws[{number}].dice", f"throws[{number}].set_aside"


def score_selection(dice: object) -> int:
    """The points of dice set aside from one throw: the best split of exactly these dice into
    combinations (RULES.md, "Point dice and combinations"). `score_selection([1, 1, 1, 1])`
    is 1100. Raises `RuleViolation` (`die_scores_nothing`) when a die belongs to no
    combination, e.g. four 2s."""
    selection = read_dice(dice, "set_aside")
    if len(selection) > DICE:
        raise RuleViolation(
            "wrong_dice_count",
            f"At most {DICE} dice can be set aside from one throw, not {len(selection)}.",
            details={"field": "set_aside", "expected": DICE, "got": len(selection)},
        )
    return _selection_points(selection)


def _selection_points(selection: Dice) -> int:
    points = _SELECTION_POINTS.get(selection)
    if points is None:
        raise scores_nothing(selection)
    return points


def scores_nothing(selection: Dice) -> RuleViolation:
    """The error for a set-aside selection that is not all combinations of the throw."""
    return RuleViolation(
        "die_scores_nothing",
        f"The dice {show(selection)} cannot all be set aside: every die set aside must "
        "belong to a combination of this throw.",
        details={"set_aside": list(selection)},
    )


def set_aside_options(dice: object) -> dict[Dice, int]:
    """Every selection a player may set aside from this throw, sorted, with its points
    (RULES.md, "Turn" step 3): each a non-empty split of some thrown dice into combinations.
    Empty for a Yardkle."""
    return dict(_options_of(read_throw(dice)))


@cache
def _options_of(thrown: Dice) -> tuple[tuple[Dice, int], ...]:
    return tuple(
        (selection, points)
        for selection, points in _SELECTION_POINTS.items()
        if selection and contains(thrown, selection)
    )


def ends_in_yardkle(turn: object) -> bool:
    """Whether a stored turn (the turn JSON) ended in a Yardkle (RULES.md, "Turn", step 2)."""
    return isinstance(turn, dict) and turn.get("end") == YARDKLE_END


def has_points(dice: object) -> bool:
    """Whether a throw of 1 to 6 dice holds any point dice; False means a Yardkle (RULES.md,
    "Turn", step 2). `has_points([2, 3, 4, 6])` is False."""
    return read_throw(dice) in _WITH_POINTS


def read_throw(dice: object) -> Dice:
    """A throw of 1 to 6 dice, sorted (`wrong_dice_count`, `invalid_die` otherwise)."""
    thrown = read_dice(dice, "dice")
    if not 1 <= len(thrown) <= DICE:
        raise RuleViolation(
            "wrong_dice_count",
            f"A throw has 1 to {DICE} dice, not {len(thrown)}.",
            details={"field": "dice", "expected": DICE, "got": len(thrown)},
        )
    return thrown


@dataclass(frozen=True, slots=True)
class YardkleRules(RulesFromJson):
    """A Yardkle ruleset (RULES.md, "Ruleset options"): the game `target` (default 10,000)
    and the `entry_minimum` a player's first bank needs (default 500)."""

    target: int = 10_000
    entry_minimum: int = 500

    OPTIONS: ClassVar[frozenset[str]] = frozenset({"target", "entry_minimum"})

    def __post_init__(self) -> None:
        if type(self.target) is not int or not 1 <= self.target <= MAX_TARGET:
            raise invalid_option("target", self.target, f"an integer from 1 to {MAX_TARGET:,}")
        if type(self.entry_minimum) is not int or not 0 <= self.entry_minimum <= self.target:
            raise invalid_option(
                "entry_minimum", self.entry_minimum, "an integer from 0 to the target"
            )

    def to_json(self) -> JsonObject:
        """The ruleset as stored with a match."""
        return {"target": self.target, "entry_minimum": self.entry_minimum}


@dataclass(frozen=True, slots=True)
class TurnState:
    """Where the current player's turn stands after the throws so far (RULES.md, "Turn").

    `turn_total` is the points collected (0 after a Yardkle, which `lost` then holds),
    `dice_to_throw` how many dice the next throw uses (6 again after hot dice, 0 once a
    Yardkle has ended the turn), `hot_dice`
    whether the last throw set aside the last dice, `yardkle` whether the turn ended in a
    Yardkle, and `can_bank` whether banking now is allowed (not after hot dice, not below the
    entry minimum, not after a Yardkle, not before the first throw).
    """

    throws: int
    turn_total: int
    dice_to_throw: int
    hot_dice: bool
    yardkle: bool
    lost: int
    can_bank: bool


@dataclass(frozen=True, slots=True)
class YardkleTurnResult:
    """What one Yardkle turn did: `points` banked (0 after a Yardkle), `yardkle` whether the
    turn ended in one, `lost` the points that Yardkle took, `score` the player's score after
    the turn, `final_round` whether this turn reached the target and started the final round."""

    seat: int
    points: int
    yardkle: bool
    lost: int
    score: int
    final_round: bool


class YardkleGame(
    SeatedGame[YardkleRules],
    title="Yardkle",
    players=(2, 10),  # RULES.md, "Game"
    state_version=1,  # of the state `to_json` stores
    state_keys=_STATE_KEYS,
    seats_key="scores",  # the state's list with an entry per seat
):
    """A game of Yardkle: 2 to 10 players in seat order, each turn banks points or ends in a
    Yardkle, until someone reaches the target and everyone else has had one more turn
    (RULES.md, "Game", "End"). `play` raises `RuleViolation` and changes nothing when the
    turn is invalid."""

    __slots__ = ("_final_round_by", "_scores")

    def __init__(self, players: int, rules: YardkleRules | None = None) -> None:
        super().__init__(players, rules)
        self._scores = [0] * self._players
        self._final_round_by: int | None = None

    @classmethod
    def read_rules(cls, rules_json: object) -> YardkleRules:
        return YardkleRules.from_json(rules_json)

    @property
    def is_over(self) -> bool:
        """Whether the final round is done: after someone reached the target, every other
        player has had exactly one more turn (RULES.md, "End")."""
        return self._final_round_by == self._turns_played % self._players

    @property
    def round(self) -> int:
        """The round being played (1 first); once over, the round of the last turn."""
        played = self._turns_played - 1 if self.is_over else self._turns_played
        return played // self._players + 1

    @property
    def final_round(self) -> bool:
        """Whether the final round is running or done (someone has reached the target)."""
        return self._final_round_by is not None

    @property
    def final_round_by(self) -> int | None:
        """The seat whose bank first reached the target and started the final round."""
        return self._final_round_by

    def on_board(self, seat: int) -> bool:
        """Whether a player has banked points, so may bank any turn total (RULES.md,
        "Entering the game")."""
        return self._scores[check_seat(seat, self._players)] > 0

    def total(self, seat: int) -> int:
        """A player's score: the sum of their banked turns (RULES.md, "Game")."""
        return self._scores[check_seat(seat, self._players)]

    def seat_counts(self, seat: int, turns: Sequence[object]) -> JsonObject:
        """How many of a seat's turns (`turns`, as stored) ended in a Yardkle: the state keeps
        scores, not how turns ended."""
        check_seat(seat, self._players)
        return {"yardkles": sum(ends_in_yardkle(turn) for turn in turns)}

    def board(self, players: Sequence[int]) -> JsonObject:
        """Every seat's score and whether they are on the board, and the final round, for a
        page or an API answer; each seat names the id `players[seat]` the caller gives it."""
        by = self._final_round_by
        return {
            "final_round": self.final_round,
            "final_round_by": players[by] if by is not None else None,
            "scores": [
                {
                    "seat": seat,
                    "player": players[seat],
                    "total": self.total(seat),
                    "on_board": self.on_board(seat),
                }
                for seat in range(self._players)
            ],
        }

    def preview(self, partial: object) -> JsonObject:
        """What the rules make of a turn still being entered, without playing it: for
        `{"throws": [...], "dice": [current throw]}`, the turn so far (total, dice to throw, hot
        dice, Yardkle, whether banking is allowed) and, for `dice`, every legal set-aside with
        its points."""
        if not isinstance(partial, dict):
            raise RuleViolation("wrong_type", "A preview request is a JSON object.")
        read_object(partial, field="preview", required=frozenset(), allowed=_PREVIEW_KEYS)
        state = self.turn_state(partial.get("throws", []))
        preview: JsonObject = {
            "game": self.name,
            "turn_total": state.turn_total,
            "dice_to_throw": state.dice_to_throw,
            "hot_dice": state.hot_dice,
            "yardkle": state.yardkle,
            "can_bank": state.can_bank,
            "on_board": self.on_board(self.current_player or 0),
        }
        if "dice" in partial:
            # The throw that comes next: none after a Yardkle, and as many dice as are left.
            if state.yardkle:
                raise RuleViolation(
                    "throw_after_yardkle",
                    f"Throw {state.throws + 1} comes after a Yardkle, which ends the turn.",
                    details={"throw": state.throws + 1},
                )
            options = set_aside_options(read_dice(partial["dice"], "dice", state.dice_to_throw))
            preview["has_points"] = bool(options)
            preview["set_aside_options"] = [
                {"dice": list(dice), "points": points} for dice, points in options.items()
            ]
        return preview

    def turn_state(self, throws: object) -> TurnState:
        """Check the current player's throws so far and say where the turn stands, e.g.
        whether banking is allowed now (RULES.md, "Turn", "Entering the game")."""
        if self.is_over:
            raise game_over()
        thrown = read_list(throws, field="throws")
        total, dice_to_throw, hot_dice, yardkle, lost = self._walk(thrown)
        return TurnState(
            throws=len(thrown),
            turn_total=total,
            dice_to_throw=dice_to_throw,
            hot_dice=hot_dice,
            yardkle=yardkle,
            lost=lost,
            can_bank=bool(thrown) and not yardkle and not hot_dice and self._may_enter(total),
        )

    def can_bank(self, throws: object) -> bool:
        """Whether the current player may bank after these throws (RULES.md, "Turn" step 4,
        hot dice, "Entering the game")."""
        return self.turn_state(throws).can_bank

    def _may_enter(self, turn_total: int) -> bool:
        """A player on the scorecard banks any total; a new one needs the entry minimum."""
        seat = self._turns_played % self._players
        return self._scores[seat] > 0 or turn_total >= self._rules.entry_minimum

    def _walk(self, throws: list[object] | tuple[object, ...]) -> tuple[int, int, bool, bool, int]:
        """Follow the throws of a turn, checking each (RULES.md, "Turn"): the right number of
        dice, set-aside dice among those thrown, at least one point die set aside, only
        scoring dice set aside, nothing after a Yardkle, all six again after hot dice.
        Returns the turn total, the dice to throw next, hot dice, Yardkle, and points lost."""
        if len(throws) > MAX_THROWS:
            raise RuleViolation(
                "too_many_throws",
                f"A turn has at most {MAX_THROWS} throws; this one has {len(throws)}.",
                details={"field": "throws", "limit": MAX_THROWS, "throws": len(throws)},
            )
        total = 0
        dice_to_throw = DICE
        hot_dice = False
        yardkle = False
        lost = 0
        for number, throw in enumerate(throws):
            if yardkle:
                raise RuleViolation(
                    "throw_after_yardkle",
                    f"Throw {number + 1} comes after a Yardkle, which ends the turn.",
                    details={"throw": number + 1},
                )
            field, dice_field, set_aside_field = _throw_fields(number)
            # The key check runs inline for speed; read_object explains any mismatch.
            if type(throw) is not dict or throw.keys() != _THROW_KEYS:
                throw = read_object(throw, field=field, required=_THROW_KEYS, allowed=_THROW_KEYS)
            dice = read_dice(throw["dice"], dice_field, dice_to_throw)
            set_aside = read_dice(throw["set_aside"], set_aside_field)
            if set_aside not in (PARTS.get(dice) or parts(dice)):
                raise RuleViolation(
                    "set_aside_not_thrown",
                    f"Throw {number + 1} sets aside {show(set_aside)}, which are not among the "
                    f"dice thrown, {show(dice)}.",
                    details={"throw": number + 1, "set_aside": list(set_aside)},
                )
            if dice not in _WITH_POINTS:
                if set_aside:
                    raise RuleViolation(
                        "die_scores_nothing",
                        f"Throw {number + 1}, {show(dice)}, is a Yardkle: none of its dice "
                        "score, so none can be set aside.",
                        details={"throw": number + 1, "set_aside": list(set_aside)},
                    )
                yardkle, hot_dice, dice_to_throw = True, False, 0
                lost, total = total, 0
                continue
            if not set_aside:
                raise RuleViolation(
                    "empty_set_aside",
                    f"Throw {number + 1}, {show(dice)}, has point dice: at least one must be "
                    "set aside.",
                    details={"throw": number + 1},
                )
            # A lookup; only a selection that does not split into combinations is explained.
            total += _SELECTION_POINTS.get(set_aside) or _selection_points(set_aside)
            dice_to_throw -= len(set_aside)
            hot_dice = dice_to_throw == 0
            if hot_dice:  # All six are point dice: the player throws all six again.
                dice_to_throw = DICE
        return total, dice_to_throw, hot_dice, yardkle, lost

    def play(self, turn: object) -> YardkleTurnResult:
        """Check and apply the current player's turn (RULES.md, "Turn", "Entering the game",
        "End"). The optional `points` must equal the points banked (0 for a Yardkle);
        `player` is ignored here. Raises `RuleViolation` and changes nothing when invalid."""
        if self.is_over:
            raise game_over()
        fields = turn
        if type(fields) is not dict or not _TURN_REQUIRED <= fields.keys() <= _TURN_KEYS:
            fields = read_object(turn, field="turn", required=_TURN_REQUIRED, allowed=_TURN_KEYS)
        end = fields["end"]
        if type(end) is not str or end not in ENDS:
            read_str(end, field="end")
            raise RuleViolation(
                "invalid_end",
                "A turn's end is 'bank' or 'yardkle'.",
                details={"field": "end", "allowed": list(ENDS)},
            )
        throws = read_list(fields["throws"], field="throws")
        if not throws:
            raise RuleViolation("no_throws", "A turn has at least one throw.")
        total, _, hot_dice, yardkle, lost = self._walk(throws)
        self._check_end(end, total, hot_dice=hot_dice, yardkle=yardkle)
        claimed = fields.get("points", total)
        if type(claimed) is not int or claimed != total:
            check_points(claimed, total)  # raises, with both numbers
        seat = self._turns_played % self._players
        self._scores[seat] += total
        final_round = self._final_round_by is None and self._scores[seat] >= self._rules.target
        if final_round:
            self._final_round_by = seat
        self._turns_played += 1
        # Positional: a frozen dataclass is much slower to build with keywords.
        return YardkleTurnResult(seat, total, yardkle, lost, self._scores[seat], final_round)

    def _check_end(self, end: str, total: int, *, hot_dice: bool, yardkle: bool) -> None:
        """The turn's `end` must match its throws, and a bank must be allowed (RULES.md,
        "Turn" steps 2, 4 and 5, "Entering the game")."""
        if end == "yardkle":
            if not yardkle:
                raise RuleViolation(
                    "end_contradicts_throws",
                    "The turn says it ended in a Yardkle, but its last throw has point dice.",
                    details={"end": end},
                )
            return
        if yardkle:
            raise RuleViolation(
                "end_contradicts_throws",
                "The turn says it banked, but its last throw is a Yardkle: nothing to bank.",
                details={"end": end},
            )
        if hot_dice:
            raise RuleViolation(
                "bank_after_hot_dice",
                "All six dice were set aside (hot dice): the player must throw all six again "
                "before banking.",
            )
        if not self._may_enter(total):
            minimum = self._rules.entry_minimum
            raise RuleViolation(
                "bank_below_entry_minimum",
                f"A player not yet on the scorecard banks only {minimum} or more, not {total}.",
                details={"turn_total": total, "entry_minimum": minimum},
            )

    def to_json(self) -> JsonObject:
        """The whole game state as plain JSON, stored on the match; `from_json` restores it."""
        return {
            **self._state_head(),
            "scores": list(self._scores),
            "turns_played": self._turns_played,
            "final_round_by": self._final_round_by,
        }

    def _restore(self, fields: JsonObject, scores: Sequence[Any]) -> None:
        """A stored state's scores, turns played and final round, checked against the
        ruleset: banks of 50, a first one of the entry minimum, a final round started by a
        seat that reached the target."""
        rules = self._rules
        for seat, score in enumerate(scores):
            # Banks are multiples of 50, and the first one is at least the entry minimum.
            if type(score) is not int or score < 0 or score % 50 or 0 < score < rules.entry_minimum:
                raise invalid_state(f"state.scores[{seat}]", "is not a score a player can have")
        turns_played = fields["turns_played"]
        if type(turns_played) is not int or turns_played < 0:
            raise invalid_state("state.turns_played", "is not a count of turns")
        final_round_by = fields["final_round_by"]
        if final_round_by is None:
            if any(score >= rules.target for score in scores):
                raise invalid_state(
                    "state.final_round_by", "is empty but a score reached the target"
                )
        elif (
            type(final_round_by) is not int
            or not 0 <= final_round_by < len(scores)
            or scores[final_round_by] < rules.target
            or turns_played <= final_round_by
        ):
            raise invalid_state("state.final_round_by", "is not a seat that reached the target")
        self._scores = list(scores)
        self._turns_played = turns_played
        self._final_round_by = final_round_by
