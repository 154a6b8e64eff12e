"""Issue 21, item 3 (Schedule) on the pages: the event page, the match page and the round
sheet show each match's table and planned start in the zone it was scheduled in; the
iCalendar feeds (per event, per player) list the scheduled matches, parsed back here with the
`icalendar` package: stable UIDs, DTSTAMP, SEQUENCE, the start in its zone, text escaped and
long lines folded."""

from datetime import datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone
from icalendar import Calendar

from games import services as game_services
from games.models import Match
from league.models import Event, Player, Stage
from league.services import schedule
from tests.organize.test_events import roster, signed_in, started
from tests.web.browser import SHOTS, axe_violations, in_a_browser, launch, sign_in

pytestmark = pytest.mark.django_db

BERLIN = ZoneInfo("Europe/Berlin")


@pytest.fixture
def pool(yardzee_event: Event) -> Stage:
    """A running round robin of six players (three tables a round), its first round
    scheduled on the yards from 18:30 Berlin time tomorrow, 15 minutes apart."""
    stage = started(yardzee_event, roster(yardzee_event.league, 6))
    yardzee_event.venue = "Park; north lawn, by the oak"
    yardzee_event.save()
    _berlin_first_round(stage, _tomorrow(18, 30), interval_minutes=15, label="Yard {n}")
    return stage


def _tomorrow(hour: int, minute: int) -> datetime:
    day = (timezone.now() + timedelta(days=1)).astimezone(BERLIN).date()
    return datetime(day.year, day.month, day.day, hour, minute, tzinfo=BERLIN)


def _berlin_first_round(stage: Stage, start: datetime, **options: Any) -> None:
    """The stage's round 1 scheduled from `start`, given as Berlin's wall clock reads it."""
    schedule.round_schedule(
        stage_id=stage.pk,
        round_number=1,
        first_start=start.replace(tzinfo=None),
        time_zone="Europe/Berlin",
        **options,
    )


def _first_round(stage: Stage) -> list[Match]:
    return list(
        Match.objects.filter(stage_match__stage=stage, stage_match__round=1).order_by(
            "stage_match__group", "stage_match__slot", "stage_match__pk"
        )
    )


def _shown(hour: int, minute: int) -> str:
    """How the pages write a start of tomorrow in Berlin: "Sat 4 Jul 2026, 18:30 CEST"."""
    return _tomorrow(hour, minute).strftime("%a %-d %b %Y, %H:%M %Z")


def test_schedule_shows_on_the_event_page_in_the_events_zone(client: Client, pool: Stage):
    html = client.get(f"/events/{pool.event_id}/").content.decode()
    first, second, _third = _first_round(pool)
    assert 'class="table-label">Yard 1</span>' in html
    assert _shown(18, 30) in html
    assert _shown(18, 45) in html
    assert _shown(19, 0) in html
    utc = first.planned_at.astimezone(ZoneInfo("UTC")).isoformat().replace("+00:00", "Z")
    assert f'datetime="{utc}"' in html
    assert second.table_label == "Yard 2"
    assert f'href="/events/{pool.event_id}/calendar.ics"' in html


def test_schedule_shows_on_the_match_page(client: Client, pool: Stage):
    match = _first_round(pool)[1]
    html = client.get(f"/matches/{match.pk}/").content.decode()
    assert "Yard 2" in html
    utc = match.planned_at.astimezone(ZoneInfo("UTC")).isoformat().replace("+00:00", "Z")
    assert f'starts <time class="planned" datetime="{utc}">{_shown(18, 45)}</time>' in html


def test_schedule_shows_on_the_round_sheet(organizer, pool: Stage):
    html = signed_in(organizer).get(f"/organize/stages/{pool.pk}/rounds/1/sheet/").content.decode()
    assert html.count('class="sheet-schedule"') == 3
    assert '<strong class="table-label">Yard 3</strong>' in html
    assert _shown(19, 0) in html


