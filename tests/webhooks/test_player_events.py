"""Issue 38: what a player is mailed about is a webhook event too (docs/api.md, "Webhooks"):
a registration received, approved, refused or moved up, an event's check-in opening, and a
stage match seated with its players (`match.ready`). Each sent once its change committed,
never with the registration's email or key."""

import json
from collections import Counter
from typing import Any

import pytest

from league.models import Event
from league.services import registration as reg
from league.services import stages
from tests.webhooks.receiver import Receiver

pytestmark = pytest.mark.django_db(transaction=True)


def bodies(receiver: Receiver) -> list[dict[str, Any]]:
    return [json.loads(request.body) for request in receiver.requests]


def test_registrations_check_in_and_a_match_seated_reach_the_endpoint(
    endpoint, receiver: Receiver, yardkle_event: Event
):
    reg.sign_up_set(event=yardkle_event, cap=2, check_in=True)
    rows = [
        reg.registration_create(
            event_id=yardkle_event.pk, display_name=name, email=f"{name.lower()}@example.org"
        ).registration
        for name in ("Ana", "Ben", "Cleo")  # Cleo waits in line
    ]
    reg.registration_approve(registration_id=rows[0].pk)
    reg.registration_refuse(registration_id=rows[1].pk)  # Cleo moves up
    reg.registration_approve(registration_id=rows[2].pk)
    assert reg.check_in_sweep() == 1
    assert reg.check_in_sweep() == 0
    for row in (rows[0], rows[2]):
        reg.registration_check_in(registration_id=row.pk)
    players = [
        row.player_id
        for row in Event.objects.get(pk=yardkle_event.pk).registrations.filter(status="confirmed")
    ]
    stage = stages.stage_create(
        event_id=yardkle_event.pk, name="Final", format="round_robin", player_ids=players
    )
    stages.stage_start(stage_id=stage.pk)
    receiver.wait_for(12)  # and the three standings tables the stage start marked
    sent = [body for body in bodies(receiver) if body["type"] != "standings.changed"]
    assert Counter(body["type"] for body in sent) == {
        "registration.received": 3,
        "registration.approved": 2,
        "registration.refused": 1,
        "registration.moved_up": 1,
        "checkin.opened": 1,
        "match.ready": 1,
    }
    refused = next(body for body in sent if body["type"] == "registration.refused")
    assert set(refused["data"]["registration"]) == {
        "id",
        "event",
        "display_name",
        "status",
        "player",
        "created_at",
        "decided_at",
        "path",
    }
    assert refused["data"]["registration"]["status"] == "refused"
    assert refused["data"]["registration"]["path"] == (
        f"/api/v1/events/{yardkle_event.pk}/registrations/"
    )
    assert all("@example.org" not in request.body.decode() for request in receiver.requests)
    opened = next(body for body in sent if body["type"] == "checkin.opened")["data"]
    assert opened["event"]["id"] == yardkle_event.pk
    assert set(opened["check_in"]) == {"opened_at", "opens", "closes"}
    ready = next(body for body in sent if body["type"] == "match.ready")["data"]["match"]
    assert ready["stage"] == stage.pk
    assert sorted(seat["player"] for seat in ready["seats"]) == sorted(players)
    assert (ready["table"], ready["planned_at"]) == ("", None)
