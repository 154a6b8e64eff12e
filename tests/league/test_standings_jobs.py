"""Standings and ratings kept by jobs: current after every result, equal to a from-scratch
computation whatever order results arrive in, coalesced, and healed by the sweep after a
broker outage."""

import json
import random
import socket
import time
import uuid
from collections.abc import Iterator
from typing import Any, cast

import pytest
from celery import Celery, Task
from celery.contrib.testing.worker import start_worker
from django.core.management import CommandError, call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rest_framework.test import APIClient

import scoring
from config.celery import app as celery_app
from games import services as game_services
from games.models import Match
from league import rating, tasks
from league import results as result_rows
from league.models import (
    Event,
    League,
    Player,
    PlayerRating,
    RatingChange,
    RatingsState,
    StandingsScope,
    StandingsTable,
    StandingsTally,
)
from league.services import checks, jobs, stages, standings_refresh
from scoring import simulate


@pytest.fixture
def league_event(organizer) -> Event:
    league = League.objects.create(name="Yardkle Nights", slug="nights", game="yardkle")
    league.organizers.add(organizer)
    return Event.objects.create(league=league, name="Night 1", date="2026-08-01")


def _new_players(tag: str, count: int) -> list[int]:
    """`count` new players' ids, on the roster of every league; `tag` keeps their handles
    apart from other players'."""
    players = [
        Player.objects.create(display_name=f"{tag}-{i}", handle=f"{tag.lower()}-{i}")
        for i in range(count)
    ]
    for league in League.objects.all():
        league.players.add(*players)
    return [player.pk for player in players]


@pytest.fixture
def field(league_event) -> list[int]:
    """Six players on the league's roster (its stages seat only those): made after it."""
    return _new_players("P", 6)


def _finish(match_id: int, seed: int) -> None:
    match = Match.objects.get(pk=match_id)
    turns = simulate.play_game(
        scoring.new_game(match.game, match.seats.count(), match.rules), seed=seed
    )
    game_services.result_submit(match_id=match_id, turns=turns)


def _seat(event: Event, players: list[int]) -> int:
    return game_services.match_create(
        game=event.league.game, player_ids=players, rules={}, event_id=event.pk
    ).pk


def _stored(kind: str, scope_id: int) -> StandingsTable:
    return StandingsTable.objects.get(scope=kind, scope_id=scope_id)


def _fresh(scope: tuple[str, int]) -> list[dict[str, object]]:
    """A from-scratch computation, as JSON stores it."""
    rows: list[dict[str, object]] = json.loads(json.dumps(standings_refresh.compute_rows(scope)[1]))
    return rows


def _assert_converged(event: Event) -> None:
    for scope in [(StandingsScope.EVENT, event.pk), (StandingsScope.LEAGUE, event.league_id)]:
        table = _stored(*scope)
        assert not table.pending
        assert table.rows == _fresh(scope)
    _assert_ratings_converged(event.league)


def _assert_ratings_converged(league: League) -> None:
    results, _ = result_rows.load_results((StandingsScope.LEAGUE, league.pk))
    fresh = rating.replay([r for r in results if r.match_id > 0])
    stored = {
        player: (mu, sigma)
        for player, mu, sigma in PlayerRating.objects.filter(league=league).values_list(
            "player_id", "mu", "sigma"
        )
    }
    assert stored == {p: (r.mu, r.sigma) for p, r in fresh.ratings.items()}
    assert RatingChange.objects.filter(league=league).count() == len(fresh.history)


@pytest.mark.django_db(transaction=True)
def test_finishing_a_match_through_the_api_updates_standings_and_ratings(
    league_event, field, as_organizer
):
    match_id = _seat(league_event, field[:3])
    match = Match.objects.get(pk=match_id)
    turns = simulate.play_game(scoring.new_game("yardkle", 3, match.rules), seed=1)
    response = as_organizer.post(
        f"/api/v1/matches/{match_id}/result/", {"turns": turns}, format="json"
    )
    assert response.status_code == 201
    standings = APIClient().get(f"/api/v1/events/{league_event.pk}/standings/").json()
    assert standings["pending"] is False
    assert standings["computed_at"] is not None
    assert standings["tiebreak"] == league_event.league.tiebreak
    assert sorted(row["player"] for row in standings["rows"]) == sorted(field[:3])
    winner = next(row for row in standings["rows"] if row["rank"] == 1)
    assert winner["wins"] == 1
    board = APIClient().get(f"/api/v1/leagues/{league_event.league.slug}/ratings/").json()
    assert len(board["rows"]) == 3
    assert board["pending"] is False
    history = APIClient().get(f"/api/v1/players/{field[0]}/ratings/").json()
    assert [h["match"] for h in history] == [match_id]
    _assert_converged(league_event)


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("arrival", ["in_order", "reversed", "shuffled"])
def test_standings_equal_a_from_scratch_computation_whatever_order_results_arrive(
    league_event, field, arrival
):
    rng = random.Random(arrival)
    ids = [_seat(league_event, rng.sample(field, rng.choice([2, 3, 4]))) for _ in range(8)]
    order = {"in_order": ids, "reversed": ids[::-1], "shuffled": rng.sample(ids, len(ids))}
    for seed, match_id in enumerate(order[arrival]):
        _finish(match_id, seed)
    _assert_converged(league_event)


