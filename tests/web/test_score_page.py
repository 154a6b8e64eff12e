"""The phone scorekeeping page (/matches/<id>/score/), server side: who may open it (an
organizer of the match, or whoever holds its private link), the QR code of that link for
organizers, and what the page carries for its script (match, player, turn number)."""

import re
from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser, User
from django.test import Client

from games import services as game_services
from games.models import Match
from league.models import Event
from scoring.yardkle import YardkleGame, YardkleRules
from tests.playing import play, simulated_turns

from .conftest import make_players

pytestmark = pytest.mark.django_db


def _page(client: Client, match: Match, **query: str) -> Any:
    """The page as a browser gets it: a private link redirects to the clean URL."""
    return client.get(f"/matches/{match.pk}/score/", query, follow=True)


def _attr(page: str, name: str) -> str:
    found = re.search(rf'id="scorer"[^>]*\s{name}="([^"]*)"', page, re.S)
    assert found, f"no {name} on the scorer"
    return found.group(1)


@pytest.fixture
def match(zee_event: Event, seat: Any) -> Match:
    result: Match = seat(zee_event, make_players(2))
    return result


def test_an_organizer_of_the_league_opens_the_page(
    client: Client, organizer: User, match: Match
) -> None:
    client.force_login(organizer)
    response = _page(client, match)
    assert response.status_code == 200
    page = response.content.decode()
    assert _attr(page, "data-match") == str(match.pk)
    assert _attr(page, "data-score-key") == ""  # signed in: the CSRF token is sent instead
    assert _attr(page, "data-csrf")
    assert 'id="undo"' not in page  # nothing to undo yet


def test_the_private_link_opens_the_page_without_an_account(client: Client, match: Match) -> None:
    response = _page(client, match, key=match.score_key)
    assert response.status_code == 200
    page = response.content.decode()
    assert _attr(page, "data-score-key") == match.score_key
    assert "<svg" not in page  # the QR code is for organizers
    assert "For organizers" not in page


@pytest.mark.parametrize("key", [None, "wrong-key"])
def test_anyone_else_is_told_why_they_may_not_score(
    client: Client, match: Match, key: str | None
) -> None:
    response = _page(client, match, **({"key": key} if key else {}))
    assert response.status_code == 403
    page = response.content.decode()
    assert "private scoring link" in page
    assert match.score_key not in page
    assert 'id="scorer"' not in page


def test_a_signed_in_user_who_organizes_another_league_is_refused(
    client: Client, other_organizer: User, player_account: User, match: Match
) -> None:
    for user in (other_organizer, player_account):
        client.force_login(user)
        assert _page(client, match).status_code == 403


def test_staff_may_score_any_match(client: Client, staff: User, match: Match) -> None:
    client.force_login(staff)
    assert _page(client, match).status_code == 200


def test_an_unknown_match_is_404(client: Client, organizer: User) -> None:
    client.force_login(organizer)
    assert client.get("/matches/999999/score/").status_code == 404


def test_organizers_see_the_qr_code_of_the_private_link(
    client: Client, organizer: User, match: Match
) -> None:
    client.force_login(organizer)
    page = _page(client, match).content.decode()
    link = f"http://testserver/matches/{match.pk}/score/?key={match.score_key}"
    assert link in page  # the link itself, as text
    qr = re.search(r'<div class="qr-code">\s*(<svg.*?</svg>)', page, re.S)
    assert qr, "no inline SVG QR code"
    assert "<path" in qr.group(1)
    assert "<title>" in qr.group(1)


def test_the_page_carries_the_current_player_and_turn_number(
    client: Client, organizer: User, match: Match
) -> None:
    play(match, seed=3, turns=3)
    seats = list(match.seats.order_by("order"))
    client.force_login(organizer)
    page = _page(client, match).content.decode()
    current = seats[1].player  # three turns played by two players: the second one is next
    assert _attr(page, "data-player") == str(current.pk)
    assert _attr(page, "data-turn-number") == "4"
    assert f'data-player-id="{current.pk}"' in page
    assert current.display_name in page
    assert 'id="control-undo"' in page  # the organizer's match control


def test_only_the_current_players_open_boxes_are_offered(client: Client, match: Match) -> None:
    play(match, seed=3, turns=2)  # back to the first player, who has filled one box
    page = _page(client, match, key=match.score_key).content.decode()
    assert len(re.findall(r'data-box="', page)) == 12


def test_yardkle_matches_get_the_bank_and_yardkle_buttons(
    client: Client, yardkle_event: Event, seat: Any
) -> None:
    match = seat(yardkle_event, make_players(3))
    page = _page(client, match, key=match.score_key).content.decode()
    assert _attr(page, "data-game") == "yardkle"
    assert 'id="bank"' in page
    assert 'id="yardkle"' in page
    assert "data-box" not in page
    # The offer to take a turn back speaks of the game's turns: a Yardkle turn has no box.
    note = page[page.index('id="take-back-note"') :].split("</span>")[0]
    assert "Banked, or called a Yardkle, by mistake?" in note
    assert "box" not in note


