"""The Yardzee state table: the value of every state at the start of a turn, by backward
induction (RULES.md, "Yardzee"; docs/analysis.md has the method and the figures).

A state is the filled boxes (13 bits, bit `b` for `CATEGORIES[b]`), the upper subtotal capped
at 63 (the upper bonus threshold) and whether the Yardzee box holds 50. Its value is the
expected number of points still to come under optimal play: box scores, the upper bonus,
Yardzee bonuses and jokers, all as `scoring.yardzee` scores them (`score`, `placement_points`,
`yardzee_bonus`, `UPPER_BONUS`, `UPPER_BONUS_AT`); nothing here knows a box's score itself.

The table is a flat float64 array indexed `(filled * 64 + upper) * 2 + yardzee_50`. A state
no game can reach (an upper subtotal the filled upper boxes cannot make, a 50 in an open
Yardzee box) holds NaN, so asking for it is an error, never a number. Every state with the same
number of filled boxes depends only on states with one more, so a whole level is solved at once,
in blocks of columns: the box stage (every open box for all 252 outcomes), then the third and
second rolls backwards (`scoring.analysis.rolls.roll_values`), then the first roll's mean.
"""

from dataclasses import dataclass
from functools import cache
from typing import Final

import numpy as np

from scoring.analysis.rolls import (
    FACE_COUNTS,
    FACES,
    FIVE_OF_A_KIND,
    OUTCOME_PROBABILITY,
    OUTCOMES,
    BoolArray,
    FloatArray,
    IntArray,
    RollValues,
    roll_values,
)
from scoring.yardzee import (
    CATEGORIES,
    UPPER_BONUS,
    UPPER_BONUS_AT,
    UPPER_BOXES,
    YARDZEE,
    JokerRule,
    placement_points,
    score,
    yardzee_bonus,
)

BOXES: Final = len(CATEGORIES)
UPPER: Final = len(UPPER_BOXES)
UPPER_MASK: Final = (1 << UPPER) - 1
MASKS: Final = 1 << BOXES
UPPER_STATES: Final = UPPER_BONUS_AT + 1  # 0..63, 63 standing for "63 or more"
STATES: Final = MASKS * UPPER_STATES * 2
YARDZEE_BIT: Final = 1 << YARDZEE
# Columns solved together: enough that NumPy's cost per call is spread thin, few enough that a
# block's tables (252 x 128 float64, 258 KB) stay in the cache (64 to 2,048 tried; 128 best).
BLOCK: Final = 128

SCORES: Final[IntArray] = np.array(
    [[score(name, list(dice)) for dice in OUTCOMES] for name in CATEGORIES], dtype=np.intp
)
"""`SCORES[box, outcome]`: a box's plain value (`scoring.yardzee.score`)."""

YARDZEE_POINTS: Final = int(SCORES[YARDZEE].max())
"""What a Yardzee scores in its box (50): the state's flag is whether the box holds this."""


def state_index(filled: int, upper: int, yardzee_50: bool) -> int:
    """A state's position in the table (`upper` already capped at 63)."""
    return (filled * UPPER_STATES + upper) * 2 + int(yardzee_50)


@cache
def upper_subtotals(filled_upper: int) -> frozenset[int]:
    """Every upper subtotal (capped at 63) that the upper boxes filled in `filled_upper`
    (6 bits) can hold together: each holds 0 to 5 dice of its face."""
    totals = {0}
    for box in range(UPPER):
        if filled_upper >> box & 1:
            face = box + 1
            totals = {
                min(UPPER_BONUS_AT, total + count * face) for total in totals for count in range(6)
            }
    return frozenset(totals)


def reachable(filled: int, upper: int, yardzee_50: bool) -> bool:
    """Whether a game can be in this state, so that the table holds its value."""
    if yardzee_50 and not filled & YARDZEE_BIT:
        return False
    return upper in upper_subtotals(filled & UPPER_MASK)


def level_states(level: int) -> IntArray:
    """Every reachable state with `level` boxes filled, as table indexes."""
    found: list[int] = []
    for filled in range(MASKS):
        if filled.bit_count() == level:
            flags = (False, True) if filled & YARDZEE_BIT else (False,)
            for upper in sorted(upper_subtotals(filled & UPPER_MASK)):
                found.extend(state_index(filled, upper, flag) for flag in flags)
    return np.array(found, dtype=np.intp)