@pytest.mark.django_db(transaction=True)
def test_standings_and_ratings_converge_after_undo_and_void_in_between(
    league_event, field, organizer
):
    ids = [_seat(league_event, field[i : i + 3]) for i in range(4)]
    for seed, match_id in enumerate(ids):
        _finish(match_id, seed)
    game_services.turn_undo(match_id=ids[1], undone_by=organizer)  # rated mid-history
    _assert_converged(league_event)
    game_services.match_void(match_id=ids[2], voided_by=organizer)
    _assert_converged(league_event)
    reopened = Match.objects.get(pk=ids[1])
    for turn in simulate.play_game(reopened.scoring_game(), seed=40):
        game_services.turn_submit(match_id=reopened.pk, turn=turn)
    _assert_converged(league_event)


@pytest.mark.django_db(transaction=True)
def test_refreshing_the_same_results_twice_computes_once(league_event, field):
    _finish(_seat(league_event, field[:2]), 1)
    table = _stored(StandingsScope.EVENT, league_event.pk)
    assert standings_refresh.standings_refresh(table_id=table.pk) is False


@pytest.mark.django_db(transaction=True)
def test_ten_results_in_a_burst_cost_one_recompute_per_table(league_event, field):
    with _no_tasks():
        ids = [_seat(league_event, field[i % 5 : i % 5 + 2]) for i in range(10)]
        for seed, match_id in enumerate(ids):
            _finish(match_id, seed)
    table = _stored(StandingsScope.EVENT, league_event.pk)
    assert table.pending
    refreshes = [tasks.standings_refresh.apply(args=(table.pk,)).get() for _ in range(10)]
    assert refreshes.count(True) == 1
    assert not _stored(StandingsScope.EVENT, league_event.pk).pending


class _no_tasks:  # noqa: N801 - a context manager used like a function
    """Enqueueing does nothing while open: the marks are made, no job runs (like a queue whose
    worker has not picked anything up yet)."""

    def __enter__(self) -> None:
        self._send = jobs._send
        jobs._send = lambda task, args: None

    def __exit__(self, *exc: object) -> None:
        jobs._send = self._send


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture
def broker_down() -> Iterator[None]:
    """The app publishes to a broker nobody listens on (enqueueing fails fast)."""
    conf: Any = celery_app.conf  # the stubs make broker_url read-only; Celery allows setting it
    previous = (conf.task_always_eager, conf.broker_url)
    conf.task_always_eager = False
    conf.broker_url = f"redis://127.0.0.1:{_closed_port()}/0"
    vars(celery_app)["_pool"] = None  # the next publish opens a pool on the new URL
    yield
    conf.task_always_eager, conf.broker_url = previous
    vars(celery_app)["_pool"] = None


@pytest.mark.django_db(transaction=True)
def test_with_the_broker_down_a_result_is_stored_marked_stale_and_the_sweep_heals_it(
    league_event, field, as_organizer, broker_down
):
    match_id = _seat(league_event, field[:2])
    match = Match.objects.get(pk=match_id)
    turns = simulate.play_game(scoring.new_game("yardkle", 2, match.rules), seed=3)
    started = time.monotonic()
    response = as_organizer.post(
        f"/api/v1/matches/{match_id}/result/", {"turns": turns}, format="json"
    )
    assert response.status_code == 201
    assert time.monotonic() - started < 15  # fails fast instead of hanging on the broker
    assert _stored(StandingsScope.EVENT, league_event.pk).pending
    assert RatingsState.objects.get(league=league_event.league).pending
    # The broker is back: the periodic sweep (Celery beat) brings everything up to date.
    celery_app.conf.task_always_eager = True
    assert tasks.standings_sweep.apply().get() == {"standings": 2, "ratings": 1}
    _assert_converged(league_event)


