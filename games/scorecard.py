"""The match page's scorecards as on the paper pad, from plain values (the board's scorecards,
the stored turns), apart from the database so they are tested without one.

- Yardzee: the rows of the pad (docs/rules.md, "Boxes", "Upper bonus", "Yardzee bonus",
  "Grand total"), one cell per player.
- Yardkle: each player's turn points and running total per round, who entered the board when,
  the Yardkles, and the final round (docs/rules.md, "Entering the game", "End").
- The dice of each turn, to show on demand: every Yardzee roll with the dice kept, every
  Yardkle throw with the dice set aside and what they scored."""

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, Literal

from scoring.errors import RuleViolation
from scoring.yardkle import score_selection
from scoring.yardzee import LOWER_BOXES, UPPER_BONUS, UPPER_BONUS_AT, UPPER_BOXES

BOX_LABELS: Final = {
    "aces": "Aces",
    "twos": "Twos",
    "threes": "Threes",
    "fours": "Fours",
    "fives": "Fives",
    "sixes": "Sixes",
    "three_of_a_kind": "3 of a kind",
    "four_of_a_kind": "4 of a kind",
    "full_house": "Full house",
    "small_straight": "Small straight",
    "large_straight": "Large straight",
    "yardzee": "Yardzee",
    "chance": "Chance",
}
BOX_HINTS: Final = {
    "aces": "count and add only aces",
    "twos": "count and add only twos",
    "threes": "count and add only threes",
    "fours": "count and add only fours",
    "fives": "count and add only fives",
    "sixes": "count and add only sixes",
    "three_of_a_kind": "add all dice",
    "four_of_a_kind": "add all dice",
    "full_house": "score 25",
    "small_straight": "score 30",
    "large_straight": "score 40",
    "yardzee": "score 50",
    "chance": "add all dice",
}
CHECK: Final = "\u2713"

RowKind = Literal["section", "box", "sum", "bonus", "total", "grand"]


@dataclass(frozen=True, slots=True)
class PadRow:
    """One line of the Yardzee pad: a label, a hint as printed on the pad, and one cell per
    player (None: an open box). `checks` is the Yardzee bonus check marks per player."""

    key: str
    label: str
    kind: RowKind
    cells: tuple[int | None, ...] = ()
    hint: str = ""
    checks: tuple[int, ...] = ()

    @property
    def marked(self) -> tuple[tuple[int | None, str], ...]:
        """Each cell with its check marks ("" when none), for the Yardzee bonus line."""
        checks = self.checks or (0,) * len(self.cells)
        return tuple((cell, CHECK * count) for cell, count in zip(self.cells, checks, strict=True))


def yardzee_pad(scorecards: Sequence[Mapping[str, Any]]) -> list[PadRow]:
    """The rows of the paper pad for these scorecards (as `Scorecard.to_json()` gives them,
    one per player in seat order): the upper section with its total, bonus and upper total,
    the lower section, the Yardzee bonus check marks, the lower total, the upper total again
    and the grand total."""

    def each(value: Any) -> tuple[int | None, ...]:
        return tuple(value(card) for card in scorecards)

    rows = [PadRow("upper", "Upper section", "section")]
    rows += [
        PadRow(box, BOX_LABELS[box], "box", each(lambda c, b=box: c["boxes"][b]), BOX_HINTS[box])
        for box in UPPER_BOXES
    ]
    upper = each(lambda c: c["upper_total"] + c["upper_bonus"])
    rows += [
        PadRow("upper_subtotal", "Total score", "sum", each(lambda c: c["upper_total"])),
        PadRow(
            "upper_bonus",
            "Bonus",
            "bonus",
            each(lambda c: c["upper_bonus"]),
            f"score {UPPER_BONUS} if total score is {UPPER_BONUS_AT} or over",
        ),
        PadRow("upper_total", "Total of upper section", "total", upper),
        PadRow("lower", "Lower section", "section"),
    ]
    rows += [
        PadRow(box, BOX_LABELS[box], "box", each(lambda c, b=box: c["boxes"][b]), BOX_HINTS[box])
        for box in LOWER_BOXES
    ]
    rows += [
        PadRow(
            "yardzee_bonus",
            "Yardzee bonus",
            "bonus",
            each(lambda c: c["yardzee_bonus"]),
            "\u2713 for each bonus, score 100 per \u2713",
            checks=tuple(int(card["yardzee_bonus_count"]) for card in scorecards),
        ),
        PadRow(
            "lower_total",
            "Total of lower section",
            "total",
            each(lambda c: c["lower_total"] + c["yardzee_bonus"]),
        ),
        PadRow("upper_total_again", "Total of upper section", "total", upper),
        PadRow("grand_total", "Grand total", "grand", each(lambda c: c["total"])),
    ]
    return rows


