"""A stage's projection through the API (docs/api.md, `GET stages/{id}/projection/`): pending
before the first figures, then each player's chances once the job has run, and worked out again
when a stage match finishes (docs/analysis.md, "Chance to qualify")."""

import pytest
from django.conf import settings

from league.models import PlayerRating, StageMatch, StageProjection
from league.services import projections
from league.tasks import stage_projection
from tests.api.helpers import play, started_stage


@pytest.fixture
def field(yardzee_event, players):
    yardzee_event.league.players.add(*players)
    return [p.pk for p in players[:4]]


@pytest.mark.django_db
def test_the_projection_is_pending_until_its_job_has_run_then_gives_every_players_chances(
    as_organizer, yardzee_event, field
):
    stage = started_stage(as_organizer, yardzee_event.pk, field, format="round_robin")
    url = f"/api/v1/stages/{stage['id']}/projection/"
    pending = as_organizer.get(url)
    assert pending.status_code == 202
    assert pending.json() == {"stage": stage["id"], "status": "pending"}

    assert stage_projection(stage["id"]) is True
    answer = as_organizer.get(url)
    assert answer.status_code == 200
    body = answer.json()
    assert body["status"] == "current"
    assert body["runs"] == settings.STAGE_PROJECTION_RUNS  # 20 in the tests, 2,100 by default
    assert body["standard_error"] == pytest.approx(
        0.5 / settings.STAGE_PROJECTION_RUNS**0.5, abs=1e-6
    )
    assert [row["player"] for row in body["players"]] == field  # seed order
    assert body["players"][0]["name"] == "Player 1"
    for row in body["players"]:
        assert len(row["places"]) == 4
        assert sum(row["places"]) == pytest.approx(1.0)
        assert row["qualify"] is None  # no stage takes players from this one
    assert sum(row["win"] for row in body["players"]) == pytest.approx(1.0)


@pytest.mark.django_db
def test_a_stage_not_started_has_no_projection(as_organizer, yardzee_event, field):
    created = as_organizer.post(
        f"/api/v1/events/{yardzee_event.pk}/stages/",
        {"name": "Later", "format": "round_robin", "participants": field},
        format="json",
    )
    assert created.status_code == 201, created.json()
    response = as_organizer.get(f"/api/v1/stages/{created.json()['id']}/projection/")
    assert response.status_code == 404


@pytest.mark.django_db
def test_a_better_rated_player_has_the_better_chance_and_the_next_stages_cut_qualifies(
    as_organizer, yardzee_event, field
):
    stage = started_stage(as_organizer, yardzee_event.pk, field, format="round_robin")
    following = as_organizer.post(
        f"/api/v1/events/{yardzee_event.pk}/stages/",
        {"name": "Final", "format": "round_robin", "source_stage": stage["id"], "source_top": 2},
        format="json",
    )
    assert following.status_code == 201, following.json()
    league = yardzee_event.league
    for player, mu in zip(field, [20.0, 25.0, 25.0, 35.0], strict=True):
        PlayerRating.objects.create(
            league=league, player_id=player, mu=mu, sigma=2.0, ordinal=mu - 6
        )
    stage_projection(stage["id"])
    body = as_organizer.get(f"/api/v1/stages/{stage['id']}/projection/").json()
    chances = {row["player"]: row for row in body["players"]}
    assert sum(row["qualify"] for row in body["players"]) == pytest.approx(2.0)
    assert chances[field[3]]["win"] > 0.5 > chances[field[0]]["win"]
    assert chances[field[3]]["qualify"] > chances[field[1]]["qualify"]


@pytest.mark.django_db
def test_a_finished_stage_match_works_the_projection_out_again(
    as_organizer, yardzee_event, field, django_capture_on_commit_callbacks
):
    stage = started_stage(as_organizer, yardzee_event.pk, field, format="single_elimination")
    stage_projection(stage["id"])
    before = StageProjection.objects.get(stage_id=stage["id"])
    semi = StageMatch.objects.filter(stage_id=stage["id"], round=1).select_related("match")[0]
    with django_capture_on_commit_callbacks(execute=True):
        play(as_organizer, semi.match_id)
    after = StageProjection.objects.get(stage_id=stage["id"])
    assert after.version > before.version
    assert after.version == projections.stage_version(stage["id"])
    body = as_organizer.get(f"/api/v1/stages/{stage['id']}/projection/").json()
    assert body["status"] == "current"
    semi.refresh_from_db()
    loser = semi.order[1]
    out = next(row for row in body["players"] if row["player"] == loser)
    assert out["win"] == 0.0
    assert out["places"][:2] == [0.0, 0.0]