@pytest.mark.broker
@pytest.mark.django_db(transaction=True)
def test_a_real_worker_updates_standings_and_ratings_after_a_match_finishes(
    league_event, field, as_organizer
):
    match_id = _seat(league_event, field[:3])
    match = Match.objects.get(pk=match_id)
    turns = simulate.play_game(scoring.new_game("yardkle", 3, match.rules), seed=5)
    worker_app = cast("Celery[Task[Any, Any]]", celery_app)  # stub wants the base task class
    with start_worker(worker_app, pool="solo", perform_ping_check=False, shutdown_timeout=10):
        response = as_organizer.post(
            f"/api/v1/matches/{match_id}/result/", {"turns": turns}, format="json"
        )
        assert response.status_code == 201
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            event_table = StandingsTable.objects.filter(
                scope=StandingsScope.EVENT, scope_id=league_event.pk
            ).first()
            ratings = RatingsState.objects.filter(league=league_event.league).first()
            if event_table and not event_table.pending and ratings and not ratings.pending:
                break
            time.sleep(0.2)
    _assert_converged(league_event)


@pytest.mark.django_db(transaction=True)
def test_stage_standings_count_byes_and_list_every_entrant(league_event, field):
    stage = stages.stage_create(
        event_id=league_event.pk, name="Swiss", format="swiss", player_ids=field[:5]
    )
    stages.stage_start(stage_id=stage.pk)
    body = APIClient().get(f"/api/v1/stages/{stage.pk}/standings/").json()
    assert sorted(row["player"] for row in body["rows"]) == sorted(field[:5])
    first = Match.objects.filter(stage_match__stage=stage).first()
    _finish(first.pk, 1)
    table = _stored(StandingsScope.STAGE, stage.pk)
    assert table.rows == _fresh((StandingsScope.STAGE, stage.pk))
    assert sum(row["byes"] for row in table.rows) == 1


@pytest.mark.django_db(transaction=True)
def test_standings_and_leaderboard_export_as_csv(league_event, field):
    _finish(_seat(league_event, field[:3]), 2)
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


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(connection.vendor != "postgresql", reason="query counts on PostgreSQL")
def test_query_count_of_a_full_recompute_is_constant_in_matches_and_players(league_event):
    counts = []
    for size in (4, 12):
        players = _new_players(f"Q{size}", size)
        with _no_tasks():
            for i in range(size):
                _finish(_seat(league_event, [players[i], players[(i + 1) % size]]), i)
        with CaptureQueriesContext(connection) as captured:
            standings_refresh.compute_rows((StandingsScope.EVENT, league_event.pk))
        counts.append(len(captured))
    assert counts[0] == counts[1], counts


@pytest.mark.django_db(transaction=True)
def test_recompute_commands_rebuild_tables_and_ratings(league_event, field):
    _finish(_seat(league_event, field[:2]), 0)  # computed once, then stale
    with _no_tasks():
        for seed in range(1, 3):
            _finish(_seat(league_event, field[seed : seed + 2]), seed)
    with pytest.raises(CommandError, match="tables are not current"):
        call_command("recompute_standings", league=league_event.league.slug, check=True, wait=0)
    with pytest.raises(CommandError, match="differences in the ratings"):
        call_command("recompute_ratings", check=True, wait=0)
    call_command("recompute_standings", league=league_event.league.slug)
    call_command("recompute_ratings")
    _assert_converged(league_event)
    call_command("recompute_standings", check=True, wait=0)
    call_command("recompute_ratings", check=True, wait=0)


@pytest.mark.django_db(transaction=True)
def test_the_check_names_a_table_or_rating_that_differs_from_scratch(league_event, field):
    for seed in range(3):
        _finish(_seat(league_event, field[seed : seed + 2]), seed)
    scopes = [
        (StandingsScope.EVENT, league_event.pk),
        (StandingsScope.LEAGUE, league_event.league_id),
    ]
    assert checks.standings_differences(scopes) == []
    assert checks.ratings_differences(league_event.league_id) == []
    table = _stored(StandingsScope.EVENT, league_event.pk)
    table.rows[0]["wins"] += 1
    table.save()
    PlayerRating.objects.filter(player_id=field[0]).update(mu=1.0)
    assert checks.standings_differences(scopes) == [
        f"event {league_event.pk}: rows differ for players [{table.rows[0]['player']}]"
    ]
    problems = checks.ratings_differences(league_event.league_id)
    assert len(problems) == 1
    assert f"player {field[0]} is rated 1.000000" in problems[0]


