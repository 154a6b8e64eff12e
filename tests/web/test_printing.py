"""Issue 21, item 7 (Printing): blank Yardzee and Yardkle pads to print for tables without
phones, a match's pad with its players, table and time, and a finished scorecard printed as
the paper pad. In Chromium: print media hides all but the pad, each pad fits one A4 or Letter
page, and the pages pass axe-core."""

import re
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from games.models import Match
from league.models import Event, Stage
from league.services import schedule
from tests.organize.test_events import roster, signed_in, started
from tests.playing import play
from tests.web.browser import SHOTS, axe_violations, in_a_browser, launch
from tests.web.test_organize_event import PAPER_POINTS, _pdf_page_size

CELL = re.compile(r"<td[^>]*>(.*?)</td>", re.S)


def _cells(html: str) -> list[str]:
    table = html[html.index("pad-paper") : html.index("</table>")]
    return [cell.strip() for cell in CELL.findall(table)]


@pytest.fixture
def pairs(yardzee_event: Event) -> Stage:
    """A round robin of four, its first round on two yards tomorrow at 19:00 UTC."""
    stage = started(yardzee_event, roster(yardzee_event.league, 4))
    schedule.round_schedule(
        stage_id=stage.pk,
        round_number=1,
        first_start=(timezone.now() + timedelta(days=1)).replace(hour=19, minute=0),
        label="Yard {n}",
    )
    return stage


def _first(stage: Stage) -> Match:
    match = (
        Match.objects.filter(stage_match__stage=stage, stage_match__round=1).order_by("pk").first()
    )
    assert match is not None
    return match


@pytest.mark.django_db
@pytest.mark.parametrize("game", ["yardzee", "yardkle"])
def test_printing_a_blank_pad_has_empty_boxes_and_write_in_names(client: Client, game: str):
    response = client.get(f"/pads/{game}/?players=3")
    assert response.status_code == 200
    html = response.content.decode()
    assert 'class="print-pad paper-a4"' in html
    assert html.count("Player 3<span") == 1
    assert "Player 4<span" not in html
    assert all(cell == "" for cell in _cells(html))
    if game == "yardzee":
        assert html.count('data-row="') == 20  # 13 boxes, 7 sums, bonuses and totals
    else:
        assert html.count('data-row="round-') == 20
        assert "three pairs" in html
        assert "1,500" in html
    letter = client.get(f"/pads/{game}/?paper=letter&players=99").content.decode()
    assert 'class="print-pad paper-letter"' in letter
    assert "Player 4<span" in letter
    assert "Player 5<span" not in letter


@pytest.mark.django_db
def test_printing_an_unknown_game_or_match_is_404(client: Client):
    assert client.get("/pads/chess/").status_code == 404
    assert client.get("/matches/999999/pad/").status_code == 404


@pytest.mark.django_db
def test_printing_a_scheduled_matchs_pad_names_its_players_table_and_time(
    client: Client, pairs: Stage
):
    match = _first(pairs)
    html = client.get(f"/matches/{match.pk}/pad/").content.decode()
    names = [seat.player.display_name for seat in match.seats.order_by("order")]
    head = html[html.index("<thead>") : html.index("</thead>")]
    assert [n for n in names if n in head] == names
    assert '<strong class="table-label">Yard 1</strong>' in html
    assert 'class="planned"' in html
    assert all(cell == "" for cell in _cells(html))
    # The match page and the round sheet lead to it.
    assert (
        f'href="/matches/{match.pk}/pad/"' in client.get(f"/matches/{match.pk}/").content.decode()
    )
    sheet = signed_in(pairs.event.league.organizers.get()).get(
        f"/organize/stages/{pairs.pk}/rounds/1/sheet/"
    )
    assert f'href="/matches/{match.pk}/pad/?paper=a4"' in sheet.content.decode()


@pytest.mark.django_db
def test_printing_a_finished_scorecard_fills_the_pad_as_the_match_page_does(
    client: Client, pairs: Stage
):
    match = _first(pairs)
    play(match, seed=7)
    match.refresh_from_db()
    html = client.get(f"/matches/{match.pk}/pad/").content.decode()
    totals = [f"{seat.total:,}" for seat in match.seats.order_by("order")]
    grand = html[html.index('data-row="grand_total"') :]
    assert [cell.strip() for cell in CELL.findall(grand)][:2] == totals
    assert "finished" in html
    # Every box of a finished game is filled in.
    row_cells = re.findall(r'<tr class="box" data-row="\w+">.*?</tr>', html, re.S)
    assert len(row_cells) == 13
    assert all(cell != "" for row in row_cells for cell in CELL.findall(row))


@pytest.mark.django_db
def test_printing_a_finished_yardkle_card_lists_its_rounds(client: Client, yardkle_event: Event):
    stage = started(yardkle_event, roster(yardkle_event.league, 2))
    match = _first(stage)
    play(match, seed=3)
    match.refresh_from_db()
    html = client.get(f"/matches/{match.pk}/pad/").content.decode()
    rounds = -(-match.turns_played // 2)
    assert html.count('data-row="round-') == rounds
    grand = html[html.index('data-row="grand_total"') :]
    totals = [f"{seat.total:,}" for seat in match.seats.order_by("order")]
    assert [cell.strip() for cell in CELL.findall(grand)][:2] == totals


# --- In Chromium ---------------------------------------------------------------------------


def _pdf_pages(pdf: bytes) -> int:
    return len(re.findall(rb"/Type\s*/Page[^s]", pdf))


@in_a_browser
@pytest.mark.django_db(transaction=True)
def test_printing_pads_in_a_browser_fit_one_page_of_a4_and_letter_and_pass_axe(
    live_server: Any, yardzee_event: Event
) -> None:
    from playwright.sync_api import expect, sync_playwright

    stage = started(yardzee_event, roster(yardzee_event.league, 4))
    finished = _first(stage)
    play(finished, seed=11)
    pages = {
        "yardzee-blank": "/pads/yardzee/",
        "yardkle-blank": "/pads/yardkle/?players=6",
        "yardzee-finished": f"/matches/{finished.pk}/pad/",
    }
    problems: list[str] = []
    SHOTS.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as playwright:
        browser = launch(playwright)
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        for name, path in pages.items():
            page.emulate_media(media="screen")
            page.goto(f"{live_server.url}{path}")
            expect(page.locator("#print-sheet")).to_be_visible()  # sheet.js shows the button
            problems.extend(axe_violations(page, name))
            page.emulate_media(media="print")
            expect(page.locator(".site-header")).to_be_hidden()
            expect(page.locator(".pad-tools")).to_be_hidden()
            expect(page.locator("table.pad-paper")).to_be_visible()
            page.screenshot(path=str(SHOTS / f"pad-{name}-print.png"), full_page=True)
            for paper, size in PAPER_POINTS.items():
                joiner = "&" if "?" in path else "?"
                page.goto(f"{live_server.url}{path}{joiner}paper={paper}")
                pdf = page.pdf(prefer_css_page_size=True)
                assert _pdf_page_size(pdf) == size, (name, paper)
                assert _pdf_pages(pdf) == 1, (name, paper)
        browser.close()
    assert problems == [], "\n".join(problems)
    assert Path(SHOTS / "pad-yardzee-finished-print.png").exists()
