"""Keeping score on a 390 px phone (issue 17, "Scorekeeping on a phone, fixed where it hurt"),
in Debian's Chromium through Playwright against a live server: a wrong fifth die changed
alone, a box saved only once confirmed, the scorekeeper's own "Undo my last turn", Yardzee's
running totals, an organizer's undo underneath that the page notices and explains, the last
saved turn said after a reload; axe-core finds nothing at 390 and 1280 px, and no organizer
control shows to anyone but an organizer. Screenshots go to artifacts/screenshots/."""

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

import scoring
from games import services as game_services
from games.models import TurnUndo
from league.models import Event
from scoring.yardzee import YardzeeGame
from tests.web.browser import IN_A_BROWSER, SHOTS, axe_violations

from .conftest import make_players

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}

pytestmark = [*IN_A_BROWSER, pytest.mark.django_db(transaction=True)]


def _expect() -> Any:
    from playwright.sync_api import expect

    return expect


def _shot(page: Any, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def _enter(page: Any, values: list[int]) -> None:
    for value in values:
        page.click(f'.face[data-face="{value}"]')


def _tray(page: Any) -> list[str]:
    return list(page.locator("#tray .slot").all_inner_texts())


def _save_box(page: Any, box: str, question: str) -> None:
    """Tap a box, read the confirmation, save."""
    expect = _expect()
    page.click(f'button.box[data-box="{box}"]')
    expect(page.locator("#confirm-turn")).to_be_visible()
    expect(page.locator("#confirm-text")).to_have_text(question)
    expect(page.locator("#confirm-save")).to_be_focused()
    page.click("#confirm-save")


def _wait_turn(page: Any, number: int) -> None:
    _expect()(page.locator("#scorer")).to_have_attribute("data-turn-number", str(number))


def _totals(page: Any) -> dict[int, tuple[int, ...]]:
    rows = {}
    for seat in (0, 1):
        row = page.locator(f'#totals tr[data-seat="{seat}"]')
        rows[seat] = tuple(
            int(row.locator(f'[data-total="{name}"]').inner_text())
            for name in ("upper", "lower", "grand")
        )
    return rows


def _session(user: User, url: str) -> dict[str, str]:
    client = Client()
    client.force_login(user)
    return {"name": "sessionid", "value": client.cookies["sessionid"].value, "url": url}


def _check_changes(page: Any) -> None:
    """The page checks the match when it is shown again; do that now instead of waiting for
    its next check (every 10 s)."""
    page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")


def test_keeping_score_on_a_phone(
    browser: Any, live_server: Any, organizer: User, zee_event: Event
) -> None:
    expect = _expect()
    ana, bo = make_players(2)
    match = game_services.match_create(
        game="yardzee", player_ids=[ana.pk, bo.pk], event_id=zee_event.pk
    )
    local = scoring.new_game("yardzee", 2, match.rules)
    assert isinstance(local, YardzeeGame)
    context = browser.new_context(viewport=PHONE)  # the scorekeeper: the private link only
    page = context.new_page()
    page.set_default_timeout(10_000)
    page.goto(f"{live_server.url}/matches/{match.pk}/score/?key={match.score_key}")
    expect(page.locator("#last-saved")).to_have_text("No turn saved yet.")
    assert page.locator("#match-control").count() == 0  # no organizer control here

    # Turn 1: a wrong fifth die, changed alone; the other four and the roll stay.
    _enter(page, [2, 2, 3, 3, 4])
    expect(page.locator('button.box[data-box="full_house"] [data-points]')).to_have_text("0")
    page.click("#change-die")
    expect(page.locator("#change-die")).to_have_attribute("aria-pressed", "true")
    page.click('#tray .slot[data-index="4"]')
    assert _tray(page) == ["2", "2", "3", "3", "·"]
    expect(page.locator("#score-message")).to_have_text("Die 5 cleared: enter the right one.")
    _enter(page, [3])
    assert _tray(page) == ["2", "2", "3", "3", "3"]
    expect(page.locator("#score-message")).to_have_text("")
    expect(page.locator("#change-die")).to_have_attribute("aria-pressed", "false")
    expect(page.locator('button.box[data-box="full_house"] [data-points]')).to_have_text("25")
    # The box asks first; "Back" saves nothing.
    page.click('button.box[data-box="full_house"]')
    expect(page.locator("#confirm-text")).to_have_text("Save turn 1: Player 1, Full house, 25?")
    expect(page.locator('button.box[data-box="chance"]')).to_be_disabled()
    _shot(page, "score-confirm-phone")
    page.click("#confirm-back")
    expect(page.locator("#confirm-turn")).to_be_hidden()
    assert match.turns.count() == 0
    _save_box(page, "full_house", "Save turn 1: Player 1, Full house, 25?")
    _wait_turn(page, 2)
    local.play({"rolls": [{"dice": [2, 2, 3, 3, 3]}], "category": "full_house"})
    expect(page.locator("#last-saved")).to_have_text("Last saved: Turn 1: Player 1, Full house, 25")

    # Turn 2: Bo's, saved, then taken back by the scorekeeper who sent it.
    expect(page.locator("#take-back-offer")).to_be_visible()  # turn 1 could be taken back
    _enter(page, [6, 6, 5, 4, 1])
    expect(page.locator("#take-back-offer")).to_be_hidden()  # Bo has started
    _save_box(page, "chance", "Save turn 2: Player 2, Chance, 22?")
    _wait_turn(page, 3)
    expect(page.locator("#take-back")).to_be_visible()
    expect(page.locator("#last-saved")).to_have_text("Last saved: Turn 2: Player 2, Chance, 22")
    expect(page.locator("#take-back-note")).to_contain_text("before the next player enters")
    _shot(page, "score-take-back-phone")
    page.click("#take-back")
    _wait_turn(page, 2)
    expect(page.locator("#score-message")).to_contain_text(
        "You took back Turn 2: Player 2, Chance, 22."
    )
    expect(page.locator("#player-name")).to_have_text("Player 2")
    assert TurnUndo.objects.get().taken_back is True

    # Turn 2 again, then turns 3 and 4, and the running totals as the rulebook adds them up.
    turns = [
        ([6, 6, 6, 5, 1], "sixes", "Save turn 2: Player 2, Sixes, 18?"),
        ([5, 5, 5, 5, 2], "fives", "Save turn 3: Player 1, Fives, 20?"),
        ([1, 2, 3, 4, 5], "large_straight", "Save turn 4: Player 2, Large straight, 40?"),
    ]
    for number, (dice, box, question) in enumerate(turns, start=2):
        _enter(page, dice)
        _save_box(page, box, question)
        _wait_turn(page, number + 1)
        local.play({"rolls": [{"dice": dice}], "category": box})
    expected = {
        seat: (card.upper_total, card.lower_total + card.yardzee_bonus, card.total)
        for seat, card in ((s, local.scorecard(s)) for s in (0, 1))
    }
    assert _totals(page) == expected == {0: (20, 25, 45), 1: (18, 40, 58)}
    expect(page.locator('#totals tr[data-seat="0"] [data-total="bonus"]')).to_have_text(
        "43 more for +35"
    )
    expect(page.locator('#totals tr[data-seat="0"]')).to_have_class("current")
    _shot(page, "score-totals-phone")

    # An organizer undoes turn 4 underneath: the page refreshes and says what changed.
    _enter(page, [4, 4])
    game_services.turn_undo(match_id=match.pk, undone_by=organizer)
    _check_changes(page)
    expect(page.locator("#score-message")).to_contain_text(
        "Turn 4 (Player 2, Large straight, 40) was undone."
    )
    expect(page.locator("#score-message")).to_contain_text("the dice you had entered were cleared")
    _wait_turn(page, 4)
    expect(page.locator("#player-name")).to_have_text("Player 2")
    expect(page.locator("#take-back-offer")).to_be_hidden()  # not this page's turn to take back

    # A turn sent to a match that moved on meanwhile: refused, and the page explains.
    page.route(f"**/api/v1/matches/{match.pk}/", lambda route: route.abort())  # no checks
    _enter(page, [3, 3, 3, 2, 2])
    game_services.turn_submit(
        match_id=match.pk,
        turn={"rolls": [{"dice": [1, 2, 3, 4, 6]}], "category": "small_straight"},
    )
    _save_box(page, "three_of_a_kind", "Save turn 4: Player 2, 3 of a kind, 13?")
    expect(page.locator("#score-message")).to_contain_text(
        "Turn 4 was entered on another device: Turn 4: Player 2, Small straight, 30."
    )
    _wait_turn(page, 5)
    page.unroute(f"**/api/v1/matches/{match.pk}/")

    # After a reload the page says what was saved last.
    page.reload()
    expect(page.locator("#last-saved")).to_have_text(
        "Last saved: Turn 4: Player 2, Small straight, 30"
    )
    problems = axe_violations(page, "score (390)")
    page.set_viewport_size(DESKTOP)
    problems += axe_violations(page, "score (1280)")
    _shot(page, "score-keeper-desktop")
    assert problems == [], "\n".join(problems)

    # Nobody but an organizer sees a control on the public match page either.
    page.goto(f"{live_server.url}/matches/{match.pk}/")
    assert page.locator("#match-control").count() == 0
    assert page.get_by_text("Match control").count() == 0
    context.close()


def test_the_organizers_controls_on_the_scoring_page(
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
    problems: list[str] = []
    for width, viewport in (("390", PHONE), ("1280", DESKTOP)):
        context = browser.new_context(viewport=viewport)
        context.add_cookies([_session(organizer, live_server.url)])
        page = context.new_page()
        page.set_default_timeout(10_000)
        page.goto(f"{live_server.url}/matches/{match.pk}/score/")
        expect(page.locator("#match-control")).to_be_visible()
        expect(page.locator("#control-undo")).to_have_text(
            "Undo the last turn: Turn 2: Player 2, Sixes, 24"
        )
        # The confirmation comes into the page (htmx) and says what the undo does.
        page.click("#control-undo")
        expect(page.locator("#match-control-panel")).to_contain_text("Player 2 plays turn 2 again")
        expect(page.locator("#match-control-panel")).to_contain_text("What else changes")
        problems += axe_violations(page, f"score, organizer ({width})")
        _shot(page, f"score-organizer-undo-{width}")
        page.goto(f"{live_server.url}/matches/{match.pk}/")
        expect(page.locator("#match-control")).to_be_visible()
        problems += axe_violations(page, f"match, organizer ({width})")
        context.close()
    assert problems == [], "\n".join(problems)

    # Confirmed on the phone: through the service, back to the scoring page, which says so.
    context = browser.new_context(viewport=PHONE)
    context.add_cookies([_session(organizer, live_server.url)])
    page = context.new_page()
    page.set_default_timeout(10_000)
    page.goto(f"{live_server.url}/matches/{match.pk}/score/")
    page.click("#control-undo")
    page.click("#confirm-undo")
    expect(page.locator("#match-control .messages")).to_contain_text(
        "Turn 2: Player 2, Sixes, 24 was undone."
    )
    expect(page.locator("#scorer")).to_have_attribute("data-turn-number", "2")
    assert match.turns.count() == 1
    assert TurnUndo.objects.get().undone_by == organizer
    context.close()