@pytest.mark.django_db(transaction=True)
def test_changing_the_tiebreak_order_reranks_the_leagues_tables(league_event, field, organizer):
    with _no_tasks():
        for seed in range(3):
            _finish(_seat(league_event, field[seed : seed + 3]), seed)
    standings_refresh.standings_table_computed_on_miss((StandingsScope.EVENT, league_event.pk))
    client = APIClient()
    client.force_authenticate(organizer)
    response = client.patch(
        f"/api/v1/leagues/{league_event.league.slug}/",
        {"tiebreak": ["total_score", "points"]},
        format="json",
    )
    assert response.status_code == 200, response.json()
    table = _stored(StandingsScope.EVENT, league_event.pk)
    assert table.tiebreak == ["total_score", "points"]
    assert not table.pending
    assert table.rows == _fresh((StandingsScope.EVENT, league_event.pk))
    scores = [row["total_score"] for row in table.rows]
    assert scores == sorted(scores, reverse=True)


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("tiebreak", "code"),
    [
        (["points", "luck"], "unknown_metric"),
        (["points", "points"], "duplicate_metric"),
        (["yardzees"], "metric_not_for_game"),
    ],
)
def test_an_impossible_tiebreak_order_is_refused_with_its_code(
    league_event, organizer, tiebreak, code
):
    client = APIClient()
    client.force_authenticate(organizer)
    response = client.patch(
        f"/api/v1/leagues/{league_event.league.slug}/", {"tiebreak": tiebreak}, format="json"
    )
    assert response.status_code == 400
    assert response.json()["code"] == code
    league_event.league.refresh_from_db()
    assert "luck" not in league_event.league.tiebreak


@pytest.mark.django_db
def test_seeding_by_rating_puts_the_best_rated_first_and_the_unrated_after(league_event, field):
    for index, player in enumerate(field[:3]):
        PlayerRating.objects.create(
            league=league_event.league,
            player_id=player,
            mu=20 + index,
            sigma=3,
            ordinal=11 + index,
            matches=1,
        )
    stage = stages.stage_create(
        event_id=league_event.pk,
        name="Seeded",
        format="single_elimination",
        player_ids=field,
        seeding="rating",
    )
    seeds = list(stage.entries.order_by("seed").values_list("player_id", flat=True))
    assert seeds == [field[2], field[1], field[0], *field[3:]]


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
    ids = [_seat(league_event, field[i : i + 3]) for i in range(3)]
    _finish(ids[0], 0)
    assert _tally(scope).counted == _stored(*scope).computed  # the first refresh counted all
    _finish(ids[1], 1)
    _inflate_stored_total(scope, field[1], 1000)
    _finish(ids[2], 7)
    row = next(row for row in _stored(*scope).rows if row["player"] == field[1])
    fresh = next(row for row in _fresh(scope) if row["player"] == field[1])
    assert row["total_score"] == cast("int", fresh["total_score"]) + 1000  # added to the tally
    game_services.turn_undo(match_id=ids[2], undone_by=organizer)  # a result withdrawn
    assert _stored(*scope).rows == _fresh(scope)
    assert _tally(scope).counted == _stored(*scope).computed


@pytest.mark.django_db(transaction=True)
def test_a_tally_counting_a_result_that_no_longer_stands_is_not_added_to(
    league_event, field, organizer
):
    scope = (StandingsScope.EVENT, league_event.pk)
    ids = [_seat(league_event, field[i : i + 2]) for i in range(3)]
    with _no_tasks():
        _finish(ids[0], 1)
        _finish(ids[1], 2)
    standings_refresh.standings_refresh(table_id=_stored(*scope).pk)
    with _no_tasks():
        game_services.match_void(match_id=ids[0], voided_by=organizer)
        _finish(ids[2], 3)
    # As if the withdrawal's rebuild mark had been lost: the tally still counts the void match.
    StandingsTable.objects.filter(scope=scope[0], scope_id=scope[1]).update(rebuild_from=0)
    standings_refresh.standings_refresh(table_id=_stored(*scope).pk)
    assert _stored(*scope).rows == _fresh(scope)
    assert ids[0] not in [result.match_id for result in result_rows.load_results(scope)[0]]


