"""Yardzee, the five-dice game: boxes, the joker rule, turn checks and the game state.

Implements RULES.md, "Yardzee": "Game", "Turn", "Boxes", "Upper bonus", "Yardzee bonus",
"Joker" and "Ruleset options". A turn is the JSON of DESIGN.md ("Turn JSON"):
`{"rolls": [{"dice": [...]}, {"keep": [...], "dice": [...]}], "category": "threes"}`.
"""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations_with_replacement
from typing import Any, ClassVar, Final, Literal, Self

from scoring.dice import PARTS, Dice, parts, read_dice, show
from scoring.errors import RuleViolation
from scoring.game import JsonObject, RulesFromJson, SeatedGame, check_seat, game_over, invalid_state
from scoring.json_input import brief, check_points, invalid_option, read_list, read_object, read_str

UPPER_BOXES: Final = ("aces", "twos", "threes", "fours", "fives", "sixes")
LOWER_BOXES: Final = (
    "three_of_a_kind",
    "four_of_a_kind",
    "full_house",
    "small_straight",
    "large_straight",
    "yardzee",
    "chance",
)
CATEGORIES: Final = UPPER_BOXES + LOWER_BOXES
"""The 13 boxes of a Yardzee scorecard, in scorecard order (RULES.md, "Boxes")."""

ROUNDS: Final = 13
MAX_ROLLS: Final = 3
DICE: Final = 5
UPPER_BONUS: Final = 35
UPPER_BONUS_AT: Final = 63
YARDZEE_BONUS: Final = 100
YARDZEE_SCORE: Final = 50  # five of a kind in the Yardzee box (RULES.md, "Boxes")

JokerRule = Literal["forced", "free_choice"]
JOKER_RULES: Final[tuple[JokerRule, ...]] = ("forced", "free_choice")

Box = int
"""A box as its index in `CATEGORIES`."""

_BOX_OF: Final = {name: box for box, name in enumerate(CATEGORIES)}
YARDZEE: Final[Box] = _BOX_OF["yardzee"]
_LOWER: Final = range(6, 13)
_SMALL_RUNS: Final = ({1, 2, 3, 4}, {2, 3, 4, 5}, {3, 4, 5, 6})
_LARGE_RUNS: Final = ({1, 2, 3, 4, 5}, {2, 3, 4, 5, 6})


def _plain_values(dice: Dice) -> tuple[int, ...]:
    """Every box's value for these dice, no joker (RULES.md, "Boxes")."""
    counts = sorted((dice.count(face) for face in set(dice)), reverse=True)
    faces = set(dice)
    total = sum(dice)
    upper = tuple(face * dice.count(face) for face in range(1, 7))
    return (
        *upper,
        total if counts[0] >= 3 else 0,
        total if counts[0] >= 4 else 0,
        # Exactly three and two: five of a kind is not a full house.
        25 if counts == [3, 2] else 0,
        30 if any(run <= faces for run in _SMALL_RUNS) else 0,
        40 if faces in _LARGE_RUNS else 0,
        50 if counts[0] == 5 else 0,
        total,
    )


def _joker_values(face: int) -> tuple[int, ...]:
    """Lower boxes scored in full as a joker for five dice of `face` (RULES.md, "Joker")."""
    total = 5 * face
    return (total, total, 25, 30, 40, 50, total)


# Every multiset of five dice (252 of them), keyed by its sorted tuple: scoring is a lookup.
_VALUES: Final[dict[Dice, tuple[int, ...]]] = {
    dice: _plain_values(dice) for dice in combinations_with_replacement(range(1, 7), DICE)
}
_FIVE_OF_A_KIND: Final[dict[Dice, int]] = {(face,) * DICE: face for face in range(1, 7)}
_POSSIBLE: Final[tuple[frozenset[int], ...]] = tuple(
    frozenset(values[box] for values in _VALUES.values())
    | frozenset(_joker_values(face)[box - 6] for face in range(1, 7) if box >= 6)
    for box in range(len(CATEGORIES))
)
_ROLL_FIELDS: Final = tuple(
    (f"rolls[{index}]", f"rolls[{index}].keep", f"rolls[{index}].dice")
    for index in range(MAX_ROLLS)
)
_TURN_REQUIRED: Final = frozenset({"rolls", "category"})
_TURN_KEYS: Final = _TURN_REQUIRED | {"points", "player"}
# DESIGN.md's example turn (threes, 15 points), without its player: the API documents it (with
# the player), the tests play it.
EXAMPLE_TURN: Final[JsonObject] = {
    "rolls": [
        {"dice": [3, 3, 5, 2, 6]},
        {"keep": [3, 3], "dice": [3, 3, 3, 1, 4]},
        {"keep": [3, 3, 3], "dice": [3, 3, 3, 3, 3]},
    ],
    "category": "threes",
    "points": 15,
}
_FIRST_ROLL_KEYS: Final = frozenset({"dice"})
_ROLL_KEYS: Final = frozenset({"keep", "dice"})
_STATE_KEYS: Final = frozenset({"game", "version", "rules", "scorecards"})
_SCORECARD_KEYS: Final = frozenset({"boxes", "yardzee_bonus_count"})
_BOX_KEYS: Final = frozenset(CATEGORIES)
_PREVIEW_KEYS: Final = frozenset({"dice"})


