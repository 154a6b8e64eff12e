"""Every page costs a fixed number of queries, whatever the size of the league: more players,
matches, turns or events never add one (no N+1). The event page of a 64-player bracket stays
under 50 queries."""

from collections.abc import Callable

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from league.models import Event, League
from league.pages import table_cache
from tests.playing import play, play_stage, start_stage

from .conftest import make_players, refresh_tables

pytestmark = pytest.mark.django_db


def queries(client: Client, url: str) -> int:
    """Queries of one GET of `url` that renders it, after a first GET that stores any table
    not yet stored: a page kept rendered is forgotten first (a repeat request of it reads only
    its version, `test_a_kept_page_costs_only_the_queries_of_its_version`)."""
    assert client.get(url).status_code == 200
    table_cache.clear_pages()
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url)
    assert response.status_code == 200
    return len(captured)


def _same_for_small_and_large(build: Callable[[int], str], client: Client) -> int:
    small = queries(client, build(1))
    large = queries(client, build(4))
    assert large == small, f"{small} queries for the small case, {large} for the large one"
    return small


def test_home_page_queries_do_not_grow_with_leagues_and_events(client: Client, db):
    def build(size: int) -> str:
        for number in range(size):
            league = League.objects.create(
                name=f"L{size}-{number}", slug=f"l{size}-{number}", game="yardzee"
            )
            for day in range(1, size * 3 + 1):
                Event.objects.create(league=league, name=f"E{day}", date=f"2026-0{size}-{day:02d}")
        return "/"

    assert _same_for_small_and_large(build, client) <= 3


def test_match_page_queries_do_not_grow_with_players_or_turns(client: Client, zee_event, seat):
    def build(size: int) -> str:
        match = seat(zee_event, make_players(size + 1, prefix=f"M{size}"))
        play(match, seed=size)
        return f"/matches/{match.pk}/"

    # One of them for its win probability (issue 39).
    assert _same_for_small_and_large(build, client) <= 5


def test_match_live_part_queries_do_not_grow_with_turns(client: Client, yardkle_event, seat):
    def build(size: int) -> str:
        match = seat(yardkle_event, make_players(size + 1, prefix=f"Y{size}"))
        play(match, seed=size, turns=size * 6)
        return f"/matches/{match.pk}/live/"

    assert _same_for_small_and_large(build, client) <= 4


def test_event_page_queries_do_not_grow_with_the_bracket(client: Client, organizer):
    def build(size: int) -> str:
        league = League.objects.create(name=f"SE{size}", slug=f"se{size}", game="yardzee")
        event = Event.objects.create(league=league, name="Cup", date="2026-07-01")
        stage = start_stage(event, "single_elimination", make_players(size * 4 + 1, f"S{size}"))
        play_stage(stage, seed=size, limit=size * 2)
        refresh_tables()
        return f"/events/{event.pk}/"

    # One of them for the ratings of the players of the bracket's matches not started yet
    # (each player's chance in the bracket, issue 39).
    assert _same_for_small_and_large(build, client) == 12


def test_event_page_queries_do_not_grow_with_rounds_or_casual_matches(client: Client, organizer):
    def build(size: int) -> str:
        league = League.objects.create(name=f"RR{size}", slug=f"rr{size}", game="yardzee")
        event = Event.objects.create(league=league, name="Night", date="2026-07-01")
        players = make_players(size + 3, f"R{size}")
        stage = start_stage(event, "round_robin", players)
        play_stage(stage, seed=size, limit=size * 2)
        from games import services as game_services

        for number in range(size):
            casual = game_services.match_create(
                game="yardzee", player_ids=[p.pk for p in players[:2]], event_id=event.pk
            )
            play(casual, seed=number)
        refresh_tables()
        return f"/events/{event.pk}/"

    assert _same_for_small_and_large(build, client) == 11


def test_event_page_of_a_64_player_bracket_takes_under_50_queries(client: Client, zee_event):
    stage = start_stage(zee_event, "single_elimination", make_players(64))
    play_stage(stage, seed=1, limit=40)  # all of round 1 and half of round 2
    refresh_tables()
    count = queries(client, f"/events/{zee_event.pk}/")
    assert count < 50
    page = client.get(f"/events/{zee_event.pk}/").content.decode()
    assert page.count('<g class="slot ') == 63


def test_league_page_queries_do_not_grow_with_results_or_events(client: Client, organizer):
    def build(size: int) -> str:
        league = League.objects.create(name=f"LP{size}", slug=f"lp{size}", game="yardzee")
        players = make_players(size + 2, f"P{size}")
        from games import services as game_services

        for day in range(1, size + 1):
            event = Event.objects.create(league=league, name=f"E{day}", date=f"2026-05-{day:02d}")
            match = game_services.match_create(
                game="yardzee",
                player_ids=[p.pk for p in players[day - 1 : day + 2]],
                event_id=event.pk,
            )
            play(match, seed=day)
        refresh_tables()
        return f"/leagues/{league.slug}/"

    assert _same_for_small_and_large(build, client) == 6


def test_player_page_queries_do_not_grow_with_matches_or_leagues(client: Client, organizer):
    from games import services as game_services

    def build(size: int) -> str:
        players = make_players(3, f"Q{size}")
        for number in range(size):
            league = League.objects.create(
                name=f"Q{size}-{number}", slug=f"q{size}-{number}", game="yardzee"
            )
            event = Event.objects.create(league=league, name="E", date="2026-05-01")
            for round_ in range(size):
                match = game_services.match_create(
                    game="yardzee", player_ids=[p.pk for p in players], event_id=event.pk
                )
                play(match, seed=round_)
        refresh_tables()
        return f"/players/{players[0].pk}/"

    assert _same_for_small_and_large(build, client) <= 8


def test_a_kept_page_costs_only_the_queries_of_its_version(client: Client, zee_event, seat):
    """The league page and the event pages, without stages and with, kept rendered
    (docs/pages.md, "Whole pages kept rendered"): a repeat request reads the version only, in
    one query. The first request reads the rows of what it renders as well."""
    players = make_players(4)
    zee_event.league.players.add(*players)
    play(seat(zee_event, players[:2]), seed=1)
    play(seat(zee_event, players[2:]), seed=2)
    staged = Event.objects.create(league=zee_event.league, name="Cup", date="2026-07-02")
    play_stage(start_stage(staged, "round_robin", players), limit=2)
    refresh_tables()
    exact = {}
    for url in (
        f"/leagues/{zee_event.league.slug}/",
        f"/leagues/{zee_event.league.slug}/live/",
        f"/events/{zee_event.pk}/",
        f"/events/{zee_event.pk}/live/",
        f"/events/{staged.pk}/",
        f"/events/{staged.pk}/live/",
    ):
        with CaptureQueriesContext(connection) as first:
            assert client.get(url).status_code == 200
        with CaptureQueriesContext(connection) as again:
            assert client.get(url).status_code == 200
        exact[url] = (len(first), len(again))
    # The live parts come after their pages: the tables are rendered already.
    assert list(exact.values()) == [(12, 1), (6, 1), (10, 1), (5, 1), (12, 1), (10, 1)], exact
