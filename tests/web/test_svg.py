"""The SVG drawn on the server (league/svg.py): plain values in, well-formed SVG out, with no
database. A bracket has one group per slot, byes marked, winners highlighted and slots laid out
between their feeders; a rating chart has a line per league and a dot per match."""

import itertools
import re
import xml.etree.ElementTree as ET
from html import escape

import pytest

from league.pages.svg import (
    HEAD_HEIGHT,
    NAME_CHARACTERS,
    ROW_HEIGHT,
    SVG_NS,
    ChartPoint,
    ChartSeries,
    SeatLine,
    SlotBox,
    bracket_svg,
    nice_ticks,
    rating_chart_svg,
    round_title,
    short,
    text_width,
)

NS = {"svg": SVG_NS}


def _pair(key: str, section: str, round_: int, index: int, *seats: SeatLine, **kw) -> SlotBox:
    return SlotBox(key=key, section=section, round=round_, index=index, seats=seats, **kw)


def _four_player_bracket() -> list[SlotBox]:
    """Three players: seed 1 has a bye, seeds 2 and 3 play; Ada wins the final."""
    return [
        _pair(
            "W1-1",
            "winners",
            1,
            1,
            SeatLine("Ada", seed=1, advances=True),
            SeatLine("bye", bye=True),
            status="bye",
        ),
        _pair(
            "W1-2",
            "winners",
            1,
            2,
            SeatLine("Bea", seed=2, score=230, advances=True),
            SeatLine("Cal", seed=3, score=190),
            status="played",
            href="/matches/7/",
        ),
        _pair(
            "W2-1",
            "winners",
            2,
            1,
            SeatLine("Ada", seed=1, score=250, advances=True, from_slot="W1-1"),
            SeatLine("Bea", seed=2, score=240, from_slot="W1-2"),
            status="played",
            href="/matches/8/",
        ),
    ]


def _slots(svg: str) -> dict[str, ET.Element]:
    root = ET.fromstring(svg)  # noqa: S314 - our own output
    return {g.get("data-slot"): g for g in root.iter(f"{{{SVG_NS}}}g") if g.get("data-slot")}


def _seats(group: ET.Element) -> list[ET.Element]:
    return [g for g in group.iter(f"{{{SVG_NS}}}g") if g.get("class", "").startswith("seat")]


def _rect_y(group: ET.Element) -> float:
    frame = next(r for r in group.iter(f"{{{SVG_NS}}}rect") if r.get("class") == "frame")
    return float(frame.get("y"))


def test_bracket_is_well_formed_svg_with_one_group_per_slot():
    svg = bracket_svg(_four_player_bracket(), title="Bracket of Cup")
    root = ET.fromstring(svg)  # noqa: S314 - our own output
    assert root.tag == f"{{{SVG_NS}}}svg"
    assert root.find("svg:title", NS).text == "Bracket of Cup"
    assert list(_slots(svg)) == ["W1-1", "W1-2", "W2-1"]


def test_bracket_marks_byes_and_highlights_the_players_who_go_on():
    slots = _slots(bracket_svg(_four_player_bracket(), title="t"))
    assert slots["W1-1"].get("class") == "slot bye"
    assert [g.get("class") for g in _seats(slots["W1-1"])] == ["seat advances", "seat bye"]
    assert "bye" in "".join(_seats(slots["W1-1"])[1].itertext())
    final_seats = _seats(slots["W2-1"])
    assert [g.get("class") for g in final_seats] == ["seat advances", "seat"]
    winner = "".join(final_seats[0].itertext())
    assert "Ada" in winner
    assert "\u25b6" in winner  # not by colour alone


def test_bracket_links_each_played_slot_to_its_match():
    slots = _slots(bracket_svg(_four_player_bracket(), title="t"))
    links = [a.get("href") for a in slots["W2-1"].iter(f"{{{SVG_NS}}}a")]
    assert links == ["/matches/8/"]
    assert not list(slots["W1-1"].iter(f"{{{SVG_NS}}}a"))


def test_a_slot_sits_between_the_slots_that_feed_it():
    slots = _slots(bracket_svg(_four_player_bracket(), title="t"))
    top, bottom, final = (_rect_y(slots[key]) for key in ("W1-1", "W1-2", "W2-1"))
    height = HEAD_HEIGHT + 2 * ROW_HEIGHT
    assert top < final < bottom
    assert final + height / 2 == pytest.approx((top + bottom + height) / 2)


def test_slots_of_a_column_never_overlap():
    column = [
        _pair(f"W1-{i}", "winners", 1, i, SeatLine("a"), SeatLine("b"), SeatLine("c"))
        for i in range(1, 5)
    ]
    slots = _slots(bracket_svg(column, title="t"))
    ys = [_rect_y(slots[f"W1-{i}"]) for i in range(1, 5)]
    height = HEAD_HEIGHT + 3 * ROW_HEIGHT
    assert all(later >= earlier + height for earlier, later in itertools.pairwise(ys))


def test_double_elimination_draws_winners_losers_and_grand_final_bands_in_that_order():
    slots = [
        *_four_player_bracket(),
        _pair("L1-1", "losers", 1, 1, SeatLine("Cal"), SeatLine("Loser of W2-1", known=False)),
        _pair(
            "GF-1",
            "grand_final",
            1,
            1,
            SeatLine("Winner of W2-1", known=False, from_slot="W2-1"),
            SeatLine("Winner of L1-1", known=False, from_slot="L1-1"),
        ),
        _pair("GF-2", "grand_final", 2, 1, SeatLine("?", known=False), status="skipped"),
    ]
    svg = bracket_svg(slots, title="t")
    sections = re.findall(r'<text class="section"[^>]*>([^<]+)<', svg)
    assert sections == ["Winners bracket", "Losers bracket", "Grand final"]
    drawn = _slots(svg)
    assert drawn["W2-1"].get("data-section") == "winners"
    assert _rect_y(drawn["W2-1"]) < _rect_y(drawn["L1-1"]) < _rect_y(drawn["GF-1"])
    assert "not needed" in "".join(drawn["GF-2"].itertext())


