"""The scoring page's lines from plain values (games/scorecard.py), without a database: each
Yardzee player's running totals with what the upper bonus still needs (RULES.md, "Upper
bonus"), and a stored turn in one line as the page and the match control say it."""

import pytest

from games.scorecard import turn_summary, yardzee_totals
from scoring.yardzee import Scorecard


def _card(seat: int, boxes: list[int | None], bonuses: int = 0) -> dict[str, object]:
    return {"seat": seat, **Scorecard.of(boxes, bonuses).to_json()}


OPEN = [None] * 13


@pytest.mark.parametrize(
    ("upper", "needs"),
    [
        # Nothing filled: the whole 63.
        ([None] * 6, 63),
        # 24 in Sixes: 39 more, and Aces to Fives can still make 75.
        ([None, None, None, None, None, 24], 39),
        # Sixes scratched, Fives 5: 58 more, but Aces to Fours make at most 50.
        ([None, None, None, None, 5, 0], None),
        # 63 or more: the bonus is scored, nothing more needed.
        ([3, 6, 9, 12, 15, 18], None),
        # Every upper box filled short of 63: out of reach.
        ([1, 2, 3, 4, 5, 6], None),
    ],
)
def test_the_upper_total_says_what_the_bonus_still_needs(upper, needs):
    (row,) = yardzee_totals([_card(0, [*upper, *OPEN[6:]])])
    assert row.bonus_needs == needs
    assert row.upper == sum(points or 0 for points in upper)


def test_lower_counts_the_yardzee_bonuses_and_the_total_everything():
    boxes = [None, None, None, None, None, 30, None, None, None, None, None, 50, 22]
    (row,) = yardzee_totals([_card(1, boxes, bonuses=1)])
    assert (row.seat, row.upper, row.upper_bonus, row.lower, row.total) == (1, 30, 0, 172, 202)


def test_a_scored_bonus_is_shown_not_needed():
    (row,) = yardzee_totals([_card(0, [3, 6, 9, 12, 15, 18, *OPEN[6:]])])
    assert (row.upper, row.upper_bonus, row.bonus_needs, row.total) == (63, 35, None, 98)


@pytest.mark.parametrize(
    ("game", "payload", "points", "bonus", "line"),
    [
        ("yardzee", {"category": "full_house"}, 25, 0, "Turn 12: Ana, Full house, 25"),
        ("yardzee", {"category": "sixes"}, 30, 100, "Turn 12: Ana, Sixes, 30 + 100 Yardzee bonus"),
        ("yardkle", {"end": "bank"}, 1050, 0, "Turn 12: Ana, banked 1,050"),
        ("yardkle", {"end": "yardkle"}, 0, 0, "Turn 12: Ana, Yardkle"),
    ],
)
def test_a_turn_in_one_line(game, payload, points, bonus, line):
    summary = turn_summary(
        sequence=12, player="Ana", game=game, payload=payload, points=points, bonus=bonus
    )
    assert summary == line
