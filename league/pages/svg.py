"""SVG drawn on the server: the bracket of an elimination stage and a rating-history chart.

Pure functions from plain values to an SVG string, apart from Django and the database, so
they are tested without either. Every text they write is escaped here; the caller may mark
the result safe. No script, no external reference: the pages load nothing from elsewhere."""

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from html import escape
from typing import Final, Literal

SVG_NS: Final = "http://www.w3.org/2000/svg"

SlotStatus = Literal[
    "waiting", "ready", "in_progress", "played", "walkover", "bye", "skipped", "void"
]

SECTIONS: Final = ("winners", "losers", "grand_final", "third_place")
SECTION_TITLES: Final = {
    "winners": "Winners bracket",
    "losers": "Losers bracket",
    "grand_final": "Grand final",
    "third_place": "Third place",
}
STATUS_TEXT: Final = {
    "waiting": "waiting",
    "ready": "to play",
    "in_progress": "playing",
    "played": "played",
    "walkover": "walkover",
    "bye": "bye",
    "skipped": "not needed",
    "void": "void",
}

# Bracket geometry, in SVG user units (CSS pixels at scale 1).
BOX_WIDTH: Final = 184
COLUMN_GAP: Final = 36
ROW_HEIGHT: Final = 22
HEAD_HEIGHT: Final = 18
SLOT_GAP: Final = 14
SECTION_HEAD: Final = 44
SECTION_GAP: Final = 24
NAME_CHARACTERS: Final = 18
LEGEND_WIDTH: Final = 168  # px: a chart's legend gives a name about 24 ordinary letters


@dataclass(frozen=True, slots=True)
class SeatLine:
    """One seat of a bracket slot as drawn: a player's name (or what fills it: "Winner of
    W1-2", "bye"), their seed and score, and whether they go on from here (highlighted).
    `from_slot` is the slot whose result seats them here: a line is drawn from it when both
    are in the same section. `note` says, in place of a score, why a player did not play
    there ("withdrew", "did not show")."""

    label: str
    seed: int | None = None
    score: int | None = None
    advances: bool = False
    bye: bool = False
    known: bool = True
    from_slot: str | None = None
    note: str | None = None
    # Before and while it is played, the player's chance to win the slot's match, in percent
    # (from the ratings, then from the match's win probability), in place of a score.
    chance: int | None = None


@dataclass(frozen=True, slots=True)
class SlotBox:
    """One slot (match) of a bracket as drawn: where it sits (section, round, index), its
    seats, its status and the page of its match, if any."""

    key: str
    section: str
    round: int
    index: int
    seats: tuple[SeatLine, ...]
    status: SlotStatus = "waiting"
    href: str | None = None


@dataclass(frozen=True, slots=True)
class _Placed:
    slot: SlotBox
    x: float
    y: float

    @property
    def height(self) -> float:
        return slot_height(self.slot)

    @property
    def right_middle(self) -> tuple[float, float]:
        return self.x + BOX_WIDTH, self.y + self.height / 2


def _svg(attributes: str, parts: Sequence[str], *, title: str, id_prefix: str) -> str:
    """An SVG element with `attributes` holding `parts`, labelled by its title (its id is
    `{id_prefix}-title`)."""
    title_id = f"{id_prefix}-title"
    return (
        f'<svg xmlns="{SVG_NS}" {attributes} aria-labelledby="{escape(title_id)}">'
        f'<title id="{escape(title_id)}">{escape(title)}</title>' + "".join(parts) + "</svg>"
    )


def slot_height(slot: SlotBox) -> float:
    """A slot box's height: a head line (key and status) and one row per seat."""
    return HEAD_HEIGHT + ROW_HEIGHT * max(1, len(slot.seats))


# Widths of characters in the site's sans-serif fonts, in ems, by how wide they are: a name
# is cut by its estimated width, not its length, as "WWWW" is about three times "iiii".
NARROW: Final = frozenset("fijlrtI!|.,:;'`()[] ")
WIDE: Final = frozenset("mwMW@%")
EM_NARROW: Final = 0.3
EM_LOWER: Final = 0.56
EM_UPPER: Final = 0.7
EM_WIDE: Final = 0.95
BOLD: Final = 1.1  # a bold name (the one going through) is about a tenth wider
NAME_FONT: Final = 13  # px, svg.bracket in static/css/site.css
CHART_FONT: Final = 11  # px, svg.chart
SEAT_NAME_X: Final = 28  # where a seat's name starts in its box (after the seed)
SEAT_PADDING: Final = 6  # between the box's edge, or the name, and the score


