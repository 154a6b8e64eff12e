"""The match page's win probability in a real browser (Debian's Chromium through Playwright,
issue 39): a Yardkle match being played at 390 and 1280 px; the chart never widens the page
(a phone scrolls it in its box) and its names stay large enough to read, every
player's line carries their name at its end (readable without colour: each line also has a
dash pattern of its own), the swings are said in words, axe-core finds nothing, and the
section follows the next turn by itself. Screenshots in artifacts/screenshots."""

import itertools

import pytest
from playwright.sync_api import sync_playwright

from analysis import forecasts
from games import services as game_services
from league.models import Player
from tests.playing import simulated_turns
from tests.web.browser import IN_A_BROWSER, SHOTS, axe_violations, launch

# Every stored turn forecasts its match, as in production (tests/conftest.py).
pytestmark = [*IN_A_BROWSER, pytest.mark.usefixtures("live_forecasts")]


def test_the_chart_at_phone_and_desktop_width_names_every_line_and_follows_the_game(
    live_server, transactional_db
):
    players = [
        Player.objects.create(display_name=name, handle=name.lower())
        for name in ("Ada Longname", "Bea", "Cal")
    ]
    match = game_services.match_create(game="yardkle", player_ids=[p.pk for p in players])
    turns = simulated_turns(match, seed=21)
    for turn in turns[:9]:
        game_services.turn_submit(match_id=match.pk, turn=turn)
    forecasts.match_forecast(match_id=match.pk)
    SHOTS.mkdir(parents=True, exist_ok=True)
    problems = []
    with sync_playwright() as playwright:
        browser = launch(playwright)
        for width in (390, 1280):
            page = browser.new_page(viewport={"width": width, "height": 900})
            page.goto(f"{live_server.url}/matches/{match.pk}/")
            section = page.locator("#match-forecast")
            chart = section.locator("svg.win-chart")
            assert chart.is_visible()
            # The page itself never scrolls sideways: a phone scrolls the chart in its box.
            assert page.evaluate("document.documentElement.scrollWidth") <= width
            # Names large enough to read on a phone.
            size = chart.locator("text.name").first.evaluate(
                "t => t.getBoundingClientRect().height"
            )
            assert size >= 10
            names = [
                (text.text_content() or "").strip()
                for text in chart.locator("text.name title").all()
            ]
            assert names == [p.display_name for p in players]
            dashes = [
                line.get_attribute("stroke-dasharray") for line in chart.locator("polyline").all()
            ]
            assert len(set(dashes)) == 3  # no two lines alike without colour
            # The names at the lines' ends do not overlap.
            heights = sorted(
                b["y"] for b in (t.bounding_box() for t in chart.locator("text.name").all()) if b
            )
            assert all(b - a >= 8 for a, b in itertools.pairwise(heights))
            assert section.locator("ol.swings li").count() >= 1
            section.screenshot(path=str(SHOTS / f"win-probability-{width}.png"))
            problems.extend(axe_violations(page, f"win probability at {width}"))
            page.close()
        # Live: the next turn and its job, and the open page shows one more point.
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        page.goto(f"{live_server.url}/matches/{match.pk}/")
        points = page.locator("svg.win-chart polyline").first.get_attribute("points") or ""
        game_services.turn_submit(match_id=match.pk, turn=turns[9])
        forecasts.match_forecast(match_id=match.pk)
        page.wait_for_function(
            "n => document.querySelector('svg.win-chart polyline')"
            ".getAttribute('points').split(' ').length === n",
            arg=len(points.split(" ")) + 1,
            timeout=20_000,
        )
        browser.close()
    assert problems == []