@dataclass(frozen=True, slots=True)
class RunningTotal:
    """One player's running totals on the scorekeeping page, as the pad adds them up: the
    upper boxes (`upper`, with how many points the upper bonus still needs, or None once it is
    scored or out of reach), the lower boxes with the Yardzee bonuses, and the grand total."""

    seat: int
    upper: int
    upper_bonus: int
    bonus_needs: int | None
    lower: int
    total: int


def yardzee_totals(scorecards: Sequence[Mapping[str, Any]]) -> list[RunningTotal]:
    """Each scorecard's running totals (RULES.md, "Upper bonus", "Grand total"). The bonus
    is out of reach when the open upper boxes cannot make up what it needs (five dice of
    their face each)."""
    rows = []
    for card in scorecards:
        upper = int(card["upper_total"])
        open_upper = [face for face, box in enumerate(UPPER_BOXES, 1) if card["boxes"][box] is None]
        needs: int | None = UPPER_BONUS_AT - upper
        if card["upper_bonus"] or (needs or 0) > sum(5 * face for face in open_upper):
            needs = None
        rows.append(
            RunningTotal(
                seat=int(card["seat"]),
                upper=upper,
                upper_bonus=int(card["upper_bonus"]),
                bonus_needs=needs,
                lower=int(card["lower_total"]) + int(card["yardzee_bonus"]),
                total=int(card["total"]),
            )
        )
    return rows


def turn_summary(
    *, sequence: int, player: str, game: str, payload: Any, points: int, bonus: int = 0
) -> str:
    """A stored turn in one line, as the scorekeeping page and the organizer's controls say
    it: "Turn 12: Ana, Full house, 25" (and "+ 100 Yardzee bonus"), "Turn 7: Bo, banked 450",
    "Turn 8: Bo, Yardkle"."""
    body = payload if isinstance(payload, Mapping) else {}
    if game == "yardzee":
        category = str(body.get("category", ""))
        what = f"{BOX_LABELS.get(category, category)}, {points}"
        if bonus:
            what += f" + {bonus} Yardzee bonus"
    elif body.get("end") == "yardkle":
        what = "Yardkle"
    else:
        what = f"banked {points:,}"
    return f"Turn {sequence}: {player}, {what}"


# --- Yardkle ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class YardkleCell:
    """One player's turn in a round: what it banked (0 for a Yardkle), their score after it,
    and what it meant: `enters` the first bank (on the board from here), `reaches_target` the
    bank that started the final round, `final_round` a turn of the final round."""

    sequence: int
    points: int
    total: int
    yardkle: bool = False
    enters: bool = False
    reaches_target: bool = False
    final_round: bool = False


@dataclass(frozen=True, slots=True)
class YardkleRound:
    """A round of Yardkle: one cell per seat (None: not played yet)."""

    number: int
    cells: tuple[YardkleCell | None, ...]

    @property
    def final_round(self) -> bool:
        return any(cell is not None and cell.final_round for cell in self.cells)


@dataclass(frozen=True, slots=True)
class YardkleTurn:
    """A stored Yardkle turn as the running-totals table needs it."""

    sequence: int
    seat: int
    points: int
    yardkle: bool