def test_schedule_a_moved_match_shows_its_new_time_and_a_site_zone_when_none_was_given(
    client: Client, pool: Stage, settings
):
    match = _first_round(pool)[0]
    schedule.match_schedule(match_id=match.pk, time_zone="", planned_at=_tomorrow(20, 0))
    html = client.get(f"/matches/{match.pk}/").content.decode()
    assert settings.TIME_ZONE == "UTC"
    assert _tomorrow(20, 0).astimezone(ZoneInfo("UTC")).strftime("%H:%M UTC") in html


def _feed(client: Client, url: str) -> tuple[bytes, Calendar]:
    response = client.get(url)
    assert response.status_code == 200
    assert response["Content-Type"] == "text/calendar; charset=utf-8"
    return response.content, Calendar.from_ical(response.content)


def test_schedule_event_calendar_lists_the_scheduled_matches_with_stable_uids(
    client: Client, pool: Stage
):
    raw, calendar = _feed(client, f"/events/{pool.event_id}/calendar.ics")
    assert calendar["VERSION"] == "2.0"
    assert calendar["PRODID"]
    events = calendar.walk("VEVENT")
    matches = _first_round(pool)
    assert [e["UID"] for e in events] == [f"match-{m.pk}@testserver" for m in matches]
    for vevent, match in zip(events, matches, strict=True):
        start = vevent.decoded("DTSTART")
        assert start == match.planned_at
        assert str(start.tzinfo) == "Europe/Berlin"
        assert vevent["DTSTART"].params["TZID"] == "Europe/Berlin"
        assert vevent.decoded("DTSTAMP").tzinfo is not None
        assert vevent["SEQUENCE"] == 1
        assert vevent["STATUS"] == "CONFIRMED"
        names = " v ".join(s.player.display_name for s in match.seats.order_by("order"))
        assert str(vevent["SUMMARY"]) == f"Yardzee: {names} · {match.table_label}"
        assert str(vevent["LOCATION"]) == f"{match.table_label}, Park; north lawn, by the oak"
        assert str(vevent["URL"]).endswith(f"/matches/{match.pk}/")
    assert [tz["TZID"] for tz in calendar.walk("VTIMEZONE")] == ["Europe/Berlin"]
    # Commas and semicolons in text are escaped, and every line is at most 75 octets.
    assert b"Park\\; north lawn\\, by the oak" in raw
    lines = raw.split(b"\r\n")
    assert max(len(line) for line in lines) <= 75
    assert any(line.startswith(b" ") for line in lines)  # the long descriptions are folded
    # A moved match keeps its UID and says it changed; matches not scheduled are not listed.
    schedule.match_schedule(match_id=matches[0].pk, planned_at=_tomorrow(21, 0))
    _raw, again = _feed(client, f"/events/{pool.event_id}/calendar.ics")
    moved = next(e for e in again.walk("VEVENT") if e["UID"] == events[0]["UID"])
    assert moved["SEQUENCE"] == 2
    assert moved.decoded("DTSTART") == _tomorrow(21, 0)
    assert len(again.walk("VEVENT")) == 3
    # Called off (void, no result), then on again: each a change the app is told of, as a
    # move is.
    moved_at = Match.objects.get(pk=matches[0].pk).schedule_changed_at
    game_services.match_void(match_id=matches[0].pk, voided_by=None, then={"outcome": "no_result"})
    called_off = _vevent_of(client, pool, events[0]["UID"])
    assert (called_off["STATUS"], called_off["SEQUENCE"]) == ("CANCELLED", 3)
    assert Match.objects.get(pk=matches[0].pk).schedule_changed_at > moved_at  # its DTSTAMP
    game_services.match_unvoid(match_id=matches[0].pk, unvoided_by=None)
    on_again = _vevent_of(client, pool, events[0]["UID"])
    assert (on_again["STATUS"], on_again["SEQUENCE"]) == ("CONFIRMED", 4)


