"""The stage projection's service (docs/analysis.md, "Chance to qualify"): the stage read from
the database as the simulator takes it, a match being played given its own chances, and a
finished stage's certain figures."""

import pytest

from games.models import MatchStatus
from league.models import StageMatch, StageProjection
from league.services import projections
from tests.playing import fed_stage, play_stage, start_stage
from tests.web.conftest import make_players

pytestmark = pytest.mark.django_db


def test_the_setup_holds_the_results_the_matches_left_and_the_next_stages_cut(event):
    stage = start_stage(event, "round_robin", make_players(4))
    fed_stage(stage, source_top=2)
    play_stage(stage, seed=1, limit=2)
    setup = projections.stage_setup(stage)
    assert setup.format == "round_robin"
    assert setup.players == tuple(stage.entries.order_by("seed").values_list("player", flat=True))
    assert len(setup.results) == 2
    assert len(setup.pending) == 4  # six matches in a round robin of four
    assert {m.match_id for m in setup.pending} == set(
        StageMatch.objects.filter(stage=stage, match__status=MatchStatus.SCHEDULED).values_list(
            "match_id", flat=True
        )
    )
    assert setup.qualifying is not None
    assert setup.qualifying.top == 2


def test_a_match_being_played_can_be_given_its_own_chances(event):
    stage = start_stage(event, "single_elimination", make_players(2))
    final = StageMatch.objects.get(stage=stage)
    seats = list(final.match.seats.order_by("order").values_list("player_id", flat=True))
    first = projections.stage_project(stage_id=stage.pk)
    assert projections.stage_project(stage_id=stage.pk) == first  # kept at this version
    sure = projections.stage_project(
        stage_id=stage.pk, overrides={final.match_id: [0.0, 1.0]}, force=True
    )
    assert sure.chances()[seats[1]]["win"] == 1.0
    assert sure.chances()[seats[0]]["win"] == 0.0
    assert StageProjection.objects.get(stage=stage).figures == sure.figures


def test_a_finished_stage_has_certain_figures(event):
    stage = start_stage(event, "single_elimination", make_players(4))
    play_stage(stage, seed=2)
    stage.refresh_from_db()
    assert stage.status == "finished"
    kept = projections.stage_project(stage_id=stage.pk)
    assert kept.runs == 1
    assert kept.figures["standard_error"] == 0.0
    champion = stage.ranking[0][0]
    assert kept.chances()[champion]["win"] == 1.0
    assert sum(row["win"] for row in kept.chances().values()) == 1.0
