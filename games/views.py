"""Pages of one match, read-only for anyone: the scorecard as on the paper pad, and the same
part alone for the page to refresh itself while the match is played."""

from typing import Any
from urllib.parse import urlencode

import segno
from django.conf import settings
from django.db.models import Prefetch
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.safestring import mark_safe

from core.methods import read_only
from games import score_keys, scorecard
from games.models import GameName, Match, MatchStatus, Seat, Turn, TurnCorrection
from games.selectors import (
    match_board,
    played_at_table,
    replaced_by,
    turns_newest_first,
    with_corrections,
)
from scoring.yardkle import YardkleRules, ends_in_yardkle

# While a match is played its page asks for fresh scores this often.
LIVE_SECONDS = 5


# The page lists a match's turns this many at a time, newest first ("Earlier turns" pages on).
TURNS_PER_PAGE = 50


def _turns_page(request: HttpRequest) -> int:
    """The page of turns asked for (`?turns=2`); anything but a whole number from 1 is page 1.
    A page past the last is a 404 (`match_context`) however many digits its number has (one of
    seven digits or more was read as page 1)."""
    asked = request.GET.get("turns", "")
    # ASCII digits only: `str.isdigit` also holds for "²", which `int` refuses (a 500).
    if not (asked.isascii() and asked.isdigit()) or not asked.strip("0"):
        return 1
    return int(asked) if len(asked) <= 9 else 10**9  # past any match's last page


@read_only
def match_detail(request: HttpRequest, match_id: int) -> HttpResponse:
    context = match_context(match_id, turns_page=_turns_page(request))
    # Organizers keep score from here and print its table's sheet; everyone else has the
    # private link, if anyone. Never in the live part, which is the same for every reader.
    context["is_organizer"] = context["match"].is_organizer(request.user)
    context["can_score"] = context["takes_turns"] and context["is_organizer"]
    return render(request, "games/match.html", context)


@read_only
def match_live(request: HttpRequest, match_id: int) -> HttpResponse:
    """The refreshing part of the match page (scores, whose turn, the turns)."""
    return render(
        request,
        "games/_match_live.html",
        match_context(match_id, turns_page=_turns_page(request)),
    )


