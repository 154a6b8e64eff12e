"""A turn corrected by tapping on a 390 px phone (issue 38, item 8), in Debian's Chromium
through Playwright against a live server: the correction form of match control gets the
scoring page's dice tray (static/js/correct.js over static/js/score/tray.js) and buttons for
the box or how a Yardkle turn ended; the tapped dice are written into the form's own fields,
"Check what it does" shows the rehearsal in the form swapped in by htmx (set up again), and the
confirmed correction is stored. No dice field is typed into; no Content-Security-Policy
violation; axe-core finds nothing."""

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from games import services as game_services
from games.models import Turn
from league.models import Event
from tests.web.browser import IN_A_BROWSER, SHOTS, axe_violations, watch_csp

from .conftest import make_players

PHONE = {"width": 390, "height": 844}

pytestmark = [*IN_A_BROWSER, pytest.mark.django_db(transaction=True)]


def _expect() -> Any:
    from playwright.sync_api import expect

    return expect


def _organizer_page(browser: Any, live_server: Any, organizer: User, csp: list[str]) -> Any:
    client = Client()
    client.force_login(organizer)
    context = watch_csp(browser.new_context(viewport=PHONE), csp.append)
    context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}]
    )
    page = context.new_page()
    page.set_default_timeout(15_000)
    return page


def _row(page: Any, number: int) -> Any:
    return page.locator(f'form.correction fieldset[data-row="{number}"]')


def _enter(page: Any, number: int, dice: list[int]) -> None:
    for die in dice:
        _row(page, number).locator(f'.face[data-face="{die}"]').click()


def _tray(page: Any, number: int) -> list[str]:
    return list(_row(page, number).locator(".tray .slot").all_inner_texts())


def _value(page: Any, name: str) -> str:
    return str(page.locator(f'form.correction [name="{name}"]').input_value())


def _check_and_confirm(page: Any, turn: int, after: Callable[[], bool] = lambda: True) -> None:
    """ "Check what it does", the rehearsal read in the form htmx swaps in (`after`: what is
    true of that form), then confirmed."""
    expect = _expect()
    page.evaluate("window.notReloaded = true")
    page.click('form.correction button[name="check"]')
    expect(page.locator("form.correction")).to_contain_text("What the correction does")
    assert page.evaluate("window.notReloaded === true")  # swapped in by htmx, not a new page
    # The form htmx swapped in is set up again: trays, not text fields.
    expect(page.locator("form.correction")).to_have_attribute("data-tapping", "on")
    expect(page.locator('form.correction [name="dice_1"]')).to_be_hidden()
    expect(_row(page, 1).locator(".tray .slot").first).to_be_visible()
    assert after()
    SHOTS.mkdir(parents=True, exist_ok=True)
    game = page.locator("form.correction").get_attribute("data-game")
    page.screenshot(path=str(SHOTS / f"correct-by-tapping-{game}.png"), full_page=True)
    page.click("#confirm-correct")
    expect(page.locator(".messages")).to_contain_text(f"Turn {turn} was corrected.")