def _ems(char: str) -> float:
    """A character's estimated width in ems."""
    if char in NARROW:
        return EM_NARROW
    if char in WIDE:
        return EM_WIDE
    return EM_UPPER if char.isupper() or not char.isascii() else EM_LOWER


def text_width(text: str, font_size: float = NAME_FONT, *, bold: bool = False) -> float:
    """An estimate of `text`'s width in px (a little over, rather than under)."""
    return sum(map(_ems, text)) * font_size * (BOLD if bold else 1)


def fit(text: str, width: float, font_size: float = NAME_FONT, *, bold: bool = False) -> str:
    """`text`, or as much of it as fits in `width` px followed by an ellipsis (one pass over
    the letters: a bracket cuts every seat's name)."""
    scale = font_size * (BOLD if bold else 1)
    if text_width(text, font_size, bold=bold) <= width:
        return text
    room = width / scale - _ems("\u2026")
    used = 0.0
    for end, char in enumerate(text):
        used += _ems(char)
        if used > room:
            return text[:end].rstrip() + "\u2026"
    return text[:-1].rstrip() + "\u2026"  # only if rounding left the whole text in room


def short(text: str, limit: int = NAME_CHARACTERS) -> str:
    """`text` cut with an ellipsis to the width of `limit` ordinary letters (at the names'
    size), so a long name stays in its box however wide its letters."""
    return fit(text, limit * EM_LOWER * NAME_FONT)


def round_title(section: str, number: int, rounds: int, slots_in_round: int) -> str:
    """A column's heading: the final and semi-finals by name, other rounds by number."""
    if section == "grand_final":
        return "Grand final" if number == 1 else "Reset"
    if section == "third_place":
        return "Third place"
    if section == "losers":
        return "Losers final" if number == rounds else f"Losers round {number}"
    if number == rounds and rounds > 1:
        return "Final"
    if number == rounds - 1 and slots_in_round == 2:
        return "Semi-finals"
    return f"Round {number}"


def _layout(slots: Sequence[SlotBox], top: float) -> tuple[list[_Placed], float, int]:
    """Place one section's slots: columns by round, each slot centred on the slots that feed
    it where it can be, never overlapping the slot above. Returns the placed slots, the
    section's bottom and its number of columns."""
    rounds = sorted({slot.round for slot in slots})
    placed: dict[str, _Placed] = {}
    bottom = top
    for column, number in enumerate(rounds):
        x = column * (BOX_WIDTH + COLUMN_GAP)
        cursor = top
        for slot in sorted((s for s in slots if s.round == number), key=lambda s: s.index):
            height = slot_height(slot)
            feeders = [
                placed[seat.from_slot].right_middle[1]
                for seat in slot.seats
                if seat.from_slot is not None and seat.from_slot in placed
            ]
            wanted = sum(feeders) / len(feeders) - height / 2 if feeders else cursor
            y = max(wanted, cursor)
            placed[slot.key] = _Placed(slot, x, y)
            cursor = y + height + SLOT_GAP
            bottom = max(bottom, y + height)
    return list(placed.values()), bottom, len(rounds)


