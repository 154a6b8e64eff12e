"""The pages that refresh themselves answer 304 Not Modified when nothing changed, and in full
with a new ETag once something did (config.conditional; issue 22)."""

import random
from typing import Any

import pytest
from django.test import Client

from config.conditional import etag_of
from games import services as game_services
from games.models import Match
from league.models import Player
from league.services.organization import player_update
from scoring import simulate
from tests.web.conftest import make_players, play, refresh_tables

pytestmark = pytest.mark.django_db


def _revalidate(client: Client, url: str) -> tuple[str, int]:
    """GET `url`, then GET it again with the ETag it gave: that ETag and the second status."""
    first = client.get(url)
    assert first.status_code == 200
    assert first["ETag"] == etag_of(first.content)
    assert set(first["Cache-Control"].split(", ")) == {"private", "no-cache"}
    again = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    if again.status_code == 304:
        assert again.content == b""
        assert again["ETag"] == first["ETag"]
    return first["ETag"], again.status_code


def test_an_event_page_and_its_live_part_answer_304_until_a_turn_changes_them(
    client: Client, zee_event, seat
):
    match = seat(zee_event, make_players(2))
    play(match, turns=1)
    etags = {}
    for url in (f"/events/{zee_event.pk}/", f"/events/{zee_event.pk}/live/"):
        etags[url], status = _revalidate(client, url)
        assert status == 304, url
    game_services.turn_submit(match_id=match.pk, turn=_next_turn(match))
    for url, etag in etags.items():  # a line shows the match's status, not its turns
        assert client.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 304, url
    while match.status != "finished":
        game_services.turn_submit(match_id=match.pk, turn=_next_turn(match))
        match.refresh_from_db()
    for url, etag in etags.items():
        answer = client.get(url, HTTP_IF_NONE_MATCH=etag)
        assert answer.status_code == 200, url  # the match line shows the result
        assert answer["ETag"] != etag


def test_a_match_page_answers_304_until_its_next_turn(client: Client, zee_event, seat):
    match = seat(zee_event, make_players(2))
    play(match, turns=2)
    urls = [f"/matches/{match.pk}/", f"/matches/{match.pk}/live/"]
    etags = {}
    for url in urls:
        etags[url], status = _revalidate(client, url)
        assert status == 304, url
    game_services.turn_submit(match_id=match.pk, turn=_next_turn(match))
    for url in urls:
        assert client.get(url, HTTP_IF_NONE_MATCH=etags[url]).status_code == 200, url


def test_a_league_page_answers_in_full_once_its_table_is_computed_again(
    client: Client, zee_event, seat
):
    players = make_players(2)
    zee_event.league.players.add(*players)
    match = seat(zee_event, players)
    url = f"/leagues/{zee_event.league.slug}/"
    etag, status = _revalidate(client, url)
    assert status == 304
    play(match)
    refresh_tables()
    answer = client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert answer.status_code == 200
    assert players[0].display_name in answer.content.decode()
    assert client.get(url, HTTP_IF_NONE_MATCH=answer["ETag"]).status_code == 304


def test_a_renamed_player_is_a_change_no_version_would_see(client: Client, zee_event, seat):
    match = seat(zee_event, make_players(2, prefix="Old"))
    play(match, turns=1)
    url = f"/matches/{match.pk}/live/"
    etag, _ = _revalidate(client, url)
    Player.objects.filter(display_name="Old 1").update(display_name="New 1")
    answer = client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert answer.status_code == 200
    assert "New 1" in answer.content.decode()


def test_an_organizer_sees_their_own_page_not_the_publics(client: Client, zee_event, organizer):
    url = f"/events/{zee_event.pk}/"
    public = client.get(url)
    client.force_login(organizer)
    mine = client.get(url, HTTP_IF_NONE_MATCH=public["ETag"])
    assert mine.status_code == 200
    assert mine["ETag"] != public["ETag"]


def test_only_successful_gets_carry_an_etag(client: Client, zee_event):
    missing = client.get("/events/999999/")
    assert missing.status_code == 404
    assert "ETag" not in missing
    head = client.head(f"/events/{zee_event.pk}/")
    assert head.status_code == 200
    assert client.head(f"/events/{zee_event.pk}/", HTTP_IF_NONE_MATCH=head["ETag"]).status_code == (
        304
    )


def _finished_event_urls(zee_event, seat) -> tuple[list[Player], list[str]]:
    """An event with a finished match and its computed tables: its players and the URLs of
    the league and event pages and their live parts."""
    players = make_players(2)
    zee_event.league.players.add(*players)
    play(seat(zee_event, players), seed=1)
    refresh_tables()
    league = f"/leagues/{zee_event.league.slug}/"
    event = f"/events/{zee_event.pk}/"
    return players, [league, f"{league}live/", event, f"{event}live/"]


def test_a_repeat_request_of_a_page_nothing_changed_on_renders_no_template(
    client: Client, zee_event, seat
):
    """The league and event pages are kept rendered under the version of what they show: the
    second request, and a conditional one, render nothing and give the same body and ETag."""
    _, urls = _finished_event_urls(zee_event, seat)
    for url in urls:
        first = client.get(url)
        assert first.templates, url  # rendered once
        again = client.get(url)
        assert again.status_code == 200, url
        assert again.templates == [], url
        assert again.content == first.content, url
        assert again["ETag"] == first["ETag"] == etag_of(first.content), url
        revalidated = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
        assert revalidated.status_code == 304, url
        assert revalidated.templates == [], url


def test_a_kept_page_and_its_etag_change_with_a_turn_a_refresh_and_a_rename(
    client: Client, zee_event, seat
):
    """Each change a page shows gives a new body and a new ETag at once, never a 304: a turn
    of a match in play, the match finished, its tables computed again, the league renamed and
    a player renamed (their tables are marked, so the pages show the refresh pending)."""
    players, urls = _finished_event_urls(zee_event, seat)
    match = seat(zee_event, players)

    def changed(what: str, shown_on: list[str]) -> None:
        """Each of `shown_on` answers in full with a new ETag; the others still 304."""
        for url in urls:
            before = seen[url]
            answer = client.get(url, HTTP_IF_NONE_MATCH=before["ETag"])
            if url not in shown_on:
                assert answer.status_code == 304, (what, url)
                continue
            assert answer.status_code == 200, (what, url)
            assert answer["ETag"] == etag_of(answer.content) != before["ETag"], (what, url)
            assert answer.content != before.content, (what, url)
            seen[url] = answer

    seen = {url: client.get(url) for url in urls}
    event_urls = [url for url in urls if url.startswith("/events/")]
    game_services.turn_submit(match_id=match.pk, turn=_next_turn(match))
    changed("a turn (the event's open match)", event_urls)  # the league page shows no match
    while match.status != "finished":
        game_services.turn_submit(match_id=match.pk, turn=_next_turn(match))
        match.refresh_from_db()
    changed("the match finished: its tables marked", urls)
    refresh_tables()
    changed("the tables computed again", urls)
    league = zee_event.league
    league.name = "Front Lawn Yardzee"
    league.save()
    # The event's live part shows the event's own tables, not the league's name.
    changed("the league renamed", urls[:3])
    player_update(player=players[0], display_name="Renamed Player")
    changed("a player renamed: their tables marked", urls)
    refresh_tables()
    changed("the tables computed with the new name", urls)
    assert all("Renamed Player" in seen[url].content.decode() for url in urls)


def _next_turn(match: Match) -> dict[str, Any]:
    """The simulator's next turn for the match as stored."""
    match.refresh_from_db()
    return simulate.next_turn(match.scoring_game(), random.Random(match.turns_played))