def yardkle_pad_turns(pad: Sequence[Any]) -> list[YardkleTurn]:
    """A Yardkle pad's banked totals (`Match.pad`: a column of turns a seat) as turns in play
    order, round by round in seat order; a 0 is a Yardkle."""
    columns = [list(column["turns"]) for column in pad]
    turns: list[YardkleTurn] = []
    for round_ in range(max((len(column) for column in columns), default=0)):
        for seat, column in enumerate(columns):
            if round_ < len(column):
                points = column[round_]
                turns.append(YardkleTurn(len(turns) + 1, seat, points, yardkle=points == 0))
    return turns


def yardkle_rounds(
    turns: Sequence[YardkleTurn], *, players: int, target: int
) -> list[YardkleRound]:
    """Running totals per round and seat, in play order, with each player's entry onto the
    board, their Yardkles, the bank that reached `target` and the final round after it."""
    totals = [0] * players
    target_reached = False
    rounds: dict[int, list[YardkleCell | None]] = {}
    for turn in sorted(turns, key=lambda t: t.sequence):
        before = totals[turn.seat]
        totals[turn.seat] += turn.points
        reaches = not target_reached and totals[turn.seat] >= target
        cell = YardkleCell(
            sequence=turn.sequence,
            points=turn.points,
            total=totals[turn.seat],
            yardkle=turn.yardkle,
            enters=before == 0 and turn.points > 0,
            reaches_target=reaches,
            final_round=target_reached,
        )
        target_reached = target_reached or reaches
        number = (turn.sequence - 1) // players + 1
        rounds.setdefault(number, [None] * players)[turn.seat] = cell
    return [YardkleRound(number, tuple(cells)) for number, cells in sorted(rounds.items())]


# --- The dice of a turn ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Die:
    """A die showing `face`; `held` when it was kept (Yardzee) or set aside (Yardkle)."""

    face: int
    held: bool = False


@dataclass(frozen=True, slots=True)
class Roll:
    """One roll or throw of a turn: its dice, which were held, and (Yardkle) the points of
    the dice set aside."""

    number: int
    dice: tuple[Die, ...]
    held: tuple[int, ...] = ()
    points: int | None = None


def _faces(value: object) -> list[int]:
    if not isinstance(value, list):
        return []
    return [face for face in value if type(face) is int]


def _mark(dice: list[int], held: list[int]) -> tuple[Die, ...]:
    """The dice with one die marked held for each held face (a multiset match)."""
    left = Counter(held)
    marked = []
    for face in dice:
        take = left[face] > 0
        if take:
            left[face] -= 1
        marked.append(Die(face, take))
    return tuple(marked)


def _numbered(payload: Mapping[str, Any], key: str) -> list[tuple[int, dict[str, Any]]]:
    """The objects of a stored turn's list under `key` (its rolls or throws), each with its
    number in the list from 1; anything else there is passed over."""
    items = payload.get(key)
    if not isinstance(items, list):
        return []
    return [(number, item) for number, item in enumerate(items, start=1) if isinstance(item, dict)]


def yardzee_rolls(payload: Mapping[str, Any]) -> list[Roll]:
    """Every roll of a stored Yardzee turn: the five dice showing after it, the dice kept
    from the roll before marked."""
    shown = []
    for number, roll in _numbered(payload, "rolls"):
        kept = _faces(roll.get("keep"))
        shown.append(Roll(number, _mark(_faces(roll.get("dice")), kept), tuple(kept)))
    return shown


def yardkle_throws(payload: Mapping[str, Any]) -> list[Roll]:
    """Every throw of a stored Yardkle turn: the dice thrown, the dice set aside marked, and
    the points those dice scored (none for the Yardkle throw that ends a turn)."""
    shown = []
    for number, throw in _numbered(payload, "throws"):
        aside = _faces(throw.get("set_aside"))
        points: int | None = None
        if aside:
            try:
                points = score_selection(aside)
            except RuleViolation:  # a stored turn was checked; never expected
                points = None
        shown.append(Roll(number, _mark(_faces(throw.get("dice")), aside), tuple(aside), points))
    return shown
