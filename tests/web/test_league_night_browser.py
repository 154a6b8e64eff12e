"""A league night run from the pages alone (issue 38, "Done when"), in Debian's Chromium
against a live server, no API and no admin: the organizer enters the roster in one step and
checks everyone in, adds a round robin that ticks the checked-in players, schedules round 1
with the later rounds following on, enters one table from its paper pad, invites a
co-organizer who makes an account from the mailed link (the console backend's mail, here the
test outbox) and voids a table, whose replay keeps its label, start and printed short link;
a player withdraws and is marked last; and the standings read at 360 px with no sideways
scroll. Screenshots go to artifacts/screenshots/night-*.png and, for docs/organizing.md, to
docs/img/ when DOCS_SCREENSHOTS is set."""

import os
import re
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core import mail
from django.utils import timezone

from games.models import Match, MatchStatus
from league.models import Event, League, Registration, Stage
from tests.playing import pad_of
from tests.web.browser import IN_A_BROWSER, SHOTS, chromium, sign_in, watched_page

pytestmark = [*IN_A_BROWSER, pytest.mark.django_db(transaction=True)]

DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 360, "height": 780}
NAMES = ["Maëlle Dubois", "Ben Okafor", "Cleo Park", "Dev Rao", "Eli Stone", "Fay Wong",
         "Gus Berg", "Hal Moss"]  # fmt: skip
DOCS = Path(__file__).resolve().parents[2] / "docs" / "img"


def _shot(page: Any, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"night-{name}.png"), full_page=True)
    if os.environ.get("DOCS_SCREENSHOTS"):
        page.screenshot(path=str(DOCS / f"night-{name}.jpg"), type="jpeg", quality=70)


@pytest.fixture
def night(organizer: User) -> Event:
    """The league as the night begins: its roster imported (as a CSV would), an event."""
    league = League.objects.create(name="Yard Nights", slug="yard-nights", game="yardzee")
    league.organizers.add(organizer)
    league.owner = organizer
    league.save()
    from league.models import Player

    for number, name in enumerate(NAMES):
        league.players.add(Player.objects.create(display_name=name, handle=f"night-{number}"))
    tomorrow = (timezone.now() + timedelta(days=1)).date()
    return Event.objects.create(league=league, name="Night 5", date=tomorrow, venue="The lawn")