def _seat_svg(seat: SeatLine, x: float, y: float) -> str:
    classes = ["seat"]
    if seat.advances:
        classes.append("advances")
    if seat.bye:
        classes.append("bye")
    if not seat.known:
        classes.append("unknown")
    if seat.note:
        classes.append("forfeited")
    marker = "\u25b6 " if seat.advances else ""
    chance = f"{seat.chance}%" if seat.chance is not None else ""
    right = seat.note if seat.note else f"{seat.score:,}" if seat.score is not None else chance
    room: float = BOX_WIDTH - SEAT_NAME_X - SEAT_PADDING
    if right:
        room -= text_width(right) + SEAT_PADDING
    name = fit(seat.label, room - text_width(marker), bold=seat.advances)
    seed = (
        f'<text class="seed" x="{x + 6:.0f}" y="{y + 15:.0f}">{seat.seed}</text>'
        if seat.seed is not None
        else ""
    )
    score = ""
    if seat.note:
        score = (
            f'<text class="note" x="{x + BOX_WIDTH - 6:.0f}" y="{y + 15:.0f}" '
            f'text-anchor="end">{escape(seat.note)}</text>'
        )
    elif seat.score is not None:
        score = (
            f'<text class="score" x="{x + BOX_WIDTH - 6:.0f}" y="{y + 15:.0f}" '
            f'text-anchor="end">{seat.score:,}</text>'
        )
    elif chance:
        score = (
            f'<text class="chance" x="{x + BOX_WIDTH - 6:.0f}" y="{y + 15:.0f}" '
            f'text-anchor="end">{chance}</text>'
        )
    full = f"<title>{escape(seat.label)}</title>" if name != seat.label else ""
    return (
        f'<g class="{" ".join(classes)}">'
        f'<rect x="{x:.0f}" y="{y:.0f}" width="{BOX_WIDTH}" height="{ROW_HEIGHT}"/>'
        f"{seed}"
        f'<text class="name" x="{x + SEAT_NAME_X:.0f}" y="{y + 15:.0f}">{full}'
        f"{escape(marker + name)}</text>"
        f"{score}</g>"
    )


def _slot_svg(item: _Placed) -> str:
    slot = item.slot
    x, y = item.x, item.y
    status = STATUS_TEXT.get(slot.status, slot.status)
    body = [
        f'<rect class="frame" x="{x:.0f}" y="{y:.0f}" width="{BOX_WIDTH}" '
        f'height="{item.height:.0f}" rx="4"/>',
        f'<text class="head" x="{x + 6:.0f}" y="{y + 13:.0f}">{escape(slot.key)} '
        f"\u00b7 {escape(status)}</text>",
    ]
    for number, seat in enumerate(slot.seats):
        body.append(_seat_svg(seat, x, y + HEAD_HEIGHT + number * ROW_HEIGHT))
    content = "".join(body)
    if slot.href:
        content = f'<a href="{escape(slot.href)}">{content}</a>'
    return (
        f'<g class="slot {escape(slot.status)}" data-slot="{escape(slot.key)}" '
        f'data-section="{escape(slot.section)}">{content}</g>'
    )


def _lines_svg(placed: Sequence[_Placed]) -> str:
    """A connector from each feeding slot to the seat it fills, within one section."""
    by_key = {item.slot.key: item for item in placed}
    paths = []
    for item in placed:
        for number, seat in enumerate(item.slot.seats):
            feeder = by_key.get(seat.from_slot or "")
            if feeder is None:
                continue
            x1, y1 = feeder.right_middle
            x2 = item.x
            y2 = item.y + HEAD_HEIGHT + number * ROW_HEIGHT + ROW_HEIGHT / 2
            middle = (x1 + x2) / 2
            paths.append(f"M{x1:.0f} {y1:.0f}H{middle:.0f}V{y2:.0f}H{x2:.0f}")
    if not paths:
        return ""
    return f'<path class="link" d="{" ".join(paths)}"/>'


def bracket_svg(slots: Sequence[SlotBox], *, title: str, id_prefix: str = "bracket") -> str:
    """The bracket as one SVG: a band per section (winners, losers, grand final, third
    place), a column per round, a group (`<g class="slot" data-slot=...>`) per slot with its
    seats, the players who go on highlighted (class `advances`, bold, a marker), byes marked,
    and lines from each slot to where its winners sit next."""
    parts: list[str] = []
    top = 0.0
    columns = 1
    for section in SECTIONS:
        in_section = [slot for slot in slots if slot.section == section]
        if not in_section:
            continue
        rounds = max(slot.round for slot in in_section)
        heading_y = top + 16
        parts.append(
            f'<text class="section" x="0" y="{heading_y:.0f}">'
            f"{escape(SECTION_TITLES.get(section, section))}</text>"
        )
        placed, bottom, count = _layout(in_section, top + SECTION_HEAD)
        columns = max(columns, count)
        for column, number in enumerate(sorted({s.round for s in in_section})):
            in_round = sum(1 for s in in_section if s.round == number)
            parts.append(
                f'<text class="round" x="{column * (BOX_WIDTH + COLUMN_GAP):.0f}" '
                f'y="{top + 36:.0f}">{escape(round_title(section, number, rounds, in_round))}'
                "</text>"
            )
        parts.append(_lines_svg(placed))
        parts.extend(_slot_svg(item) for item in placed)
        top = bottom + SECTION_GAP
    width = columns * BOX_WIDTH + (columns - 1) * COLUMN_GAP + 2
    height = max(top - SECTION_GAP, 1) + 2
    return _svg(
        f'class="bracket" viewBox="-1 -1 {width:.0f} {height:.0f}" '
        f'width="{width:.0f}" height="{height:.0f}"',
        parts,
        title=title,
        id_prefix=id_prefix,
    )


