"""Issue 15, "Every write through a service": the admin cannot change what only services may
write, and its actions call the services."""

import pytest
from django.contrib.auth.models import User
from django.test import Client

from games.models import MatchStatus
from league.models import Event
from tests.playing import play

from .conftest import make_players

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin_client(client: Client) -> Client:
    client.force_login(User.objects.create_superuser("root", password="pw-root"))
    return client


def test_a_matchs_status_rules_and_event_cannot_be_edited_in_the_admin(
    admin_client: Client, zee_event: Event, seat
):
    match = seat(zee_event, make_players(2))
    page = admin_client.get(f"/admin/games/match/{match.pk}/change/").content.decode()
    for field in ("status", "rules", "event", "game", "league"):
        assert f'name="{field}"' not in page, field
    admin_client.post(
        f"/admin/games/match/{match.pk}/change/", {"status": "finished", "game": "yardkle"}
    )
    match.refresh_from_db()
    assert (match.status, match.game) == (MatchStatus.SCHEDULED, "yardzee")
    assert admin_client.get("/admin/games/match/add/").status_code == 403


def test_voiding_from_the_admin_goes_through_the_service(admin_client: Client, zee_event, seat):
    match = seat(zee_event, make_players(2))
    play(match, seed=1)
    match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED
    table = zee_event.league.standings_tables.get(scope="event")
    marked = table.requested
    response = admin_client.post(
        "/admin/games/match/", {"action": "void", "_selected_action": [match.pk]}, follow=True
    )
    assert "Voided 1 match" in response.content.decode()
    match.refresh_from_db()
    assert match.status == MatchStatus.VOID
    table.refresh_from_db()
    assert table.requested > marked  # the service marked the event's table stale


def test_a_leagues_points_and_tiebreak_are_read_only_in_the_admin(admin_client, zee_event):
    league = zee_event.league
    page = admin_client.get(f"/admin/league/league/{league.pk}/change/").content.decode()
    for field in ("points", "tiebreak", "rules", "game"):
        assert f'name="{field}"' not in page, field
    assert 'name="name"' in page


def test_turns_their_undos_and_corrections_and_stage_matches_are_records_only(
    admin_client: Client, zee_event: Event, seat
):
    """Shown field by field, never added nor changed in the admin (`RecordAdmin`)."""
    match = seat(zee_event, make_players(2))
    play(match, seed=1)
    turn = match.turns.order_by("sequence").first()
    assert turn is not None
    for model in ("games/turn", "games/turnundo", "games/turncorrection", "league/stagematch"):
        assert admin_client.get(f"/admin/{model}/add/").status_code == 403, model
        assert admin_client.get(f"/admin/{model}/").status_code == 200, model
    page = admin_client.get(f"/admin/games/turn/{turn.pk}/change/").content.decode()
    assert 'name="points"' not in page
    admin_client.post(f"/admin/games/turn/{turn.pk}/change/", {"points": turn.points + 1})
    points = turn.points
    turn.refresh_from_db()
    assert turn.points == points
