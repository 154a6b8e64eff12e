"""Steps many API tests take on the way to what they check: a stage created and started, a
match's result sent, each asserted to succeed so that a test fails where its setup does."""

from typing import Any

from rest_framework.test import APIClient

from games.models import Match
from tests.playing import simulated_turns


def started_stage(
    client: APIClient, event_id: int, player_ids: list[int], **options: Any
) -> dict[str, Any]:
    """POST a stage (named "Cup" unless `options` says) of `player_ids` at the event and start
    it; the started stage as the API answers it."""
    created = client.post(
        f"/api/v1/events/{event_id}/stages/",
        {"name": "Cup", "participants": player_ids, **options},
        format="json",
    )
    assert created.status_code == 201, created.json()
    started = client.post(f"/api/v1/stages/{created.json()['id']}/start/")
    assert started.status_code == 200, started.json()
    stage: dict[str, Any] = started.json()
    return stage


def post_result(client: APIClient, match_id: int, turns: list[dict[str, Any]]) -> None:
    """POST matches/{id}/result/ with `turns`; it must be stored."""
    response = client.post(f"/api/v1/matches/{match_id}/result/", {"turns": turns}, format="json")
    assert response.status_code == 201, response.json()


def play(client: APIClient, match_id: int, seed: int = 1) -> None:
    """Send the simulator's whole game (seed `seed`) for the match as its result."""
    post_result(client, match_id, simulated_turns(Match.objects.get(pk=match_id), seed))