@dataclass(frozen=True, slots=True)
class JokerTable:
    """Where five of a kind may go once the Yardzee box is filled, for every filled mask,
    from `scoring.yardzee.placement_points`: `allowed[filled, face - 1, box]` and the points
    `points[filled, face - 1, box]` there; `bonus` is what `scoring.yardzee.yardzee_bonus`
    adds while the Yardzee box holds 50."""

    allowed: BoolArray
    points: IntArray
    bonus: int


@cache
def joker_table(joker: JokerRule) -> JokerTable:
    """The joker placements of every column with the Yardzee box filled (RULES.md, "Joker")."""
    allowed = np.zeros((MASKS, len(FACES), BOXES), dtype=np.bool_)
    points = np.zeros((MASKS, len(FACES), BOXES), dtype=np.intp)
    for filled in range(YARDZEE_BIT, MASKS - 1):
        if filled & YARDZEE_BIT:
            # Only which boxes are open matters here (and the Yardzee box's 50).
            column: list[int | None] = [0 if filled >> box & 1 else None for box in range(BOXES)]
            column[YARDZEE] = YARDZEE_POINTS
            for face in FACES:
                for box, value in placement_points(column, [face] * 5, joker).items():
                    allowed[filled, face - 1, box] = True
                    points[filled, face - 1, box] = value
    with_50 = [YARDZEE_POINTS if box == YARDZEE else None for box in range(BOXES)]
    return JokerTable(allowed=allowed, points=points, bonus=yardzee_bonus(with_50, [6] * 5))


_FACE_POINTS: Final[IntArray] = np.arange(6)[:, None] * np.array(FACES)[None, :]
"""`_FACE_POINTS[count, box]`: an upper box's points for `count` dice of its face."""
_YARDZEE_ROW: Final[IntArray] = (SCORES[YARDZEE] == YARDZEE_POINTS).astype(np.intp)
_FLOAT_SCORES: Final[FloatArray] = SCORES.astype(np.float64)
_BOX_BITS: Final[IntArray] = 1 << np.arange(BOXES)


def _upper_after(
    table: FloatArray, filled: IntArray, upper: IntArray, yardzee_50: IntArray, points: IntArray
) -> FloatArray:
    """For upper boxes filled with `points` (broadcast against the columns, last axis): the
    value of the state after, plus the points and the upper bonus earned now (RULES.md, "Upper
    bonus"). `filled` already has the box's bit."""
    total = upper + points
    earned = np.where((upper < UPPER_BONUS_AT) & (total >= UPPER_BONUS_AT), UPPER_BONUS, 0)
    capped = np.minimum(total, UPPER_BONUS_AT)
    after: FloatArray = table[(filled * UPPER_STATES + capped) * 2 + yardzee_50]
    after += points + earned
    return after


def final_values(table: FloatArray, states: IntArray, joker: JokerRule) -> FloatArray:
    """`final[outcome, column]`: the value of placing final dice at the end of a turn in the
    best open box, for the states in `states` (table indexes): the box's points, the upper and
    Yardzee bonuses earned now, and the value of the state after (RULES.md, "Boxes",
    "Upper bonus", "Yardzee bonus", "Joker")."""
    final: FloatArray = box_candidates(table, states, joker).values.max(axis=0)
    return final


@dataclass(frozen=True, slots=True)
class BoxCandidates:
    """Every box a turn's final dice may fill, valued: `values[row, outcome, column]` is the
    points of box `boxes[row]` (bonuses earned now included) plus `table`'s value of the state
    after, -inf where the box is closed or the joker rule forbids it."""

    boxes: tuple[int, ...]
    values: FloatArray


