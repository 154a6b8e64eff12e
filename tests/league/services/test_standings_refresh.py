"""Refreshing standings tables (`league.services.standings_refresh`): equal to a from-scratch
computation whatever order results arrive in, coalesced, computed on a miss when first asked
for, in a constant number of queries; the stored tally a refresh adds to, and when it is
counted afresh instead."""

import importlib
import json
import random
import uuid
from types import SimpleNamespace
from typing import cast

import pytest
from django.apps import apps
from django.db import connection
from django.test.utils import CaptureQueriesContext
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rest_framework.test import APIClient

from games import services as game_services
from games.models import Match, Seat
from league import results as result_rows
from league import tasks
from league.models import (
    Event,
    League,
    Stage,
    StageMatch,
    StandingsScope,
    StandingsTable,
    StandingsTally,
)
from league.services import checks, stages, standings_marks, standings_refresh
from league.standings.tally import TALLY_VERSION
from scoring import simulate
from tests.league.services.league_night import (
    assert_converged,
    finish,
    fresh_rows,
    new_players,
    no_tasks,
    seat,
    stored_table,
)


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("arrival", ["in_order", "reversed", "shuffled"])
def test_standings_equal_a_from_scratch_computation_whatever_order_results_arrive(
    league_event, field, arrival
):
    rng = random.Random(arrival)
    ids = [seat(league_event, rng.sample(field, rng.choice([2, 3, 4]))) for _ in range(8)]
    order = {"in_order": ids, "reversed": ids[::-1], "shuffled": rng.sample(ids, len(ids))}
    for seed, match_id in enumerate(order[arrival]):
        finish(match_id, seed)
    assert_converged(league_event)


@pytest.mark.django_db(transaction=True)
def test_refreshing_the_same_results_twice_computes_once(league_event, field):
    finish(seat(league_event, field[:2]), 1)
    table = stored_table(StandingsScope.EVENT, league_event.pk)
    assert standings_refresh.standings_refresh(table_id=table.pk) is False


@pytest.mark.django_db(transaction=True)
def test_ten_results_in_a_burst_cost_one_recompute_per_table(league_event, field):
    with no_tasks():
        ids = [seat(league_event, field[i % 5 : i % 5 + 2]) for i in range(10)]
        for seed, match_id in enumerate(ids):
            finish(match_id, seed)
    table = stored_table(StandingsScope.EVENT, league_event.pk)
    assert table.pending
    refreshes = [tasks.standings_refresh.apply(args=(table.pk,)).get() for _ in range(10)]
    assert refreshes.count(True) == 1
    assert not stored_table(StandingsScope.EVENT, league_event.pk).pending


@pytest.mark.django_db(transaction=True)
def test_stage_standings_count_byes_and_list_every_entrant(league_event, field):
    stage = stages.stage_create(
        event_id=league_event.pk, name="Swiss", format="swiss", player_ids=field[:5]
    )
    stages.stage_start(stage_id=stage.pk)
    body = APIClient().get(f"/api/v1/stages/{stage.pk}/standings/").json()
    assert sorted(row["player"] for row in body["rows"]) == sorted(field[:5])
    first = Match.objects.filter(stage_match__stage=stage).first()
    finish(first.pk, 1)
    table = stored_table(StandingsScope.STAGE, stage.pk)
    assert table.rows == fresh_rows((StandingsScope.STAGE, stage.pk))
    assert sum(row["byes"] for row in table.rows) == 1


@pytest.mark.django_db(transaction=True)
def test_standings_and_leaderboard_export_as_csv(league_event, field):
    finish(seat(league_event, field[:3]), 2)
    response = APIClient().get(f"/api/v1/events/{league_event.pk}/standings/?format=csv")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/csv")
    lines = response.content.decode().splitlines()
    header = lines[0].split(",")
    assert header[:3] == ["rank", "player", "name"]
    assert [f"metric:{key}" for key in league_event.league.tiebreak] == header[-6:]
    assert len(lines) == 4
    board = APIClient().get(f"/api/v1/leagues/{league_event.league.slug}/ratings/?format=csv")
    assert board.content.decode().splitlines()[0].startswith("rank,player,name")