# --- Rating history ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Area:
    """A rectangle of a chart by its edges, in SVG user units."""

    left: int
    top: int
    right: int
    bottom: int

    @property
    def width(self) -> int:
        return self.right - self.left

    @property
    def height(self) -> int:
        return self.bottom - self.top


CHART_WIDTH: Final = 640
CHART_HEIGHT: Final = 260
# Where the lines are drawn: room on the left for the axis values, below for the first and
# last match and the legend.
PLOT: Final = _Area(left=48, top=12, right=CHART_WIDTH - 12, bottom=CHART_HEIGHT - 36)
# Dark enough for 4.5:1 on the page's paper colour, told apart by dash pattern too.
SERIES_COLOURS: Final = ("#1f6f3a", "#8a3b12", "#1d4f91", "#6b2d83", "#5c5c00")
SERIES_DASHES: Final = ("", "6 3", "2 3", "8 3 2 3", "1 2")


@dataclass(frozen=True, slots=True)
class ChartPoint:
    """One rated match: where it falls in the player's history (`x`, 1 first), the rating
    after it, and a label for its tooltip (e.g. the date and the match)."""

    x: int
    value: float
    label: str = ""


@dataclass(frozen=True, slots=True)
class ChartSeries:
    """One line of the chart: a league's ratings, oldest first."""

    label: str
    points: tuple[ChartPoint, ...]


def nice_ticks(low: float, high: float, count: int = 5) -> list[float]:
    """Round axis values (steps of 1, 2 or 5 times a power of ten) covering low..high."""
    if not math.isfinite(low) or not math.isfinite(high):
        return [0.0]
    if high < low:
        low, high = high, low
    if high == low:
        low, high = low - 1, high + 1
    raw = (high - low) / max(1, count - 1)
    power = 10 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 5, 10) if m * power >= raw)
    first = math.floor(low / step) * step
    last = math.ceil(high / step) * step
    return [round(first + i * step, 10) for i in range(round((last - first) / step) + 1)]


def _tick_label(value: float) -> str:
    return f"{value:g}"


