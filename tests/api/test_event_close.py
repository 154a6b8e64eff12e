"""An event's status through the API (issue 16 item 6): it follows play, organizers close and
reopen it (`POST events/{id}/close/`, `POST events/{id}/reopen/`), PATCH cannot set it, and a
closed event refuses every write with 409 `event_closed`."""

from typing import Any

import pytest

import scoring
from games.models import Match
from league.models import Event, StageMatch
from scoring import simulate
from tests.api.helpers import started_stage
from tests.conftest import client_for

pytestmark = pytest.mark.django_db


@pytest.fixture
def zee(players, seat_match, yardzee_event):
    return seat_match("yardzee", players[:2], event=yardzee_event)


def _turns(match_id: int, seed: int = 0) -> list[dict[str, Any]]:
    match = Match.objects.get(pk=match_id)
    return simulate.play_game(
        scoring.new_game(match.game, match.seats.count(), match.rules), seed=seed
    )


def _first_turn(match_id: int) -> dict[str, Any]:
    player = Match.objects.get(pk=match_id).seats.get(order=0).player_id
    return {"player": player, **_turns(match_id)[0]}


def _status(client, event: Event) -> str:
    status: str = client.get(f"/api/v1/events/{event.pk}/").json()["status"]
    return status


def test_item6_the_status_reads_running_once_a_match_of_the_event_has_started(
    api, as_organizer, zee, yardzee_event
):
    assert _status(api, yardzee_event) == "upcoming"
    turn = as_organizer.post(
        f"/api/v1/matches/{zee['id']}/turns/", _first_turn(zee["id"]), format="json"
    )
    assert turn.status_code == 201, turn.json()
    assert _status(api, yardzee_event) == "running"


def test_item6_the_status_reads_finished_once_the_last_stage_has_finished(
    api, as_organizer, yardzee_event, players
):
    yardzee_event.league.players.add(*players)
    stage = started_stage(
        as_organizer,
        yardzee_event.pk,
        [p.pk for p in players[:2]],
        name="Duel",
        format="single_elimination",
    )
    final = StageMatch.objects.get(stage_id=stage["id"]).match_id
    result = as_organizer.post(
        f"/api/v1/matches/{final}/result/", {"turns": _turns(final)}, format="json"
    )
    assert result.status_code == 201, result.json()
    assert _status(api, yardzee_event) == "finished"


def test_item6_an_organizer_closes_and_reopens_an_event(as_organizer, zee, yardzee_event):
    closed = as_organizer.post(f"/api/v1/events/{yardzee_event.pk}/close/")
    assert closed.status_code == 200, closed.json()
    assert closed.json()["status"] == "finished"
    turn = as_organizer.post(
        f"/api/v1/matches/{zee['id']}/turns/", _first_turn(zee["id"]), format="json"
    )
    assert turn.status_code == 409
    assert turn.json()["code"] == "event_closed"
    reopened = as_organizer.post(f"/api/v1/events/{yardzee_event.pk}/reopen/")
    assert reopened.status_code == 200, reopened.json()
    assert reopened.json()["status"] == "upcoming"  # nothing of it was played
    turn = as_organizer.post(
        f"/api/v1/matches/{zee['id']}/turns/", _first_turn(zee["id"]), format="json"
    )
    assert turn.status_code == 201, turn.json()


def test_item6_an_event_is_cancelled_with_close_and_a_status(as_organizer, yardzee_event):
    response = as_organizer.post(
        f"/api/v1/events/{yardzee_event.pk}/close/", {"status": "cancelled"}, format="json"
    )
    assert response.status_code == 200, response.json()
    assert response.json()["status"] == "cancelled"
    again = as_organizer.post(
        f"/api/v1/events/{yardzee_event.pk}/close/", {"status": "finished"}, format="json"
    )
    assert again.status_code == 409
    assert again.json()["code"] == "event_closed"
    assert again.json()["details"] == {"event": yardzee_event.pk, "status": "cancelled"}


def test_item6_an_event_closes_only_as_finished_or_cancelled(as_organizer, yardzee_event):
    response = as_organizer.post(
        f"/api/v1/events/{yardzee_event.pk}/close/", {"status": "running"}, format="json"
    )
    assert response.status_code == 400
    assert response.json()["code"] == "invalid"
    assert "status" in response.json()["details"]["fields"]


def test_item6_close_is_409_matches_in_progress_with_their_ids(as_organizer, zee, yardzee_event):
    as_organizer.post(f"/api/v1/matches/{zee['id']}/turns/", _first_turn(zee["id"]), format="json")
    response = as_organizer.post(f"/api/v1/events/{yardzee_event.pk}/close/")
    assert response.status_code == 409
    body = response.json()
    assert body["code"] == "matches_in_progress"
    assert body["details"] == {"event": yardzee_event.pk, "matches": [zee["id"]]}
    assert Event.objects.get(pk=yardzee_event.pk).status == "running"


