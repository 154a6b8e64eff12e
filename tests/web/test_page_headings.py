"""Each page has one <h1>; a fragment htmx loads into another page adds none to it."""

import pytest
from django.contrib.auth.models import User
from django.test import Client

from games import services as game_services
from league.models import Event
from tests.games.conftest import SCRIPTED_YARDZEE

from .conftest import make_players

CONTROLS = ["undo", "correct", "void", "walkover", "unvoid"]


@pytest.mark.django_db
@pytest.mark.parametrize("control", CONTROLS)
def test_a_match_control_page_has_one_h1_and_its_htmx_fragment_none(
    control: str, yardzee_event: Event, organizer: User
) -> None:
    players = make_players(2)
    yardzee_event.league.players.add(*players)
    match = game_services.match_create(
        game="yardzee",
        player_ids=[p.pk for p in players],
        event_id=yardzee_event.pk,
        league_id=yardzee_event.league_id,
    )
    game_services.turn_submit(match_id=match.pk, turn=SCRIPTED_YARDZEE[0])
    client = Client()
    client.force_login(organizer)
    url = f"/organize/matches/{match.pk}/{control}/"
    page = client.get(url).content.decode()
    fragment = client.get(url, HTTP_HX_REQUEST="true").content.decode()
    assert page.count("<h1") == 1, url
    assert "<h1" not in fragment, url
    assert "match-control-step" in fragment, url