def test_lines_join_slots_of_one_section_only():
    slots = [
        *_four_player_bracket(),
        _pair(
            "GF-1",
            "grand_final",
            1,
            1,
            SeatLine("Ada", from_slot="W2-1"),
            SeatLine("Cal"),
        ),
    ]
    svg = bracket_svg(slots, title="t")
    paths = re.findall(r'<path class="link" d="([^"]+)"', svg)
    assert len(paths) == 1  # the winners band; the grand final names its feeder instead
    assert paths[0].count("M") == 2  # W1-1 and W1-2 into W2-1


def test_names_are_escaped_and_long_ones_cut_with_the_full_name_kept():
    long_name = "Bartholomew <b>Longname</b> & Sons"
    svg = bracket_svg(
        [_pair("W1-1", "winners", 1, 1, SeatLine(long_name), SeatLine("x"))], title="A & B"
    )
    assert "<b>" not in svg
    assert "&lt;b&gt;" in svg
    ET.fromstring(svg)  # noqa: S314 - still well-formed
    assert short(long_name) != long_name
    assert f"<title>{escape(long_name, quote=False)}</title>" in svg


def test_bracket_svg_references_nothing_outside_itself():
    svg = bracket_svg(_four_player_bracket(), title="t")
    assert re.findall(r"https?://", svg) == ["http://"]  # only the SVG namespace
    assert SVG_NS in svg
    assert "<script" not in svg


@pytest.mark.parametrize(
    ("section", "number", "rounds", "in_round", "title"),
    [
        ("winners", 3, 3, 1, "Final"),
        ("winners", 2, 3, 2, "Semi-finals"),
        ("winners", 1, 3, 4, "Round 1"),
        ("winners", 1, 1, 1, "Round 1"),
        ("losers", 4, 4, 1, "Losers final"),
        ("losers", 2, 4, 2, "Losers round 2"),
        ("grand_final", 1, 2, 1, "Grand final"),
        ("grand_final", 2, 2, 1, "Reset"),
        ("third_place", 1, 1, 1, "Third place"),
    ],
)
def test_round_titles_name_the_final_rounds(section, number, rounds, in_round, title):
    assert round_title(section, number, rounds, in_round) == title


# --- Rating chart ---------------------------------------------------------------------------


def test_rating_chart_is_empty_without_rated_matches():
    assert rating_chart_svg([], title="t") == ""
    assert rating_chart_svg([ChartSeries("L", ())], title="t") == ""


def test_rating_chart_draws_a_line_per_league_and_a_dot_per_match():
    series = [
        ChartSeries("Yardzee", (ChartPoint(1, 3.5, "1 Jun"), ChartPoint(3, 5.25, "8 Jun"))),
        ChartSeries("Yardkle", (ChartPoint(2, -1.0, "2 Jun"),)),
    ]
    svg = rating_chart_svg(series, title="Rating of Ada", id_prefix="r")
    root = ET.fromstring(svg)  # noqa: S314 - our own output
    assert root.get("role") == "img"
    assert root.find("svg:title", NS).text == "Rating of Ada"
    groups = [g for g in root.iter(f"{{{SVG_NS}}}g") if g.get("class") == "series"]
    assert [g.get("data-series") for g in groups] == ["Yardzee", "Yardkle"]
    assert [len(list(g.iter(f"{{{SVG_NS}}}circle"))) for g in groups] == [2, 1]
    assert "8 Jun: 5.25" in svg


def test_rating_chart_puts_higher_ratings_higher_up():
    series = [ChartSeries("L", (ChartPoint(1, 1.0), ChartPoint(2, 9.0)))]
    root = ET.fromstring(rating_chart_svg(series, title="t"))  # noqa: S314 - our own output
    low, high = (float(c.get("cy")) for c in root.iter(f"{{{SVG_NS}}}circle"))
    assert high < low  # SVG y grows downwards


@pytest.mark.parametrize(
    ("low", "high"),
    [(23.1, 27.9), (0.0, 0.0), (-3.2, 12.7), (10.0, 10.5), (-40.0, -39.99), (0.0, 1234.0)],
)
def test_axis_ticks_are_round_steps_covering_the_values(low, high):
    ticks = nice_ticks(low, high)
    assert ticks[0] <= low
    assert ticks[-1] >= high
    steps = {round(b - a, 8) for a, b in itertools.pairwise(ticks)}
    assert len(steps) == 1
    mantissa = f"{steps.pop():e}".split("e")[0]
    assert float(mantissa) in (1.0, 2.0, 5.0)
    assert 2 <= len(ticks) <= 8


def test_a_name_is_cut_by_its_width_so_wide_letters_are_cut_sooner():
    wide, narrow = short("W" * 80), short("i" * 80)
    assert wide.endswith("\u2026")
    assert narrow.endswith("\u2026")
    assert len(wide) < len(short("a" * 80)) < len(narrow)
    assert text_width(wide) <= NAME_CHARACTERS * text_width("a")
    assert short("Ada Lovelace") == "Ada Lovelace"
