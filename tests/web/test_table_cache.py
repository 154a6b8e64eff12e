"""The pages' standings tables and leaderboards are rendered once per stored version and then
served from the cache (`league.pages.table_cache`): a table computed again, or newly marked
pending, shows at once; a cache that is down only costs the rendering; an event's long list of
casual matches shows its latest ones."""

import re

import pytest
from django.core.cache import cache
from django.db import connection
from django.db.models import F
from django.test import Client
from django.test.utils import CaptureQueriesContext
from redis.exceptions import ConnectionError as RedisConnectionError

import scoring
from games import services as game_services
from games.models import Match
from league.models import LeaguePage, Player, PlayerRating, StandingsTable
from league.pages import table_cache, views
from scoring import simulate
from scoring.yardzee import YardzeeGame
from tests.playing import play

from .conftest import make_players, refresh_tables

pytestmark = pytest.mark.django_db


def _rows(page: str, table_id: str) -> list[int]:
    table = page.split(f'id="{table_id}"')[1].split("</table>")[0]
    return [int(p) for p in re.findall(r'<tr data-player="(\d+)">', table)]


def _leaderboard(page: str) -> list[int]:
    board = page.split('class="leaderboard"')[1].split("</table>")[0]
    return [int(p) for p in re.findall(r'<tr data-player="(\d+)">', board)]


def test_the_league_page_shows_a_table_computed_again_at_once(client: Client, zee_event, seat):
    players = make_players(4)
    play(seat(zee_event, players[:2]), seed=1)
    refresh_tables()
    league = zee_event.league
    url = f"/leagues/{league.slug}/"
    table_id = f"standings-league-{league.pk}"
    first = client.get(url).content.decode()
    assert client.get(url).content.decode() == first  # served again, from the cache
    assert sorted(_rows(first, table_id)) == sorted(p.pk for p in players[:2])

    play(seat(zee_event, players[2:]), seed=2)
    pending = client.get(url).content.decode()  # marked, its job not run yet
    assert "Newer results are still being counted." in pending
    assert sorted(_rows(pending, table_id)) == sorted(p.pk for p in players[:2])

    refresh_tables()
    page = client.get(url).content.decode()
    stored = StandingsTable.objects.get(scope="league", scope_id=league.pk)
    assert _rows(page, table_id) == [row["player"] for row in stored.rows]
    assert len(stored.rows) == 4
    assert "still being counted" not in page
    rated = PlayerRating.objects.filter(league=league).order_by("-ordinal", "player_id")
    assert _leaderboard(page) == [rating.player_id for rating in rated]
    assert len(rated) == 4


def test_the_event_page_shows_a_table_computed_again_at_once(client: Client, zee_event, seat):
    players = make_players(4)
    play(seat(zee_event, players[:2]), seed=1)
    refresh_tables()
    url = f"/events/{zee_event.pk}/"
    table_id = f"standings-event-{zee_event.pk}"
    assert len(_rows(client.get(url).content.decode(), table_id)) == 2
    play(seat(zee_event, players[1:]), seed=2)
    refresh_tables()
    page = client.get(url).content.decode()
    stored = StandingsTable.objects.get(scope="event", scope_id=zee_event.pk)
    assert _rows(page, table_id) == [row["player"] for row in stored.rows]
    assert len(stored.rows) == 4


def test_a_cached_table_is_shown_without_reading_its_rows(client: Client, zee_event, seat):
    play(seat(zee_event, make_players(3)), seed=1)
    refresh_tables()
    url = f"/leagues/{zee_event.league.slug}/"
    client.get(url)
    # A new version of the page (as a change elsewhere on it would give): rendered again, its
    # table taken from the cache.
    LeaguePage.objects.filter(league=zee_event.league).update(version=F("version") + 1)
    with CaptureQueriesContext(connection) as captured:
        client.get(url)
    tables = [q["sql"] for q in captured if "league_standingstable" in q["sql"]]
    assert len(tables) == 1
    assert '"rows"' not in tables[0].split(" FROM ")[0]
    assert not [q for q in captured if "league_playerrating" in q["sql"]]


