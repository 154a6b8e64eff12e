"""Issue 38, items 6 and 7: standings as a phone shows them. A withdrawn player is marked and
ranked after those still playing; a stage shows only the tiebreak columns its format uses (no
Buchholz in a round robin); at 360 px the page does not scroll sideways, names wrap at their
spaces only, and the columns that matter come first with the rest behind "All columns"; the
leaderboard says what an accuracy means."""

from typing import Any

import pytest
from django.test import Client

from games.models import Match
from league.models import Event, Player, Stage
from league.services import stages
from tests.playing import play, start_stage
from tests.web.browser import SHOTS, in_a_browser
from tests.web.conftest import make_players, refresh_tables

PHONE = {"width": 360, "height": 780}
NAMES = ["Maëlle Dubois", "Bartholomew Fitzgerald-Smythe", "Ana Lima", "Ben Okafor"]


def _players(names: list[str]) -> list[Player]:
    return [
        Player.objects.create(display_name=name, handle=f"p-{number}")
        for number, name in enumerate(names)
    ]


def _groups(event: Event, *, rounds_played: int) -> Stage:
    """A round robin of the four NAMES, its first `rounds_played` rounds played."""
    stage = start_stage(event, "round_robin", _players(NAMES))
    for number, match in enumerate(
        Match.objects.filter(stage_match__stage=stage, stage_match__round__lte=rounds_played)
    ):
        play(match, seed=number)
    return stage


def _rows(html: str, table_id: str) -> str:
    start = html.index(f'id="{table_id}"')
    return html[start : html.index("</table>", start)]


@pytest.mark.django_db(transaction=True)
def test_a_withdrawn_player_is_marked_and_ranked_last_on_the_stage_page(zee_event: Event):
    stage = _groups(zee_event, rounds_played=1)
    refresh_tables()
    leader = Client().get(f"/events/{zee_event.pk}/").content.decode()
    table = _rows(leader, f"standings-stage-{stage.pk}")
    first = table.index('data-player="')
    best = int(table[first + 13 : table.index('"', first + 13)])
    stages.stage_withdraw(stage_id=stage.pk, player_id=best)
    refresh_tables()
    html = Client().get(f"/events/{zee_event.pk}/").content.decode()
    table = _rows(html, f"standings-stage-{stage.pk}")
    rows = table.split("<tr data-player=")[1:]
    assert rows[-1].startswith(f'"{best}" class="withdrawn"')
    assert '<span class="tag">withdrawn</span>' in rows[-1]
    assert all("withdrawn" not in row for row in rows[:-1])
    assert "ranked after everyone still playing" in html


@pytest.mark.django_db(transaction=True)
def test_a_round_robin_shows_no_swiss_tiebreak_and_a_swiss_stage_does(zee_event: Event):
    groups = _groups(zee_event, rounds_played=1)
    swiss = start_stage(zee_event, "swiss", make_players(4, "Swiss"), rounds=2, name="Swiss")
    for number, match in enumerate(Match.objects.filter(stage_match__stage=swiss)):
        play(match, seed=number)
    refresh_tables()
    assert "buchholz" in groups.tiebreak  # the league's order has it
    html = Client().get(f"/events/{zee_event.pk}/").content.decode()
    assert 'data-metric="buchholz"' not in _rows(html, f"standings-stage-{groups.pk}")
    assert 'data-metric="buchholz"' in _rows(html, f"standings-stage-{swiss.pk}")


@in_a_browser
@pytest.mark.django_db(transaction=True)
def test_standings_at_360_px_do_not_scroll_sideways_and_names_wrap_at_spaces_only(
    browser: Any, live_server: Any, zee_event: Event
):
    stage = _groups(zee_event, rounds_played=2)
    refresh_tables()
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    page.goto(f"{live_server.url}/events/{zee_event.pk}/")
    table = page.locator(f"#standings-stage-{stage.pk}")
    table.scroll_into_view_if_needed()
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "standings-360.png"), full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    # The table itself fits its box: nothing hidden in its scroll box either.
    assert table.evaluate("t => t.parentElement.scrollWidth <= t.parentElement.clientWidth")
    # Every name is at least as wide as its widest word: no word is broken.
    broken = page.evaluate(
        """(id) => [...document.querySelectorAll(`#${id} tbody th a`)].filter(a => {
            const context = document.createElement("canvas").getContext("2d");
            context.font = getComputedStyle(a).font;
            const widths = a.textContent.split(" ").map(w => context.measureText(w).width);
            const widest = Math.max(...widths);
            return a.getBoundingClientRect().width + 0.5 < widest;
        }).map(a => a.textContent)""",
        f"standings-stage-{stage.pk}",
    )
    assert broken == []
    # The first metric and W-D-L show; the rest behind "All columns".
    visible = table.locator("thead th:visible").all_inner_texts()
    assert visible == ["Rank", "Player", "Points", "W\u2013D\u2013L"]
    page.get_by_text("All columns").first.click()
    assert "Head-to-head" in table.locator("thead th:visible").all_inner_texts()
    # A desktop shows every column without the box.
    wide = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    wide.goto(f"{live_server.url}/events/{zee_event.pk}/")
    wide_table = wide.locator(f"#standings-stage-{stage.pk}")
    assert "Head-to-head" in wide_table.locator("thead th:visible").all_inner_texts()
    assert not wide.get_by_text("All columns").first.is_visible()
    context.close()
