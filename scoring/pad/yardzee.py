"""A Yardzee pad (docs/rules.md, "What a pad can show"): a column a player (`YardzeeColumn`:
the 13 boxes, the Yardzee bonus check marks, and the sums when they were typed too).

- every box holds a value five dice can give it (`possible_points`: threes a multiple of 3
  from 0 to 15, full house 0 or 25, chance 5 to 30, ...);
- a bonus check mark needs 50 in the Yardzee box ("Yardzee bonus"), and there are at most 12
  (the other boxes: each bonus Yardzee fills one of them);
- joker consistency ("Joker"). A bonus is scored only on a turn whose five of a kind went in
  another box by the joker rule, and each turn fills one box, so k check marks need k boxes
  that such a turn can have filled, all at once. Which boxes, read from RULES.md:
  - `forced`: the upper box of a face with 5 x that face (step 1); a lower box at its joker
    value (full house 25, small straight 30, large straight 40, 3/4 of a kind or chance
    5 x a face), which needs that face's upper box filled first (step 2); or an upper box
    holding 0 (step 3), which needs every lower box and another upper box filled first.
    Those orders can clash: a 0 in the sixes box written by step 3 comes after every lower
    box, so a chance of 30 cannot also be a joker of six 6s (it needs the sixes box filled
    before it); and not all six upper boxes can be step-3 zeros. `yardzee_bonus_room` takes
    the best choice of which zeros were jokers.
  - `free_choice`: any box five dice of some face can score in it: an upper box with 0 or
    5 x its face; full house, small and large straight at 0 or in full; 3/4 of a kind and
    chance 5 x a face. Every such box can hold a bonus at once (one upper box filled first
    lets the full-value jokers in; the five left open let the zero ones).
  Nothing else about the order of play shows on a pad: a box whose value needs five of a kind
  without a bonus (sixes 30, chance 30, ...) was filled before the Yardzee box, and every
  other plain value comes from dice that are not five of a kind. The tests check this reading
  against a search over every order of turns that `scoring.yardzee` allows.
- the upper bonus and every total are computed (`Scorecard.of`); one typed on the pad must
  equal it.
"""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Final, NotRequired, TypedDict

from scoring.game import placements
from scoring.pad.errors import PadError, PadInvalid, is_count, pad_columns, pad_error
from scoring.yardzee import (
    CATEGORIES,
    LOWER_BOXES,
    POSSIBLE_POINTS,
    UPPER_BOXES,
    YARDZEE_SCORE,
    JokerRule,
    Scorecard,
    YardzeeGame,
    YardzeeRules,
    placement_points,
    possible_points,
)

MAX_YARDZEE_BONUSES: Final = len(CATEGORIES) - 1  # each fills a box other than the Yardzee box
_SUMS: Final = ("upper_total", "upper_bonus", "lower_total", "yardzee_bonus", "total")
_YARDZEE_KEYS: Final = frozenset({"boxes", "yardzee_bonus_count", *_SUMS})


class YardzeeColumn(TypedDict):
    """One player's Yardzee column as written: every box of `CATEGORIES` with its points, the
    Yardzee bonus check marks (none when absent), and the sums, each optional, named as
    `Scorecard.to_json()` names them (`lower_total` is the lower boxes without the bonus)."""

    boxes: dict[str, int]
    yardzee_bonus_count: NotRequired[int]
    upper_total: NotRequired[int]
    upper_bonus: NotRequired[int]
    lower_total: NotRequired[int]
    yardzee_bonus: NotRequired[int]
    total: NotRequired[int]


def _joker_placements(joker: JokerRule, face: int, filled: Sequence[str]) -> dict[str, int]:
    """Where five `face`s go, with their points, when the Yardzee box holds 50 and the boxes
    `filled` are filled (RULES.md, "Joker"), asked of the rulebook itself."""
    column: list[int | None] = [None] * len(CATEGORIES)
    column[CATEGORIES.index("yardzee")] = YARDZEE_SCORE
    for name in filled:
        column[CATEGORIES.index(name)] = 0
    options = placement_points(column, [face] * 5, joker)
    return {CATEGORIES[box]: points for box, points in options.items()}