@pytest.mark.parametrize("action", ["close", "reopen"])
def test_item6_only_the_leagues_organizers_close_or_reopen_it(
    action, api, yardzee_event, player_account, other_organizer, staff
):
    path = f"/api/v1/events/{yardzee_event.pk}/{action}/"
    assert api.post(path).status_code == 401
    assert client_for(player_account).post(path).status_code == 403
    assert client_for(other_organizer).post(path).status_code == 403
    assert Event.objects.get(pk=yardzee_event.pk).status == "upcoming"
    assert client_for(staff).post(path).status_code == 200


@pytest.mark.parametrize("status", ["finished", "cancelled", "running"])
def test_item6_patch_cannot_set_the_status(as_organizer, yardzee_event, status):
    response = as_organizer.patch(
        f"/api/v1/events/{yardzee_event.pk}/", {"status": status}, format="json"
    )
    assert response.status_code == 400
    assert "close/" in response.json()["details"]["fields"]["status"][0]
    assert Event.objects.get(pk=yardzee_event.pk).status == "upcoming"
    same = as_organizer.patch(
        f"/api/v1/events/{yardzee_event.pk}/",
        {"status": "upcoming", "venue": "The park"},
        format="json",
    )
    assert same.status_code == 200, same.json()


def test_item6_a_new_event_starts_upcoming(as_organizer, yardzee_league):
    body = {"league": yardzee_league.slug, "name": "Week 9", "date": "2026-09-01"}
    refused = as_organizer.post("/api/v1/events/", {**body, "status": "finished"}, format="json")
    assert refused.status_code == 400
    created = as_organizer.post("/api/v1/events/", body, format="json")
    assert created.status_code == 201, created.json()
    assert created.json()["status"] == "upcoming"


def test_item6_a_closed_event_refuses_writes_through_every_endpoint(
    as_organizer, yardzee_event, players
):
    yardzee_event.league.players.add(*players)
    cup = started_stage(
        as_organizer, yardzee_event.pk, [p.pk for p in players[:4]], format="single_elimination"
    )
    later = as_organizer.post(
        f"/api/v1/events/{yardzee_event.pk}/stages/",
        {"name": "Plate", "format": "round_robin", "participants": [p.pk for p in players[:3]]},
        format="json",
    ).json()
    semi = StageMatch.objects.filter(stage_id=cup["id"]).order_by("slot").first()
    assert semi is not None
    assert semi.match_id is not None
    no_show = semi.match.seats.get(order=0).player_id
    assert as_organizer.post(f"/api/v1/events/{yardzee_event.pk}/close/").status_code == 200
    writes = {
        "turn": lambda: as_organizer.post(
            f"/api/v1/matches/{semi.match_id}/turns/", _first_turn(semi.match_id), format="json"
        ),
        "result": lambda: as_organizer.post(
            f"/api/v1/matches/{semi.match_id}/result/",
            {"turns": _turns(semi.match_id)},
            format="json",
        ),
        "void": lambda: as_organizer.post(f"/api/v1/matches/{semi.match_id}/void/"),
        "forfeit": lambda: as_organizer.post(
            f"/api/v1/stages/{cup['id']}/forfeit/",
            {"stage_match": semi.pk, "player": no_show},
            format="json",
        ),
        "stage start": lambda: as_organizer.post(f"/api/v1/stages/{later['id']}/start/"),
        "new stage": lambda: as_organizer.post(
            f"/api/v1/events/{yardzee_event.pk}/stages/",
            {"name": "More", "format": "round_robin", "participants": [p.pk for p in players[:2]]},
            format="json",
        ),
        "new match": lambda: as_organizer.post(
            "/api/v1/matches/",
            {
                "event": yardzee_event.pk,
                "game": "yardzee",
                "players": [players[4].pk, players[5].pk],
            },
            format="json",
        ),
    }
    for name, write in writes.items():
        response = write()
        assert response.status_code == 409, (name, response.json())
        assert response.json()["code"] == "event_closed", name
        assert response.json()["details"]["status"] == "finished", name
    assert Match.objects.get(pk=semi.match_id).status == "scheduled"
    assert Match.objects.filter(event=yardzee_event).count() == 2


def test_item6_close_and_reopen_are_in_the_schema(api):
    paths = api.get("/api/v1/schema/", HTTP_ACCEPT="application/json").json()["paths"]
    assert "post" in paths["/api/v1/events/{id}/close/"]
    assert "post" in paths["/api/v1/events/{id}/reopen/"]