def rating_chart_svg(
    series: Sequence[ChartSeries], *, title: str, id_prefix: str = "rating"
) -> str:
    """A line chart of ratings after each match (one line per league, dots at every match,
    each with a tooltip), with a y axis of round values and a legend; empty when there is
    nothing to draw."""
    points = [point for line in series for point in line.points]
    if not points:
        return ""
    x_low = min(p.x for p in points)
    x_high = max(p.x for p in points)
    ticks = nice_ticks(min(p.value for p in points), max(p.value for p in points))
    y_low, y_high = ticks[0], ticks[-1]

    def sx(x: int) -> float:
        if x_high == x_low:
            return PLOT.left + PLOT.width / 2
        return PLOT.left + (x - x_low) / (x_high - x_low) * PLOT.width

    def sy(value: float) -> float:
        return PLOT.top + (y_high - value) / (y_high - y_low) * PLOT.height

    parts = []
    for tick in ticks:
        y = sy(tick)
        parts.append(
            f'<line class="grid" x1="{PLOT.left}" x2="{PLOT.right}" y1="{y:.1f}" y2="{y:.1f}"/>'
            f'<text class="tick" x="{PLOT.left - 6}" y="{y + 4:.1f}" text-anchor="end">'
            f"{escape(_tick_label(tick))}</text>"
        )
    parts.append(
        f'<line class="axis" x1="{PLOT.left}" x2="{PLOT.right}" '
        f'y1="{PLOT.bottom}" y2="{PLOT.bottom}"/>'
        f'<text class="tick" x="{PLOT.left}" y="{CHART_HEIGHT - 20}">match {x_low}</text>'
        f'<text class="tick" x="{PLOT.right}" y="{CHART_HEIGHT - 20}" '
        f'text-anchor="end">match {x_high}</text>'
    )
    legend_x = PLOT.left
    for number, line in enumerate(series):
        if not line.points:
            continue
        colour = SERIES_COLOURS[number % len(SERIES_COLOURS)]
        dash = SERIES_DASHES[number % len(SERIES_DASHES)]
        dash_attr = f' stroke-dasharray="{dash}"' if dash else ""
        coords = " ".join(f"{sx(p.x):.1f},{sy(p.value):.1f}" for p in line.points)
        dots = "".join(
            f'<circle cx="{sx(p.x):.1f}" cy="{sy(p.value):.1f}" r="3.5" fill="{colour}">'
            f"<title>{escape(p.label or line.label)}: {p.value:.2f}</title></circle>"
            for p in line.points
        )
        parts.append(
            f'<g class="series" data-series="{escape(line.label)}">'
            f'<polyline points="{coords}" fill="none" stroke="{colour}" stroke-width="2"'
            f"{dash_attr}/>{dots}</g>"
        )
        legend = fit(line.label, LEGEND_WIDTH, CHART_FONT)
        parts.append(
            f'<g class="legend"><line x1="{legend_x}" x2="{legend_x + 18}" '
            f'y1="{CHART_HEIGHT - 6}" y2="{CHART_HEIGHT - 6}" stroke="{colour}" '
            f'stroke-width="2"{dash_attr}/><text x="{legend_x + 22}" y="{CHART_HEIGHT - 2}">'
            f"{escape(legend)}</text></g>"
        )
        legend_x += 30 + round(text_width(legend, CHART_FONT))
    return _svg(
        f'class="chart" viewBox="0 0 {CHART_WIDTH} {CHART_HEIGHT}" role="img"',
        parts,
        title=title,
        id_prefix=id_prefix,
    )


# --- Standalone files -------------------------------------------------------------------------

# The page's bracket rules (static/css/site.css, "Event: rounds and bracket") for an SVG file
# opened on its own: the same look, with the page's colours written out.
BRACKET_STYLE: Final = (
    "svg.bracket{font-family:system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;"
    "font-size:13px;background:#fff}"
    ".section{font-size:15px;font-weight:700;fill:#1b1f1d}"
    ".round{font-size:12px;fill:#4a524d}"
    ".frame{fill:#fff;stroke:#8a938c}"
    ".head{font-size:11px;fill:#4a524d}"
    ".seat rect{fill:transparent;stroke:#e1e5df}"
    ".seat text{fill:#1b1f1d}"
    ".seat .seed,.seat .score{fill:#4a524d}"
    ".seat .chance{fill:#4a524d;font-style:italic}"
    ".advances rect{fill:#d6eedd}"
    ".advances text{font-weight:700;fill:#10401f}"
    ".seat.bye text,.seat.unknown text{font-style:italic;fill:#59615c}"
    ".slot.bye .frame{stroke-dasharray:2 2}"
    ".seat.forfeited .name,.seat .note{font-style:italic;fill:#59615c}"
    ".slot.walkover .frame{stroke-dasharray:6 2}"
    ".skipped .frame{stroke-dasharray:4 3}"
    ".in_progress .frame,.ready .frame{stroke:#1f6f3a;stroke-width:2}"
    ".link{fill:none;stroke:#8a938c;stroke-width:1.5}"
)


def without_links(slots: Sequence[SlotBox]) -> list[SlotBox]:
    """The slots without their match links (for a bracket shown outside the site's pages)."""
    return [replace(slot, href=None) for slot in slots]


def standalone_bracket_svg(slots: Sequence[SlotBox], *, title: str, id_prefix: str) -> str:
    """The bracket as a file of its own: an XML declaration, its styles inside it (one style
    element holding BRACKET_STYLE), and no link or other reference to anything outside
    it (the slots' match links are dropped), so it opens the same anywhere."""
    drawn = bracket_svg(without_links(slots), title=title, id_prefix=id_prefix)
    head, rest = drawn.split(">", 1)
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        f'{head} role="img"><style>{BRACKET_STYLE}</style>{rest}\n'
    )