def _a_ring_of_results(event: Event, tag: str, size: int) -> list[int]:
    """`size` new players' ids, each having played the next (the last the first): `size`
    results at the event."""
    players = new_players(tag, size)
    for i in range(size):
        finish(seat(event, [players[i], players[(i + 1) % size]]), i)
    return players


@pytest.mark.django_db(transaction=True)
def test_query_count_of_a_full_recompute_is_constant_in_matches_and_players(league_event):
    counts = []
    for size in (4, 12):
        with no_tasks():
            _a_ring_of_results(league_event, f"Q{size}", size)
        with CaptureQueriesContext(connection) as captured:
            standings_refresh.compute_rows((StandingsScope.EVENT, league_event.pk))
        counts.append(len(captured))
    assert counts[0] == counts[1], counts


# --- The stored tally: a refresh adds what finished since; a withdrawal counts afresh ----------


def _tally(scope: tuple[str, int]) -> StandingsTally:
    return StandingsTally.objects.get(table__scope=scope[0], table__scope_id=scope[1])


def _inflate_stored_total(scope: tuple[str, int], player: int, by: int) -> None:
    """Tamper with the stored tally, so the tables show whether a refresh added to it."""
    stored = _tally(scope)
    index = stored.data["players"]["player"].index(player)
    stored.data["players"]["total_score"][index] += by
    stored.save()


@pytest.mark.django_db(transaction=True)
def test_a_refresh_adds_new_results_to_the_stored_tally_and_a_withdrawal_counts_afresh(
    league_event, field, organizer
):
    scope = (StandingsScope.EVENT, league_event.pk)
    ids = [seat(league_event, field[i : i + 3]) for i in range(3)]
    finish(ids[0], 0)
    assert _tally(scope).counted == stored_table(*scope).computed  # the first refresh counted all
    finish(ids[1], 1)
    _inflate_stored_total(scope, field[1], 1000)
    standings_refresh.forget_tallies()  # a worker that kept none reads the stored tally
    finish(ids[2], 7)
    row = next(row for row in stored_table(*scope).rows if row["player"] == field[1])
    fresh = next(row for row in fresh_rows(scope) if row["player"] == field[1])
    assert row["total_score"] == cast("int", fresh["total_score"]) + 1000  # added to the tally
    game_services.turn_undo(match_id=ids[2], undone_by=organizer)  # a result withdrawn
    assert stored_table(*scope).rows == fresh_rows(scope)
    assert _tally(scope).counted == stored_table(*scope).computed


@pytest.mark.django_db(transaction=True)
def test_a_tally_counting_a_result_that_no_longer_stands_is_not_added_to(
    league_event, field, organizer
):
    scope = (StandingsScope.EVENT, league_event.pk)
    ids = [seat(league_event, field[i : i + 2]) for i in range(3)]
    with no_tasks():
        finish(ids[0], 1)
        finish(ids[1], 2)
    standings_refresh.standings_refresh(table_id=stored_table(*scope).pk)
    with no_tasks():
        game_services.match_void(match_id=ids[0], voided_by=organizer)
        finish(ids[2], 3)
    # As if the withdrawal's rebuild mark had been lost: the tally still counts the void match.
    StandingsTable.objects.filter(scope=scope[0], scope_id=scope[1]).update(rebuild_from=0)
    standings_refresh.standings_refresh(table_id=stored_table(*scope).pk)
    assert stored_table(*scope).rows == fresh_rows(scope)
    assert ids[0] not in [result.match_id for result in result_rows.load_results(scope)[0]]


