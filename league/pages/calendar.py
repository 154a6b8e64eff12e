"""Calendar feeds (iCalendar, RFC 5545) of the scheduled matches: one per event and one per
player (docs/pages.md, "Calendar feeds"). A calendar app subscribes to the address and sees
each match at its table and planned start; a match moved later keeps its UID and carries a
higher SEQUENCE, so the app moves it instead of adding another.

The `icalendar` package writes the format (escaping, line folding, the VTIMEZONE of each
zone the starts are given in); this module only says what goes in it."""

from collections.abc import Iterable
from datetime import timedelta
from zoneinfo import ZoneInfo

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.urls import reverse
from icalendar import Calendar, vText
from icalendar import Event as CalendarEvent

from core.methods import read_only
from games.models import Match, MatchStatus
from league import selectors
from league.models import Event, Player

PRODID = "-//Yard League//Match schedule//EN"
# Calendar apps ask again about this often (a hint some of them read).
REFRESH = timedelta(hours=1)


def match_uid(match: Match, host: str) -> str:
    """The UID of the match's table: the same in every feed and for as long as the match
    exists, and the same for a match seated in its place (a replay, or the rest of the table
    playing on), which carries a higher SEQUENCE, so the calendar app moves the entry."""
    return f"match-{match.table_id}@{host}"


def _newest_at_each_table(matches: list[Match]) -> list[Match]:
    """`matches` with only the newest of each table: a voided match that another replaced is
    the same calendar entry as its replacement, which says what is played there now."""
    newest: dict[int, Match] = {}
    for match in matches:
        held = newest.get(match.table_id)
        if held is None or held.pk < match.pk:
            newest[match.table_id] = match
    return [match for match in matches if newest[match.table_id] is match]


def _summary(match: Match) -> str:
    names = " v ".join(seat.player.display_name for seat in match.seats.all())
    where = f" · {match.table_label}" if match.table_label else ""
    return f"{match.get_game_display()}: {names}{where}"


def _description(match: Match, url: str) -> str:
    lines = []
    if match.event is not None:
        lines.append(match.event.name)
    stage_match = getattr(match, "stage_match", None)
    if stage_match is not None:
        lines.append(f"{stage_match.stage.name}, round {stage_match.round}")
    lines.append(
        "Players in seat order: "
        + ", ".join(seat.player.display_name for seat in match.seats.all())
    )
    lines.append(f"Match #{match.pk}: {url}")
    return "\n".join(lines)


def _vevent(request: HttpRequest, match: Match) -> CalendarEvent:
    assert match.planned_at is not None  # noqa: S101 - the selector reads only these
    url = request.build_absolute_uri(reverse("games:match", args=[match.pk]))
    vevent = CalendarEvent()
    vevent.add("uid", match_uid(match, request.get_host()))
    stamp = match.schedule_changed_at or match.created_at
    vevent.add("dtstamp", stamp)
    vevent.add("last-modified", stamp)
    vevent.add("sequence", match.schedule_sequence)
    vevent.add("dtstart", match.planned_at.astimezone(ZoneInfo(match.display_zone)))
    vevent.add("summary", _summary(match))
    location = [match.table_label, match.event.venue if match.event else ""]
    if any(location):
        vevent.add("location", ", ".join(part for part in location if part))
    vevent.add("description", _description(match, url))
    vevent.add("url", url)
    vevent.add("status", "CANCELLED" if match.status == MatchStatus.VOID else "CONFIRMED")
    return vevent


def calendar_response(
    request: HttpRequest, *, name: str, filename: str, matches: Iterable[Match]
) -> HttpResponse:
    calendar = Calendar()
    calendar.add("prodid", PRODID)
    calendar.add("version", "2.0")
    calendar.add("calscale", "GREGORIAN")
    # NAME (RFC 7986) and X-WR-CALNAME are TEXT, but icalendar knows neither and would write
    # them as they are: a `;` or `,` in a league's or player's name must be escaped as in
    # SUMMARY. Every other property here has a type icalendar knows and escapes.
    calendar.add("name", vText(name))
    calendar.add("x-wr-calname", vText(name))
    calendar.add("refresh-interval", REFRESH, parameters={"VALUE": "DURATION"})
    for match in _newest_at_each_table(list(matches)):
        calendar.add_component(_vevent(request, match))
    calendar.add_missing_timezones()
    response = HttpResponse(calendar.to_ical(), content_type="text/calendar; charset=utf-8")
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    return response


@read_only
def event_calendar(request: HttpRequest, event_id: int) -> HttpResponse:
    """Every scheduled match of the event."""
    event = get_object_or_404(Event.objects.select_related("league"), pk=event_id)
    return calendar_response(
        request,
        name=f"{event.name} · {event.league.name}",
        filename=f"event-{event.pk}.ics",
        matches=selectors.calendar_matches(event=event),
    )


@read_only
def player_calendar(request: HttpRequest, player_id: int) -> HttpResponse:
    """Every scheduled match of the player, in any league."""
    player = get_object_or_404(Player, pk=player_id)
    return calendar_response(
        request,
        name=f"{player.display_name}'s matches",
        filename=f"player-{player.pk}.ics",
        matches=selectors.calendar_matches(player=player),
    )
