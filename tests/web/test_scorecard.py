"""The match page's scorecards from plain values (games/scorecard.py), without a database:
the Yardzee pad's lines in the paper order with its sums, the Yardkle running totals with the
board entries, Yardkles and the final round, and each turn's dice with the held ones marked."""

import pytest

from games.scorecard import (
    CHECK,
    Die,
    YardkleTurn,
    yardkle_rounds,
    yardkle_throws,
    yardzee_pad,
    yardzee_rolls,
)
from games.templatetags.yard import ordinal, thousands
from scoring.yardzee import CATEGORIES, Scorecard


def _card(boxes: list[int | None], bonuses: int = 0) -> dict[str, object]:
    return dict(Scorecard.of(boxes, bonuses).to_json())


FULL = [3, 6, 9, 12, 15, 18, 20, 24, 25, 30, 40, 50, 22]  # upper 63: bonus
PARTIAL = [1, None, 6, None, None, None, None, None, None, None, None, 0, None]


def test_the_pad_lists_the_lines_of_the_paper_scorecard_in_order():
    rows = yardzee_pad([_card(FULL), _card(PARTIAL)])
    keys = [row.key for row in rows]
    assert keys == [
        "upper",
        *CATEGORIES[:6],
        "upper_subtotal",
        "upper_bonus",
        "upper_total",
        "lower",
        *CATEGORIES[6:],
        "yardzee_bonus",
        "lower_total",
        "upper_total_again",
        "grand_total",
    ]


def test_the_pad_sums_upper_bonus_lower_and_grand_total_per_player():
    rows = {row.key: row for row in yardzee_pad([_card(FULL, bonuses=2), _card(PARTIAL)])}
    assert rows["upper_subtotal"].cells == (63, 7)
    assert rows["upper_bonus"].cells == (35, 0)
    assert rows["upper_total"].cells == (98, 7)
    assert rows["lower_total"].cells == (211 + 200, 0)
    assert rows["upper_total_again"].cells == rows["upper_total"].cells
    assert rows["grand_total"].cells == (98 + 211 + 200, 7)
    for column in range(2):
        assert (
            rows["grand_total"].cells[column]
            == rows["upper_total"].cells[column] + rows["lower_total"].cells[column]
        )


def test_open_boxes_stay_empty_and_zeros_are_shown():
    rows = {row.key: row for row in yardzee_pad([_card(PARTIAL)])}
    assert rows["twos"].cells == (None,)
    assert rows["yardzee"].cells == (0,)


def test_the_yardzee_bonus_line_has_a_check_mark_per_bonus():
    rows = {row.key: row for row in yardzee_pad([_card(FULL, bonuses=3), _card(FULL)])}
    assert rows["yardzee_bonus"].marked == ((300, CHECK * 3), (0, ""))


def _turns(*spec: tuple[int, int, bool]) -> list[YardkleTurn]:
    return [
        YardkleTurn(sequence=n, seat=seat, points=points, yardkle=yardkle)
        for n, (seat, points, yardkle) in enumerate(spec, start=1)
    ]


def test_yardkle_running_totals_per_round_with_entry_and_yardkles():
    rounds = yardkle_rounds(
        _turns((0, 600, False), (1, 0, True), (0, 0, True), (1, 550, False), (0, 300, False)),
        players=2,
        target=10_000,
    )
    assert [r.number for r in rounds] == [1, 2, 3]
    first, second, third = rounds
    assert (first.cells[0].total, first.cells[0].enters) == (600, True)
    assert (first.cells[1].yardkle, first.cells[1].total) == (True, 0)
    assert (second.cells[0].yardkle, second.cells[0].total) == (True, 600)
    assert (second.cells[1].enters, second.cells[1].total) == (True, 550)
    assert third.cells[0].total == 900
    assert third.cells[0].enters is False
    assert third.cells[1] is None  # not played yet


def test_yardkle_marks_the_bank_that_reached_the_target_and_the_final_round_after_it():
    rounds = yardkle_rounds(
        _turns(
            (0, 500, False),
            (1, 800, False),
            (2, 500, False),
            (0, 300, False),
            (1, 300, False),
            (2, 0, True),
            (0, 50, False),
        ),
        players=3,
        target=1000,
    )
    reached = [c for r in rounds for c in r.cells if c and c.reaches_target]
    assert [(c.sequence, c.total) for c in reached] == [(5, 1100)]
    final = [c.sequence for r in rounds for c in r.cells if c and c.final_round]
    assert final == [6, 7]
    assert [r.final_round for r in rounds] == [False, True, True]


def test_yardzee_rolls_mark_the_kept_dice_once_each():
    rolls = yardzee_rolls(
        {
            "rolls": [
                {"dice": [3, 3, 5, 2, 6]},
                {"keep": [3, 3], "dice": [3, 1, 3, 3, 4]},
            ],
            "category": "threes",
        }
    )
    assert [r.number for r in rolls] == [1, 2]
    assert rolls[0].held == ()
    assert rolls[1].dice == (Die(3, True), Die(1), Die(3, True), Die(3), Die(4))
    assert rolls[1].held == (3, 3)


def test_yardkle_throws_mark_the_dice_set_aside_and_their_points():
    throws = yardkle_throws(
        {
            "throws": [
                {"dice": [1, 5, 3, 3, 3, 2], "set_aside": [1, 3, 3, 3]},
                {"dice": [4, 2], "set_aside": []},
            ],
            "end": "yardkle",
        }
    )
    assert throws[0].points == 400
    assert [d.held for d in throws[0].dice] == [True, False, True, True, True, False]
    assert throws[1].points is None
    assert not any(d.held for d in throws[1].dice)


@pytest.mark.parametrize("payload", [{}, {"rolls": "x"}, {"rolls": [7, {"dice": "no"}]}])
def test_malformed_payloads_show_what_they_can(payload):
    assert all(isinstance(r.dice, tuple) for r in yardzee_rolls(payload))
    assert yardkle_throws(payload) == []


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (1, "1st"),
        (2, "2nd"),
        (3, "3rd"),
        (4, "4th"),
        (11, "11th"),
        (12, "12th"),
        (13, "13th"),
        (21, "21st"),
        (None, ""),
    ],
)
def test_places_read_as_ordinals(value, text):
    assert ordinal(value) == text


def test_scores_have_thousands_separators():
    assert thousands(10250) == "10,250"
    assert thousands(None) == ""
    assert thousands(0) == "0"
