"""Issue 15, "Every write through a service": the admin cannot change what only services may
write, and its actions call the services."""

import json

import pytest
from django.contrib.auth.models import User
from django.test import Client

from games.models import MatchStatus
from league.models import Event, League, Player
from league.services import stages
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


def test_rules_are_not_written_in_the_admin_but_through_the_services(admin_client, zee_event):
    """A league's or an event's rules, added or changed in the admin, would skip the rulebook's
    checks (`[]` there made every later match of the event a 500): they are read-only there,
    and set with the API or the organizer's pages."""
    league = zee_event.league
    for path in (
        "/admin/league/league/add/",
        "/admin/league/event/add/",
        f"/admin/league/event/{zee_event.pk}/change/",
    ):
        page = admin_client.get(path).content.decode()
        assert 'name="rules"' not in page, path
        assert 'name="name"' in page, path
    admin_client.post(
        f"/admin/league/event/{zee_event.pk}/change/",
        {
            "league": league.pk,
            "name": "Renamed",
            "date": "2026-06-01",
            "status": zee_event.status,
            "rules": "[]",
        },
    )
    zee_event.refresh_from_db()
    assert (zee_event.name, zee_event.rules) == ("Renamed", {})
    admin_client.post(
        "/admin/league/league/add/",
        {
            "name": "New",
            "slug": "new-league",
            "game": "yardzee",
            "rules": "[]",
            "tiebreak": json.dumps(["luck"]),
            "points": json.dumps({"win": "many"}),
            "events-TOTAL_FORMS": "0",
            "events-INITIAL_FORMS": "0",
        },
    )
    added = League.objects.get(slug="new-league")
    assert added.rules == {}
    # Nor points or a tiebreak the standings' checks never saw: the defaults.
    default = League(game="yardzee")
    assert (added.points, added.tiebreak) == (default.points, default.tiebreak)
    page = admin_client.get("/admin/league/league/add/").content.decode()
    assert 'name="points"' not in page
    assert 'name="tiebreak"' not in page


def test_a_league_cannot_take_an_address_of_the_organizer_pages_in_the_admin(
    admin_client: Client, zee_event: Event
):
    """`new` is /organize/leagues/new/ (league.services.organization.check_slug)."""
    league = zee_event.league
    page = admin_client.post(
        f"/admin/league/league/{league.pk}/change/", {"name": league.name, "slug": "new"}
    ).content.decode()
    assert "the organizer pages&#x27; own" in page
    league.refresh_from_db()
    assert league.slug != "new"


def test_a_player_cannot_take_a_handle_another_has_in_another_case_in_the_admin(
    admin_client: Client,
):
    """Handles are one player's in any case of their letters (`ensure_handle_free`)."""
    Player.objects.create(display_name="Bo One", handle="bo")
    other = Player.objects.create(display_name="Bo Two", handle="bo-two")
    page = admin_client.post(
        f"/admin/league/player/{other.pk}/change/", {"display_name": "Bo Two", "handle": "BO"}
    ).content.decode()
    assert "Another player has the handle" in page
    other.refresh_from_db()
    assert other.handle == "bo-two"


def test_records_are_never_deleted_nor_typed_in_in_the_admin(
    admin_client: Client, zee_event: Event, seat
):
    """A turn deleted in the admin left its match's state and totals as they were; a receipt
    added there (every field read-only) was a 500; a stage's bye or forfeit could be typed in,
    changed or deleted, none of it scored or advanced by the stage services."""
    match = seat(zee_event, make_players(2))
    play(match, seed=1)
    turn = match.turns.order_by("sequence").first()
    assert turn is not None
    assert admin_client.get(f"/admin/games/turn/{turn.pk}/delete/").status_code == 403
    admin_client.post(f"/admin/games/turn/{turn.pk}/delete/", {"post": "yes"})
    assert match.turns.filter(pk=turn.pk).exists()
    answer = admin_client.post(
        "/admin/games/turn/", {"action": "delete_selected", "_selected_action": [turn.pk]}
    )
    assert answer.status_code < 500
    assert match.turns.filter(pk=turn.pk).exists()
    for model in ("games/submissionreceipt", "league/stagebye", "league/stageforfeit"):
        assert admin_client.get(f"/admin/{model}/").status_code == 200, model
        assert admin_client.get(f"/admin/{model}/add/").status_code == 403, model
        assert admin_client.post(f"/admin/{model}/add/", {}).status_code == 403, model