def test_the_offer_to_take_a_yardzee_turn_back_speaks_of_its_box(
    client: Client, match: Match
) -> None:
    page = _page(client, match, key=match.score_key).content.decode()
    note = page[page.index('id="take-back-note"') :].split("</span>")[0]
    assert "Wrong box? Take it back before the next player enters a die." in note


def test_yardkle_scores_read_with_thousands_as_the_last_saved_turn_does(
    client: Client, yardkle_event: Event, seat: Any
) -> None:
    match = seat(yardkle_event, make_players(2))
    bank = {"throws": [{"dice": [1, 1, 1, 2, 3, 4], "set_aside": [1, 1, 1]}], "end": "bank"}
    game_services.turn_submit(match_id=match.pk, turn=bank)
    page = _page(client, match, key=match.score_key).content.decode()
    assert "banked 1,000" in page
    assert "<strong>1,000</strong>" in page  # not "1000" beside it


def test_a_finished_match_takes_no_more_turns(
    client: Client, organizer: User, match: Match
) -> None:
    play(match, seed=2)
    client.force_login(organizer)
    page = _page(client, match).content.decode()
    assert 'id="scorer"' not in page
    assert "finished" in page
    assert 'id="control-undo"' in page  # an organizer may still reopen it


@pytest.mark.parametrize("closed_as", ["finished", "cancelled"])
def test_a_match_of_a_closed_event_offers_no_scorer(
    client: Client, organizer: User, match: Match, closed_as: str
) -> None:
    """An event closed with a match seated but not started: every turn is refused (409
    event_closed), yet the scoring page offered the dice and the boxes, the match page its
    "Keep score" button and "Not started yet; Ana plays first" as if it would be played.
    The pages now say the event is closed; reopened, the match is scored again."""
    from league.services.organization import event_close, event_reopen

    key = match.score_key
    event_close(event_id=match.event_id, status=closed_as)
    for who in ("organizer", "key holder"):
        browser = Client()
        if who == "organizer":
            browser.force_login(organizer)
            page = _page(browser, match).content.decode()
        else:
            page = _page(browser, match, key=key).content.decode()
        assert 'id="scorer"' not in page, who
        assert 'data-open="false"' in page, who  # checks for changes as a closed match does
        assert (
            f"This match's event is {closed_as}: no turns until its organizers reopen it." in page
        )
    client.force_login(organizer)
    public = client.get(f"/matches/{match.pk}/").content.decode()
    assert f'href="/matches/{match.pk}/score/"' not in public
    assert "plays first" not in public
    assert "data-live-url" not in public
    assert f"Not played: its event is {closed_as}" in public
    event_reopen(event_id=match.event_id)
    assert 'id="scorer"' in _page(client, match).content.decode()
    assert (
        f'href="/matches/{match.pk}/score/"' in client.get(f"/matches/{match.pk}/").content.decode()
    )


def test_a_casual_match_is_scored_by_whoever_seated_it(client: Client, organizer: User) -> None:
    players = make_players(2)
    casual = game_services.match_create(
        game="yardzee", player_ids=[p.pk for p in players], created_by=organizer
    )
    client.force_login(organizer)
    assert _page(client, casual).status_code == 200


def test_who_organizes_a_match_is_its_leagues_organizers_and_staff(
    organizer: User, other_organizer: User, staff: User, player_account: User, match: Match
) -> None:
    verdicts = {
        user.username or "anonymous": match.is_organizer(user)
        for user in (organizer, other_organizer, staff, player_account, AnonymousUser())
    }
    assert verdicts == {
        organizer.username: True,
        other_organizer.username: False,
        staff.username: True,
        player_account.username: False,
        "anonymous": False,
    }


@pytest.mark.django_db
def test_the_match_page_links_organizers_to_the_scorekeeping_page(organizer, players, client):
    from games import services as game_services

    match = game_services.match_create(
        game="yardzee", player_ids=[players[0].pk, players[1].pk], created_by=organizer
    )
    link = f'href="/matches/{match.pk}/score/"'
    assert link not in client.get(f"/matches/{match.pk}/").content.decode()
    client.force_login(organizer)
    assert link in client.get(f"/matches/{match.pk}/").content.decode()


def test_the_private_links_key_is_exchanged_for_a_cookie_and_left_out_of_the_url(
    client: Client, match: Match
) -> None:
    """Issue 14, item 9: the key leaves the address bar (and so every access log line and
    Referer after this one) at once."""
    clean = f"/matches/{match.pk}/score/"
    response = client.get(clean, {"key": match.score_key})
    assert response.status_code == 302
    assert response["Location"] == clean
    cookie = response.cookies[f"score-key-{match.pk}"]
    assert cookie.value == match.score_key
    assert cookie["path"] == clean
    assert cookie["httponly"]
    assert cookie["samesite"] == "Lax"
    page = client.get(clean)  # the browser follows, sending the cookie
    assert page.status_code == 200
    assert _attr(page.content.decode(), "data-score-key") == match.score_key
    assert Client().get(clean).status_code == 403  # without the cookie: nothing


