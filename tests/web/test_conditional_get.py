"""The pages that refresh themselves answer 304 Not Modified when nothing changed, and in full
with a new ETag once something did (core.conditional; issue 22)."""

import importlib
import random
from typing import Any

import pytest
from django.test import Client

from core.conditional import etag_of
from games import services as game_services
from games.models import Match
from league.models import Event, Player, Stage
from league.services import registration, schedule, stages
from league.services.organization import player_update
from scoring import simulate
from tests.playing import play, start_stage
from tests.web.conftest import make_players, refresh_tables

pytestmark = pytest.mark.django_db

_played = importlib.import_module("league.migrations.0008_event_play_version")


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


@pytest.mark.parametrize(
    ("header", "status"),
    [
        ('W/"{etag}"', 304),  # weak comparison: a W/ prefix is left out (RFC 9110, 13.1.2)
        ('"elsewhere", W/"{etag}"', 304),
        ("*", 304),  # names any body
        ('"{etag}x"', 200),
        ('W/"elsewhere"', 200),
    ],
)
def test_if_none_match_is_compared_weakly_and_star_names_any_body(
    client: Client, zee_event, seat, header, status
):
    match = seat(zee_event, make_players(2))
    url = f"/matches/{match.pk}/"
    etag = client.get(url)["ETag"].strip('"')
    answer = client.get(url, HTTP_IF_NONE_MATCH=header.format(etag=etag))
    assert answer.status_code == status


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

    watched = _Watched(client, urls)
    event_urls = [url for url in urls if url.startswith("/events/")]
    game_services.turn_submit(match_id=match.pk, turn=_next_turn(match))
    watched.changed("a turn (the event's open match)", event_urls)  # the league page shows no match
    while match.status != "finished":
        game_services.turn_submit(match_id=match.pk, turn=_next_turn(match))
        match.refresh_from_db()
    watched.changed("the match finished: its tables marked", urls)
    refresh_tables()
    watched.changed("the tables computed again", urls)
    league = zee_event.league
    league.name = "Front Lawn Yardzee"
    league.save()
    # The event's live part shows the event's own tables, not the league's name.
    watched.changed("the league renamed", urls[:3])
    player_update(player=players[0], display_name="Renamed Player")
    watched.changed("a player renamed: their tables marked", urls)
    refresh_tables()
    watched.changed("the tables computed with the new name", urls)
    assert all("Renamed Player" in watched.seen[url].content.decode() for url in urls)


class _Watched:
    """Pages watched by one reader signed out: each change must give each of them a new body
    and a new ETag at once, and leave the others answering 304."""

    def __init__(self, client: Client, urls: list[str]) -> None:
        self.client = client
        self.urls = urls
        for url in urls:  # a table not stored yet is computed by its first request
            client.get(url)
        self.seen = {url: client.get(url) for url in urls}
        for url in urls:  # kept: a repeat request renders nothing
            again = client.get(url, HTTP_IF_NONE_MATCH=self.seen[url]["ETag"])
            assert again.status_code == 304, url
            assert again.templates == [], url

    def changed(self, what: str, shown_on: list[str] | None = None) -> None:
        shown_on = self.urls if shown_on is None else shown_on
        for url in self.urls:
            before = self.seen[url]
            answer = self.client.get(url, HTTP_IF_NONE_MATCH=before["ETag"])
            if url not in shown_on:
                assert answer.status_code == 304, (what, url)
                continue
            assert answer.status_code == 200, (what, url)
            assert answer["ETag"] == etag_of(answer.content) != before["ETag"], (what, url)
            assert answer.content != before.content, (what, url)
            self.seen[url] = answer


def _event_urls(event: Event) -> list[str]:
    return [f"/events/{event.pk}/", f"/events/{event.pk}/live/"]


def _stage_matches(stage: Stage, status: str = "scheduled") -> list[Match]:
    return list(Match.objects.filter(stage_match__stage=stage, status=status).order_by("pk"))