def box_candidates(table: FloatArray, states: IntArray, joker: JokerRule) -> BoxCandidates:
    """The candidates of `final_values`, box by box, before the best is taken. Passed a table
    of zeros, the values are the points scored now; `scoring.winprob` follows the best box of
    the value table through other tables this way."""
    filled = states // (UPPER_STATES * 2)
    upper = (states >> 1) & (UPPER_STATES - 1)
    yardzee_50 = states & 1
    columns = len(states)
    # Only the boxes open in some column: a block holds states of few scorecards.
    closed_everywhere = int(np.bitwise_and.reduce(filled))
    open_upper = [box for box in range(UPPER) if not closed_everywhere >> box & 1]
    open_lower = [box for box in range(UPPER, BOXES) if not closed_everywhere >> box & 1]
    candidates = np.empty((len(open_upper) + len(open_lower), len(OUTCOMES), columns))
    if open_upper:
        # Upper boxes: the value of each count of the box's face, then taken by outcome.
        bits = _BOX_BITS[open_upper]
        by_count = _upper_after(
            table,
            filled[None, None, :] | bits[None, :, None],
            upper,
            yardzee_50,
            _FACE_POINTS[:, open_upper, None],
        )
        by_count[:, (filled[None, :] & bits[:, None]) != 0] = -np.inf
        rows = FACE_COUNTS[open_upper] * len(open_upper) + np.arange(len(open_upper))[:, None]
        np.take(
            by_count.reshape(6 * len(open_upper), columns),
            rows,
            axis=0,
            out=candidates[: len(open_upper)],
        )
    if open_lower:
        # Lower boxes: points by outcome plus the value after (the same for every outcome) ...
        bits = _BOX_BITS[open_lower]
        after = table[((filled[None, :] | bits[:, None]) * UPPER_STATES + upper) * 2 + yardzee_50]
        after[(filled[None, :] & bits[:, None]) != 0] = -np.inf
        lower = candidates[len(open_upper) :]
        np.add(_FLOAT_SCORES[open_lower, :, None], after[:, None, :], out=lower)
        if YARDZEE in open_lower:
            # ... except a Yardzee in its box, whose 50 sets the state's flag.
            with_50 = table[((filled | YARDZEE_BIT) * UPPER_STATES + upper) * 2 + 1]
            with_50 += YARDZEE_POINTS
            with_50[(filled & YARDZEE_BIT) != 0] = -np.inf
            lower[open_lower.index(YARDZEE), _YARDZEE_ROW == 1] = with_50
    boxes = open_upper + open_lower
    _place_jokers(candidates, table, filled, upper, yardzee_50, joker, boxes)
    return BoxCandidates(boxes=tuple(boxes), values=candidates)


def _place_jokers(
    candidates: FloatArray,
    table: FloatArray,
    filled: IntArray,
    upper: IntArray,
    yardzee_50: IntArray,
    joker: JokerRule,
    open_boxes: list[int],
) -> None:
    """Five of a kind with the Yardzee box filled goes where the joker rule allows, scored as
    `placement_points` says, plus the Yardzee bonus while the box holds 50 (RULES.md, "Joker",
    "Yardzee bonus"): these six outcomes of such columns are valued again, box by box (the
    rows of `candidates`). Only the `open_boxes` (open in some column) can take them."""
    columns = np.flatnonzero(filled & YARDZEE_BIT)
    if not len(columns):
        return
    jokers = joker_table(joker)
    masks = filled[columns]
    boxes = np.array(open_boxes, dtype=np.intp)
    is_upper = boxes < UPPER
    # Arrays by column, face, box.
    filled, upper, yardzee_50 = (part[columns, None, None] for part in (filled, upper, yardzee_50))
    allowed = jokers.allowed[masks][:, :, boxes]
    points = jokers.points[masks][:, :, boxes]
    total = np.where(is_upper, upper + points, upper)
    earned = np.where(
        is_upper & (upper < UPPER_BONUS_AT) & (total >= UPPER_BONUS_AT), UPPER_BONUS, 0
    )
    capped = np.minimum(total, UPPER_BONUS_AT)
    after = table[((filled | _BOX_BITS[boxes]) * UPPER_STATES + capped) * 2 + yardzee_50]
    after += points + earned + yardzee_50 * jokers.bonus
    after[~allowed] = -np.inf
    candidates[:, FIVE_OF_A_KIND[:, None], columns[None, :]] = after.transpose(2, 1, 0)