def _read_box(name: object) -> Box:
    """A box name of `CATEGORIES` (RULES.md, "Boxes")."""
    category = read_str(name, field="category")
    box = _BOX_OF.get(category)
    if box is None:
        raise RuleViolation(
            "unknown_box",
            f"There is no box {brief(category)}; boxes: {', '.join(CATEGORIES)}.",
            details={"box": category[:40]},
        )
    return box


def _said(values: frozenset[int]) -> str:
    """A box's possible points for a message: runs of three or more as "5 to 30"."""
    runs: list[list[int]] = []
    for value in sorted(values):
        if runs and value == runs[-1][-1] + 1:
            runs[-1].append(value)
        else:
            runs.append([value])
    said = [f"{run[0]} to {run[-1]}" if len(run) >= 3 else ", ".join(map(str, run)) for run in runs]
    return said[0] if len(said) == 1 else f"{', '.join(said[:-1])} or {said[-1]}"


POSSIBLE_POINTS: Final[Mapping[str, str]] = {
    name: _said(_POSSIBLE[box]) for box, name in enumerate(CATEGORIES)
}
"""Every box's possible points, said: "0 or 50" for the Yardzee box (RULES.md, "Boxes")."""


def possible_points(name: str) -> frozenset[int]:
    """Every value the rules can put in box `name` (a box of `CATEGORIES`) by some five dice,
    the joker included (RULES.md, "Boxes", "Joker"): {0, 25} for full house, 5 to 30 for
    chance, the multiples of 3 from 0 to 15 for threes."""
    return _POSSIBLE[_BOX_OF[name]]


def check_box_points(name: str, points: object, field: str) -> int | None:
    """A filled box's points, or None for an open box: only points the rules can give that
    box (RULES.md, "Boxes", "Joker": full house 0 or 25, chance 5 to 30, aces 0 to 5 ...);
    anything else is `invalid_state` naming `field`. `name` is a box of `CATEGORIES`."""
    box = _BOX_OF[name]
    if points is None:
        return None
    if type(points) is not int or points not in _POSSIBLE[box]:
        raise invalid_state(
            field,
            f"is {brief(points)}, not points the {name} box can hold ({POSSIBLE_POINTS[name]})",
        )
    return points


def score(category: str, dice: object) -> int:
    """A box's plain value for five dice: no joker, no bonus (RULES.md, "Boxes").

    `score("full_house", [3, 3, 3, 6, 6]) == 25`; a box the dice do not qualify for scores 0.
    """
    box = _read_box(category)
    return _VALUES[read_dice(dice, "dice", DICE)][box]


@dataclass(frozen=True, slots=True)
class YardzeeRules(RulesFromJson):
    """A Yardzee ruleset (RULES.md, "Ruleset options"): `joker` is `forced` (the official
    rule, the default) or `free_choice`."""

    joker: JokerRule = "forced"

    OPTIONS: ClassVar[frozenset[str]] = frozenset({"joker"})

    def __post_init__(self) -> None:
        if self.joker not in JOKER_RULES:
            raise invalid_option("joker", self.joker, "'forced' or 'free_choice'")

    def to_json(self) -> JsonObject:
        """The ruleset as stored with a match."""
        return {"joker": self.joker}


