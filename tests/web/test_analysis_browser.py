"""The Analysis section in a real browser (Debian's Chromium through Playwright, issue 19):
a finished Yardzee and a finished Yardkle match at 390 and 1280 px, the section readable with
axe-core finding nothing; screenshots in artifacts/screenshots (docs/images/analysis.png is
the Yardzee one at 390 px)."""

from playwright.sync_api import sync_playwright

import scoring
from analysis import services
from games import services as game_services
from games.models import Match
from league.models import Player
from scoring import simulate
from tests.web.browser import IN_A_BROWSER, SHOTS, axe_violations, launch

pytestmark = IN_A_BROWSER


def _analysed(game: str, names: list[str], seed: int) -> Match:
    players = [Player.objects.create(display_name=n, handle=n.lower()) for n in names]
    match = game_services.match_create(game=game, player_ids=[p.pk for p in players])
    local = scoring.new_game(game, len(players), match.rules)
    game_services.result_submit(match_id=match.pk, turns=simulate.play_game(local, seed=seed))
    services.match_analyse(match_id=match.pk)
    return match


def test_the_analysis_section_at_phone_and_desktop_width(live_server, transactional_db, tables):
    zee = _analysed("yardzee", ["Ada", "Bea", "Cal"], seed=11)
    kle = _analysed("yardkle", ["Dot", "Eli"], seed=12)
    SHOTS.mkdir(parents=True, exist_ok=True)
    problems = []
    with sync_playwright() as playwright:
        browser = launch(playwright)
        for width in (390, 1280):
            page = browser.new_page(viewport={"width": width, "height": 900})
            for match in (zee, kle):
                page.goto(f"{live_server.url}/matches/{match.pk}/")
                section = page.locator("#match-analysis")
                assert section.is_visible()
                assert section.locator("table.analysis-players tbody tr").count() == len(
                    match.seats.all()
                )
                assert page.locator("#match-analysis .pending").count() == 0
                section.screenshot(path=str(SHOTS / f"analysis-{match.game}-{width}.png"))
                problems.extend(axe_violations(page, f"{match.game} at {width}"))
            page.close()
        browser.close()
    assert problems == []
