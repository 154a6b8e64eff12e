"""The home page (leagues with upcoming and recent events), a league's page (league table,
ratings leaderboard, events) and a player's page (results, placements, rating history as SVG)."""

import datetime
import re

import pytest
from django.test import Client
from django.utils import timezone

from league.models import Event, PlayerRating, RatingChange, StandingsTable
from league.services import organization
from tests.playing import play

from .conftest import make_players, refresh_tables

pytestmark = pytest.mark.django_db


def test_home_splits_each_leagues_events_into_upcoming_and_recent(client: Client, zee_event):
    today = timezone.localdate()
    league = zee_event.league
    Event.objects.create(league=league, name="Next week", date=today + datetime.timedelta(days=7))
    Event.objects.create(league=league, name="Tonight", date=today, status="running")
    Event.objects.create(
        league=league,
        name="Called off",
        date=today + datetime.timedelta(days=1),
        status="cancelled",
    )
    Event.objects.filter(pk=zee_event.pk).update(status="finished")
    page = client.get("/").content.decode()
    upcoming = page.split("<h3>Upcoming</h3>")[1].split("</ul>")[0]
    recent = page.split("<h3>Recent</h3>")[1].split("</ul>")[0]
    assert upcoming.index("Tonight") < upcoming.index("Next week")
    assert "Night 1" in recent
    assert "Called off" not in page
    assert f'href="/leagues/{league.slug}/"' in page
    assert f'href="/events/{zee_event.pk}/"' in page


def test_the_league_page_shows_its_table_leaderboard_and_events(client: Client, zee_event, seat):
    players = make_players(4)
    for number in range(3):
        play(seat(zee_event, players[number : number + 2]), seed=number)
    organization.event_close(event_id=zee_event.pk)  # the night is over (casual tables only)
    refresh_tables()
    league = zee_event.league
    page = client.get(f"/leagues/{league.slug}/").content.decode()
    stored = StandingsTable.objects.get(scope="league", scope_id=league.pk)
    table = page.split(f'id="standings-league-{league.pk}"')[1].split("</table>")[0]
    shown = [int(p) for p in re.findall(r'<tr data-player="(\d+)">', table)]
    assert shown == [row["player"] for row in stored.rows]
    assert re.findall(r'data-metric="([a-z_]+)"', table) == league.tiebreak
    board = page.split('class="leaderboard"')[1].split("</table>")[0]
    rated = list(PlayerRating.objects.filter(league=league).order_by("-ordinal", "player_id"))
    assert len(rated) == 4
    assert [int(p) for p in re.findall(r'<tr data-player="(\d+)">', board)] == [
        r.player_id for r in rated
    ]
    assert f"{rated[0].ordinal:.2f}" in board
    assert f'href="/events/{zee_event.pk}/"' in page
    assert "data-live-url" not in page  # nothing pending, nothing running


def test_the_league_page_refreshes_its_tables_while_results_are_pending(
    client: Client, zee_event, seat
):
    players = make_players(2)
    play(seat(zee_event, players), seed=1)
    refresh_tables()
    play(seat(zee_event, players), seed=2)  # its refresh runs after commit: not yet
    league = zee_event.league
    page = client.get(f"/leagues/{league.slug}/").content.decode()
    assert f'data-live-url="/leagues/{league.slug}/live/"' in page
    assert "Newer results are still being counted." in page
    fragment = client.get(f"/leagues/{league.slug}/live/").content.decode()
    assert fragment.startswith('<div id="league-live"')


def test_a_new_league_page_renders_with_empty_tables(client: Client, zee_event):
    page = client.get(f"/leagues/{zee_event.league.slug}/").content.decode()
    assert "No rated matches yet." in page
    assert "No results yet." in page


def test_the_player_page_shows_results_placements_and_rating_chart(client: Client, zee_event, seat):
    ada, *others = make_players(4)
    matches = [seat(zee_event, [ada, other]) for other in others]
    for number, match in enumerate(matches):
        play(match, seed=number)
    refresh_tables()
    page = client.get(f"/players/{ada.pk}/").content.decode()
    for match in matches:
        assert f'href="/matches/{match.pk}/"' in page
    places = list(ada.seats.values_list("placement", flat=True))
    for place in set(places):
        count = re.search(
            rf'<li data-place="{place}"><span class="place">[^<]+</span> (\d+)\u00d7', page
        )
        assert count, f"no count for place {place}"
        assert int(count.group(1)) == places.count(place)
    chart = re.search(r'<svg[^>]*class="chart".*?</svg>', page, re.S)
    assert chart
    history = RatingChange.objects.filter(player=ada).count()
    assert history == 3
    assert chart.group(0).count("<circle") == history
    assert zee_event.league.name in chart.group(0)


def test_the_player_page_lists_stage_finishes(client: Client, zee_event):
    from tests.playing import play_stage, start_stage

    players = make_players(4)
    stage = start_stage(zee_event, "single_elimination", players, name="Cup")
    play_stage(stage, seed=5)
    stage.refresh_from_db()
    champion = stage.ranking[0][0]
    page = client.get(f"/players/{champion}/").content.decode()
    assert re.search(r'<span class="place">1st</span> in Cup', page)


def test_a_player_without_matches_has_a_page(client: Client):
    (player,) = make_players(1)
    page = client.get(f"/players/{player.pk}/").content.decode()
    assert "No matches yet." in page
    assert "No rated matches yet." in page


def test_unknown_leagues_and_players_are_not_found(client: Client):
    assert client.get("/leagues/no-such-league/").status_code == 404
    assert client.get("/leagues/no-such-league/live/").status_code == 404
    assert client.get("/players/999999/").status_code == 404
