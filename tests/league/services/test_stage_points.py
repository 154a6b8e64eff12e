"""A stage keeps the points scheme it started with (issue 16, item 5): a later change of the
league's points re-ranks the league's and events' tables and stages not yet started, never a
stage already drawn, so its final ranking and its own table always agree (docs/standings.md,
"League points")."""

import random

import pytest

from games.models import Match
from league.models import Stage, StandingsScope
from league.services import league_update, stages, standings_refresh
from tests.league.services.league_night import finish, new_players

WINNER_TAKES_ALL = {"placement": {"4": [10, 0, 0, 0]}}


def _play_out(stage: Stage, seed: int) -> None:
    rng = random.Random(seed)
    while waiting := list(Match.objects.filter(stage_match__stage=stage, status="scheduled")):
        finish(rng.choice(waiting).pk, seed=rng.randrange(10**6))


def _table_order(scope: tuple[str, int]) -> list[list[int]]:
    tiers: dict[int, list[int]] = {}
    for row in standings_refresh.compute_table(scope)[1]:
        tiers.setdefault(row.rank, []).append(row.player)
    return [tiers[rank] for rank in sorted(tiers)]


@pytest.mark.django_db
def test_item5_a_stage_stores_the_league_scheme_when_it_starts(event):
    league = event.league
    league_update(league=league, points={"win": 2, "placement": {"3": [4, 1, 0]}})
    stage = stages.stage_create(
        event_id=event.pk, name="RR", format="round_robin", player_ids=new_players("P", 4)
    )
    assert stage.points == {}  # a draft follows the league
    stages.stage_start(stage_id=stage.pk)
    stage.refresh_from_db()
    assert stage.points == {"win": 2, "draw": 1, "loss": 0, "placement": {"3": [4, 1, 0]}}


@pytest.mark.django_db
def test_item5_new_league_points_do_not_reorder_a_finished_stage_but_reach_the_event(event):
    stage = stages.stage_create(
        event_id=event.pk,
        name="RR",
        format="round_robin",
        player_ids=new_players("P", 8),
        table_size=4,
        tiebreak=["points", "total_score"],
    )
    stages.stage_start(stage_id=stage.pk)
    _play_out(stage, seed=7)
    stage.refresh_from_db()
    stage_scope = (StandingsScope.STAGE, stage.pk)
    assert _table_order(stage_scope) == stage.ranking
    league_update(league=event.league, points=WINNER_TAKES_ALL, tiebreak=["points", "total_score"])
    # The event's table follows the league's new points and now orders the players otherwise
    # (a first place is all that counts)...
    event_order = _table_order((StandingsScope.EVENT, event.pk))
    assert event_order != stage.ranking
    # ... while the stage keeps the scheme it was played under: one ranking, shown everywhere.
    assert _table_order(stage_scope) == stage.ranking
    stored = standings_refresh.standings_table_computed_on_miss(stage_scope)
    ranked: dict[int, list[int]] = {}
    for row in stored.rows:
        ranked.setdefault(row["rank"], []).append(row["player"])
    assert [ranked[rank] for rank in sorted(ranked)] == stage.ranking