@pytest.mark.django_db(transaction=True)
def test_a_result_undone_and_played_again_between_two_refreshes_is_counted_afresh(
    league_event, field, organizer
):
    scope = (StandingsScope.EVENT, league_event.pk)
    match_id = seat(league_event, field[:3])
    finish(match_id, 1)
    before = stored_table(*scope).rows
    with no_tasks():  # no job runs between the undo and the new last turns
        for _ in range(6):
            game_services.turn_undo(match_id=match_id, undone_by=organizer)
        reopened = Match.objects.get(pk=match_id)
        for turn in simulate.play_game(reopened.scoring_game(), seed=41):
            game_services.turn_submit(match_id=match_id, turn=turn)
    standings_refresh.standings_refresh(table_id=stored_table(*scope).pk)
    assert stored_table(*scope).rows == fresh_rows(scope)
    assert stored_table(*scope).rows != before  # the same match, another result


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    "damage",
    [
        {"version": 1},
        {"tables": {"players": {"dtype": "<f8", "data": ""}}},
        {"players": {"player": [1]}},
    ],
)
def test_an_unreadable_stored_tally_is_counted_afresh(league_event, field, damage):
    scope = (StandingsScope.EVENT, league_event.pk)
    finish(seat(league_event, field[:3]), 1)
    stored = _tally(scope)
    stored.data = {**stored.data, **damage}
    stored.save()
    standings_refresh.forget_tallies()  # a worker that has not kept it reads the stored one
    finish(seat(league_event, field[2:5]), 2)
    assert stored_table(*scope).rows == fresh_rows(scope)
    assert _tally(scope).data["version"] == TALLY_VERSION


@pytest.mark.django_db(transaction=True)
def test_a_new_points_scheme_counts_every_table_afresh(league_event, field, organizer):
    scope = (StandingsScope.EVENT, league_event.pk)
    for seed in range(3):
        finish(seat(league_event, field[seed : seed + 3]), seed)
    client = APIClient()
    client.force_authenticate(organizer)
    response = client.patch(
        f"/api/v1/leagues/{league_event.league.slug}/",
        {"points": {"placement": {"3": [10, 4, 0]}}},
        format="json",
    )
    assert response.status_code == 200, response.json()
    assert stored_table(*scope).rows == fresh_rows(scope)
    assert max(row["points"] for row in stored_table(*scope).rows) >= 10


@pytest.mark.django_db(transaction=True)
def test_the_stored_tally_is_brought_up_to_date_every_so_many_results(
    league_event, field, monkeypatch
):
    monkeypatch.setattr(standings_refresh, "TALLY_STORE_EVERY", 3)
    scope = (StandingsScope.EVENT, league_event.pk)
    finish(seat(league_event, field[:2]), 0)
    first = _tally(scope).counted
    counted = []
    for seed in range(1, 7):
        finish(seat(league_event, field[seed % 5 : seed % 5 + 2]), seed)
        counted.append(_tally(scope).counted)
        assert stored_table(*scope).rows == fresh_rows(scope)
    # Stored again at the 3rd and 6th result added since the stored one, not in between.
    assert counted == [first, first, first + 3, first + 3, first + 3, first + 6]


@pytest.mark.django_db(transaction=True)
def test_query_count_of_a_refresh_after_one_more_result_is_constant(league_event):
    counts = []
    for size in (4, 12):
        players = _a_ring_of_results(league_event, f"R{size}", size)
        with no_tasks():
            finish(seat(league_event, players[:2]), 99)
        table = stored_table(StandingsScope.EVENT, league_event.pk)
        with CaptureQueriesContext(connection) as captured:
            assert standings_refresh.standings_refresh(table_id=table.pk)
        counts.append(len(captured))
    assert counts[0] == counts[1], counts


@pytest.mark.django_db(transaction=True)
@settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    steps=st.lists(
        st.tuples(st.sampled_from(["finish", "undo", "void", "refresh"]), st.integers(0, 99)),
        min_size=4,
        max_size=14,
    )
)
def test_standings_equal_a_from_scratch_computation_after_any_run_of_results_undos_and_voids(
    organizer, steps
):
    """Random league nights: results, undos and voids, with the refresh jobs running at
    arbitrary moments in between (or not at all); once the last job ran, every table equals a
    from-scratch computation."""
    run = uuid.uuid4().hex[:8]
    league = League.objects.create(name=f"Random {run}", slug=f"random-{run}", game="yardkle")
    event = Event.objects.create(league=league, name="Night", date="2026-08-01")
    players = new_players(run, 5)
    scopes = [(StandingsScope.EVENT, event.pk), (StandingsScope.LEAGUE, league.pk)]
    finished: list[int] = []
    with no_tasks():
        for action, number in steps:
            if action == "finish":
                seated = [players[(number + k) % 5] for k in range(2 + number % 3)]
                finish(seat(event, seated), number)
                finished.append(Match.objects.latest("pk").pk)
            elif action in ("undo", "void") and finished:
                match_id = finished.pop(number % len(finished))
                if action == "undo":
                    game_services.turn_undo(match_id=match_id, undone_by=organizer)
                else:
                    game_services.match_void(match_id=match_id, voided_by=organizer)
            elif action == "refresh":
                for scope in scopes:
                    table = StandingsTable.objects.filter(scope=scope[0], scope_id=scope[1]).first()
                    if table is not None:
                        standings_refresh.standings_refresh(table_id=table.pk)
    standings_refresh.standings_sweep()
    kept = [s for s in scopes if StandingsTable.objects.filter(scope=s[0], scope_id=s[1]).exists()]
    assert list(checks.standings_check(kept).differences) == []