def match_context(match_id: int, *, turns_page: int = 1) -> dict[str, Any]:
    """Everything the match page shows, in three queries (four for Yardkle): the match (with
    its event and league), its seats and players, one page of its turns (newest first, with
    who corrected them; a page past the last is a 404), and for Yardkle's scorecard every
    turn's points. One more when a turn of the page was corrected: the versions it replaced."""
    match = get_object_or_404(
        Match.objects.select_related("event__league", "voided_by", "pad_by").prefetch_related(
            Prefetch("seats", queryset=Seat.objects.select_related("player").order_by("order"))
        ),
        pk=match_id,
    )
    seats: list[Seat] = list(match.seats.all())
    pages = max(1, -(-match.turns_played // TURNS_PER_PAGE))
    if turns_page > pages:
        raise Http404("No such page of turns.")
    offset = (turns_page - 1) * TURNS_PER_PAGE
    turns: list[Turn] = with_corrections(
        list(turns_newest_first(match)[offset : offset + TURNS_PER_PAGE])
    )
    board = match_board(match, seats)
    current = board["current_seat"]
    # A match of a finished or cancelled event takes no turn until the event is reopened (the
    # API answers 409 event_closed): its pages say so, and offer no scorer. Only a match not
    # started can be left so (an event is not closed while one of its matches is played).
    event = match.event
    closed_by = event.get_status_display().lower() if event is not None and event.is_closed else ""
    context: dict[str, Any] = {
        "match": match,
        "seats": seats,
        "board": board,
        "is_yardzee": match.game == GameName.YARDZEE,
        "event_closed": closed_by,
        "takes_turns": match.is_open and not closed_by,
        "live": match.is_open and not closed_by,
        "live_seconds": LIVE_SECONDS,
        "to_play": seats[current]
        if current is not None and match.is_open and not closed_by
        else None,
        # A void match's places count nowhere, so they are not shown as if they did.
        "placed": sorted(
            (seat for seat in seats if seat.placement is not None),
            key=lambda seat: (seat.placement or 0, seat.order),
        )
        if match.status != MatchStatus.VOID
        else [],
        "replaced_by": replaced_by(match),
        "turns": [_turn_view(turn, seats, match.game) for turn in turns],
        "turns_page": turns_page,
        "turns_pages": pages,
        "is_void": match.status == MatchStatus.VOID,
    }
    if match.game == GameName.YARDZEE:
        context["pad"] = scorecard.yardzee_pad(board["scorecards"])
    else:
        target = YardkleRules.from_json(match.rules).target
        context["target"] = target
        context["rounds"] = scorecard.yardkle_rounds(
            scorecard.yardkle_pad_turns(match.pad)
            if match.pad is not None
            else [
                scorecard.YardkleTurn(
                    sequence=sequence, seat=seat, points=points, yardkle=end == "yardkle"
                )
                for sequence, seat, points, end in Turn.objects.filter(match=match).values_list(
                    "sequence", "seat__order", "points", "payload__end"
                )
            ],
            players=len(seats),
            target=target,
        )
        by = board.get("final_round_by")
        context["final_round_by"] = next((s for s in seats if s.player_id == by), None)
        context["scores"] = list(zip(seats, board["scores"], strict=True))
    return context


def _turn_view(turn: Turn, seats: list[Seat], game: str) -> dict[str, Any]:
    payload = turn.payload if isinstance(turn.payload, dict) else {}
    seat = seats[turn.seat.order]
    view: dict[str, Any] = {
        "id": f"turn-{turn.sequence}",
        "sequence": turn.sequence,
        "round": (turn.sequence - 1) // len(seats) + 1,
        "seat": seat,
        "points": turn.points,
        "bonus": turn.bonus,
        "payload": payload,
    }
    if game == GameName.YARDZEE:
        category = str(payload.get("category", ""))
        view["box"] = scorecard.BOX_LABELS.get(category, category)
        view["rolls"] = scorecard.yardzee_rolls(payload)
    else:
        view["yardkle"] = ends_in_yardkle(payload)
        view["rolls"] = scorecard.yardkle_throws(payload)
    if turn.corrected_at is not None:
        view["corrected_at"] = turn.corrected_at
        view["corrected_by"] = turn.corrected_by.get_username() if turn.corrected_by else ""
        view["replaced"] = [_replaced_view(old, game) for old in turn.corrections.all()]
    return view


def _replaced_view(old: TurnCorrection, game: str) -> dict[str, Any]:
    """A version a correction replaced, as the turn's line says it: box and points (Yardzee),
    banked points or a Yardkle."""
    payload = old.payload if isinstance(old.payload, dict) else {}
    category = str(payload.get("category", ""))
    return {
        "points": old.points,
        "bonus": old.bonus,
        "box": scorecard.BOX_LABELS.get(category, category) if game == GameName.YARDZEE else "",
        "yardkle": game != GameName.YARDZEE and ends_in_yardkle(payload),
    }


# --- Scorekeeping: the phone page of a table -----------------------------------------------------


# How long a phone that opened a table's private link keeps its key (the league day, and the
# next if the match is finished then).
KEY_COOKIE_SECONDS = 2 * 24 * 60 * 60


def _private(response: HttpResponse, *, key_in_url: bool = True) -> HttpResponse:
    """The scorekeeping page holds a key: kept out of caches and out of every Referer. An
    answer to an address holding the key (`?key=`) sends no Referer at all; the page at its
    clean address sends one only to this site (`same-origin`: its address holds no key), so
    that its forms' `Origin` passes the CSRF check (with `no-referrer` Chromium sends
    `Origin: null` and Sign out was refused)."""
    response["Cache-Control"] = "no-store"
    response["Referrer-Policy"] = "no-referrer" if key_in_url else "same-origin"
    return response


@read_only
def match_score(request: HttpRequest, match_id: int) -> HttpResponse:
    """The phone scorekeeping page: for an organizer of the match (signed in) or whoever opens
    the match's private link. It submits every turn through the API, like any client;
    organizers also see the QR code of the private link and may undo the last turn.

    The private link (`?key=`) is exchanged at once for a cookie scoped to this page, and the
    browser is sent to the clean URL, so the key is in no address bar, history, access log or
    Referer. A wrong key is counted against the client's address (too many: 429)."""
    match = get_object_or_404(Match.objects.select_related("event__league"), pk=match_id)
    clean_url = reverse("games:score", args=[match.pk])
    if "key" in request.GET:
        if score_keys.too_many_failures(request):
            return _private(_key_refused(request, match, status=429))
        key = request.GET["key"]
        if not match.opens_with(key):
            score_keys.record_failure(request)
            return _private(_key_refused(request, match, status=403, key_given=True))
        return _private(_key_remembered(match))
    organizer = match.is_organizer(request.user)
    cookie_key = request.COOKIES.get(score_keys.cookie_name(match.pk))
    by_key = match.opens_with(cookie_key)
    if not (organizer or by_key):
        return _private(_key_refused(request, match, status=403), key_in_url=False)
    context = match_context(match_id)
    link = request.build_absolute_uri(clean_url + "?" + urlencode({"key": match.score_key}))
    current = context["to_play"]
    context.update(
        {
            "is_organizer": organizer,
            "score_key": match.score_key if by_key else "",
            "turn_number": match.turns_played + 1,
            "current_player": current.player if current is not None else None,
            "open_boxes": _open_boxes(context),
            "faces": range(1, 7),
            "private_link": link if organizer else "",
            "qr_svg": _qr_svg(link) if organizer else "",
        }
    )
    context.update(_keeping_score(match, context))
    return _private(render(request, "games/score.html", context), key_in_url=False)


def _key_remembered(match: Match) -> HttpResponse:
    """The key of a private link that opened the match, kept in a cookie scoped to the scoring
    page; the browser is sent to the page's clean URL."""
    clean_url = reverse("games:score", args=[match.pk])
    response = redirect(clean_url)
    response.set_cookie(
        score_keys.cookie_name(match.pk),
        match.score_key,
        max_age=KEY_COOKIE_SECONDS,
        path=clean_url,
        secure=settings.SESSION_COOKIE_SECURE,
        httponly=True,
        samesite="Lax",
    )
    return response


@read_only
def match_short_link(request: HttpRequest, match_id: int, code: str) -> HttpResponse:
    """A table's short link, as printed on the round sheet (`/t/<id>/<code>`, docs/pages.md):
    opens the scoring page as the private link does. A wrong code counts as a wrong key.

    The link is the table's: once its match is voided and another seated in its place (a
    replay, or the rest of the table playing on), the printed link opens the match played at
    that table now."""
    match = get_object_or_404(Match.objects.select_related("event__league"), pk=match_id)
    if score_keys.too_many_failures(request):
        return _private(_key_refused(request, match, status=429))
    if not score_keys.short_code_opens(match.score_key, code):
        score_keys.record_failure(request)
        return _private(_key_refused(request, match, status=403, key_given=True))
    return _private(_key_remembered(played_at_table(match)))


def _key_refused(
    request: HttpRequest, match: Match, *, status: int, key_given: bool = False
) -> HttpResponse:
    return render(
        request,
        "games/score_forbidden.html",
        {"match": match, "key_given": key_given, "throttled": status == 429},
        status=status,
    )


def _open_boxes(context: dict[str, Any]) -> list[tuple[str, str]]:
    """The current Yardzee player's open boxes (name, label), in pad order."""
    seat = context["board"].get("current_seat")
    if not context["is_yardzee"] or seat is None:
        return []
    boxes = context["board"]["scorecards"][seat]["boxes"]
    return [(name, label) for name, label in scorecard.BOX_LABELS.items() if boxes[name] is None]


def _keeping_score(match: Match, context: dict[str, Any]) -> dict[str, Any]:
    """What the scorekeeper reads beside the dice: the turn saved last ("Turn 12: Ana, Full
    house, 25", so a reload says it), Yardzee's running totals, how long a turn just sent may
    be taken back, and the page's version (turns played, status, the last turn's points) that
    its script compares with the match's (the API's) to notice a change made elsewhere."""
    last = context["turns"][0] if context["turns"] else None
    extra: dict[str, Any] = {
        "last_saved": "",
        "last_sequence": 0,
        "page_version": f"{match.turns_played}:{match.status}:",
        "take_back_seconds": settings.TAKE_BACK_SECONDS,
    }
    if last is not None:
        extra["last_saved"] = scorecard.turn_summary(
            sequence=last["sequence"],
            player=last["seat"].player.display_name,
            game=match.game,
            payload=last["payload"],
            points=last["points"],
            bonus=last["bonus"],
        )
        extra["last_sequence"] = last["sequence"]
        extra["page_version"] += f"{last['points']}/{last['bonus']}"
    if context["is_yardzee"]:
        totals = scorecard.yardzee_totals(context["board"]["scorecards"])
        extra["running_totals"] = list(zip(context["seats"], totals, strict=True))
    return extra


def _qr_svg(link: str) -> str:
    """The private link as a QR code, inline SVG (segno), dark on white for any phone camera."""
    svg: str = segno.make(link, error="m").svg_inline(
        scale=4, dark="#1b1f1d", light="#ffffff", title="QR code of the private scoring link"
    )
    return mark_safe(svg)  # noqa: S308 - segno's own markup; the link is escaped by segno