def test_a_yardzee_turn_is_corrected_by_tapping_on_a_phone(
    browser: Any, live_server: Any, organizer: User, zee_event: Event
) -> None:
    expect = _expect()
    match = game_services.match_create(
        game="yardzee", player_ids=[p.pk for p in make_players(2)], event_id=zee_event.pk
    )
    for dice, box in (([2, 2, 3, 3, 3], "full_house"), ([6, 6, 6, 6, 1], "sixes")):
        game_services.turn_submit(
            match_id=match.pk, turn={"rolls": [{"dice": dice}], "category": box}
        )
    csp: list[str] = []
    page = _organizer_page(browser, live_server, organizer, csp)
    page.goto(f"{live_server.url}/organize/matches/{match.pk}/correct/?next=/matches/{match.pk}/")
    # The last turn by default, and a link to the one before.
    expect(page.locator("#pick-turn")).to_have_value("2")
    page.click("#previous-turn")
    expect(page.locator("#pick-turn")).to_have_value("1")
    assert _tray(page, 1) == ["2", "2", "3", "3", "3"]  # the turn as stored
    expect(page.locator('form.correction [name="dice_1"]')).to_be_hidden()
    problems = axe_violations(page, "correct, Yardzee (390)")

    # Roll 1: cleared, entered again with a wrong fifth die, changed alone.
    _row(page, 1).locator(".clear-dice").click()
    _enter(page, 1, [1, 2, 3, 4])
    # Checked with a die missing: the form comes back (htmx) with the error under the tray,
    # and the dice tapped so far in it.
    page.click('form.correction button[name="check"]')
    expect(_row(page, 1).locator(".tray-errors")).to_contain_text(
        "Roll 1's dice showing must hold 5 dice, not 4."
    )
    assert _tray(page, 1) == ["1", "2", "3", "4", "·"]
    _enter(page, 1, [4])
    _row(page, 1).locator(".change-die").click()
    _row(page, 1).locator('.slot[data-index="4"]').click()
    _enter(page, 1, [6])
    assert _tray(page, 1) == ["1", "2", "3", "4", "6"]
    # Roll 2: the dice showing, then the four kept from roll 1 tapped.
    _enter(page, 2, [1, 2, 3, 4, 5])
    for index in range(4):
        _row(page, 2).locator(f'.slot[data-index="{index}"]').click()
    expect(_row(page, 2).locator(".slot.marked")).to_have_count(4)
    page.click('form.correction .choice[data-choice="large_straight"]')
    expect(page.locator('.choice[data-choice="large_straight"]')).to_have_attribute(
        "aria-pressed", "true"
    )
    # The form's own fields hold what typing would have.
    assert [_value(page, n) for n in ("dice_1", "keep_2", "dice_2", "keep_3", "dice_3")] == [
        "1 2 3 4 6",
        "1 2 3 4",
        "1 2 3 4 5",
        "",
        "",
    ]
    assert _value(page, "category") == "large_straight"
    problems += axe_violations(page, "correct, Yardzee tapped (390)")
    _check_and_confirm(page, 1)
    expect(page).to_have_url(f"{live_server.url}/matches/{match.pk}/")
    page.context.close()

    stored = Turn.objects.get(match=match, sequence=1).payload
    assert stored["rolls"] == [
        {"dice": [1, 2, 3, 4, 6]},
        {"keep": [1, 2, 3, 4], "dice": [1, 2, 3, 4, 5]},
    ]
    assert stored["category"] == "large_straight"
    assert problems == [], "\n".join(problems)
    assert csp == []


def test_a_yardkle_turn_is_corrected_by_tapping_on_a_phone(
    browser: Any, live_server: Any, organizer: User, yardkle_event: Event
) -> None:
    expect = _expect()
    match = game_services.match_create(
        game="yardkle", player_ids=[p.pk for p in make_players(2)], event_id=yardkle_event.pk
    )
    nothing = {"throws": [{"dice": [2, 3, 4, 6, 6, 2], "set_aside": []}], "end": "yardkle"}
    for _ in range(2):
        game_services.turn_submit(match_id=match.pk, turn=nothing)
    csp: list[str] = []
    page = _organizer_page(browser, live_server, organizer, csp)
    page.goto(f"{live_server.url}/organize/matches/{match.pk}/correct/?turn=1")
    expect(page.locator("#next-turn")).to_be_visible()
    assert _tray(page, 1) == ["2", "3", "4", "6", "6", "2"]
    assert len(_tray(page, 2)) == 6  # no die set aside yet: six to throw

    # Throw 1: three ones set aside, which leaves three dice for throw 2.
    _row(page, 1).locator(".clear-dice").click()
    _enter(page, 1, [1, 1, 1, 2, 3, 4])
    for index in range(3):
        _row(page, 1).locator(f'.slot[data-index="{index}"]').click()
    assert _tray(page, 2) == ["·", "·", "·"]
    _enter(page, 2, [5, 2, 3])
    _row(page, 2).locator('.slot[data-index="0"]').click()
    assert len(_tray(page, 3)) == 2
    page.click('form.correction .choice[data-choice="bank"]')
    assert [_value(page, n) for n in ("dice_1", "set_aside_1", "dice_2", "set_aside_2")] == [
        "1 1 1 2 3 4",
        "1 1 1",
        "5 2 3",
        "5",
    ]
    assert _value(page, "dice_3") == ""
    assert _value(page, "end") == "bank"
    problems = axe_violations(page, "correct, Yardkle tapped (390)")
    _check_and_confirm(page, 1, after=lambda: _tray(page, 2) == ["5", "2", "3"])
    page.context.close()

    stored = Turn.objects.get(match=match, sequence=1).payload
    assert stored["throws"] == [
        {"dice": [1, 1, 1, 2, 3, 4], "set_aside": [1, 1, 1]},
        {"dice": [5, 2, 3], "set_aside": [5]},
    ]
    assert stored["end"] == "bank"
    assert problems == [], "\n".join(problems)
    assert csp == []