@pytest.mark.django_db(transaction=True)
def test_migration_0010_marks_every_table_stale_and_a_version_2_tally_is_counted_afresh(
    league_event, field
):
    """Tally version 3 (walkovers have no game score): the migration marks every stored table
    for the sweep, and a version 2 tally is not added to but counted again."""
    migration = importlib.import_module(
        "league.migrations.0010_standings_without_scores_of_walkovers"
    )
    finish(seat(league_event, field[:2]), 1)
    table = stored_table(StandingsScope.EVENT, league_event.pk)
    assert not table.pending
    StandingsTally.objects.filter(table=table).update(data={"version": 2})
    standings_refresh.forget_tallies()  # a deploy with a migration restarts the workers
    migration.mark_every_table_stale(apps, SimpleNamespace(connection=connection))
    assert stored_table(StandingsScope.EVENT, league_event.pk).pending
    assert standings_refresh.standings_sweep()["standings"] >= 1
    table = stored_table(StandingsScope.EVENT, league_event.pk)
    assert not table.pending
    assert StandingsTally.objects.get(table=table).data["version"] == TALLY_VERSION == 3
    assert table.rows == fresh_rows((StandingsScope.EVENT, league_event.pk))


@pytest.mark.django_db(transaction=True)
def test_a_worker_adds_to_the_tally_it_kept_until_a_change_needs_a_rebuild(
    league_event, field, organizer
):
    scope = (StandingsScope.EVENT, league_event.pk)
    ids = [seat(league_event, field[i : i + 3]) for i in range(4)]
    finish(ids[0], 0)
    finish(ids[1], 1)
    _inflate_stored_total(scope, field[1], 1000)  # the kept tally is used, not this one
    finish(ids[2], 7)
    assert stored_table(*scope).rows == fresh_rows(scope)
    # A match with a lower id finishing after a higher one is found all the same.
    finish(ids[3], 3)
    assert len(stored_table(*scope).rows) == len({p for i in range(4) for p in field[i : i + 3]})
    assert stored_table(*scope).rows == fresh_rows(scope)
    game_services.turn_undo(match_id=ids[2], undone_by=organizer)  # a rebuild mark
    assert stored_table(*scope).rows == fresh_rows(scope)


@pytest.mark.django_db(transaction=True)
def test_a_match_finishing_out_of_id_order_is_added_to_the_kept_tally(league_event, field):
    scope = (StandingsScope.EVENT, league_event.pk)
    early, late = seat(league_event, field[:2]), seat(league_event, field[2:4])
    finish(late, 1)  # the higher id first
    table_id = stored_table(*scope).pk
    assert standings_refresh._kept[table_id][1].match_ids == {late}
    finish(early, 2)
    assert standings_refresh._kept[table_id][1].match_ids == {early, late}
    assert stored_table(*scope).rows == fresh_rows(scope)


