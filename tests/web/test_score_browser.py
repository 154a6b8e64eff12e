"""The scorekeeping page in a real browser (Playwright driving Debian's headless Chromium)
against a live server: whole games entered by tapping, as a scorekeeper at a table would.

The simulator decides each turn (dice, keeps, boxes, set-asides, bank or not); the test taps
them in and checks the page against a local copy of the game kept by the rulebook. Screenshots
at phone (360 px) and desktop (1280 px) width go to artifacts/screenshots/ (not committed)."""

import random
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

import scoring
from games import services as game_services
from games.models import Match
from league.models import Event
from scoring import simulate
from scoring.game import Game
from scoring.yardkle import YardkleGame
from scoring.yardzee import YardzeeGame
from tests.web.browser import IN_A_BROWSER, SHOTS

from .conftest import make_players

PHONE = {"width": 360, "height": 800}
DESKTOP = {"width": 1280, "height": 900}

pytestmark = [*IN_A_BROWSER, pytest.mark.django_db(transaction=True)]


def _session_cookie(user: User, url: str) -> dict[str, str]:
    client = Client()
    client.force_login(user)
    return {"name": "sessionid", "value": client.cookies["sessionid"].value, "url": url}


def _shot(page: Any, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def _expect() -> Any:
    from playwright.sync_api import expect

    return expect


def _without(dice: list[int], taken: list[int]) -> list[int]:
    rest = list(dice)
    for value in taken:
        rest.remove(value)
    return rest


def _mark(page: Any, shown: list[int], values: list[int]) -> None:
    """Tap the slots showing `values` (slots hold `shown`, in order)."""
    used: set[int] = set()
    for value in values:
        index = next(i for i, d in enumerate(shown) if d == value and i not in used)
        used.add(index)
        page.click(f'#tray .slot[data-index="{index}"]')


def _enter(page: Any, values: list[int]) -> None:
    for value in values:
        page.click(f'.face[data-face="{value}"]')


def _enter_yardzee_rolls(page: Any, rolls: list[dict[str, Any]]) -> list[int]:
    """Tap in every roll of a turn; returns the dice in the slots, in slot order. Dice kept
    for a roll stay kept on the page for the next one until tapped again."""
    shown: list[int] = []
    marked: list[bool] = []
    for index, roll in enumerate(rolls):
        if index == 0:
            _enter(page, roll["dice"])
            shown = list(roll["dice"])
            marked = [False] * len(shown)
            continue
        # The slots to keep: already kept ones first, then others showing the value.
        wanted: set[int] = set()
        for value in roll["keep"]:
            candidates = [i for i, d in enumerate(shown) if d == value and i not in wanted]
            candidates.sort(key=lambda i: not marked[i])
            wanted.add(candidates[0])
        for i in range(len(shown)):
            if (i in wanted) != marked[i]:
                page.click(f'#tray .slot[data-index="{i}"]')
        marked = [i in wanted for i in range(len(shown))]
        page.click("#next-roll")
        fresh = _without(roll["dice"], roll["keep"])
        _enter(page, fresh)
        values = iter(fresh)
        shown = [d if marked[i] else next(values) for i, d in enumerate(shown)]
    return shown


def _wait_turn(page: Any, number: int, *, over: bool = False) -> None:
    expect = _expect()
    if over:
        expect(page.locator("#scorer")).to_have_count(0)
    else:
        expect(page.locator("#scorer")).to_have_attribute("data-turn-number", str(number))


def _box(page: Any, name: str) -> Any:
    return page.locator(f'button.box[data-box="{name}"]')


def _save(page: Any, box: Any) -> None:
    """Tap a box, then confirm it (the page asks before saving a turn)."""
    box.click()
    page.click("#confirm-save")


def _lose_first_answer(keys: list[str]) -> Callable[[Any], None]:
    """A route handler: the first request reaches the server, but its answer never reaches
    the page (a dropped connection); later ones go through. Records each Idempotency-Key."""

    def handle(route: Any) -> None:
        keys.append(route.request.headers.get("idempotency-key", ""))
        if len(keys) == 1:
            route.fetch()  # the server gets it and stores the turn...
            route.abort("internetdisconnected")  # ...but the phone never hears back
        else:
            route.continue_()

    return handle


def _scoring_by_key(
    browser: Any, live_server: Any, game: str, event: Event, rules: dict[str, Any] | None = None
) -> tuple[Match, Any, Any]:
    """A new two-player match of `game` in `event` and its scoring page, opened on a phone with
    the match's key and no account (the key is the pass): the match, the browser context and
    the page."""
    players = make_players(2)
    match = game_services.match_create(
        game=game, player_ids=[p.pk for p in players], event_id=event.pk, rules=rules or {}
    )
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    page.set_default_timeout(10_000)
    page.goto(f"{live_server.url}/matches/{match.pk}/score/?key={match.score_key}")
    return match, context, page


def _zee(played: list[dict[str, Any]], rules: dict[str, Any]) -> YardzeeGame:
    game = _rebuild("yardzee", 2, rules, played)
    assert isinstance(game, YardzeeGame)
    return game


def _rebuild(game_name: str, players: int, rules: dict[str, Any], turns: list[Any]) -> Game:
    game = scoring.new_game(game_name, players, rules)
    for turn in turns:
        game.play(turn)
    return game


def test_a_whole_yardzee_game_by_tapping(
    browser: Any, live_server: Any, organizer: User, zee_event: Event
) -> None:
    expect = _expect()
    players = make_players(2)
    match = game_services.match_create(
        game="yardzee", player_ids=[p.pk for p in players], event_id=zee_event.pk
    )
    context = browser.new_context(viewport=PHONE)
    context.add_cookies([_session_cookie(organizer, live_server.url)])
    page = context.new_page()
    page.set_default_timeout(10_000)
    url = f"{live_server.url}/matches/{match.pk}/score/"
    page.goto(url)

    rng = random.Random(11)
    played: list[dict[str, Any]] = []
    game = _zee(played, match.rules)
    scripted: dict[int, dict[str, Any]] = {
        1: {"rolls": [{"dice": [6, 6, 6, 6, 6]}], "category": "yardzee", "points": 50},
        # Five threes with the Yardzee box filled and Threes open: the forced joker.
        3: {"rolls": [{"dice": [3, 3, 3, 3, 3]}], "category": "threes", "points": 15},
    }
    keys: list[str] = []
    undone = False
    number = 1
    while not game.is_over:
        assert game.current_player is not None
        expect(page.locator("#player-name")).to_have_attribute(
            "data-player-id", str(players[game.current_player].pk)
        )
        turn = scripted.get(number) or simulate.next_turn(game, rng)
        shown = _enter_yardzee_rolls(page, turn["rolls"])
        box = _box(page, turn["category"])
        expect(box).to_be_enabled()
        expect(box.locator("[data-points]")).to_have_text(str(turn["points"]))

        if number == 3:
            # Every open box as the rules see it: only the upper box of the face is allowed.
            for name, points in game.box_options(shown).items():
                if points is None:
                    expect(_box(page, name)).to_be_disabled()
                    expect(_box(page, name)).to_have_class("box forbidden")
                else:
                    expect(_box(page, name)).to_be_enabled()
            assert [n for n, p in game.box_options(shown).items() if p is not None] == ["threes"]
            expect(page.locator("#bonus-note")).to_contain_text("100")
            _shot(page, "score-yardzee-joker-phone")

        if number == 5:
            # Another device scores this very turn first: the page's turn is now stale.
            other = Client()
            other.force_login(organizer)
            answer = other.post(
                f"/api/v1/matches/{match.pk}/turns/",
                {"player": players[game.current_player].pk, "turn_number": number, **turn},
                content_type="application/json",
            )
            assert answer.status_code == 201, answer.json()
            # The page's own check of the match is held back, so that its turn is refused.
            page.route(f"**/api/v1/matches/{match.pk}/", lambda route: route.abort())
            _save(page, box)
            # Refused as stale: the page refreshes itself and says what changed.
            game.play(turn)
            played.append(turn)
            number += 1
            _wait_turn(page, number)
            expect(page.locator("#score-message")).to_contain_text(
                f"Turn {number - 1} was entered on another device"
            )
            expect(page.locator("#score-message")).to_have_class("score-message changed")
            page.unroute(f"**/api/v1/matches/{match.pk}/")
            continue

        if number == 7:
            # The answer to the first try is lost on the way back: the page keeps the turn and
            # sends it again with the same Idempotency-Key; the server applies it once.
            page.route("**/turns/", _lose_first_answer(keys))
            _save(page, box)
            expect(page.locator("#score-message")).to_contain_text("No connection")
            _wait_turn(page, number + 1)
            page.unroute("**/turns/")
            assert len(keys) == 2
            assert keys[0] == keys[1]
            assert keys[0]
        else:
            _save(page, box)

        game.play(turn)
        played.append(turn)
        number += 1
        _wait_turn(page, number, over=game.is_over)

        if number == 10 and not undone:
            undone = True
            # The organizer undoes turn 9 (confirmed in the match control) and enters it again.
            page.click("#control-undo")
            page.click("#confirm-undo")
            _wait_turn(page, 9)
            played.pop()
            number = 9
            game = _zee(played, match.rules)
            expect(page.locator("#player-name")).to_have_attribute(
                "data-player-id", str(players[game.current_player or 0].pk)
            )
        if number == 12:
            _enter(page, [2, 3, 4, 5, 5])
            _shot(page, "score-yardzee-phone")
            page.click("#clear-dice")

    # The match page shows the same totals as the API.
    api = page.request.get(f"{live_server.url}/api/v1/matches/{match.pk}/").json()
    assert api["status"] == "finished"
    assert len(api["turns"]) == 26  # nothing lost, nothing counted twice
    by_seat = {card["seat"]: card["total"] for card in api["board"]["scorecards"]}
    assert by_seat == {seat: game.total(seat) for seat in range(2)}
    page.goto(f"{live_server.url}/matches/{match.pk}/")
    cells = page.locator('tr[data-row="grand_total"] td').all_inner_texts()
    assert [int(c.replace(",", "").split()[-1]) for c in cells] == [by_seat[0], by_seat[1]]
    _shot(page, "match-yardzee-phone")
    page.set_viewport_size(DESKTOP)
    _shot(page, "match-yardzee-desktop")
    page.goto(url)
    expect(page.locator(".qr-code svg")).to_be_visible()
    _shot(page, "score-finished-desktop")
    context.close()
    assert Match.objects.get(pk=match.pk).turns.count() == 26


def test_yardkle_turns_by_tapping_through_the_private_link(
    browser: Any, live_server: Any, yardkle_event: Event
) -> None:
    expect = _expect()
    rules = {"target": 1500, "entry_minimum": 500}
    match, context, page = _scoring_by_key(browser, live_server, "yardkle", yardkle_event, rules)

    game = _rebuild("yardkle", 2, match.rules, [])
    assert isinstance(game, YardkleGame)
    rng = random.Random(5)
    number = 1
    seen = {"bank_refused": 0, "banked": 0, "yardkles": 0}
    while not game.is_over:
        turn = simulate.next_turn(game, rng)
        throws = turn["throws"]
        for index, throw in enumerate(throws):
            expect(page.locator("#dice-left")).to_have_text(str(len(throw["dice"])))
            _enter(page, throw["dice"])
            if not throw["set_aside"]:
                expect(page.locator("#yardkle")).to_be_enabled()
                expect(page.locator("#bank")).to_be_disabled()
                if seen["yardkles"] == 0:
                    _shot(page, "score-yardkle-yardkle-phone")
                page.click("#yardkle")
                page.click("#confirm-save")
                seen["yardkles"] += 1
                break
            expect(page.locator("#yardkle")).to_be_disabled()
            _mark(page, throw["dice"], throw["set_aside"])
            expect(page.locator("#throw-again")).to_be_enabled()  # the rules have answered
            so_far = throws[: index + 1]
            total = game.turn_state(so_far).turn_total
            expect(page.locator("#turn-total")).to_have_text(str(total))
            if game.can_bank(so_far):
                expect(page.locator("#bank")).to_be_enabled()
            else:
                expect(page.locator("#bank")).to_be_disabled()
                seat = game.current_player or 0
                if not game.on_board(seat) and total < rules["entry_minimum"]:
                    seen["bank_refused"] += 1
                    if seen["bank_refused"] == 1:
                        _shot(page, "score-yardkle-below-entry-phone")
            if index == len(throws) - 1:
                assert turn["end"] == "bank"
                page.click("#bank")
                page.click("#confirm-save")
                seen["banked"] += 1
            else:
                page.click("#throw-again")
        game.play(turn)
        number += 1
        _wait_turn(page, number, over=game.is_over)

    assert seen["banked"] > 0
    assert seen["yardkles"] > 0
    assert seen["bank_refused"] > 0
    api = page.request.get(f"{live_server.url}/api/v1/matches/{match.pk}/").json()
    assert api["status"] == "finished"
    assert [s["total"] for s in api["board"]["scores"]] == [game.total(0), game.total(1)]
    assert len(api["turns"]) == number - 1
    page.set_viewport_size(DESKTOP)
    page.goto(f"{live_server.url}/matches/{match.pk}/")
    _shot(page, "match-yardkle-desktop")
    context.close()


def test_yardkle_dice_to_throw_follows_each_set_aside_tap(
    browser: Any, live_server: Any, yardkle_event: Event
) -> None:
    """The dice left to throw change with each die tapped aside, as the turn total does, not
    only once "Throw again" is pressed."""
    expect = _expect()
    _, context, page = _scoring_by_key(browser, live_server, "yardkle", yardkle_event)
    shown = [1, 5, 2, 2, 3, 6]
    _enter(page, shown)
    expect(page.locator("#dice-left")).to_have_text("6")
    _mark(page, shown, [1])
    expect(page.locator("#turn-total")).to_have_text("100")
    expect(page.locator("#dice-left")).to_have_text("5")
    _mark(page, shown, [5])
    expect(page.locator("#turn-total")).to_have_text("150")
    expect(page.locator("#dice-left")).to_have_text("4")
    _mark(page, shown, [5])  # tapped again: no longer set aside
    expect(page.locator("#turn-total")).to_have_text("100")
    expect(page.locator("#dice-left")).to_have_text("5")
    page.click("#throw-again")
    expect(page.locator("#throw-count")).to_have_text("2")
    expect(page.locator("#dice-left")).to_have_text("5")
    context.close()


def test_next_roll_is_off_while_all_five_dice_are_kept(
    browser: Any, live_server: Any, zee_event: Event
) -> None:
    """RULES.md, Yardzee "Turn": each further roll keeps some of the dice showing and re-throws
    the rest, at least one die. With all five kept, "Next roll" was on: the page went to roll 2
    with nothing to enter and no die to take back, and every box then answered 422
    `keep_all_dice`, so the turn could not be saved without reloading the page."""
    expect = _expect()
    match, context, page = _scoring_by_key(browser, live_server, "yardzee", zee_event)
    shown = [6, 6, 6, 6, 2]
    _enter(page, shown)
    _mark(page, shown, [6, 6, 6, 6])
    expect(page.locator("#next-roll")).to_be_enabled()
    _mark(page, shown, [2])
    expect(page.locator("#next-roll")).to_be_disabled()
    expect(page.locator("#score-message")).to_contain_text("at least one")
    page.click("#next-roll", force=True)
    expect(page.locator("#roll-count")).to_have_text("1")
    _mark(page, shown, [2])  # tapped again: re-thrown after all
    expect(page.locator("#next-roll")).to_be_enabled()
    expect(page.locator("#score-message")).to_have_text("")
    page.click("#next-roll")
    expect(page.locator("#roll-count")).to_have_text("2")
    _enter(page, [3])
    _save(page, _box(page, "sixes"))
    _wait_turn(page, 2)
    turn = match.turns.get()
    assert turn.payload["rolls"] == [
        {"dice": shown},
        {"keep": [6, 6, 6, 6], "dice": [6, 6, 6, 6, 3]},
    ]
    assert turn.points == 24
    context.close()
