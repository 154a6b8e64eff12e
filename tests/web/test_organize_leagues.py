"""An organizer who is not staff starts a league and fills its roster from a CSV, on a phone
(390 px) in Debian's Chromium: sign in, create the league, choose its tiebreak order (a metric
twice first: refused, and the preview says why), import players (a bad row first: nothing
saved, the row named), with axe-core finding no violation on any page on the way."""

from typing import Any

import pytest
from django.test import Client
from playwright.sync_api import expect, sync_playwright

from league.models import League
from tests.web.browser import IN_A_BROWSER, SHOTS, axe_violations, launch

PHONE = {"width": 390, "height": 844}

pytestmark = [*IN_A_BROWSER, pytest.mark.django_db(transaction=True)]


def _axe_clean(page: Any, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"organize-{name}-phone.png"), full_page=True)
    assert axe_violations(page, name) == []


def test_an_organizer_creates_a_league_and_imports_its_players_on_a_phone(live_server, organizer):
    with sync_playwright() as playwright:
        browser = launch(playwright)
        page = browser.new_page(viewport=PHONE)
        page.goto(f"{live_server.url}/accounts/login/")
        page.get_by_label("Username").fill("orga")
        page.get_by_label("Password").fill("pw-orga")
        page.get_by_role("button", name="Sign in").click()
        expect(page.get_by_role("heading", name="My leagues")).to_be_visible()

        page.get_by_role("link", name="Create a league").click()
        _axe_clean(page, "league-new")
        page.get_by_label("Name").fill("Lawn Dice")
        page.get_by_label("Game").select_option("yardkle")
        page.get_by_role("button", name="Create the league").click()
        expect(page.get_by_text("Lawn Dice is created, and you organize it.")).to_be_visible()
        _axe_clean(page, "league-settings")

        preview = page.locator("#tiebreak-preview")
        expect(preview).to_contain_text("League points from every match")
        page.get_by_label("2nd").select_option("yardkles")
        page.get_by_label("3rd").select_option("yardkles")
        page.get_by_role("button", name="Save the settings").click()
        expect(preview).to_contain_text("appears twice")  # refused, and the page says why
        _axe_clean(page, "league-settings-refused")
        page.get_by_label("3rd").select_option("")
        page.get_by_role("button", name="Save the settings").click()
        expect(page.get_by_text("are saved")).to_be_visible()
        expect(preview).to_contain_text("Turns that ended in a Yardkle")
        assert League.objects.get(slug="lawn-dice").tiebreak[:2] == ["points", "yardkles"]

        page.get_by_role("link", name="Players").click()
        page.get_by_role("link", name="Import a CSV").click()
        _axe_clean(page, "players-import")
        page.get_by_label("Paste").fill("name,handle\nAna Lima,ana\nBo\nana lima\nCy\n")
        page.get_by_role("button", name="Import").click()
        problems = page.get_by_role("table", name="Rows that cannot be added")
        expect(problems).to_contain_text("Row 2 has the same name")
        expect(problems.locator("tbody tr")).to_have_count(1)
        _axe_clean(page, "players-import-refused")
        assert League.objects.get(slug="lawn-dice").players.count() == 0

        page.get_by_label("Paste").fill("name,handle\nAna Lima,ana\nBo\nCy\n")
        page.get_by_role("button", name="Import").click()
        expect(page.get_by_text("3 players are added to the roster.")).to_be_visible()
        roster = page.get_by_role("table")
        expect(roster.locator("tbody tr")).to_have_count(3)
        expect(roster).to_contain_text("@bo")
        _axe_clean(page, "players-roster")
        browser.close()


def test_the_tiebreak_preview_follows_each_choice_as_it_is_made(live_server, organizer):
    league = League.objects.create(name="Lawn Dice", slug="lawn-dice", game="yardkle")
    league.organizers.add(organizer)
    client = Client()
    client.force_login(organizer)
    with sync_playwright() as playwright:
        browser = launch(playwright)
        page = browser.new_page(viewport=PHONE)
        page.context.add_cookies(
            [
                {
                    "name": "sessionid",
                    "value": client.cookies["sessionid"].value,
                    "url": live_server.url,
                }
            ]
        )
        page.goto(f"{live_server.url}/organize/leagues/lawn-dice/")
        preview = page.locator("#tiebreak-preview")
        page.get_by_label("2nd").select_option("yardkles")
        expect(preview).to_contain_text("Turns that ended in a Yardkle")  # swapped in by htmx
        page.get_by_label("3rd").select_option("yardkles")
        expect(preview).to_contain_text("appears twice")
        _axe_clean(page, "league-settings-preview")
        assert League.objects.get(pk=league.pk).tiebreak[1] != "yardkles"  # nothing saved
        browser.close()
