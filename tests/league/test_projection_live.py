"""A stage's projection takes the live chances of its matches being played (issue 39: "for
matches in progress from the figures above"): a stored forecast of a stage match projects the
stage again, the match is then decided by its chances after the last turn instead of the
ratings, and a projection whose results and live chances have not moved is kept
(docs/analysis.md, "Chance to qualify")."""

import pytest

from analysis.models import MatchForecast
from games.models import Match, MatchStatus
from league.models import StageProjection
from league.services import projections
from league.tasks import stage_projection
from tests.playing import play, start_stage

# Every stored turn forecasts its match, as in production (tests/conftest.py).
pytestmark = pytest.mark.usefixtures("live_forecasts")


def _first_match(stage):
    match = Match.objects.filter(stage_match__stage=stage).order_by("pk").first()
    assert match is not None
    return match, list(match.seats.order_by("order").values_list("player_id", flat=True))


def _forecast(match, players, chances, version=None):
    """A stored forecast of `match` whose chances after its last turn are `chances`."""
    MatchForecast.objects.update_or_create(
        match=match,
        defaults={
            "version": version if version is not None else match.version,
            "model": "yardkle-race",
            "players": players,
            "chances": [[1 / len(players)] * len(players), chances],
            "marks": ["1:"],
        },
    )


@pytest.mark.django_db
def test_turns_of_a_stage_match_project_its_stage_with_the_live_chances(
    yardkle_event, players, api, django_capture_on_commit_callbacks
):
    stage = start_stage(yardkle_event, "round_robin", players[:4])
    match, _seated = _first_match(stage)
    with django_capture_on_commit_callbacks(execute=True):
        play(match, seed=3, turns=4)
    match.refresh_from_db()
    assert match.status == MatchStatus.IN_PROGRESS
    forecast = MatchForecast.objects.get(match=match)
    kept = StageProjection.objects.get(stage=stage)
    assert kept.live == {str(match.pk): forecast.version}
    body = api.get(f"/api/v1/stages/{stage.pk}/projection/").json()
    assert body["live"] == [match.pk]
    assert body["status"] == "current"


@pytest.mark.django_db
def test_a_match_being_played_is_decided_by_its_live_chances(yardkle_event, players):
    stage = start_stage(yardkle_event, "single_elimination", players[:4])
    match, seated = _first_match(stage)
    play(match, seed=3, turns=2)  # in progress; its forecast job not run
    match.refresh_from_db()
    _forecast(match, seated, [0.0, 1.0])  # the second seat is sure to win it
    setup = projections.stage_setup(stage)
    # The bracket's entrants are the stage's in seed order: the arrays take it (brackets.py).
    assert tuple(setup.bracket.participants) == setup.players
    stage_projection(stage.pk)
    figures = StageProjection.objects.get(stage=stage).chances()
    assert figures[seated[0]]["win"] == 0.0
    assert figures[seated[0]]["places"][:2] == [0.0, 0.0]
    assert figures[seated[1]]["places"][0] + figures[seated[1]]["places"][1] == 1.0

    _forecast(match, seated, [1.0, 0.0], version=match.version + 1)  # the other way now
    stage_projection(stage.pk)
    figures = StageProjection.objects.get(stage=stage).chances()
    assert figures[seated[1]]["win"] == 0.0
    assert figures[seated[0]]["places"][0] + figures[seated[0]]["places"][1] == 1.0


@pytest.mark.django_db
def test_the_projection_is_kept_while_neither_results_nor_live_chances_move(yardkle_event, players):
    stage = start_stage(yardkle_event, "round_robin", players[:4])
    match, seated = _first_match(stage)
    play(match, seed=3, turns=2)
    match.refresh_from_db()
    _forecast(match, seated, [0.7, 0.3])
    first = projections.stage_project(stage_id=stage.pk)
    assert first is not None
    assert first.live == {str(match.pk): match.version}
    again = projections.stage_project(stage_id=stage.pk)
    assert again is not None
    assert again.computed_at == first.computed_at
    _forecast(match, seated, [0.2, 0.8], version=match.version + 1)
    moved = projections.stage_project(stage_id=stage.pk)
    assert moved is not None
    assert moved.computed_at > first.computed_at
    assert moved.live == {str(match.pk): match.version + 1}


@pytest.mark.django_db
def test_a_forecast_before_the_first_turn_or_of_a_finished_match_is_not_used(
    yardkle_event, players
):
    stage = start_stage(yardkle_event, "round_robin", players[:4])
    match, seated = _first_match(stage)
    MatchForecast.objects.create(
        match=match,
        version=match.version,
        model="yardkle-race",
        players=seated,
        chances=[[0.5, 0.5]],
        marks=[],
    )
    setup = projections.stage_setup(stage)
    assert projections.live_overrides(stage, setup) == ({}, {})
    play(match, seed=3)  # finished: a result, no longer an override
    match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED
    _forecast(match, seated, [1.0, 0.0])
    setup = projections.stage_setup(stage)
    assert projections.live_overrides(stage, setup) == ({}, {})