def test_a_renamed_league_shows_its_new_name_in_the_table_captions(client: Client, zee_event, seat):
    play(seat(zee_event, make_players(2)), seed=1)
    refresh_tables()
    league = zee_event.league
    client.get(f"/leagues/{league.slug}/")
    league.name = "Front Lawn Yardzee"
    league.save()
    page = client.get(f"/leagues/{league.slug}/").content.decode()
    assert "Front Lawn Yardzee: league table" in page
    assert "Front Lawn Yardzee: ratings leaderboard" in page


def test_pages_render_their_tables_while_the_cache_is_down(
    client: Client, zee_event, seat, monkeypatch
):
    players = make_players(2)
    play(seat(zee_event, players), seed=1)
    refresh_tables()

    def down(*args: object, **kwargs: object) -> None:
        raise RedisConnectionError("Connection refused")

    monkeypatch.setattr(cache, "get", down)
    monkeypatch.setattr(cache, "set", down)
    league = zee_event.league
    page = client.get(f"/leagues/{league.slug}/").content.decode()
    assert sorted(_rows(page, f"standings-league-{league.pk}")) == sorted(p.pk for p in players)
    assert sorted(_leaderboard(page)) == sorted(p.pk for p in players)
    event_page = client.get(f"/events/{zee_event.pk}/")
    assert event_page.status_code == 200


def test_the_event_page_lists_its_latest_casual_matches_and_counts_the_rest(
    client: Client, zee_event, seat, monkeypatch
):
    monkeypatch.setattr(views, "MATCHES_SHOWN", 2)
    players = make_players(2)
    matches = [seat(zee_event, players) for _ in range(3)]
    play(matches[0], seed=1)  # the oldest is the only one played
    page = client.get(f"/events/{zee_event.pk}/").content.decode()
    assert f'href="/matches/{matches[2].pk}/"' in page
    assert f'href="/matches/{matches[1].pk}/"' in page
    assert f'href="/matches/{matches[0].pk}/"' not in page
    assert "The latest 2 matches; 1 earlier one is in the standings" in page  # not "1 ones"
    assert f'data-live-url="/events/{zee_event.pk}/live/"' in page  # two still to play


def test_a_renamed_player_keeps_the_name_of_the_last_computation(client: Client, zee_event, seat):
    """Both tables show names as of their last computation (the standings rows store them);
    the next result brings the new name."""
    players = make_players(2)
    play(seat(zee_event, players), seed=1)
    refresh_tables()
    league = zee_event.league
    client.get(f"/leagues/{league.slug}/")
    Player.objects.filter(pk=players[0].pk).update(display_name="Renamed Player")
    play(seat(zee_event, players), seed=2)
    refresh_tables()
    page = client.get(f"/leagues/{league.slug}/").content.decode()
    assert page.count("Renamed Player") == 2  # in the table and on the leaderboard


def _line(page: str, match_id: int) -> str:
    return page.split(f'href="/matches/{match_id}/"')[1].split("</li>")[0]


def _shows(line: str, total: int) -> bool:
    """Whether a match line shows this total as a number of its own (not inside "#1595")."""
    return re.search(rf"(?<![#\d,]){total:,}(?![\d,])", line) is not None