def test_a_league_night_from_the_pages(live_server: Any, organizer: User, night: Event) -> None:
    from playwright.sync_api import expect

    base = live_server.url
    violations: list[str] = []
    with chromium() as browser:
        page = watched_page(browser, DESKTOP, violations, "organizer")
        sign_in(page, base, organizer)

        # Sign-up with check-in, the whole roster entered in one step, everyone checked in.
        page.goto(f"{base}/organize/events/{night.pk}/sign-up/")
        page.get_by_label("Open to sign-ups").uncheck()
        page.get_by_label("Use check-in").check()
        page.get_by_role("button", name="Save the sign-up").click()
        expect(page.locator(".messages")).to_contain_text("The sign-up is saved.")
        page.locator("#roster-heading").scroll_into_view_if_needed()
        _shot(page, "entrants")
        page.get_by_role("button", name="Enter all 8 shown").click()
        expect(page.locator(".messages")).to_contain_text("8 entered and confirmed")
        page.get_by_role("button", name="Check in all 8 shown").click()
        expect(page.locator(".messages")).to_contain_text("8 players checked in.")
        assert Registration.objects.filter(event=night, checked_in_at__isnull=False).count() == 8

        # A round robin at tables of four: the checked-in players are ticked to begin with.
        page.goto(f"{base}/organize/events/{night.pk}/")
        page.get_by_role("link", name="Add a stage").click()
        expect(page.get_by_text("Ticked to begin with: the players checked in.")).to_be_visible()
        page.fill("#id_name", "Tables")
        page.fill("#id_table_size", "4")
        expect(page.locator("input[name=participants]:checked")).to_have_count(8)
        page.get_by_role("button", name="Add the stage").click()
        page.get_by_role("button", name="Start Tables").click()
        expect(page.locator(".messages")).to_contain_text("Tables has started")
        stage = Stage.objects.get(event=night, name="Tables")
        assert Event.objects.get(pk=night.pk).status == "running"

        # Round 1 scheduled from its sheet, the later rounds to follow on.
        page.get_by_role("link", name="Round sheet of Tables").click()
        page.get_by_role("link", name="Schedule this round").click()
        start = (timezone.now() + timedelta(days=1)).strftime("%Y-%m-%dT18:30")
        page.fill("#id_first_start", start)
        page.fill("#id_follow_on_minutes", "10")
        page.get_by_role("button", name="Schedule the round").click()
        expect(page.locator(".messages")).to_contain_text("is scheduled")
        _shot(page, "round-sheet")
        first, second = Match.objects.filter(
            stage_match__stage=stage, stage_match__round=1
        ).order_by("stage_match__slot", "pk")
        printed = page.locator(f"#table-{second.pk} .sheet-link a").get_attribute("href")
        assert printed is not None
        assert printed.startswith(f"{base}/t/{second.pk}/")

        # Table 1 played on paper: its pad typed in from the match page.
        page.goto(f"{base}/matches/{first.pk}/")
        page.get_by_role("link", name="Enter its paper pad").click()
        pad = pad_of(first, seed=3)
        for order, column in enumerate(pad):
            for box, points in column["boxes"].items():
                page.fill(f"#p{order}-{box}", str(points))
            page.fill(f"#p{order}-bonus", str(column["yardzee_bonus_count"]))
        _shot(page, "pad-entry")
        page.get_by_role("button", name=f"Save the pad: finish match #{first.pk}").click()
        expect(page.locator(".from-pad").first).to_contain_text("From the pad")
        assert Match.objects.get(pk=first.pk).status == MatchStatus.FINISHED

        # A co-organizer invited by email, who makes an account from the mailed link.
        page.goto(f"{base}/organize/leagues/{night.league.slug}/")
        page.fill("#id_email", "helper@example.org")
        page.click("text=Send the invitation")
        expect(page.locator(".messages")).to_contain_text("is mailed to helper@example.org")
        link = re.search(r"https?://\S+/invitations/[A-Za-z0-9_-]+/", str(mail.outbox[-1].body))
        assert link is not None
        helper = watched_page(browser, PHONE, violations, "co-organizer")
        helper.goto(link.group(0))
        helper.fill("#id_username", "helper")
        helper.fill("#id_password1", "dice-in-the-grass-7")
        helper.fill("#id_password2", "dice-in-the-grass-7")
        helper.click("text=Make my account and join Yard Nights")
        expect(helper.locator(".messages")).to_contain_text("you now organize")

        # The co-organizer voids table 2: its replay keeps the table, its start and its link.
        helper.goto(f"{base}/matches/{second.pk}/")
        helper.click("#control-void")
        expect(helper.locator("#confirm-void")).to_be_visible()
        helper.click("#confirm-void")
        expect(helper.locator("#control-unvoid")).to_be_visible()
        replay = Match.objects.get(origin=second)
        assert (replay.table_label, replay.planned_at) == (second.table_label, second.planned_at)
        helper.goto(f"{base}/matches/{second.pk}/")
        expect(helper.locator(".status")).to_contain_text("voided by helper")
        _shot(helper, "voided")
        table = watched_page(browser, PHONE, violations, "scorekeeper")
        table.goto(printed)
        expect(table).to_have_url(f"{base}/matches/{replay.pk}/score/")
        table.context.close()

        # A player withdraws: marked, and ranked after everyone still playing.
        gone = replay.seats.order_by("order").first()
        assert gone is not None
        page.goto(f"{base}/organize/events/{night.pk}/withdraw/")
        page.select_option("#id_player", str(gone.player_id))
        page.get_by_role("button", name="Check what it does").click()
        page.get_by_role("button", name=f"Withdraw {gone.player.display_name}").click()
        expect(page.locator(".messages")).to_be_visible()

        # The standings on a phone: no sideways scroll, the withdrawn player last and marked.
        phone = watched_page(browser, PHONE, violations, "player")
        phone.goto(f"{base}/events/{night.pk}/")
        standings = phone.locator(f"#standings-stage-{stage.pk}")
        expect(standings.locator("tr.withdrawn")).to_have_count(1, timeout=15_000)
        last = standings.locator("tbody tr").last
        expect(last).to_contain_text(gone.player.display_name)
        expect(last).to_contain_text("withdrawn")
        assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        _shot(phone, "standings-phone")
        phone.wait_for_timeout(200)
    assert violations == [], "\n".join(violations)