def test_schedule_a_replay_keeps_its_tables_calendar_entry_label_start_and_short_link(
    client: Client, pool: Stage, organizer: User
):
    """Issue 38, item 4: a voided match's replay is played at its table: the same label and
    start, the same calendar entry (its UID) with a higher SEQUENCE rather than the old match
    CANCELLED beside nothing, and the printed short link opens the replay; an un-void gives
    the entry back to the first match, with a higher SEQUENCE again."""
    first = _first_round(pool)[0]
    uid = f"match-{first.pk}@testserver"
    sheet = signed_in(organizer).get(f"/organize/stages/{pool.pk}/rounds/1/sheet/")
    printed = _short_link_of(sheet.content.decode(), first.pk)
    game_services.match_void(match_id=first.pk, voided_by=organizer)
    replay = Match.objects.get(stage_match__stage=pool, origin=first)
    assert (replay.table_label, replay.planned_at, replay.planned_zone) == (
        first.table_label,
        first.planned_at,
        first.planned_zone,
    )
    entries = list(_feed(client, f"/events/{pool.event_id}/calendar.ics")[1].walk("VEVENT"))
    assert len(entries) == 3
    entry = next(e for e in entries if e["UID"] == uid)
    assert (entry["STATUS"], entry["SEQUENCE"]) == ("CONFIRMED", 3)
    assert str(entry["URL"]).endswith(f"/matches/{replay.pk}/")
    # The sheet printed before the void opens the replay's scoring page; a new sheet prints
    # the same link.
    opened = Client().get(printed)
    assert opened.status_code == 302
    assert opened["Location"] == f"/matches/{replay.pk}/score/"
    sheet = signed_in(organizer).get(f"/organize/stages/{pool.pk}/rounds/1/sheet/")
    assert _short_link_of(sheet.content.decode(), first.pk) == printed
    # The voided match's page says so, by whom, and where its table plays now; no places.
    html = client.get(f"/matches/{first.pk}/").content.decode()
    assert f"voided by {organizer.username}" in html
    assert f'<a href="/matches/{replay.pk}/">Match #{replay.pk}</a> is played in its place' in html
    assert 'aria-label="Placements"' not in html
    game_services.match_unvoid(match_id=first.pk, unvoided_by=organizer)
    back = _vevent_of(client, pool, uid)
    assert (back["STATUS"], back["SEQUENCE"]) == ("CONFIRMED", 4)
    assert str(back["URL"]).endswith(f"/matches/{first.pk}/")


def _short_link_of(sheet: str, table: int) -> str:
    """The path of table `table`'s short link as the round sheet prints it."""
    start = sheet.index(f"/t/{table}/")
    return sheet[start : sheet.index('"', start)].split("<")[0]


def _vevent_of(client: Client, stage: Stage, uid: object) -> Any:
    _raw, calendar = _feed(client, f"/events/{stage.event_id}/calendar.ics")
    return next(e for e in calendar.walk("VEVENT") if e["UID"] == uid)


def test_schedule_player_calendar_lists_only_their_matches_and_escapes_their_name_everywhere(
    client: Client, pool: Stage
):
    match = _first_round(pool)[2]
    seat = match.seats.order_by("order").first()
    assert seat is not None
    player = Player.objects.get(pk=seat.player_id)
    player.display_name = "Lima, Eve; the 2nd"
    player.save()
    raw, calendar = _feed(client, f"/players/{player.pk}/calendar.ics")
    events = calendar.walk("VEVENT")
    assert [e["UID"] for e in events] == [f"match-{match.pk}@testserver"]
    assert "Lima, Eve; the 2nd" in str(events[0]["SUMMARY"])
    assert b"Lima\\, Eve\\; the 2nd" in raw
    # The calendar's names are TEXT too, escaped as the summary is (issue 37, item 7).
    # icalendar reads them back as written, so the raw lines are what is checked.
    assert b"\r\nNAME:Lima\\, Eve\\; the 2nd's matches\r\n" in raw
    assert b"\r\nX-WR-CALNAME:Lima\\, Eve\\; the 2nd's matches\r\n" in raw
    assert client.get(f"/players/{player.pk}/").content.decode().count("calendar.ics") == 1


