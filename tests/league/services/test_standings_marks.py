"""What a change marks stale besides a result (`league.services.standings_marks`): a new
tiebreak order marks every table of the league, and a stage's first-round byes and walkovers
move its tables without a finished match."""

import pytest
from rest_framework.test import APIClient

from league.models import StandingsScope
from league.services import checks, stages, standings_refresh
from tests.league.services.league_night import finish, fresh_rows, no_tasks, seat, stored_table


@pytest.mark.django_db(transaction=True)
def test_changing_the_tiebreak_order_reranks_the_leagues_tables(league_event, field, organizer):
    with no_tasks():
        for seed in range(3):
            finish(seat(league_event, field[seed : seed + 3]), seed)
    standings_refresh.standings_table_computed_on_miss((StandingsScope.EVENT, league_event.pk))
    client = APIClient()
    client.force_authenticate(organizer)
    response = client.patch(
        f"/api/v1/leagues/{league_event.league.slug}/",
        {"tiebreak": ["total_score", "points"]},
        format="json",
    )
    assert response.status_code == 200, response.json()
    table = stored_table(StandingsScope.EVENT, league_event.pk)
    assert table.tiebreak == ["total_score", "points"]
    assert not table.pending
    assert table.rows == fresh_rows((StandingsScope.EVENT, league_event.pk))
    scores = [row["total_score"] for row in table.rows]
    assert scores == sorted(scores, reverse=True)


@pytest.mark.django_db(transaction=True)
def test_first_round_byes_and_a_walkover_move_the_tables_without_a_finished_match(
    league_event, field
):
    finish(seat(league_event, field[:2]), 1)  # the event's and league's tables exist
    swiss = stages.stage_create(
        event_id=league_event.pk, name="Swiss", format="swiss", player_ids=field[:5]
    )
    stages.stage_start(stage_id=swiss.pk)  # five players at pairs: one first-round bye
    scopes = [(StandingsScope.EVENT, league_event.pk), (StandingsScope.STAGE, swiss.pk)]
    assert sum(row["byes"] for row in stored_table(*scopes[0]).rows) == 1
    knockout = stages.stage_create(
        event_id=league_event.pk, name="KO", format="single_elimination", player_ids=field[:4]
    )
    stages.stage_start(stage_id=knockout.pk)
    first = knockout.stage_matches.order_by("slot").first()
    no_show = first.match.seats.order_by("order").first().player_id
    stages.stage_forfeit(stage_match_id=first.pk, player_id=no_show)
    scopes.append((StandingsScope.STAGE, knockout.pk))
    assert list(checks.standings_check(scopes).differences) == []
    row = next(row for row in stored_table(*scopes[2]).rows if row["player"] == no_show)
    assert row["forfeits"] == 1