_FACES: Final = range(1, 7)
_LOWER_OTHERS: Final = tuple(name for name in LOWER_BOXES if name != "yardzee")
# The forced joker's steps, by face: 1, its upper box open; 2, filled; 3, it and every lower
# box filled.
_STEP_1: Final = {face: _joker_placements("forced", face, ()) for face in _FACES}
_STEP_2: Final = {
    face: _joker_placements("forced", face, (UPPER_BOXES[face - 1],)) for face in _FACES
}
_STEP_3: Final = {
    face: _joker_placements("forced", face, (UPPER_BOXES[face - 1], *_LOWER_OTHERS))
    for face in _FACES
}
# Free choice, by face and whether its upper box is filled.
_FREE_CHOICE: Final = tuple(
    _joker_placements("free_choice", face, filled)
    for face in _FACES
    for filled in ((), (UPPER_BOXES[face - 1],))
)


def _holds(placements_by_face: Mapping[int, Mapping[str, int]], name: str, points: int) -> set[int]:
    return {face for face, options in placements_by_face.items() if options.get(name) == points}


def yardzee_bonus_room(boxes: Mapping[str, int], joker: JokerRule) -> int:
    """The most Yardzee bonuses a column of 13 filled boxes (valid points, 50 in the Yardzee
    box) can show: how many of its boxes bonus Yardzees can have filled together under the
    joker rule (RULES.md, "Joker", "Ruleset options"; the reading is the module's)."""
    others = [name for name in CATEGORIES if name != "yardzee"]
    if joker == "free_choice":
        return sum(
            any(options.get(name) == boxes[name] for options in _FREE_CHOICE) for name in others
        )
    fives = sum(bool(_holds(_STEP_1, name, boxes[name])) for name in UPPER_BOXES)
    zeros = [name for name in UPPER_BOXES if _holds(_STEP_3, name, boxes[name])]
    lower_faces = [_holds(_STEP_2, name, boxes[name]) for name in _LOWER_OTHERS]
    best = 0
    # Which upper zeros were step-3 jokers: at most 6 boxes, so every choice is tried. Each
    # comes after every lower box, so a lower joker needs a face whose box is not one of them;
    # and the first needs another upper box filled before it, so not all six.
    for size in range(min(len(zeros), len(UPPER_BOXES) - 1) + 1):
        for chosen in combinations(zeros, size):
            late = {UPPER_BOXES.index(name) + 1 for name in chosen}
            lower = sum(bool(faces - late) for faces in lower_faces)
            best = max(best, fives + size + lower)
    return best