@pytest.mark.django_db(transaction=True)
def test_a_result_undone_and_played_again_between_two_refreshes_is_counted_afresh(
    league_event, field, organizer
):
    scope = (StandingsScope.EVENT, league_event.pk)
    match_id = _seat(league_event, field[:3])
    _finish(match_id, 1)
    before = _stored(*scope).rows
    with _no_tasks():  # no job runs between the undo and the new last turns
        for _ in range(6):
            game_services.turn_undo(match_id=match_id, undone_by=organizer)
        reopened = Match.objects.get(pk=match_id)
        for turn in simulate.play_game(reopened.scoring_game(), seed=41):
            game_services.turn_submit(match_id=match_id, turn=turn)
    standings_refresh.standings_refresh(table_id=_stored(*scope).pk)
    assert _stored(*scope).rows == _fresh(scope)
    assert _stored(*scope).rows != before  # the same match, another result


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
    _finish(_seat(league_event, field[:3]), 1)
    stored = _tally(scope)
    stored.data = {**stored.data, **damage}
    stored.save()
    _finish(_seat(league_event, field[2:5]), 2)
    assert _stored(*scope).rows == _fresh(scope)
    assert _tally(scope).data["version"] == 2


@pytest.mark.django_db(transaction=True)
def test_a_new_points_scheme_counts_every_table_afresh(league_event, field, organizer):
    scope = (StandingsScope.EVENT, league_event.pk)
    for seed in range(3):
        _finish(_seat(league_event, field[seed : seed + 3]), seed)
    client = APIClient()
    client.force_authenticate(organizer)
    response = client.patch(
        f"/api/v1/leagues/{league_event.league.slug}/",
        {"points": {"placement": {"3": [10, 4, 0]}}},
        format="json",
    )
    assert response.status_code == 200, response.json()
    assert _stored(*scope).rows == _fresh(scope)
    assert max(row["points"] for row in _stored(*scope).rows) >= 10


@pytest.mark.django_db(transaction=True)
def test_the_stored_tally_is_brought_up_to_date_every_so_many_results(
    league_event, field, monkeypatch
):
    monkeypatch.setattr(standings_refresh, "TALLY_STORE_EVERY", 3)
    scope = (StandingsScope.EVENT, league_event.pk)
    _finish(_seat(league_event, field[:2]), 0)
    first = _tally(scope).counted
    counted = []
    for seed in range(1, 7):
        _finish(_seat(league_event, field[seed % 5 : seed % 5 + 2]), seed)
        counted.append(_tally(scope).counted)
        assert _stored(*scope).rows == _fresh(scope)
    # Stored again at the 3rd and 6th result added since the stored one, not in between.
    assert counted == [first, first, first + 3, first + 3, first + 3, first + 6]


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(connection.vendor != "postgresql", reason="query counts on PostgreSQL")
def test_query_count_of_a_refresh_after_one_more_result_is_constant(league_event):
    counts = []
    for size in (4, 12):
        players = _new_players(f"R{size}", size)
        for i in range(size):
            _finish(_seat(league_event, [players[i], players[(i + 1) % size]]), i)
        with _no_tasks():
            _finish(_seat(league_event, players[:2]), 99)
        table = _stored(StandingsScope.EVENT, league_event.pk)
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
    players = _new_players(run, 5)
    scopes = [(StandingsScope.EVENT, event.pk), (StandingsScope.LEAGUE, league.pk)]
    finished: list[int] = []
    with _no_tasks():
        for action, number in steps:
            if action == "finish":
                seated = [players[(number + k) % 5] for k in range(2 + number % 3)]
                _finish(_seat(event, seated), number)
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
    assert checks.standings_differences(kept) == []


@pytest.mark.django_db(transaction=True)
def test_first_round_byes_and_a_walkover_move_the_tables_without_a_finished_match(
    league_event, field
):
    _finish(_seat(league_event, field[:2]), 1)  # the event's and league's tables exist
    swiss = stages.stage_create(
        event_id=league_event.pk, name="Swiss", format="swiss", player_ids=field[:5]
    )
    stages.stage_start(stage_id=swiss.pk)  # five players at pairs: one first-round bye
    scopes = [(StandingsScope.EVENT, league_event.pk), (StandingsScope.STAGE, swiss.pk)]
    assert sum(row["byes"] for row in _stored(*scopes[0]).rows) == 1
    knockout = stages.stage_create(
        event_id=league_event.pk, name="KO", format="single_elimination", player_ids=field[:4]
    )
    stages.stage_start(stage_id=knockout.pk)
    first = knockout.stage_matches.order_by("slot").first()
    no_show = first.match.seats.order_by("order").first().player_id
    stages.stage_forfeit(stage_match_id=first.pk, player_id=no_show)
    scopes.append((StandingsScope.STAGE, knockout.pk))
    assert checks.standings_differences(scopes) == []
    row = next(row for row in _stored(*scopes[2]).rows if row["player"] == no_show)
    assert row["forfeits"] == 1
