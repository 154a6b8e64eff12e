"""Issue 38, item 2: an event's entrants from the league's roster in one step (tick, all
shown, search, who played at the league's previous event), every player shown checked in at
once with a search, and a new stage that ticks the checked-in players to begin with; the
organizers alone, and a refusal changes nothing."""

import re
from datetime import date

import pytest
from django.contrib.auth.models import User
from django.test import Client

from games import services as game_services
from league.models import Event, League, Player, Registration, SignUp
from league.services import entrants
from league.services import registration as reg
from tests.organize.test_events import roster

pytestmark = pytest.mark.django_db


@pytest.fixture
def as_organizer(organizer: User) -> Client:
    client = Client()
    client.force_login(organizer)
    return client


def _page(event: Event) -> str:
    return f"/organize/events/{event.pk}/sign-up/"


def _shown_ids(html: str) -> list[int]:
    """The player ids the "Enter all N shown" form posts."""
    start = html.index("Enter the ticked players")
    form = html[start : html.index("</form>", html.index("<form", start))]
    return [int(part.split('"')[0]) for part in form.split('name="player" value="')[1:]]


def test_every_roster_player_shown_is_entered_and_confirmed_in_one_post(
    as_organizer: Client, yardzee_event: Event
):
    players = roster(yardzee_event.league, 14)
    SignUp.objects.create(event=yardzee_event, open=False, check_in=True)
    html = as_organizer.get(_page(yardzee_event)).content.decode()
    assert "14 players of" in html
    ids = _shown_ids(html)
    assert sorted(ids) == sorted(p.pk for p in players)
    done = as_organizer.post(
        f"/organize/events/{yardzee_event.pk}/registrations/roster/", {"player": ids}
    )
    assert done.status_code == 302
    confirmed = Registration.objects.filter(event=yardzee_event, status="confirmed")
    assert sorted(confirmed.values_list("player_id", flat=True)) == sorted(ids)
    html = as_organizer.get(_page(yardzee_event)).content.decode()
    assert "Everyone on" in html  # nobody left to enter
    # Then all of them checked in with one more post.
    assert "Check in all 14 shown" in html
    registrations = [r.pk for r in confirmed]
    as_organizer.post(
        f"/organize/events/{yardzee_event.pk}/registrations/check-in/",
        {"registration": registrations},
    )
    assert not confirmed.filter(checked_in_at__isnull=True).exists()


def test_a_full_event_puts_the_rest_on_the_waiting_list_and_the_registered_are_left(
    yardzee_event: Event,
):
    players = roster(yardzee_event.league, 6)
    SignUp.objects.create(event=yardzee_event, open=False, cap=4)
    entrants.roster_enter(event_id=yardzee_event.pk, player_ids=[p.pk for p in players[:2]])
    done = entrants.roster_enter(event_id=yardzee_event.pk, player_ids=[p.pk for p in players])
    assert done.already == [players[0].pk, players[1].pk]
    assert done.confirmed == [players[2].pk, players[3].pk]
    assert done.waiting == [players[4].pk, players[5].pk]


def test_a_player_not_on_the_roster_refuses_the_whole_step(
    as_organizer: Client, yardzee_event: Event
):
    players = roster(yardzee_event.league, 3)
    stranger = Player.objects.create(display_name="Stranger", handle="stranger")
    answer = as_organizer.post(
        f"/organize/events/{yardzee_event.pk}/registrations/roster/",
        {"player": [players[0].pk, stranger.pk]},
        follow=True,
    )
    assert f"Player {stranger.pk} is not on the roster" in answer.content.decode()
    assert not Registration.objects.filter(event=yardzee_event).exists()


def test_the_roster_is_searched_and_filtered_by_who_played_at_the_previous_event(
    as_organizer: Client, yardzee_event: Event
):
    league: League = yardzee_event.league
    players = roster(league, 5)
    earlier = Event.objects.create(league=league, name="Week 0", date=date(2026, 5, 1))
    game_services.match_create(
        game="yardzee",
        player_ids=[players[0].pk, players[3].pk],
        event_id=earlier.pk,
        league_id=league.pk,
    )
    searched = as_organizer.get(_page(yardzee_event), {"q": players[2].display_name.upper()})
    assert _shown_ids(searched.content.decode()) == [players[2].pk]
    played = as_organizer.get(_page(yardzee_event), {"played": "before"}).content.decode()
    assert "Played at Week 0" in played
    assert sorted(_shown_ids(played)) == sorted([players[0].pk, players[3].pk])


def test_check_in_all_shown_checks_in_only_the_players_the_search_shows(
    as_organizer: Client, yardzee_event: Event
):
    players = roster(yardzee_event.league, 4)
    SignUp.objects.create(event=yardzee_event, open=False, check_in=True)
    entrants.roster_enter(event_id=yardzee_event.pk, player_ids=[p.pk for p in players])
    html = as_organizer.get(_page(yardzee_event), {"cq": players[1].display_name}).content.decode()
    assert "Check in all 1 shown" in html
    start = html.index("Check in all 1 shown")
    form = html[html.rindex("<form", 0, start) : start]
    posted = [int(p.split('"')[0]) for p in form.split('name="registration" value="')[1:]]
    as_organizer.post(
        f"/organize/events/{yardzee_event.pk}/registrations/check-in/", {"registration": posted}
    )
    checked = Registration.objects.filter(event=yardzee_event, checked_in_at__isnull=False)
    assert list(checked.values_list("player_id", flat=True)) == [players[1].pk]


def test_a_new_stage_ticks_the_players_checked_in(as_organizer: Client, yardzee_event: Event):
    players = roster(yardzee_event.league, 5)
    SignUp.objects.create(event=yardzee_event, open=False, check_in=True)
    entrants.roster_enter(event_id=yardzee_event.pk, player_ids=[p.pk for p in players])
    for registration in Registration.objects.filter(player__in=players[:3]):
        reg.registration_check_in(registration_id=registration.pk)
    html = as_organizer.get(f"/organize/events/{yardzee_event.pk}/stages/add/").content.decode()
    assert "Ticked to begin with: the players checked in." in html
    ticked = [int(found) for found in re.findall(r'value="(\d+)" id="plays-\d+" checked', html)]
    assert sorted(ticked) == sorted(p.pk for p in players[:3])
    assert "Tick all" in html


def test_only_the_leagues_organizers_enter_players_or_check_them_in(
    other_organizer: User, yardzee_event: Event
):
    players = roster(yardzee_event.league, 2)
    client = Client()
    client.force_login(other_organizer)
    for url, data in (
        ("registrations/roster/", {"player": [p.pk for p in players]}),
        ("registrations/check-in/", {"registration": [1]}),
    ):
        assert client.post(f"/organize/events/{yardzee_event.pk}/{url}", data).status_code == 403
    assert not Registration.objects.filter(event=yardzee_event).exists()