def test_the_event_page_shows_each_change_of_its_casual_matches_at_once(
    client: Client, zee_event, seat
):
    """The list is rendered once per version of its matches: a turn, a finish, an undo that
    reopens a match and its finish again, a void and a new match all show on the next view."""
    players = make_players(2)
    match = seat(zee_event, players)
    url = f"/events/{zee_event.pk}/"
    assert "Scheduled" in _line(client.get(url).content.decode(), match.pk)
    play(match, seed=1, turns=1)
    assert "In progress" in _line(client.get(url).content.decode(), match.pk)

    played = simulate.play_game(scoring.new_game("yardzee", 2, {}), seed=1)
    for turn in played[1:]:
        game_services.turn_submit(match_id=match.pk, turn=turn)
    line = _line(client.get(url).content.decode(), match.pk)
    totals = [seat.total for seat in Match.objects.get(pk=match.pk).seats.order_by("order")]
    assert "Finished" in line
    assert _shows(line, totals[0])
    assert _shows(line, totals[1])

    # Reopened by an undo, then finished again with another last turn: new totals.
    undone = game_services.turn_undo(match_id=match.pk, undone_by=None)
    reopened = _line(client.get(url).content.decode(), match.pk)
    assert "In progress" in reopened
    assert not _shows(reopened, totals[0])
    game = Match.objects.get(pk=match.pk).scoring_game()
    assert isinstance(game, YardzeeGame)
    last = next(
        {"rolls": [{"dice": dice}], "category": box}
        for dice in ([1, 2, 3, 4, 6], [6, 6, 6, 5, 5], [1, 1, 2, 3, 4], [3, 3, 4, 4, 6])
        for box, points in game.box_options(dice).items()
        if points is not None and points != undone.points
    )
    game_services.turn_submit(match_id=match.pk, turn=last)
    again = [seat.total for seat in Match.objects.get(pk=match.pk).seats.order_by("order")]
    assert again[1] != totals[1]  # the last turn is the second player's
    line = _line(client.get(url).content.decode(), match.pk)
    assert "Finished" in line
    assert _shows(line, again[1])
    assert not _shows(line, totals[1])

    game_services.match_void(match_id=match.pk, voided_by=None)
    assert "Void" in _line(client.get(url).content.decode(), match.pk)
    newer = seat(zee_event, players)
    assert f'href="/matches/{newer.pk}/"' in client.get(url).content.decode()


def test_the_event_page_reads_its_matches_seats_only_to_render_a_new_version(
    client: Client, zee_event, seat
):
    play(seat(zee_event, make_players(2)), seed=1)
    url = f"/events/{zee_event.pk}/"
    client.get(url)
    with CaptureQueriesContext(connection) as captured:
        client.get(url)
    assert not [q for q in captured if "games_seat" in q["sql"]]


def test_a_table_this_process_served_needs_no_trip_to_the_shared_cache(
    client: Client, zee_event, seat, monkeypatch
):
    play(seat(zee_event, make_players(2)), seed=1)
    refresh_tables()
    url = f"/leagues/{zee_event.league.slug}/"
    first = client.get(url).content.decode()
    trips: list[str] = []
    real_get = cache.get

    def counted_get(key: str, default: object = None) -> object:
        trips.append(key)
        return real_get(key, default)

    monkeypatch.setattr(cache, "get", counted_get)
    assert client.get(url).content.decode() == first
    assert not [key for key in trips if key.startswith("rendered:")]


def test_the_process_copy_drops_the_least_recently_used_beyond_its_size_and_expires(
    monkeypatch,
):
    now = [100.0]
    monkeypatch.setattr("league.pages.table_cache.time.monotonic", lambda: now[0])
    local: table_cache._Local[str] = table_cache._Local(limit=10)
    local.put("a", "aaaa", keep=60)
    local.put("b", "bbbb", keep=60)
    assert local.get("a") == "aaaa"  # now the most recently used
    local.put("c", "cccc", keep=60)  # 12 characters: the least recently used goes
    assert local.get("b") is None
    assert (local.get("a"), local.get("c")) == ("aaaa", "cccc")
    assert local.size == 8
    local.put("big", "x" * 11, keep=60)  # larger than the whole copy: not kept
    assert local.get("big") is None
    now[0] += 61
    assert local.get("a") is None
    assert local.size == 4