def test_a_stage_and_its_entries_are_shown_only_in_the_admin(
    admin_client: Client, zee_event: Event
):
    """A stage's options and entries change through the stage services, which check them and
    seed again (and only while it is a draft): the admin could change a running stage's table
    size or entries, and delete a stage without `stage_delete`'s checks."""
    players = make_players(4)
    zee_event.league.players.add(*players)
    stage = stages.stage_create(
        event_id=zee_event.pk,
        name="Final",
        format="round_robin",
        table_size=2,
        player_ids=[p.pk for p in players],
    )
    page = admin_client.get(f"/admin/league/stage/{stage.pk}/change/").content.decode()
    for field in ('name="table_size"', 'name="name"', 'name="entries-0-player"'):
        assert field not in page, field
    admin_client.post(
        f"/admin/league/stage/{stage.pk}/change/",
        {"name": "Renamed", "table_size": "5", "entries-TOTAL_FORMS": "0"},
    )
    stage.refresh_from_db()
    assert (stage.name, stage.table_size) == ("Final", 2)
    assert admin_client.get(f"/admin/league/stage/{stage.pk}/delete/").status_code == 403
    assert stage.entries.count() == 4


def test_an_events_status_and_league_are_not_typed_in_in_the_admin(
    admin_client: Client, zee_event: Event, seat
):
    """A status typed in skipped `event_close` (refused while a match is being played) and
    `event_reopen`; a league changed moved the event, its matches and stages to another
    league, maybe of another game."""
    match = seat(zee_event, make_players(2))
    play(match, seed=1, turns=1)
    other = League.objects.create(name="Yardkle nights", slug="yk", game="yardkle")
    page = admin_client.get(f"/admin/league/event/{zee_event.pk}/change/").content.decode()
    assert 'name="status"' not in page
    assert 'name="league"' not in page
    admin_client.post(
        f"/admin/league/event/{zee_event.pk}/change/",
        {"league": other.pk, "name": "Night 1", "date": "2026-06-06", "status": "finished"},
    )
    zee_event.refresh_from_db()
    assert zee_event.league_id != other.pk
    assert zee_event.status != "finished"
    league_page = admin_client.get(
        f"/admin/league/league/{zee_event.league_id}/change/"
    ).content.decode()
    assert 'name="events-0-status"' not in league_page
    assert 'name="players"' not in league_page
    added = admin_client.get("/admin/league/event/add/").content.decode()
    assert 'name="league"' in added
    assert 'name="status"' not in added


def test_names_follow_the_services_rules_in_the_admin(admin_client: Client, zee_event: Event):
    """An invisible character in a league's or an event's name, and a player renamed to look
    like another on their roster, were taken in the admin; the services refuse them."""
    league = zee_event.league
    answer = admin_client.post(
        f"/admin/league/league/{league.pk}/change/",
        {
            "name": "Back\u200byard",
            "slug": league.slug,
            "events-TOTAL_FORMS": "0",
            "events-INITIAL_FORMS": "0",
        },
    )
    assert "invisible or control characters" in answer.content.decode()
    answer = admin_client.post(
        f"/admin/league/event/{zee_event.pk}/change/",
        {"name": "Night\u202e 1", "date": "2026-06-06", "venue": "La\u200bwn"},
    )
    assert "invisible or control characters" in answer.content.decode()
    admin_client.post(
        f"/admin/league/event/{zee_event.pk}/change/",
        {"name": "  Night   2 ", "date": "2026-06-06", "venue": ""},
    )
    zee_event.refresh_from_db()
    league.refresh_from_db()
    assert (league.name, zee_event.name, zee_event.venue) == ("Backyard Yardzee", "Night 2", "")
    ana, other = make_players(2)
    league.players.add(ana, other)
    answer = admin_client.post(
        f"/admin/league/player/{other.pk}/change/",
        {"display_name": ana.display_name.upper(), "handle": other.handle},
    )
    assert "two names that look alike" in answer.content.decode()
    other.refresh_from_db()
    assert other.display_name == "Player 2"


def test_an_organizers_invitation_is_shown_only_in_the_admin_without_its_token(
    admin_client: Client, zee_event: Event
):
    from league.services import organization

    organizer = zee_event.league.organizers.get()
    sent = organization.invitation_create(
        league=zee_event.league, email="ana@example.org", invited_by=organizer
    )
    listed = admin_client.get("/admin/league/organizerinvitation/").content.decode()
    assert "ana@example.org" in listed
    assert "Pending" in listed
    page = admin_client.get(
        f"/admin/league/organizerinvitation/{sent.invitation.pk}/change/"
    ).content.decode()
    assert "ana@example.org" in page
    assert sent.invitation.token_hash not in page
    assert sent.token not in page
    assert admin_client.get("/admin/league/organizerinvitation/add/").status_code == 403