@pytest.mark.parametrize("key", [None, "wrong-key", "the-key"])
def test_the_scoring_page_is_never_cached_and_its_key_never_in_a_referer(
    client: Client, match: Match, key: str | None
) -> None:
    """Issue 14, item 9: whatever the answer (the redirect, the page, a refusal). An address
    holding the key sends no Referer; the clean page one only to this site, whose address
    holds no key (so that its forms pass the CSRF Origin check)."""
    query = {"key": match.score_key if key == "the-key" else key} if key else {}
    first = client.get(f"/matches/{match.pk}/score/", query)
    assert first["Cache-Control"] == "no-store"
    assert first["Referrer-Policy"] == ("no-referrer" if key else "same-origin")
    page = _page(client, match)
    assert page["Cache-Control"] == "no-store"
    assert page["Referrer-Policy"] == "same-origin"


@pytest.mark.parametrize("key", ["%C3%A9", "%00", "%ED%A0%80", "x" * 300])
def test_a_key_with_any_characters_is_refused_with_403_not_a_crash(
    client: Client, match: Match, key: str
) -> None:
    """Issue 14, item 1: a non-ASCII key was a 500 (compare_digest refuses non-ASCII text)."""
    response = client.get(f"/matches/{match.pk}/score/?key={key}")
    assert response.status_code == 403


def test_wrong_keys_are_limited_per_client_address(
    client: Client, match: Match, settings: Any
) -> None:
    """Issue 14, item 10: the page counts wrong keys like the API does; then even the right
    key waits out the minute."""
    settings.SCORE_KEY_FAILURES = 3
    codes = [_page(client, match, key=f"wrong-{i}").status_code for i in range(4)]
    assert codes == [403, 403, 403, 429]
    assert _page(client, match, key=match.score_key).status_code == 429


def test_organizers_and_no_one_else_get_the_match_control_here(
    client: Client, organizer: User, match: Match
) -> None:
    play(match, seed=3, turns=2)
    keeper = _page(client, match, key=match.score_key).content.decode()
    assert "Match control" not in keeper
    assert "/organize/" not in keeper
    client.force_login(organizer)
    page = _page(client, match).content.decode()
    assert "Match control" in page
    # Done, a control comes back here.
    assert f"next=/matches/{match.pk}/score/" in page.replace("%2F", "/")


def test_after_a_reload_the_page_says_what_was_saved_last(client: Client, match: Match) -> None:
    game_services.turn_submit(
        match_id=match.pk, turn={"rolls": [{"dice": [2, 2, 3, 3, 3]}], "category": "full_house"}
    )
    page = _page(client, match, key=match.score_key).content.decode()
    name = match.seats.get(order=0).player.display_name
    assert f'Last saved: <span id="last-saved-text">Turn 1: {name}, Full house, 25</span>' in page
    assert 'data-sequence="1"' in page
    # The version the script compares with the API's: turns played, status, the last points.
    assert 'data-version="1:in_progress:25/0"' in page


def test_yardzee_shows_running_totals_with_the_bonus_target(client: Client, match: Match) -> None:
    for turn in (
        {"rolls": [{"dice": [6, 6, 6, 6, 2]}], "category": "sixes"},
        {"rolls": [{"dice": [1, 2, 3, 4, 5]}], "category": "large_straight"},
    ):
        game_services.turn_submit(match_id=match.pk, turn=turn)
    page = _page(client, match, key=match.score_key).content.decode()
    rows = re.findall(r'<tr data-seat="(\d)"[^>]*>(.*?)</tr>', page, re.S)
    cells = {seat: dict(re.findall(r'data-total="(\w+)">([^<]*)<', row)) for seat, row in rows}
    assert cells["0"] == {"upper": "24", "bonus": "39 more for +35", "lower": "0", "grand": "24"}
    assert cells["1"] == {"upper": "0", "bonus": "63 more for +35", "lower": "40", "grand": "40"}


def test_the_yardkle_scoring_page_says_when_the_final_round_is_on(
    client: Client, organizer: User, yardkle_event: Event, seat: Any
) -> None:
    """The scorekeeper is told, as the match page tells its readers, that a bank reached the
    target and everyone else has one more turn."""
    match = seat(yardkle_event, make_players(3))
    turns = simulated_turns(match, seed=8)
    game = YardkleGame(3, YardkleRules.from_json(match.rules))
    reached = 0  # the turn whose bank reaches the target
    while not game.final_round:
        game.play(turns[reached])
        reached += 1
    reached -= 1
    assert not game.is_over
    play(match, seed=8, turns=reached)
    client.force_login(organizer)
    assert "Final round:" not in _page(client, match).content.decode()
    game_services.turn_submit(match_id=match.pk, turn=turns[reached])
    page = _page(client, match).content.decode()
    assert "Final round:" in page
    assert "reached 10,000; everyone else has one more turn." in page
