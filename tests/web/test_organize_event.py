"""An event run from the organizer pages in a real browser (issue 17, "Done means"): a
non-staff organizer signs in, creates an event, adds a round-robin stage in groups and a
knockout fed by it (the form's fields follow the format, source and seeding chosen, through
htmx, keeping what was typed), starts the groups, and prints the round sheet: one QR code per
table, the page's header and tools hidden on paper, A4 or Letter pages. Every page loads
without a Content-Security-Policy violation and passes axe-core at 390 and 1280 px;
screenshots go to artifacts/screenshots/."""

import re
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User

from league.models import League, Player, Stage
from tests.web.browser import (
    IN_A_BROWSER,
    SHOTS,
    axe_violations,
    chromium,
    expect_a_round_sheet_on_paper,
    sign_in,
    watched_page,
)

WIDTHS = {"phone": (390, 844), "desktop": (1280, 900)}
# A PDF page's size in points: A4 is 210 x 297 mm, Letter 8.5 x 11 in.
PAPER_POINTS = {"a4": (595, 842), "letter": (612, 792)}

pytestmark = [*IN_A_BROWSER, pytest.mark.django_db(transaction=True)]


def _pdf_page_size(pdf: bytes) -> tuple[int, int]:
    found = re.search(rb"/MediaBox\s*\[\s*0 0 ([\d.]+) ([\d.]+)\s*\]", pdf)
    assert found is not None, "no page size in the PDF"
    return round(float(found.group(1))), round(float(found.group(2)))


def test_an_organizer_runs_an_event_from_the_pages_and_prints_a_round_sheet(
    live_server: Any, organizer: User, yardzee_league: League
) -> None:
    from playwright.sync_api import expect

    players = Player.objects.bulk_create(
        Player(display_name=name, handle=name.lower())
        for name in ("Ana", "Ben", "Cleo", "Dev", "Eli", "Fay", "Gus", "Hal")
    )
    yardzee_league.players.add(*players)
    base = live_server.url
    problems: list[str] = []
    violations: list[str] = []
    with chromium() as browser:
        page = watched_page(browser, {"width": 390, "height": 844}, violations)

        # Sign in as the organizer (not staff), and find the league's events.
        sign_in(page, base, organizer)
        page.get_by_role("link", name=f"Events of {yardzee_league.name}").click()

        # A new event.
        page.fill("#id_name", "Summer Day")
        page.fill("#id_date", "2026-07-04")
        page.fill("#id_venue", "Back lawn")
        page.click("text=Create the event")
        expect(page.locator("h1")).to_have_text("Summer Day")

        # A round robin in two groups of four, everyone ticked, seeded as listed.
        page.click("text=Add a stage")
        page.fill("#id_name", "Groups")
        page.fill("#id_groups", "2")
        for player in players:
            page.check(f"#plays-{player.pk}")
        # A seed typed, seeding made random then manual again (htmx): the seed is kept.
        seed = f"#id_seed_{players[0].pk}"
        page.fill(seed, "2")
        page.select_option("#id_seeding", "random")
        expect(page.locator(seed)).to_have_count(0)
        # htmx listens on the swapped-in select only once the swap has settled: a change
        # before that is never sent.
        page.wait_for_function("() => !document.querySelector('.htmx-added, .htmx-settling')")
        page.select_option("#id_seeding", "manual")
        expect(page.locator(seed)).to_have_value("2")
        expect(page.locator(f"#plays-{players[0].pk}")).to_be_checked()
        page.fill(seed, "")
        page.click("text=Add the stage")
        expect(page.locator(".messages")).to_contain_text("Groups is added")

        # A knockout fed by the groups: the fields follow the format and the source (htmx).
        page.click("text=Add a stage")
        page.fill("#id_name", "Knockout")
        page.select_option("#id_format", "single_elimination")
        expect(page.locator("#id_third_place")).to_be_visible()
        expect(page.locator("#id_groups")).to_have_count(0)
        page.select_option("#id_source_stage", label="From Groups")
        expect(page.locator("#id_source_per_group")).to_be_visible()
        expect(page.locator("input[name=participants]")).to_have_count(0)
        page.fill("#id_source_per_group", "2")
        page.click("text=Add the stage")
        expect(page.locator(".messages")).to_contain_text("Knockout is added")
        expect(page.locator("#stage-list, .stage-list")).to_contain_text(
            "takes the top 2 of each group of Groups"
        )

        # Start the groups: their first round is seated.
        page.click("text=Start Groups")
        expect(page.locator(".messages")).to_contain_text("Groups has started")
        groups = Stage.objects.get(name="Groups")
        first_round = groups.stage_matches.filter(round=1).count()
        assert first_round == 4  # two groups of four: two pairs each
        expect(page.locator(".event-tables .round").first).to_contain_text("Round 1")
        page.screenshot(path=str(SHOTS / "organize-event-phone.png"), full_page=True)
        pages = {"event": page.url}

        # The round sheet, on paper: one QR code a table, nothing but the sheet.
        page.click("text=Round sheet of Groups")
        expect(page.locator("h1")).to_contain_text("Groups, round 1")
        pages["sheet"] = page.url
        expect_a_round_sheet_on_paper(page, first_round)
        page.screenshot(path=str(SHOTS / "round-sheet-print.png"), full_page=True)
        for paper, size in PAPER_POINTS.items():
            page.goto(f"{pages['sheet']}?paper={paper}")
            assert _pdf_page_size(page.pdf(prefer_css_page_size=True)) == size, paper
        page.emulate_media(media="screen")

        # The stage form of a draft, to check it too.
        knockout = Stage.objects.get(name="Knockout")
        pages["stage form"] = f"{base}/organize/stages/{knockout.pk}/edit/"
        pages["new stage"] = f"{base}/organize/events/{groups.event_id}/stages/add/"
        pages["withdraw"] = f"{base}/organize/events/{groups.event_id}/withdraw/"
        pages["close"] = f"{base}/organize/events/{groups.event_id}/close/"
        for width_name, (width, height) in WIDTHS.items():
            page.set_viewport_size({"width": width, "height": height})
            for name, url in pages.items():
                page.goto(url)
                page.wait_for_load_state("networkidle")
                problems.extend(axe_violations(page, f"{name} ({width_name})"))
            page.goto(pages["sheet"])
            page.screenshot(path=str(SHOTS / f"round-sheet-{width_name}.png"), full_page=True)
        page.goto(pages["event"])
        page.set_viewport_size({"width": 1280, "height": 900})
        page.screenshot(path=str(SHOTS / "organize-event-desktop.png"), full_page=True)
        page.wait_for_timeout(200)  # violation events are dispatched after the fact
        page.context.close()
    assert problems == [], "\n".join(problems)
    assert violations == [], "\n".join(violations)
    assert Path(SHOTS / "round-sheet-print.png").exists()
