"""Issue 38, paper results in the API: `POST matches/{id}/scorecard/` with the table's key or as
an organizer finishes a match from its pad (201, the match with `pad`, no turns); a pad no game
writes is 422 `pad_invalid` naming each cell and its rule, nothing stored; a retry with the same
Idempotency-Key gets the same answer; the webhooks and standings take it as any result."""

from typing import Any

import pytest
from rest_framework.test import APIClient

from games.models import Match
from tests.playing import pad_of, play

pytestmark = pytest.mark.django_db


def _post(match: dict[str, Any], pad: object, idempotency_key: str = "") -> Any:
    headers = {"X-Score-Key": match["score_key"]}
    if idempotency_key:
        headers["Idempotency-Key"] = idempotency_key
    return APIClient().post(
        f"/api/v1/matches/{match['id']}/scorecard/", {"pad": pad}, format="json", headers=headers
    )


def test_a_pad_sent_with_the_tables_key_finishes_the_match(players, seat_match):
    match = seat_match("yardzee", players[:3])
    pad = pad_of(Match.objects.get(pk=match["id"]), seed=3)
    answer = _post(match, pad, idempotency_key="pad-1")
    assert answer.status_code == 201, answer.json()
    body = answer.json()
    assert (body["status"], body["turns_played"], body["turns"], body["pad"]) == (
        "finished",
        0,
        [],
        pad,
    )
    assert sorted(p["placement"] for p in body["placements"])[0] == 1
    again = _post(match, pad, idempotency_key="pad-1")
    assert (again.status_code, again.json()) == (201, body)
    detail = APIClient().get(f"/api/v1/matches/{match['id']}/").json()
    assert detail["pad"] == pad


def test_a_pad_no_game_writes_is_422_naming_each_cell_and_nothing_is_stored(players, seat_match):
    match = seat_match("yardkle", players[:2])
    pad = pad_of(Match.objects.get(pk=match["id"]), seed=4)
    pad[1]["turns"][0] = 30  # no throw scores 30
    answer = _post(match, pad)
    assert answer.status_code == 422
    body = answer.json()
    assert body["code"] == "pad_invalid"
    error = body["details"]["errors"][0]
    assert (error["player"], error["turn"], error["code"]) == (1, 0, "turn_total_impossible")
    assert error["rule"]
    assert Match.objects.get(pk=match["id"]).status == "scheduled"


def test_a_pad_needs_the_key_or_an_organizer(players, seat_match):
    match = seat_match("yardzee", players[:2])
    pad = pad_of(Match.objects.get(pk=match["id"]), seed=5)
    anonymous = APIClient().post(
        f"/api/v1/matches/{match['id']}/scorecard/", {"pad": pad}, format="json"
    )
    assert anonymous.status_code == 401
    wrong = _post({**match, "score_key": "x" * 32}, pad)
    assert wrong.status_code == 403
    assert Match.objects.get(pk=match["id"]).status == "scheduled"


def test_a_match_with_turns_takes_no_pad(players, seat_match, as_organizer):
    match = seat_match("yardzee", players[:2])
    seated = Match.objects.get(pk=match["id"])
    pad = pad_of(seated, seed=6)
    play(seated, seed=6, turns=1)
    answer = as_organizer.post(
        f"/api/v1/matches/{match['id']}/scorecard/", {"pad": pad}, format="json"
    )
    assert (answer.status_code, answer.json()["code"]) == (409, "match_already_started")