@pytest.mark.django_db(transaction=True)
def test_a_table_kept_through_results_withdrawals_and_a_reopen_equals_a_full_recompute(
    league_event, field, organizer, monkeypatch
):
    """Results finished through the games' services mark their tables with the match, and a
    worker that kept the table reads only those (`pending_matches`); a void and an undone
    last turn (a reopen, then the match played to the end again) withdraw a result. After
    every step each stored table equals a full recompute, line for line: place, rank, the
    metrics kept apart (Buchholz, head-to-head), and the totals."""
    league_event.league.tiebreak = ["points", "head_to_head", "buchholz", "wins", "best_score"]
    league_event.league.save()
    listed: list[bool] = []
    count_since = standings_refresh._count_since

    def spy(tally, scope, settings, ids=None, seats=None):
        listed.append(ids is not None and seats is not None)  # read with the list
        return count_since(tally, scope, settings, ids, seats)

    monkeypatch.setattr(standings_refresh, "_count_since", spy)
    rng = random.Random(41)
    finished: list[int] = []
    scopes = [
        (StandingsScope.EVENT, league_event.pk),
        (StandingsScope.LEAGUE, league_event.league_id),
    ]
    for step in range(16):
        if step in (6, 12):  # a result withdrawn: the match voided
            game_services.match_void(match_id=finished.pop(0), voided_by=organizer)
        elif step == 9:  # the last result reopened by an undo, then played to the end again
            match_id = finished[-1]
            with no_tasks():
                game_services.turn_undo(match_id=match_id, undone_by=organizer)
            standings_refresh.standings_refresh(table_id=stored_table(*scopes[0]).pk)
            reopened = Match.objects.get(pk=match_id)
            for turn in simulate.play_game(reopened.scoring_game(), seed=step):
                game_services.turn_submit(match_id=match_id, turn=turn)
        else:
            match_id = seat(league_event, rng.sample(field, rng.choice([2, 3, 4])))
            finish(match_id, step)
            finished.append(match_id)
        for scope in scopes:
            table = stored_table(*scope)
            assert not table.pending
            assert table.pending_matches == []
            fresh = fresh_rows(scope)
            assert table.rows == fresh, (step, scope)
            assert [(row["player"], row["rank"]) for row in table.rows] == [
                (row["player"], row["rank"]) for row in fresh
            ]
            assert [list(row["metrics"]) for row in table.rows] == [
                list(cast("dict[str, object]", row["metrics"])) for row in fresh
            ]
            # The order, the ranks, Buchholz and head-to-head are kept beside the lines, not
            # in them.
            assert table.players_in_order == [row["player"] for row in fresh]
            kept = json.loads(table.ranking)["metrics"]
            for key in ("buchholz", "head_to_head"):
                assert kept[key] == [
                    cast("dict[str, object]", row["metrics"])[key] for row in fresh
                ]
            for line in table.lines.all():
                assert not {"buchholz", "head_to_head"} & set(line.metrics)
    assert listed.count(True) >= 10  # the kept tables counted the listed matches only


@pytest.mark.django_db
def test_the_seats_listed_with_a_tables_state_are_those_a_full_load_reads_for_every_scope(
    league_event, field
):
    """The refresh's own statement reads the listed matches' seats as `seat_columns_query`
    reads them (`results.listed_seats_sql` writes it out): for a stage, an event and a
    league, missing totals and placements as a full load has them, a match not finished
    left out."""
    stage = Stage.objects.create(event=league_event, name="Listed", position=0)
    listed = []
    for number, status in enumerate(["finished", "finished", "in_progress"]):
        match = Match.objects.create(
            game="yardkle",
            rules={},
            state={},
            status=status,
            event=league_event,
            league_id=league_event.league_id,
            score_key=f"listed-{number}",
        )
        Seat.objects.bulk_create(
            [
                Seat(match=match, player_id=field[number], order=0, total=3000, placement=1),
                Seat(match=match, player_id=field[3], order=1, yardkles=2),  # nothing else
                Seat(match=match, player_id=field[4], order=2, total=900, upper_bonus=True),
            ]
        )
        StageMatch.objects.create(stage=stage, match=match, round=1)
        listed.append(match.pk)
    scopes = [
        (StandingsScope.STAGE, stage.pk),
        (StandingsScope.EVENT, league_event.pk),
        (StandingsScope.LEAGUE, league_event.league_id),
    ]
    for scope in scopes:
        (table_id,) = standings_marks.standings_mark([scope])
        StandingsTable.objects.filter(pk=table_id).update(pending_matches=listed)
        state = standings_refresh._table_state(table_id, scope)
        assert state is not None
        sql, params = result_rows.seat_columns_query(scope, listed)
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
            expected = [list(row) for row in cursor.fetchall()]
        assert len(expected) == 6  # the two finished matches' seats
        assert state.listed_seats == expected, scope
