"""Corrections through the API (issue 16): void with a choice for the slot (item 1), the 409 a
change to a used stage gets and its confirmation (item 2), withdrawals (item 8) and un-void
(item 10); bad input is a 4xx with a code and changes nothing."""

import pytest
from rest_framework.test import APIClient

from games.models import Match
from league.models import Stage, StageMatch, StageVoid
from tests.api.helpers import play, started_stage
from tests.conftest import client_for


def _scheduled(stage_id: int) -> list[Match]:
    return list(
        Match.objects.filter(stage_match__stage_id=stage_id, status="scheduled").order_by("pk")
    )


@pytest.fixture
def field(yardzee_event, players) -> list[int]:
    yardzee_event.league.players.add(*players)
    return [p.pk for p in players]


@pytest.mark.django_db
def test_item1_void_replays_by_default_and_the_answer_is_the_void_match(
    as_organizer, yardzee_event, field
):
    stage = started_stage(as_organizer, yardzee_event.pk, field[:4], format="single_elimination")
    semi = _scheduled(stage["id"])[0]
    response = as_organizer.post(f"/api/v1/matches/{semi.pk}/void/", {}, format="json")
    assert response.status_code == 200, response.json()
    assert response.json()["status"] == "void"
    replay = StageVoid.objects.get(match=semi).replay
    assert response.json()["replay"] == replay.pk
    assert StageMatch.objects.get(match=replay).stage_id == stage["id"]


@pytest.mark.django_db
def test_item1_void_as_a_walkover_names_who_forfeits(as_organizer, yardzee_event, field):
    stage = started_stage(as_organizer, yardzee_event.pk, field[:4], format="single_elimination")
    semi = _scheduled(stage["id"])[0]
    loser = semi.seats.get(order=1).player_id
    response = as_organizer.post(
        f"/api/v1/matches/{semi.pk}/void/",
        {"outcome": "walkover", "forfeits": [loser]},
        format="json",
    )
    assert response.status_code == 200, response.json()
    assert StageMatch.objects.get(voids__match=semi).walkover


@pytest.mark.django_db
def test_item1_voiding_a_void_match_another_way_is_409_not_a_silent_200(
    as_organizer, yardzee_event, field
):
    """A semi voided for a replay, then voided again as a walkover: the second answered 200
    and recorded nothing (no walkover, the replay still seated). It is 409 `match_closed`,
    pointing to unvoid/; the same void again (or one asking nothing more) is 200, as before."""
    stage = started_stage(as_organizer, yardzee_event.pk, field[:4], format="single_elimination")
    semi = _scheduled(stage["id"])[0]
    loser = semi.seats.get(order=1).player_id
    url = f"/api/v1/matches/{semi.pk}/void/"
    assert as_organizer.post(url, {}, format="json").status_code == 200
    replay = StageVoid.objects.get(match=semi).replay_id
    again = as_organizer.post(url, {"outcome": "walkover", "forfeits": [loser]}, format="json")
    assert again.status_code == 409, again.json()
    assert again.json()["code"] == "match_closed"
    assert "unvoid/" in again.json()["message"]
    assert not StageMatch.objects.get(voids__match=semi).walkover
    assert StageVoid.objects.get(match=semi).replay_id == replay
    assert Match.objects.get(pk=replay).status == "scheduled"
    for body in ({}, {"outcome": "replay"}, {"reseed_later_stages": True}):
        assert as_organizer.post(url, body, format="json").status_code == 200, body
    assert StageVoid.objects.filter(match=semi).count() == 1


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({"outcome": "no_result"}, 400, "invalid_option"),
        ({"outcome": "walkover"}, 400, "invalid_option"),
        ({"outcome": "walkover", "forfeits": [999_999]}, 400, "not_seated"),
        ({"outcome": "again"}, 400, "invalid"),
        ({"forfeits": "everyone"}, 400, "invalid"),
    ],
)
def test_item1_a_bad_void_is_a_4xx_and_changes_nothing(
    as_organizer, yardzee_event, field, body, status, code
):
    stage = started_stage(as_organizer, yardzee_event.pk, field[:4], format="single_elimination")
    semi = _scheduled(stage["id"])[0]
    response = as_organizer.post(f"/api/v1/matches/{semi.pk}/void/", body, format="json")
    assert response.status_code == status, response.json()
    assert response.json()["code"] == code
    assert response.json()["message"]
    assert Match.objects.get(pk=semi.pk).status == "scheduled"


@pytest.mark.django_db
def test_a_walkover_naming_a_player_twice_is_refused(as_organizer, yardzee_event, field):
    """`forfeits: [a, a]` was taken as `[a]` without a word."""
    stage = started_stage(as_organizer, yardzee_event.pk, field[:4], format="single_elimination")
    semi = _scheduled(stage["id"])[0]
    seated = list(semi.seats.values_list("player_id", flat=True))
    body = {"outcome": "walkover", "forfeits": [seated[0], seated[0]]}
    response = as_organizer.post(f"/api/v1/matches/{semi.pk}/void/", body, format="json")
    assert (response.status_code, response.json()["code"]) == (400, "invalid_option")
    assert response.json()["details"] == {"field": "forfeits", "players": [seated[0]]}
    assert Match.objects.get(pk=semi.pk).status == "scheduled"


