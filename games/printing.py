"""Paper pads (issue 21, item 7; docs/pages.md, "Printing"): a blank Yardzee pad and a blank
Yardkle card to print for tables without phones, and any match's pad to print: its players'
names, its table and planned start, and its scores as far as they are played (a finished
match prints as its filled-in paper pad). A4 or Letter, chosen on the page; the print styles
leave out everything but the pad."""

from dataclasses import replace
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from core.methods import read_only
from games import scorecard
from games.models import GameName
from games.views import match_context
from scoring.yardkle import YardkleRules

PAPERS = {"a4": "A4", "letter": "Letter"}
# A blank pad has this many player columns unless `?players=` asks for 2 to MOST_PLAYERS.
BLANK_PLAYERS = 4
MOST_PLAYERS = 6
# A blank Yardkle card has this many round lines (more go on another card).
YARDKLE_LINES = 20

# Yardkle's scoring combinations as printed beside the card (docs/rules.md, "Point dice").
YARDKLE_COMBINATIONS = (
    ("single 1", "100"),
    ("single 5", "50"),
    ("three of a kind", "100 x face (three 1s: 1,000)"),
    ("three pairs", "1,500"),
    ("1-2-3-4-5-6", "1,500"),
    ("two triplets", "2,500"),
    ("four of a kind with a pair", "3,000"),
    ("six of a kind", "3,000"),
)


def _paper(request: HttpRequest) -> str:
    paper = request.GET.get("paper", "a4")
    return paper if paper in PAPERS else "a4"


def _players(request: HttpRequest) -> int:
    asked = request.GET.get("players", "")
    if asked.isascii() and asked.isdigit() and len(asked) < 3 and 2 <= int(asked) <= MOST_PLAYERS:
        return int(asked)
    return BLANK_PLAYERS


def _blank_yardzee(players: int) -> list[scorecard.PadRow]:
    """The pad's rows with every cell empty, to fill in with a pen."""
    empty: dict[str, Any] = {
        "boxes": dict.fromkeys(scorecard.BOX_LABELS),
        "upper_total": 0,
        "upper_bonus": 0,
        "lower_total": 0,
        "yardzee_bonus": 0,
        "yardzee_bonus_count": 0,
        "total": 0,
    }
    rows = scorecard.yardzee_pad([empty] * players)
    return [
        row if row.kind == "section" else replace(row, cells=(None,) * players, checks=())
        for row in rows
    ]


@read_only
def blank_pad(request: HttpRequest, game: str) -> HttpResponse:
    """`/pads/yardzee/`, `/pads/yardkle/`: a blank pad, `?players=2..6` columns (4)."""
    if game not in GameName.values:
        raise Http404("No such game.")
    players = _players(request)
    rules = YardkleRules()
    context: dict[str, Any] = {
        "game": game,
        "game_name": GameName(game).label,
        "match": None,
        "heads": [""] * players,
        "paper": _paper(request),
        "papers": PAPERS,
        "players": players,
        "player_choices": range(2, MOST_PLAYERS + 1),
        "target": rules.target,
        "entry_minimum": rules.entry_minimum,
        "combinations": YARDKLE_COMBINATIONS,
    }
    if game == GameName.YARDZEE:
        context["pad"] = _blank_yardzee(players)
    else:
        context["lines"] = [(number, [None] * players) for number in range(1, YARDKLE_LINES + 1)]
    return render(request, "games/pad_print.html", context)


@read_only
def match_pad(request: HttpRequest, match_id: int) -> HttpResponse:
    """`/matches/<id>/pad/`: the match's pad to print, its players at the head of the
    columns, its table and planned start above, and its scores as played so far."""
    context = match_context(match_id, turns_page=1)
    match = context["match"]
    seats = context["seats"]
    players = len(seats)
    page: dict[str, Any] = {
        "game": match.game,
        "game_name": match.get_game_display(),
        "match": match,
        "heads": [seat.player.display_name for seat in seats],
        "paper": _paper(request),
        "papers": PAPERS,
        "players": players,
        "combinations": YARDKLE_COMBINATIONS,
    }
    if match.game == GameName.YARDZEE:
        # A match not started prints blank, as a pad is before the first turn.
        page["pad"] = context["pad"] if match.turns_played else _blank_yardzee(players)
    else:
        rules = YardkleRules.from_json(match.rules)
        page["target"] = rules.target
        page["entry_minimum"] = rules.entry_minimum
        played = {r.number: list(r.cells) for r in context["rounds"]}
        count = max(YARDKLE_LINES if match.is_open else 0, max(played, default=0))
        page["lines"] = [
            (number, played.get(number, [None] * players)) for number in range(1, count + 1)
        ]
        page["scores"] = context["scores"]
    return render(request, "games/pad_print.html", page)
