"""What a change marks stale besides a result (`league.services.standings_marks`): a new
tiebreak order marks every table of the league, a stage's first-round byes and walkovers
move its tables without a finished match, and what leaves a table without a result withdrawn
(an entrant, a bye, a walkover) has it counted afresh."""

import pytest
from rest_framework.test import APIClient

from games import services as game_services
from games.models import Match
from league.models import StandingsScope
from league.services import checks, registration, stages, standings_refresh
from scoring import simulate
from tests.league.services.league_night import finish, fresh_rows, no_tasks, seat, stored_table
from tests.league.services.test_registration import confirmed
from tests.playing import fed_stage


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


# --- Something taken away outside a withdrawn result: an entrant, a bye, a walkover --------------
# A tally only adds (docs/standings.md, "The tally"): whatever leaves a table without a finished
# result being withdrawn (a player off a draft, entries replaced at a start, byes of a stage
# back in draft, a walkover taken back) must have its tables counted afresh, or they keep it.


def _tables(*scopes: tuple[str, int]) -> list[tuple[str, int]]:
    for scope in scopes:
        standings_refresh.standings_table_computed_on_miss(scope)
    return list(scopes)


def _listed(scope: tuple[str, int]) -> set[int]:
    return {row["player"] for row in stored_table(*scope).rows}


@pytest.mark.django_db(transaction=True)
def test_a_player_taken_off_a_draft_leaves_its_table(league_event, field):
    draft = stages.stage_create(
        event_id=league_event.pk, name="Pool", format="round_robin", player_ids=field[:4]
    )
    (scope,) = _tables((StandingsScope.STAGE, draft.pk))
    assert _listed(scope) == set(field[:4])
    stages.stage_withdraw(stage_id=draft.pk, player_id=field[0])
    assert _listed(scope) == set(field[1:4])
    assert list(checks.standings_check([scope]).differences) == []


@pytest.mark.django_db(transaction=True)
def test_players_not_checked_in_leave_the_table_of_the_stage_they_were_dropped_from(
    league_event,
):
    registration.sign_up_set(event=league_event, check_in=True)
    rows = confirmed(league_event, "Ana", "Ben", "Cleo", "Dev")
    for row in rows[:3]:
        registration.registration_check_in(registration_id=row.pk)
    ids = [row.player_id for row in rows]
    pool = stages.stage_create(
        event_id=league_event.pk, name="Pool", format="round_robin", player_ids=ids
    )
    (scope,) = _tables((StandingsScope.STAGE, pool.pk))
    assert stages.stage_start(stage_id=pool.pk).dropped == [ids[3]]
    assert _listed(scope) == set(ids[:3])
    assert list(checks.standings_check([scope]).differences) == []


@pytest.mark.django_db(transaction=True)
def test_a_fed_stage_back_in_draft_drops_its_byes_and_lists_only_whom_its_start_took(
    league_event, field
):
    source = stages.stage_start(
        stage_id=stages.stage_create(
            event_id=league_event.pk, name="Pool", format="round_robin", player_ids=field[:4]
        ).pk
    )
    swiss = fed_stage(source, name="Swiss", format="swiss", source_top=3)
    while waiting := Match.objects.filter(stage_match__stage=source, status="scheduled"):
        finish(waiting.order_by("pk").first().pk, 7)
    swiss = stages.stage_start(stage_id=swiss.pk)  # three players in pairs: a first-round bye
    scopes = _tables(
        (StandingsScope.STAGE, swiss.pk),
        (StandingsScope.EVENT, league_event.pk),
        (StandingsScope.LEAGUE, league_event.league_id),
    )
    assert sum(row["byes"] for row in stored_table(*scopes[1]).rows) == 1
    last = Match.objects.filter(stage_match__stage=source).order_by("-finished_at").first()
    game_services.turn_undo(match_id=last.pk, undone_by=None, then={"reseed_later_stages": True})
    for scope in scopes:  # the bye went with the draw
        assert sum(row["byes"] for row in stored_table(*scope).rows) == 0, scope
    assert list(checks.standings_check(scopes).differences) == []
    stages.draft_entries_keep(  # entries kept in draft (an import's): its start takes others
        stage_id=swiss.pk,
        entries=[
            stages.KeptEntry(player, seed, 1, None) for seed, player in enumerate(field[4:], 1)
        ],
    )
    assert _listed(scopes[0]) == set(field[4:])
    reopened = Match.objects.get(pk=last.pk)
    for turn in simulate.play_game(reopened.scoring_game(), seed=50):
        game_services.turn_submit(match_id=reopened.pk, turn=turn)
    swiss = stages.stage_start(stage_id=swiss.pk)
    assert _listed(scopes[0]) == set(swiss.entries.values_list("player_id", flat=True))
    assert list(checks.standings_check(scopes).differences) == []


@pytest.mark.django_db(transaction=True)
def test_a_walkover_taken_back_counts_no_more(league_event, field):
    pool = stages.stage_start(
        stage_id=stages.stage_create(
            event_id=league_event.pk, name="Pool", format="round_robin", player_ids=field[:4]
        ).pk
    )
    match = Match.objects.filter(stage_match__stage=pool).order_by("pk").first()
    finish(match.pk, 3)
    scopes = _tables(
        (StandingsScope.STAGE, pool.pk),
        (StandingsScope.EVENT, league_event.pk),
        (StandingsScope.LEAGUE, league_event.league_id),
    )
    loser = match.seats.get(placement=2).player_id
    game_services.match_void(
        match_id=match.pk, voided_by=None, then={"outcome": "walkover", "forfeits": [loser]}
    )
    game_services.match_unvoid(match_id=match.pk, unvoided_by=None)
    for scope in scopes:  # the game counts again, once; the walkover and its forfeit not
        row = next(r for r in stored_table(*scope).rows if r["player"] == loser)
        assert (row["matches"], row["forfeits"]) == (1, 0), scope
    assert list(checks.standings_check(scopes).differences) == []
