"""A match's win probability as the match page draws it: an SVG chart of each player's chance
after every turn (the lichess evaluation graph, for dice) and the turns that swung it most, in
words ("Bea's Yardzee (50) in turn 29: 31% → 78%"). Pure: stored figures and names in, escaped
markup and plain values out.

Readable without colour: every line carries its player's name at its end and a dash pattern of
its own, and the figure's caption says each player's chance now."""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe

WIDTH = 640
HEIGHT = 240
LEFT = 40  # room for the percentages
RIGHT = 150  # room for the names at the lines' ends
NAME_CHARACTERS = 14  # a longer name is cut short there (whole in the caption and its title)
TOP = 12
BOTTOM = 28
LABEL_GAP = 13  # the least distance between two names at the right
DASHES = ("", "8 4", "2 4", "12 4 2 4", "4 4", "1 3")


@dataclass(frozen=True, slots=True)
class Chance:
    name: str
    percent: int


@dataclass(frozen=True, slots=True)
class Swing:
    number: int
    turn: int
    name: str
    what: str
    before: int
    after: int

    @property
    def text(self) -> str:
        return f"{self.name}'s {self.what} in turn {self.turn}: {self.before}% → {self.after}%"


@dataclass(frozen=True, slots=True)
class ForecastView:
    svg: SafeString
    now: tuple[Chance, ...]
    swings: tuple[Swing, ...]
    turns: int


def percent(chance: float) -> int:
    return round(100 * chance)


def forecast_view(
    chances: Sequence[Sequence[float]],
    swings: Sequence[Mapping[str, Any]],
    names: Sequence[str],
) -> ForecastView:
    """The chart of `chances` (per turn, each seat's chance; `chances[0]` the start) for the
    seats named `names`, with the stored `swings` marked."""
    turns = len(chances) - 1
    marked = tuple(
        Swing(
            number=number,
            turn=int(swing["turn"]),
            name=names[int(swing["seat"])],
            what=str(swing["what"]),
            before=percent(float(swing["before"])),
            after=percent(float(swing["after"])),
        )
        for number, swing in enumerate(swings, start=1)
        if int(swing["turn"]) <= turns
    )
    now = tuple(
        Chance(name, percent(chance)) for name, chance in zip(names, chances[-1], strict=True)
    )
    return ForecastView(svg=_svg(chances, names, marked), now=now, swings=marked, turns=turns)


def _x(turn: int, turns: int) -> float:
    return LEFT + (WIDTH - LEFT - RIGHT) * (turn / max(turns, 1))


def _y(chance: float) -> float:
    return TOP + (HEIGHT - TOP - BOTTOM) * (1 - chance)


def _short(name: str) -> str:
    return name if len(name) <= NAME_CHARACTERS else name[: NAME_CHARACTERS - 1] + "…"


def _at(coordinate: float) -> str:
    """A coordinate as the SVG writes it: a tenth of a unit."""
    return f"{coordinate:.1f}"


def _label_heights(ends: Sequence[float]) -> list[float]:
    """The heights of the names at the lines' ends, moved apart so none overlap."""
    order = sorted(range(len(ends)), key=lambda seat: ends[seat])
    placed = [0.0] * len(ends)
    last: float = -LABEL_GAP
    for seat in order:
        last = max(ends[seat], last + LABEL_GAP)
        placed[seat] = last
    overflow = last - (HEIGHT - BOTTOM + 4)
    if overflow > 0:  # pushed below the chart: move the whole column up
        placed = [y - overflow for y in placed]
    return placed


def _svg(
    chances: Sequence[Sequence[float]], names: Sequence[str], swings: Sequence[Swing]
) -> SafeString:
    turns = len(chances) - 1
    grid = format_html_join(
        "",
        '<line class="grid" x1="{}" y1="{}" x2="{}" y2="{}"/>'
        '<text class="axis" x="{}" y="{}" text-anchor="end">{}%</text>',
        (
            (LEFT, _at(y), WIDTH - RIGHT, _at(y), LEFT - 4, _at(y + 4), level)
            for level, y in ((level, _y(level / 100)) for level in (0, 25, 50, 75, 100))
        ),
    )
    lines = []
    ends = [_y(chance) for chance in chances[-1]]
    heights = _label_heights(ends)
    for seat, name in enumerate(names):
        points = " ".join(
            f"{_at(_x(turn, turns))},{_at(_y(row[seat]))}" for turn, row in enumerate(chances)
        )
        dash = DASHES[seat % len(DASHES)]
        lines.append(
            format_html(
                '<g class="player player-{}"><polyline points="{}"{}/>'
                '<text class="name" x="{}" y="{}"><title>{}</title>{} {}%</text></g>',
                seat + 1,
                points,
                format_html(' stroke-dasharray="{}"', dash) if dash else "",
                WIDTH - RIGHT + 6,
                _at(heights[seat] + 4),
                name,
                _short(name),
                percent(chances[-1][seat]),
            )
        )
    marks = format_html_join(
        "",
        '<g class="swing"><circle cx="{}" cy="{}" r="7"/>'
        '<text x="{}" y="{}" text-anchor="middle">{}</text></g>',
        (
            (
                _at(_x(swing.turn, turns)),
                _at(_y(swing.after / 100)),
                _at(_x(swing.turn, turns)),
                _at(_y(swing.after / 100) + 4),
                swing.number,
            )
            for swing in swings
        ),
    )
    axis = format_html(
        '<text class="axis" x="{}" y="{}">start</text>'
        '<text class="axis" x="{}" y="{}" text-anchor="end">turn {}</text>',
        LEFT,
        HEIGHT - 8,
        WIDTH - RIGHT,
        HEIGHT - 8,
        turns,
    )
    return format_html(
        '<svg class="win-chart" viewBox="0 0 {} {}" role="img" aria-labelledby="win-chart-caption"'
        ' preserveAspectRatio="xMinYMin meet">{}{}{}{}</svg>',
        WIDTH,
        HEIGHT,
        grid,
        axis,
        mark_safe("".join(lines)),  # noqa: S308  (each line built by format_html)
        marks,
    )
