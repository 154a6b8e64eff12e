"""The main pages in a real browser (Debian's Chromium through Playwright), at phone and
desktop width: screenshots saved as artifacts, and an automated accessibility check (axe-core:
missing labels, contrast and the rest of its rules) with no violations."""

import pytest
from axe_playwright_python.sync_playwright import Axe
from django.core.management import call_command
from playwright.sync_api import sync_playwright

from games.models import Match
from league.models import Event, Player
from tests.web.browser import IN_A_BROWSER, SHOTS, axe_violations, launch

WIDTHS = {"phone": (360, 780), "desktop": (1280, 900)}

pytestmark = IN_A_BROWSER


@pytest.fixture
def demo_pages(transactional_db: None) -> dict[str, str]:
    call_command("load_demo", force=True)
    cup = Event.objects.get(name="Summer Cup")
    playing = Match.objects.filter(status="in_progress").first()
    return {
        "home": "/",
        "league": f"/leagues/{cup.league.slug}/",
        "event": f"/events/{cup.pk}/",
        "match": f"/matches/{Match.objects.filter(status='finished').first().pk}/",
        "player": f"/players/{Player.objects.first().pk}/",
        "score": f"/matches/{playing.pk}/score/?key={playing.score_key}",
    }


def test_main_pages_pass_axe_at_phone_and_desktop_width_and_are_screenshotted(
    live_server, demo_pages
):
    SHOTS.mkdir(parents=True, exist_ok=True)
    problems = []
    with sync_playwright() as playwright:
        browser = launch(playwright)
        for width_name, (width, height) in WIDTHS.items():
            page = browser.new_page(viewport={"width": width, "height": height})
            for name, path in demo_pages.items():
                response = page.goto(f"{live_server.url}{path}")
                assert response is not None, path
                assert response.status == 200, path
                page.screenshot(path=str(SHOTS / f"{name}-{width_name}.png"), full_page=True)
                problems.extend(axe_violations(page, f"{name} ({width_name})"))
            page.close()
        browser.close()
    assert problems == [], "\n".join(problems)
    assert len(list(SHOTS.glob("*-phone.png"))) >= len(demo_pages)


def test_the_accessibility_check_does_catch_a_missing_label_and_poor_contrast():
    bad = (
        "<!doctype html><html lang='en'><head><title>t</title></head><body><main>"
        "<input type='text'><p style='color:#bbb;background:#fff'>faint</p></main></body></html>"
    )
    with sync_playwright() as playwright:
        browser = launch(playwright)
        page = browser.new_page()
        page.set_content(bad)
        found = {v["id"] for v in Axe().run(page).response["violations"]}
        browser.close()
    assert {"label", "color-contrast"} <= found


def test_the_event_page_in_a_browser_shows_the_bracket_and_standings_after_results(
    live_server, demo_pages
):
    from league.models import Stage

    stage = Stage.objects.get(name="Knockout")
    played = stage.stage_matches.exclude(order=None).count()
    with sync_playwright() as playwright:
        browser = launch(playwright)
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        page.goto(f"{live_server.url}{demo_pages['event']}")
        slots = page.locator("svg g.slot")
        assert slots.count() == len(stage.bracket["slots"])
        assert page.locator("svg g.slot.played").count() == played
        assert page.locator("svg .seat.advances").count() == played  # one winner per pair
        rows = page.locator("table:has(th[data-metric]) tbody tr")
        assert rows.count() == stage.entries.count()
        assert page.get_by_text("Computed").first.is_visible()
        browser.close()