@pytest.mark.django_db
def test_item2_an_undo_reaching_a_used_stage_is_a_409_naming_the_later_stage(
    as_organizer, yardzee_event, field
):
    groups = started_stage(as_organizer, yardzee_event.pk, field[:4], format="round_robin")
    playoff = as_organizer.post(
        f"/api/v1/events/{yardzee_event.pk}/stages/",
        {
            "name": "Final",
            "format": "single_elimination",
            "source_stage": groups["id"],
            "source_top": 2,
        },
        format="json",
    ).json()
    for match in _scheduled(groups["id"]):
        play(as_organizer, match.pk)
    started = as_organizer.post(f"/api/v1/stages/{playoff['id']}/start/")
    assert started.status_code == 200, started.json()
    last = Match.objects.filter(stage_match__stage_id=groups["id"]).order_by("-pk").first()
    refused = as_organizer.post(f"/api/v1/matches/{last.pk}/undo/", {}, format="json")
    assert refused.status_code == 409
    assert refused.json()["code"] == "stage_in_use"
    assert refused.json()["details"]["stages"] == [playoff["id"]]
    confirmed = as_organizer.post(
        f"/api/v1/matches/{last.pk}/undo/", {"reseed_later_stages": True}, format="json"
    )
    assert confirmed.status_code == 200, confirmed.json()
    assert Stage.objects.get(pk=playoff["id"]).status == "draft"


@pytest.mark.django_db
def test_item8_withdraw_from_a_stage_answers_what_changed(as_organizer, yardzee_event, field):
    stage = started_stage(as_organizer, yardzee_event.pk, field[:4], format="round_robin")
    response = as_organizer.post(
        f"/api/v1/stages/{stage['id']}/withdraw/", {"player": field[0]}, format="json"
    )
    assert response.status_code == 200, response.json()
    answer = response.json()
    assert (answer["stage"], answer["player"]) == (stage["id"], field[0])
    assert len(answer["walkovers"]) == 3
    assert answer["replayed"] == []
    assert answer["in_progress"] == []
    again = as_organizer.post(
        f"/api/v1/stages/{stage['id']}/withdraw/", {"player": field[0]}, format="json"
    )
    assert again.status_code == 409
    assert again.json()["code"] == "already_withdrawn"
    stranger = as_organizer.post(
        f"/api/v1/stages/{stage['id']}/withdraw/", {"player": field[5]}, format="json"
    )
    assert stranger.status_code == 400
    assert stranger.json()["code"] == "not_entered"


@pytest.mark.django_db
def test_item8_withdraw_from_an_event_and_who_may(
    as_organizer, other_organizer, yardzee_event, field
):
    started_stage(as_organizer, yardzee_event.pk, field[:4], format="round_robin")
    url = f"/api/v1/events/{yardzee_event.pk}/withdraw/"
    assert client_for(other_organizer).post(url, {"player": field[1]}).status_code == 403
    assert APIClient().post(url, {"player": field[1]}).status_code in (401, 403)
    response = as_organizer.post(url, {"player": field[1]}, format="json")
    assert response.status_code == 200, response.json()
    assert [len(item["walkovers"]) for item in response.json()] == [3]


@pytest.mark.django_db
def test_item8_withdrawing_from_an_event_again_is_409_already_withdrawn(
    as_organizer, yardzee_event, field
):
    """As from one stage: sent twice, the second is 409 `already_withdrawn` and changes
    nothing; a player entered in no stage of the event stays 400 `not_entered`."""
    stage = started_stage(as_organizer, yardzee_event.pk, field[:4], format="round_robin")
    url = f"/api/v1/events/{yardzee_event.pk}/withdraw/"
    assert as_organizer.post(url, {"player": field[0]}, format="json").status_code == 200
    before = list(Match.objects.order_by("pk").values_list("pk", "status"))
    again = as_organizer.post(url, {"player": field[0]}, format="json")
    assert again.status_code == 409, again.json()
    assert again.json()["code"] == "already_withdrawn"
    assert again.json()["details"]["stages"] == [stage["id"]]
    assert list(Match.objects.order_by("pk").values_list("pk", "status")) == before
    stranger = as_organizer.post(url, {"player": field[5]}, format="json")
    assert stranger.status_code == 400
    assert stranger.json()["code"] == "not_entered"


@pytest.mark.django_db
def test_item10_unvoid_through_the_api(as_organizer, other_organizer, yardzee_event, field):
    stage = started_stage(as_organizer, yardzee_event.pk, field[:4], format="single_elimination")
    semi = _scheduled(stage["id"])[0]
    as_organizer.post(f"/api/v1/matches/{semi.pk}/void/", {}, format="json")
    url = f"/api/v1/matches/{semi.pk}/unvoid/"
    assert client_for(other_organizer).post(url).status_code == 403
    response = as_organizer.post(url)
    assert response.status_code == 200, response.json()
    assert response.json()["status"] == "scheduled"
    assert StageMatch.objects.get(match=semi).stage_id == stage["id"]
    again = as_organizer.post(url)
    assert again.status_code == 409
    assert again.json()["code"] == "match_not_void"