@dataclass(frozen=True, slots=True)
class YardzeeTurnResult:
    """What one Yardzee turn put on the scorecard.

    `points` is what went into the box (joker value included), `bonus` the Yardzee bonus
    (0 or 100), `joker` whether the Joker rule governed the placement (five of a kind with the
    Yardzee box already filled).
    """

    seat: int
    category: str
    dice: Dice
    points: int
    bonus: int
    joker: bool


@dataclass(frozen=True, slots=True)
class Scorecard:
    """One player's column (RULES.md, "Boxes", "Upper bonus", "Yardzee bonus", "Grand total").

    `boxes` maps every box name to its points, or None while it is open.
    """

    boxes: Mapping[str, int | None]
    yardzee_bonus_count: int
    upper_total: int
    upper_bonus: int
    lower_total: int
    yardzee_bonus: int
    total: int

    @classmethod
    def of(cls, boxes: list[int | None], yardzee_bonus_count: int) -> Self:
        """The scorecard for a column of box points and a count of Yardzee bonus check marks."""
        upper_total = sum(points or 0 for points in boxes[:6])
        lower_total = sum(points or 0 for points in boxes[6:])
        upper_bonus = UPPER_BONUS if upper_total >= UPPER_BONUS_AT else 0
        yardzee_bonus = YARDZEE_BONUS * yardzee_bonus_count
        return cls(
            boxes=dict(zip(CATEGORIES, boxes, strict=True)),
            yardzee_bonus_count=yardzee_bonus_count,
            upper_total=upper_total,
            upper_bonus=upper_bonus,
            lower_total=lower_total,
            yardzee_bonus=yardzee_bonus,
            total=upper_total + upper_bonus + lower_total + yardzee_bonus,
        )

    @property
    def yardzees(self) -> int:
        """Yardzees rolled and scored: 50 in the Yardzee box, and every Yardzee bonus."""
        return int(self.boxes["yardzee"] == YARDZEE_SCORE) + self.yardzee_bonus_count

    def to_json(self) -> JsonObject:
        """The scorecard as plain JSON, for pages and the API."""
        return {
            "boxes": dict(self.boxes),
            "upper_total": self.upper_total,
            "upper_bonus": self.upper_bonus,
            "lower_total": self.lower_total,
            "yardzee_bonus_count": self.yardzee_bonus_count,
            "yardzee_bonus": self.yardzee_bonus,
            "total": self.total,
        }


def _read_rolls(value: object) -> Dice:
    """The final dice of a turn's rolls, checking every roll (RULES.md, "Turn"): one to three
    rolls, all five dice thrown first, then each roll keeps some dice showing and re-throws
    at least one."""
    rolls = value if type(value) is list else read_list(value, field="rolls")
    if not rolls:
        raise RuleViolation("no_rolls", "A turn has at least one roll.")
    if len(rolls) > MAX_ROLLS:
        raise RuleViolation(
            "too_many_rolls",
            f"A turn has at most {MAX_ROLLS} rolls, not {len(rolls)}.",
            details={"max": MAX_ROLLS, "got": len(rolls)},
        )
    first = rolls[0]
    # The key checks run inline for speed; read_object explains any mismatch.
    if type(first) is not dict or first.keys() != _FIRST_ROLL_KEYS:
        if type(first) is dict and "keep" in first:
            raise RuleViolation(
                "keep_on_first_roll",
                "The first roll throws all five dice; it keeps nothing.",
                details={"field": "rolls[0].keep"},
            )
        first = read_object(
            first, field="rolls[0]", required=_FIRST_ROLL_KEYS, allowed=_FIRST_ROLL_KEYS
        )
    showing = read_dice(first["dice"], "rolls[0].dice", DICE)
    for number in range(1, len(rolls)):
        field, keep_field, dice_field = _ROLL_FIELDS[number]
        roll = rolls[number]
        if type(roll) is not dict or roll.keys() != _ROLL_KEYS:
            roll = read_object(roll, field=field, required=_ROLL_KEYS, allowed=_ROLL_KEYS)
        keep = read_dice(roll["keep"], keep_field)
        dice = read_dice(roll["dice"], dice_field, DICE)
        if keep not in (PARTS.get(showing) or parts(showing)):
            raise RuleViolation(
                "keep_not_in_roll",
                f"Roll {number + 1} keeps {show(keep)}, but the dice showing were {show(showing)}.",
                details={"roll": number + 1, "keep": list(keep), "showing": list(showing)},
            )
        if len(keep) == DICE:
            raise RuleViolation(
                "keep_all_dice",
                f"Roll {number + 1} keeps all five dice; a roll re-throws at least one.",
                details={"roll": number + 1},
            )
        if keep not in (PARTS.get(dice) or parts(dice)):
            raise RuleViolation(
                "keep_not_in_new_roll",
                f"Roll {number + 1} keeps {show(keep)}, but its dice {show(dice)} do not "
                "include them.",
                details={"roll": number + 1, "keep": list(keep), "dice": list(dice)},
            )
        showing = dice
    return showing