def test_schedule_calendars_of_unknown_ids_are_404(client: Client, db: None):
    assert client.get("/events/999999/calendar.ics").status_code == 404
    assert client.get("/players/999999/calendar.ics").status_code == 404


# --- The organizer's form (organize/views/schedule.py) ---------------------------------------


def _form(stage: Stage, number: int = 1) -> str:
    return f"/organize/stages/{stage.pk}/rounds/{number}/schedule/"


def test_schedule_form_schedules_the_round_and_the_sheet_shows_it(organizer, yardzee_event):
    stage = started(yardzee_event, roster(yardzee_event.league, 4))
    client = signed_in(organizer)
    sheet = client.get(f"/organize/stages/{stage.pk}/rounds/2/sheet/").content.decode()
    assert f'href="{_form(stage, 2)}"' in sheet
    page = client.get(_form(stage, 2))
    assert page.status_code == 200
    assert "not scheduled" in page.content.decode()
    start = _tomorrow(19, 0)
    response = client.post(
        _form(stage, 2),
        {
            "first_start": start.strftime("%Y-%m-%dT%H:%M"),
            "interval_minutes": "30",
            "tables": "",
            "label": "Lawn {n}",
            "time_zone": "Europe/Berlin",
        },
        follow=True,
    )
    assert response.redirect_chain[-1][0] == f"/organize/stages/{stage.pk}/rounds/2/sheet/"
    html = response.content.decode()
    assert "Round 2 of Pool is scheduled: 2 tables." in html
    assert '<strong class="table-label">Lawn 2</strong>' in html
    assert _shown(19, 30) in html
    second = Match.objects.get(stage_match__stage=stage, stage_match__round=2, table_label="Lawn 2")
    assert second.planned_at == start + timedelta(minutes=30)
    # The event's organizer page lists the tables with their schedule too.
    tables = client.get(f"/organize/events/{stage.event_id}/").content.decode()
    assert '<span class="schedule">(Lawn 2, <time class="planned"' in tables


def test_schedule_form_shows_the_refusal_on_its_field_and_changes_nothing(
    organizer, player_account, yardzee_event
):
    stage = started(yardzee_event, roster(yardzee_event.league, 4))
    client = signed_in(organizer)
    body = {"first_start": "2020-01-01T10:00", "interval_minutes": "0", "label": "Table {n}"}
    response = client.post(_form(stage), body)
    assert response.status_code == 400
    assert "more than an hour in the past" in response.content.decode()
    response = client.post(
        _form(stage), {**body, "first_start": "soon", "label": "Yard", "time_zone": "Nowhere"}
    )
    assert response.status_code == 400
    assert "Give a date and a time" in response.content.decode()
    response = client.post(
        _form(stage),
        {**body, "first_start": _tomorrow(9, 0).strftime("%Y-%m-%dT%H:%M"), "label": "Yard"},
    )
    assert response.status_code == 400
    # On its field, in the page's words: the API's sentence begins "label must hold {n}".
    assert "It must hold {n}" in response.content.decode()
    response = client.post(
        _form(stage),
        {**body, "first_start": _tomorrow(9, 0).strftime("%Y-%m-%dT%H:%M"), "label": "{x} {n}"},
    )
    assert response.status_code == 400
    assert "It takes no placeholder but {n}, the table&#x27;s number." in response.content.decode()
    assert not Match.objects.exclude(planned_at=None).exists()
    assert client.get(_form(stage, 9)).status_code == 404
    assert signed_in(player_account).post(_form(stage), body).status_code == 403