def test_an_event_with_a_round_robin_is_kept_and_changes_with_each_write_it_shows(
    client: Client, zee_event
):
    """An event page with stages is kept rendered too (its version is its `EventPage` row,
    moved by PostgreSQL's triggers with its matches, stages and tables): a schedule
    change, a first turn, a finish, a refresh, a void, a withdrawal and a sign-up opened each
    give a new body and ETag; a turn that changes nothing shown gives a 304."""
    players = make_players(4)
    stage = start_stage(zee_event, "round_robin", players)
    watched = _Watched(client, _event_urls(zee_event))
    first, second = _stage_matches(stage)[:2]
    schedule.match_schedule(match_id=first.pk, table_label="Table 9")
    watched.changed("a match moved to another table")
    game_services.turn_submit(match_id=first.pk, turn=_next_turn(first))
    watched.changed("a first turn: the match in play")
    game_services.turn_submit(match_id=first.pk, turn=_next_turn(first))
    watched.changed("a turn that shows nowhere", shown_on=[])
    while first.status != "finished":
        game_services.turn_submit(match_id=first.pk, turn=_next_turn(first))
        first.refresh_from_db()
    watched.changed("the match finished")
    refresh_tables()
    watched.changed("the tables computed again")
    game_services.match_void(match_id=first.pk, voided_by=None)
    watched.changed("a finished match voided: replayed")
    stages.stage_withdraw(stage_id=stage.pk, player_id=second.seats.first().player_id)
    watched.changed("a player withdrew: their matches forfeited")
    registration.sign_up_set(event=zee_event, open=True)
    watched.changed("sign-ups opened", shown_on=watched.urls[:1])


def test_an_event_with_a_bracket_is_kept_and_changes_as_the_bracket_advances(
    client: Client, zee_event
):
    """A knockout: a stage started, each semi-final finished (the final seated) and the
    tables computed each give a new body and ETag."""
    players = make_players(4)
    zee_event.league.players.add(*players)
    watched = _Watched(client, _event_urls(zee_event))
    stage = stages.stage_create(
        event_id=zee_event.pk,
        name="Knockout",
        format="single_elimination",
        player_ids=[p.pk for p in players],
    )
    watched.changed("a stage added")
    stages.stage_start(stage_id=stage.pk)
    watched.changed("the stage started: its bracket drawn")
    semis = _stage_matches(stage)
    assert len(semis) == 2
    for number, semi in enumerate(semis):
        play(semi, seed=number)
        watched.changed(f"semi-final {number + 1} finished")
    final = _stage_matches(stage)
    assert len(final) == 1
    assert final[0].seats.count() == 2
    refresh_tables()
    watched.changed("the tables computed again")
    play(final[0])
    watched.changed("the final finished")


def test_a_renamed_player_is_a_new_version_of_every_event_page_that_shows_them(
    client: Client, zee_event, seat
):
    """Renamed without the services (no table marked): the event page's `play_version` moves
    with the rename itself (league migration 0009), so the stage's rounds and the list of casual
    matches show the new name at once; an event that does not show them still answers 304."""
    players = make_players(4, prefix="Old")
    start_stage(zee_event, "round_robin", players)
    play(seat(zee_event, players[:2]), seed=1)
    other = Event.objects.create(league=zee_event.league, name="Elsewhere", date="2026-07-02")
    play(seat(other, make_players(2, prefix="Other")), seed=2)
    watched = _Watched(client, _event_urls(zee_event) + _event_urls(other))
    Player.objects.filter(pk=players[0].pk).update(display_name="New Name")
    watched.changed("a player renamed", shown_on=_event_urls(zee_event))
    assert all("New Name" in watched.seen[url].content.decode() for url in _event_urls(zee_event))


# Columns added after migration 0008 that its trigger need not watch: each is written only
# when its row is inserted (which the trigger always counts) or in the same update as a watched
# column (`voided_by_id` and `voided_at` with `status`, by a void and its taking back; `pad` and
# `pad_by_id` with `status`, by a result entered from the paper pad).
WRITTEN_WITH_A_WATCHED_COLUMN = ("origin_id", "voided_by_id", "voided_at", "pad", "pad_by_id")


def test_every_column_of_a_match_is_watched_or_known_not_to_show():
    """A column added to Match must be named in league migration 0008's lists (watched by the
    trigger that marks the event's page: a page may show it; or known to show nowhere), or
    be written only with a watched one."""
    columns = {field.column for field in Match._meta.concrete_fields}
    assert columns == set(_played.MATCH_SHOWN) | set(_played.MATCH_NOT_SHOWN) | set(
        WRITTEN_WITH_A_WATCHED_COLUMN
    )


def _next_turn(match: Match) -> dict[str, Any]:
    """The simulator's next turn for the match as stored."""
    match.refresh_from_db()
    return simulate.next_turn(match.scoring_game(), random.Random(match.turns_played))