def _joker_options(boxes: list[int | None], face: int, joker: JokerRule) -> dict[Box, int]:
    """The boxes five dice of `face` may go in, and their points, when the Yardzee box is
    already filled (RULES.md, "Joker" and "Ruleset options")."""
    upper = face - 1
    open_lower = [box for box in _LOWER if boxes[box] is None]
    joker_values = _joker_values(face)
    if joker == "forced":
        if boxes[upper] is None:  # Step 1: the upper box of that face, when open.
            return {upper: 5 * face}
        if open_lower:  # Step 2: any open lower box, scored in full.
            return {box: joker_values[box - 6] for box in open_lower}
        # Step 3: a zero in any open upper box.
        return {box: 0 for box in range(6) if boxes[box] is None}
    options = {box: (5 * face if box == upper else 0) for box in range(6) if boxes[box] is None}
    # Free choice: lower boxes score as a joker only once that face's upper box is filled.
    plain = _VALUES[(face,) * DICE]
    values = joker_values if boxes[upper] is not None else plain[6:]
    options.update({box: values[box - 6] for box in open_lower})
    return options


def _bonus(boxes: list[int | None], dice: Dice) -> int:
    """The Yardzee bonus (RULES.md, "Yardzee bonus"): five of a kind while the box holds 50."""
    return YARDZEE_BONUS if dice in _FIVE_OF_A_KIND and boxes[YARDZEE] == 50 else 0