# --- In Chromium -----------------------------------------------------------------------------


@in_a_browser
@pytest.mark.django_db(transaction=True)
def test_schedule_a_round_in_a_browser_then_read_it_on_the_sheet_and_the_event_page(
    live_server: Any, organizer: User, yardzee_event: Event
) -> None:
    from playwright.sync_api import expect, sync_playwright

    stage = started(yardzee_event, roster(yardzee_event.league, 6))
    base = live_server.url
    problems: list[str] = []
    with sync_playwright() as playwright:
        browser = launch(playwright)
        page = browser.new_page(viewport={"width": 390, "height": 844})
        page.set_default_timeout(15_000)
        sign_in(page, base, organizer)
        page.goto(f"{base}/organize/stages/{stage.pk}/rounds/1/sheet/")
        page.click("text=Schedule this round")
        problems.extend(axe_violations(page, "schedule form"))
        page.fill("#id_first_start", _tomorrow(18, 30).strftime("%Y-%m-%dT%H:%M"))
        page.fill("#id_interval_minutes", "15")
        page.fill("#id_label", "Yard {n}")
        page.fill("#id_time_zone", "Europe/Berlin")
        page.click("text=Schedule the round")
        expect(page.locator(".messages")).to_contain_text("is scheduled: 3 tables")
        expect(page.locator(".sheet-schedule")).to_have_count(3)
        expect(page.locator(".sheet-schedule").nth(2)).to_contain_text(_shown(19, 0))
        problems.extend(axe_violations(page, "round sheet"))
        page.emulate_media(media="print")
        expect(page.locator(".sheet-schedule").first).to_be_visible()  # printed with the table
        page.screenshot(path=str(SHOTS / "round-sheet-scheduled-print.png"), full_page=True)
        page.emulate_media(media="screen")
        page.goto(f"{base}/events/{yardzee_event.pk}/")
        expect(page.locator(".schedule time.planned")).to_have_count(3)
        expect(page.locator(".schedule").first).to_contain_text("Yard 1")
        problems.extend(axe_violations(page, "event page"))
        browser.close()
    assert problems == [], "\n".join(problems)


def test_schedule_calendar_reads_the_same_queries_for_one_match_as_for_many(
    client: Client, yardzee_event: Event, django_assert_max_num_queries: Any
):
    stage = started(yardzee_event, roster(yardzee_event.league, 10))  # 9 rounds of 5 tables
    schedule.round_schedule(stage_id=stage.pk, round_number=1, first_start=_tomorrow(18, 0))
    with django_assert_max_num_queries(3):  # the event, its matches, their seats
        assert len(_feed(client, f"/events/{stage.event_id}/calendar.ics")[1].walk("VEVENT")) == 5
    for number in range(2, 10):
        schedule.round_schedule(
            stage_id=stage.pk, round_number=number, first_start=_tomorrow(18, number)
        )
    with django_assert_max_num_queries(3):
        assert len(_feed(client, f"/events/{stage.event_id}/calendar.ics")[1].walk("VEVENT")) == 45


def test_schedule_of_a_bracket_is_listed_under_it_on_the_event_page(
    client: Client, yardzee_event: Event
):
    """The bracket's SVG has no room for tables and times: its scheduled tables are listed."""
    stage = started(yardzee_event, roster(yardzee_event.league, 4), format="single_elimination")
    html = client.get(f"/events/{yardzee_event.pk}/").content.decode()
    assert "Scheduled tables" not in html
    _berlin_first_round(stage, _tomorrow(18, 0), interval_minutes=30, label="Court {n}")
    html = client.get(f"/events/{yardzee_event.pk}/").content.decode()
    listed = html[html.index("Scheduled tables") :]
    assert listed.index("Court 1") < listed.index("Court 2")
    assert _shown(18, 0) in listed
    assert _shown(18, 30) in listed
    assert ", W1-1" in listed or ", W1-2" in listed
