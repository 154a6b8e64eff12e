"""The scorekeeping page's preview: what the rules make of dice still being entered."""

import pytest
from rest_framework.test import APIClient

from games.models import Match, Turn


def _preview(match, body):
    return APIClient().post(f"/api/v1/matches/{match['id']}/preview/", body, format="json")


@pytest.mark.django_db
def test_yardzee_preview_lists_every_open_box_with_its_points(players, seat_match):
    match = seat_match("yardzee", players[:2])
    body = _preview(match, {"dice": [3, 3, 3, 6, 6]}).json()
    assert body["options"]["full_house"] == 25
    assert body["options"]["threes"] == 9
    assert body["options"]["large_straight"] == 0
    assert len(body["options"]) == 13
    assert body["yardzee_bonus"] == 0
    assert not Turn.objects.exists()


@pytest.mark.django_db
def test_yardzee_preview_greys_out_boxes_the_forced_joker_forbids(players, seat_match):
    match = seat_match("yardzee", players[:2])
    key = {"HTTP_X_SCORE_KEY": match["score_key"]}
    client = APIClient()
    first, second = (p["player"]["id"] for p in match["seats"])
    for player in (first, second):  # both fill Yardzee with 50
        turn = {"player": player, "rolls": [{"dice": [4, 4, 4, 4, 4]}], "category": "yardzee"}
        assert (
            client.post(
                f"/api/v1/matches/{match['id']}/turns/", turn, format="json", **key
            ).status_code
            == 201
        )
    body = _preview(match, {"dice": [2, 2, 2, 2, 2]}).json()
    assert body["options"]["twos"] == 10  # the upper box of that face must be filled
    assert body["options"]["full_house"] is None
    assert body["options"]["chance"] is None
    assert body["yardzee_bonus"] == 100


@pytest.mark.django_db
def test_yardkle_preview_gives_the_turn_so_far_and_the_legal_set_asides(players, seat_match):
    match = seat_match("yardkle", players[:2])
    body = _preview(
        match,
        {"throws": [{"dice": [1, 5, 2, 3, 4, 6], "set_aside": [1, 5]}], "dice": [1, 1, 2, 3]},
    ).json()
    assert body["turn_total"] == 150
    assert body["dice_to_throw"] == 4
    assert body["can_bank"] is False  # below the 500 entry minimum
    assert body["has_points"] is True
    assert {"dice": [1, 1], "points": 200} in body["set_aside_options"]


@pytest.mark.django_db
def test_preview_of_bad_dice_is_a_rule_violation_and_of_a_closed_match_409(players, seat_match):
    match = seat_match("yardzee", players[:2])
    bad = _preview(match, {"dice": [7, 1, 1, 1, 1]})
    assert bad.status_code == 422
    assert bad.json()["code"] == "invalid_die"
    Match.objects.filter(pk=match["id"]).update(status="void")
    assert _preview(match, {"dice": [1, 1, 1, 1, 1]}).status_code == 409


@pytest.mark.django_db
def test_a_yardkle_preview_of_more_dice_than_are_left_to_throw_is_refused(players, seat_match):
    match = seat_match("yardkle", players[:2])
    throws = [{"dice": [1, 1, 1, 2, 3, 4], "set_aside": [1, 1, 1]}]
    answer = _preview(match, {"throws": throws, "dice": [1, 5, 2, 3, 4, 6]})
    assert answer.status_code == 422, answer.json()
    assert answer.json()["code"] == "wrong_dice_count"
    assert _preview(match, {"throws": throws, "dice": [1, 5, 2]}).status_code == 200


@pytest.mark.django_db
def test_a_preview_at_a_closed_event_is_409_event_closed_as_its_turn_would_be(
    players, seat_match, yardzee_event
):
    """A match seated at an event that was then closed takes no turn (409 `event_closed`): its
    preview answered 200 with every box, as if the turn could be played."""
    from league.services.organization import event_close, event_reopen

    match = seat_match("yardzee", players[:2], event=yardzee_event)
    event_close(event_id=yardzee_event.pk)
    refused = _preview(match, {"dice": [1, 2, 3, 4, 5]})
    assert refused.status_code == 409
    assert refused.json()["code"] == "event_closed"
    assert refused.json()["details"] == {"event": yardzee_event.pk, "status": "finished"}
    event_reopen(event_id=yardzee_event.pk)
    assert _preview(match, {"dice": [1, 2, 3, 4, 5]}).status_code == 200