class YardzeeGame(
    SeatedGame[YardzeeRules],
    title="Yardzee",
    players=(2, 5),  # RULES.md, "Game"
    state_version=1,  # of the state `to_json` stores
    state_keys=_STATE_KEYS,
    seats_key="scorecards",  # the state's list with an entry per seat
):
    """A game of Yardzee: 2 to 5 players, 13 rounds, one box filled per turn (RULES.md, "Game").

    Seats are 0..players-1 and play in seat order; `play` applies the current player's turn or
    raises `RuleViolation` and changes nothing.
    """

    __slots__ = ("_bonus_counts", "_boxes")

    def __init__(self, players: int, rules: YardzeeRules | None = None) -> None:
        super().__init__(players, rules)
        self._boxes: list[list[int | None]] = [
            [None] * len(CATEGORIES) for _ in range(self._players)
        ]
        self._bonus_counts = [0] * self._players

    @classmethod
    def read_rules(cls, rules_json: object) -> YardzeeRules:
        return YardzeeRules.from_json(rules_json)

    @property
    def is_over(self) -> bool:
        """Whether every player has filled all 13 boxes (RULES.md, "Game")."""
        return self._turns_played == ROUNDS * self._players

    @property
    def round(self) -> int:
        """The round being played, 1 to 13 (13 once the game is over)."""
        return min(self._turns_played // self._players + 1, ROUNDS)

    def play(self, turn: object) -> YardzeeTurnResult:
        """Check and apply the current player's turn (RULES.md, "Turn", "Boxes", "Yardzee bonus",
        "Joker"). The optional `points` must equal the box's points (bonus excluded);
        `player` is ignored here. Raises `RuleViolation` and changes nothing when invalid."""
        if self._turns_played == ROUNDS * self._players:
            raise game_over()
        fields = turn
        if type(fields) is not dict or not _TURN_REQUIRED <= fields.keys() <= _TURN_KEYS:
            fields = read_object(turn, field="turn", required=_TURN_REQUIRED, allowed=_TURN_KEYS)
        dice = _read_rolls(fields["rolls"])
        category = fields["category"]
        box = _BOX_OF.get(category) if type(category) is str else None
        if box is None:
            box = _read_box(category)  # raises, naming the problem
        seat = self._turns_played % self._players
        boxes = self._boxes[seat]
        points, joker = self._placement(boxes, dice, box)
        claimed = fields.get("points", points)
        if type(claimed) is not int or claimed != points:
            check_points(claimed, points)  # raises, with both numbers
        # The bonus comes only with a joker (five of a kind, Yardzee box filled), and only on 50.
        bonus = YARDZEE_BONUS if joker and boxes[YARDZEE] == 50 else 0
        boxes[box] = points
        if bonus:
            self._bonus_counts[seat] += 1
        self._turns_played += 1
        # Positional: a frozen dataclass is much slower to build with keywords.
        return YardzeeTurnResult(seat, CATEGORIES[box], dice, points, bonus, joker)

    def _placement(self, boxes: list[int | None], dice: Dice, box: Box) -> tuple[int, bool]:
        """The points of `dice` in `box` and whether the joker applied; raises when the box is
        filled or the joker rule forbids it (RULES.md, "Boxes", "Joker")."""
        if boxes[box] is not None:
            raise RuleViolation(
                "box_filled",
                f"The {CATEGORIES[box]} box is already filled; a box is filled only once.",
                details={"box": CATEGORIES[box]},
            )
        face = _FIVE_OF_A_KIND.get(dice)
        if face is None or boxes[YARDZEE] is None:
            return _VALUES[dice][box], False
        options = _joker_options(boxes, face, self._rules.joker)
        if box not in options:
            allowed = [CATEGORIES[option] for option in options]
            raise RuleViolation(
                "joker_forbids_box",
                f"Five {face}s with the Yardzee box filled cannot go in {CATEGORIES[box]}; "
                f"the joker rule allows: {', '.join(allowed)}.",
                details={"box": CATEGORIES[box], "allowed": allowed},
            )
        return options[box], True

    def box_options(self, dice: object) -> dict[str, int | None]:
        """For the current player and these final five dice: every open box and the points it
        would score (joker included, Yardzee bonus not), or None where the joker rule forbids
        it (RULES.md, "Boxes", "Joker"). The bonus is `yardzee_bonus_for(dice)`."""
        if self.is_over:
            raise game_over()
        showing = read_dice(dice, "dice", DICE)
        boxes = self._boxes[self._turns_played % self._players]
        face = _FIVE_OF_A_KIND.get(showing)
        if face is None or boxes[YARDZEE] is None:
            values = _VALUES[showing]
            return {name: values[box] for box, name in enumerate(CATEGORIES) if boxes[box] is None}
        options = _joker_options(boxes, face, self._rules.joker)
        return {name: options.get(box) for box, name in enumerate(CATEGORIES) if boxes[box] is None}

    def yardzee_bonus_for(self, dice: object) -> int:
        """The Yardzee bonus (0 or 100) the current player would get for these final dice
        (RULES.md, "Yardzee bonus")."""
        if self.is_over:
            raise game_over()
        showing = read_dice(dice, "dice", DICE)
        return _bonus(self._boxes[self._turns_played % self._players], showing)

    def board(self, players: Sequence[int]) -> JsonObject:
        """Every seat's scorecard for a page or an API answer, each naming its seat and the
        id `players[seat]` the caller gives it (the rulebook knows seats, not players)."""
        return {
            "scorecards": [
                {"seat": seat, "player": players[seat], **self.scorecard(seat).to_json()}
                for seat in range(self._players)
            ]
        }

    def preview(self, partial: object) -> JsonObject:
        """What the rules make of a turn still being entered, without playing it: for
        `{"dice": [5 dice]}`, every open box of the current player with the points it would
        score (None where the joker rule forbids it) and the Yardzee bonus."""
        if not isinstance(partial, dict):
            raise RuleViolation("wrong_type", "A preview request is a JSON object.")
        if "dice" not in partial:
            raise RuleViolation("missing_key", "Send the five dice showing as `dice`.")
        read_object(partial, field="preview", required=_PREVIEW_KEYS, allowed=_PREVIEW_KEYS)
        return {
            "game": self.name,
            "options": self.box_options(partial["dice"]),
            "yardzee_bonus": self.yardzee_bonus_for(partial["dice"]),
        }

    def scorecard(self, seat: int) -> Scorecard:
        """A player's scorecard: boxes, upper total and bonus, lower total, Yardzee bonuses,
        grand total (RULES.md, "Grand total")."""
        seat = check_seat(seat, self._players)
        return Scorecard.of(list(self._boxes[seat]), self._bonus_counts[seat])

    def total(self, seat: int) -> int:
        """A player's grand total = upper total + upper bonus + lower total + 100 x Yardzee
        bonuses (RULES.md, "Grand total")."""
        seat = check_seat(seat, self._players)
        boxes = self._boxes[seat]
        upper = sum(points or 0 for points in boxes[:6])
        lower = sum(points or 0 for points in boxes[6:])
        upper_bonus = UPPER_BONUS if upper >= UPPER_BONUS_AT else 0
        return upper + upper_bonus + lower + YARDZEE_BONUS * self._bonus_counts[seat]

    def seat_counts(self, seat: int, turns: Sequence[object]) -> JsonObject:
        """A seat's Yardzees (the box and every bonus) and whether it scored the upper bonus,
        from its scorecard; `turns` are not needed."""
        card = self.scorecard(seat)
        return {"yardzees": card.yardzees, "upper_bonus": card.upper_bonus > 0}

    def to_json(self) -> JsonObject:
        """The whole game state as plain JSON, stored on the match; `from_json` restores it."""
        return {
            **self._state_head(),
            "scorecards": [
                {
                    "boxes": dict(zip(CATEGORIES, boxes, strict=True)),
                    "yardzee_bonus_count": bonus_count,
                }
                for boxes, bonus_count in zip(self._boxes, self._bonus_counts, strict=True)
            ],
        }

    def _restore(self, fields: JsonObject, cards: Sequence[Any]) -> None:
        """A stored state's scorecards, each checked (`_read_scorecard`), and filled in seat
        order: the turns played are the boxes filled."""
        self._boxes = []
        self._bonus_counts = []
        for seat, card in enumerate(cards):
            boxes, bonus_count = _read_scorecard(card, f"state.scorecards[{seat}]")
            self._boxes.append(boxes)
            self._bonus_counts.append(bonus_count)
        filled = [sum(points is not None for points in boxes) for boxes in self._boxes]
        self._turns_played = sum(filled)
        expected = [
            self._turns_played // self._players + (seat < self._turns_played % self._players)
            for seat in range(self._players)
        ]
        if filled != expected:
            raise invalid_state("state.scorecards", "do not follow seat order")


def _read_scorecard(value: object, field: str) -> tuple[list[int | None], int]:
    """One stored scorecard: every box None or a value that box can hold, and a bonus count
    that the Yardzee box and the filled boxes allow."""
    card = read_object(value, field=field, required=_SCORECARD_KEYS, allowed=_SCORECARD_KEYS)
    stored: dict[str, Any] = read_object(
        card["boxes"], field=f"{field}.boxes", required=_BOX_KEYS, allowed=_BOX_KEYS
    )
    boxes: list[int | None] = []
    for name in CATEGORIES:
        boxes.append(check_box_points(name, stored[name], f"{field}.boxes.{name}"))
    bonus_count = card["yardzee_bonus_count"]
    filled = sum(points is not None for points in boxes)
    # Each bonus came with a later turn, after a 50 in the Yardzee box.
    most = filled - 1 if boxes[YARDZEE] == 50 else 0
    if type(bonus_count) is not int or not 0 <= bonus_count <= most:
        raise invalid_state(f"{field}.yardzee_bonus_count", f"is not between 0 and {most}")
    return boxes, bonus_count


def placement_points(boxes: Sequence[int | None], dice: object, joker: JokerRule) -> dict[Box, int]:
    """Every box final dice may be placed in, for a column `boxes` (13 entries in
    `CATEGORIES` order, None where open), with the points they would score there: the joker
    included, the Yardzee bonus not (RULES.md, "Boxes", "Joker"). A box the joker rule forbids
    is absent. The strategy engine (`scoring.analysis`) asks this for columns of no game."""
    showing = read_dice(dice, "dice", DICE)
    column = list(boxes)
    face = _FIVE_OF_A_KIND.get(showing)
    if face is None or column[YARDZEE] is None:
        values = _VALUES[showing]
        return {box: values[box] for box in range(len(CATEGORIES)) if column[box] is None}
    return _joker_options(column, face, joker)


def yardzee_bonus(boxes: Sequence[int | None], dice: object) -> int:
    """The Yardzee bonus (0 or 100) final dice add to a column `boxes` (RULES.md, "Yardzee
    bonus"): five of a kind while the Yardzee box holds 50."""
    return _bonus(list(boxes), read_dice(dice, "dice", DICE))