def _yardzee_column(
    player: int, column: object, joker: JokerRule
) -> tuple[list[PadError], Scorecard | None]:
    """The errors of one Yardzee column, and its scorecard when it has none."""
    if type(column) is not dict:
        return [
            pad_error("wrong_type", f"Player {player + 1}'s column is not an object.", player)
        ], None
    errors = [
        pad_error(
            "unknown_key",
            f"Player {player + 1}'s column has {str(key)[:40]!r}; a Yardzee column has boxes, "
            "bonus check marks and sums.",
            player,
            box=str(key)[:40],
        )
        for key in column
        if key not in _YARDZEE_KEYS
    ]
    boxes = column.get("boxes")
    if type(boxes) is not dict:
        boxes = {}
        errors.append(
            pad_error(
                "wrong_type", f"Player {player + 1}'s boxes are not an object.", player, box="boxes"
            )
        )
    errors += [
        pad_error(
            "unknown_box",
            f"There is no box {str(name)[:40]!r} on a Yardzee pad.",
            player,
            box=str(name)[:40],
        )
        for name in boxes
        if name not in CATEGORIES
    ]
    box_errors = []
    for name in CATEGORIES:
        points = boxes.get(name)
        if points is None:
            box_errors.append(
                pad_error(
                    "missing_box",
                    f"Player {player + 1}'s {name} box is empty; a finished pad fills all 13.",
                    player,
                    box=name,
                )
            )
        elif type(points) is not int or points not in possible_points(name):
            box_errors.append(
                pad_error(
                    "box_value_impossible",
                    f"Player {player + 1}'s {name} box holds {points!r}, which no five dice "
                    f"score there (possible: {POSSIBLE_POINTS[name]}).",
                    player,
                    box=name,
                )
            )
    errors += box_errors
    count = column.get("yardzee_bonus_count", 0)
    if not is_count(count) or count > MAX_YARDZEE_BONUSES:
        errors.append(
            pad_error(
                "yardzee_bonus_count_impossible",
                f"Player {player + 1} has {count!r} Yardzee bonus check marks: a column holds 0 "
                f"to {MAX_YARDZEE_BONUSES} (each bonus Yardzee fills a box other than the "
                "Yardzee box).",
                player,
                box="yardzee_bonus_count",
            )
        )
        return errors, None
    if box_errors:
        return errors, None
    if count and boxes["yardzee"] != YARDZEE_SCORE:
        errors.append(
            pad_error(
                "yardzee_bonus_without_yardzee",
                f"Player {player + 1} has {_marks(count)}, but their Yardzee box holds "
                f"{boxes['yardzee']}: a bonus needs {YARDZEE_SCORE} there.",
                player,
                box="yardzee_bonus_count",
            )
        )
    elif count > (room := yardzee_bonus_room(boxes, joker)):
        errors.append(
            pad_error(
                "joker_inconsistent",
                f"Player {player + 1} has {_marks(count)}, but under the {joker} joker rule "
                f"at most {room} of their boxes can hold a bonus Yardzee (each bonus Yardzee "
                "fills a box as the joker rule places it).",
                player,
                box="yardzee_bonus_count",
            )
        )
    card = Scorecard.of([boxes[name] for name in CATEGORIES], count)
    computed = card.to_json()
    for key in _SUMS:
        if key in column and (type(column[key]) is not int or column[key] != computed[key]):
            code = "upper_bonus_mismatch" if key == "upper_bonus" else "total_mismatch"
            errors.append(
                pad_error(
                    code,
                    f"Player {player + 1}'s {key} is written as {column[key]!r}; the boxes give "
                    f"{computed[key]}.",
                    player,
                    box=key,
                )
            )
    return errors, (None if errors else card)


def _check(
    pad: object, rules: YardzeeRules, players: int | None
) -> tuple[list[PadError], list[Scorecard]]:
    """The pad's errors, and the scorecards of its valid columns."""
    columns, errors = pad_columns(pad, YardzeeGame, players)
    cards = []
    for player, column in enumerate(columns):
        column_errors, card = _yardzee_column(player, column, rules.joker)
        errors += column_errors
        if card is not None:
            cards.append(card)
    return errors, cards


def check_yardzee_pad(
    pad: object, rules: YardzeeRules, *, players: int | None = None
) -> list[PadError]:
    """Every error of a Yardzee pad (a list of `YardzeeColumn`, one per seat in seat order;
    `players`, when given, the seats of the match) under `rules`: docs/rules.md, "What a pad
    can show", "Boxes", "Upper bonus", "Yardzee bonus", "Joker", "Grand total". Empty when
    some legal game writes the pad."""
    return _check(pad, rules, players)[0]


@dataclass(frozen=True, slots=True)
class YardzeePadResult:
    """A valid Yardzee pad's scorecards (upper total, upper bonus, lower total, Yardzee bonus
    points and grand total, as `Scorecard.of` computes them) and placements, in seat order."""

    scorecards: tuple[Scorecard, ...]
    totals: tuple[int, ...]
    placements: tuple[int, ...]


def yardzee_pad_result(
    pad: object, rules: YardzeeRules, *, players: int | None = None
) -> YardzeePadResult:
    """The scorecards and placements of a Yardzee pad; `PadInvalid` with every error of
    `check_yardzee_pad` when it has any."""
    errors, cards = _check(pad, rules, players)
    if errors:
        raise PadInvalid(errors)
    scorecards = tuple(cards)
    totals = tuple(card.total for card in scorecards)
    return YardzeePadResult(scorecards, totals, tuple(placements(totals)))


def _marks(count: int) -> str:
    return f"{count} Yardzee bonus check mark{'s' if count != 1 else ''}"
