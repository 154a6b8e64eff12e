"""GET matches/{id}/analysis/ (issue 19, "API"): 200 with the analysis, 202 while it is being
made, 409 for a match not finished, 404 for a void one; query count flat in the turns."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from analysis import services
from games import services as game_services
from tests.playing import finished


@pytest.mark.django_db
def test_the_analysis_of_a_finished_match(tables, players):
    match = finished("yardzee", players[:2])
    pending = APIClient().get(f"/api/v1/matches/{match.pk}/analysis/")
    assert pending.status_code == 202
    assert pending.json() == {"match": match.pk, "status": "pending"}
    services.match_analyse(match_id=match.pk)
    answer = APIClient().get(f"/api/v1/matches/{match.pk}/analysis/").json()
    assert answer["status"] == "done"
    assert [p["player"] for p in answer["players"]] == [players[0].pk, players[1].pk]
    assert len(answer["turns"]) == 26
    decision = answer["turns"][0]["decisions"][0]
    assert {"chosen", "best", "loss"} <= set(decision)


@pytest.mark.django_db
def test_not_finished_is_409_and_void_is_404(players):
    match = game_services.match_create(game="yardkle", player_ids=[p.pk for p in players[:2]])
    refused = APIClient().get(f"/api/v1/matches/{match.pk}/analysis/")
    assert refused.status_code == 409
    assert refused.json()["code"] == "match_not_finished"
    game_services.match_void(match_id=match.pk, voided_by=None)
    gone = APIClient().get(f"/api/v1/matches/{match.pk}/analysis/")
    assert gone.status_code == 404
    assert gone.json()["code"] == "not_found"


@pytest.mark.django_db
def test_the_query_count_does_not_grow_with_the_turns(players):
    short = finished("yardkle", players[:2], seed=1)
    long = finished("yardkle", players[2:6], seed=2)
    assert long.turns_played > short.turns_played
    counts = []
    for match in (short, long):
        services.match_analyse(match_id=match.pk)
        with CaptureQueriesContext(connection) as queries:
            assert APIClient().get(f"/api/v1/matches/{match.pk}/analysis/").status_code == 200
        counts.append(len(queries))
    assert counts[0] == counts[1]
