"""At phone width (390 px) no page is wider than the screen, whatever the names: a player
with an 80-character name of wide letters (the limit) on a roster and seated in a stage, on
the public pages and the organizer's; wide tables scroll in their wrapper instead."""

from typing import Any

import pytest
from django.contrib.auth.models import User

from games.models import Match
from league.models import Event, Player, StageMatch
from tests.playing import play, play_stage, start_stage
from tests.web.browser import IN_A_BROWSER, sign_in
from webhooks import services as webhook_services

from .conftest import make_players

PHONE = {"width": 390, "height": 844}
# Each table cell holding only a number (or a record, 3-0-1 in en dashes) broken over lines.
BROKEN_NUMBERS = """
[...document.querySelectorAll("td, th")].filter((cell) => {
  const text = cell.textContent.trim();
  if (!/^[0-9][0-9,.\u2013+-]*$/.test(text)) return false;
  const range = document.createRange();
  range.selectNodeContents(cell);
  const lines = new Set([...range.getClientRects()].map((rect) => Math.round(rect.top)));
  return lines.size > 1;
}).map((cell) => cell.textContent.trim())
"""
LONGEST = "W" * 80  # Player.display_name's limit, in its widest letter

pytestmark = [*IN_A_BROWSER, pytest.mark.django_db(transaction=True)]


def _pages(event: Event) -> list[str]:
    """The pages showing the long name (and two with wide tables), public then organizer's."""
    league = event.league
    wide = Player.objects.get(display_name=LONGEST)
    seat = StageMatch.objects.filter(match__seats__player=wide).select_related("stage").first()
    assert seat is not None
    match, stage = seat.match_id, seat.stage
    webhook_services.endpoint_create(
        league=league, url="https://example.com/a/rather/long/hook/path", events=["match.finished"]
    )
    return [
        f"/events/{event.pk}/",
        f"/leagues/{league.slug}/",
        f"/matches/{match}/",
        f"/players/{wide.pk}/",
        "/pads/yardkle/",
        "/pads/yardzee/",
        f"/organize/events/{event.pk}/",
        f"/organize/events/{event.pk}/stages/add/",
        f"/organize/events/{event.pk}/withdraw/",
        f"/organize/leagues/{league.slug}/players/",
        f"/organize/leagues/{league.slug}/players/{wide.pk}/",
        f"/organize/leagues/{league.slug}/players/merge/",
        f"/organize/leagues/{league.slug}/webhooks/",
        f"/organize/events/{event.pk}/sign-up/",
        f"/organize/stages/{stage.pk}/sheet/",
        f"/organize/stages/{stage.pk}/rounds/1/sheet/",
        f"/organize/stages/{stage.pk}/rounds/1/schedule/",
        f"/organize/matches/{match}/sheet/",
        f"/matches/{match}/pad/",
        *(f"/organize/matches/{match}/{control}/" for control in ("undo", "correct", "void")),
        f"/organize/matches/{match}/walkover/",
    ]


@pytest.fixture
def long_name_seated(organizer: User, yardzee_event: Event) -> Event:
    """A knockout at the event seating the 80-W player, whose first match has three turns
    (something to undo or correct, still open), and a round robin with a match played."""
    wide = Player.objects.create(display_name=LONGEST, handle="wide")
    stage = start_stage(yardzee_event, "single_elimination", [wide, *make_players(3)], table_size=2)
    first = Match.objects.filter(stage_match__stage=stage).order_by("pk").first()
    assert first is not None
    play(first, seed=1, turns=3)
    groups = start_stage(
        yardzee_event,
        "round_robin",
        [wide, *make_players(2, prefix="Other")],
        table_size=2,
        name="Groups",
    )
    play_stage(groups, seed=2, limit=1)  # a standings table with the name in it
    return yardzee_event


def test_no_page_is_wider_than_a_phone_with_an_80_character_name(
    browser: Any, live_server: Any, organizer: User, long_name_seated: Event
) -> None:
    pages = _pages(long_name_seated)
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    page.set_default_timeout(15_000)
    sign_in(page, live_server.url, organizer)
    too_wide = []
    for path in pages:
        response = page.goto(f"{live_server.url}{path}")
        assert response is not None, path
        assert response.status == 200, path
        width = page.evaluate("document.documentElement.scrollWidth")
        if width > PHONE["width"]:
            too_wide.append(f"{path}: {width} px")
        broken = page.evaluate(BROKEN_NUMBERS)
        if broken:
            too_wide.append(f"{path}: numbers broken over lines: {broken}")
    context.close()
    assert too_wide == [], "\n".join(too_wide)


# Each seat of the bracket whose name runs out of its box or into its score.
NAMES_OUT_OF_THEIR_BOX = """
[...document.querySelectorAll("svg.bracket .seat")].filter((seat) => {
  const box = seat.querySelector("rect").getBBox();
  const name = seat.querySelector("text.name").getBBox();
  const score = seat.querySelector("text.score, text.note");
  const end = score ? score.getBBox().x : box.x + box.width;
  return name.x + name.width > end;
}).map((seat) => seat.querySelector("text.name").textContent)
"""


def test_a_long_name_of_wide_letters_stays_inside_its_bracket_box(
    browser: Any, live_server: Any, long_name_seated: Event
) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.goto(f"{live_server.url}/events/{long_name_seated.pk}/")
    names = page.locator("svg.bracket text.name").all_text_contents()
    assert any(name.startswith("WWW") and name.endswith("\u2026") for name in names)
    assert page.evaluate(NAMES_OUT_OF_THEIR_BOX) == []
    context.close()