@dataclass(frozen=True, slots=True)
class TurnValues:
    """Every choice of a turn valued, for states in columns (RULES.md, Yardzee "Turn"):
    `final` the dice placed in their best box; `last` the choices after the second roll (one
    roll left); `middle` the choices after the first roll (two left); `start` the value of the
    turn before the first roll, which is the table's value of the state."""

    final: FloatArray
    last: RollValues
    middle: RollValues
    start: FloatArray


def column_of(turn: TurnValues, column: int) -> TurnValues:
    """One state's turn out of a block's (views, not copies)."""
    part = slice(column, column + 1)
    return TurnValues(
        final=turn.final[:, part],
        last=RollValues(
            keeps=tuple(keep[:, part] for keep in turn.last.keeps),
            showing=turn.last.showing[:, part],
        ),
        middle=RollValues(
            keeps=tuple(keep[:, part] for keep in turn.middle.keeps),
            showing=turn.middle.showing[:, part],
        ),
        start=turn.start[part],
    )


def first_roll(showing: FloatArray) -> FloatArray:
    """The mean over the first roll's outcomes. Each state's row is summed alone (a contiguous
    row of 252, the same sum in the same order however many states are solved together), so a
    state's value comes out the same to the last bit alone or in a block; a matrix product
    would add in an order that depends on the block's width."""
    rows = np.array(showing.T, order="C")  # a copy: `showing.T` of one state is contiguous
    rows *= OUTCOME_PROBABILITY
    total: FloatArray = rows.sum(axis=1)
    return total


def turn_values(table: FloatArray, states: IntArray, joker: JokerRule) -> TurnValues:
    """Solve one turn for the states in `states`, given the table's values of every state one
    box fuller."""
    final = final_values(table, states, joker)
    last = roll_values(final, final)
    middle = roll_values(last.showing, final)
    return TurnValues(final=final, last=last, middle=middle, start=first_roll(middle.showing))


@dataclass(frozen=True, slots=True)
class Level:
    """The reachable states with one number of boxes filled: `solved` are solved; each of
    `same` has the value of its `as_` state, one of `solved` (see `level`)."""

    solved: IntArray
    same: IntArray
    as_: IntArray


@cache
def level(filled_boxes: int) -> Level:
    """The reachable states with `filled_boxes` boxes filled. When the upper boxes still open
    cannot lift an upper subtotal to 63, the bonus is out of reach and the subtotal changes
    nothing to come: all such subtotals of a scorecard have one value, solved once (a third of
    all states; the value is the same to the last bit, being the same sums)."""
    solved: list[int] = []
    same: list[int] = []
    as_: list[int] = []
    for filled in range(MASKS):
        if filled.bit_count() != filled_boxes:
            continue
        flags = (0, 1) if filled & YARDZEE_BIT else (0,)
        most = sum(5 * (box + 1) for box in range(UPPER) if not filled >> box & 1)
        totals = sorted(upper_subtotals(filled & UPPER_MASK))
        lost = [total for total in totals if total + most < UPPER_BONUS_AT]
        first = filled * UPPER_STATES * 2  # state_index, inline: this runs 536,448 times
        kept = lost[:1] + totals[len(lost) :]  # the first lost subtotal stands for the rest
        solved.extend(first + total * 2 + flag for total in kept for flag in flags)
        same.extend(first + total * 2 + flag for total in lost[1:] for flag in flags)
        as_.extend(first + lost[0] * 2 + flag for _ in lost[1:] for flag in flags)
    return Level(
        solved=np.array(solved, dtype=np.intp),
        same=np.array(same, dtype=np.intp),
        as_=np.array(as_, dtype=np.intp),
    )


def build(joker: JokerRule) -> FloatArray:
    """The whole table for a joker rule, from the last turn back to the first."""
    table = np.full(STATES, np.nan)
    table[level_states(BOXES)] = 0.0  # a full scorecard: nothing more to come
    for filled_boxes in range(BOXES - 1, -1, -1):
        states = level(filled_boxes)
        for start in range(0, len(states.solved), BLOCK):
            block = states.solved[start : start + BLOCK]
            table[block] = turn_values(table, block, joker).start
        table[states.same] = table[states.as_]
    return table
