"""A result's jobs, enqueued by name once it commits (`league.services.jobs`): they bring
standings and ratings up to date in-process and on a real worker; with the broker down the
result is still stored, marked stale, and beat's sweep heals it."""

import socket
import time
from collections.abc import Iterator
from typing import Any, cast

import pytest
from celery import Celery, Task
from celery.contrib.testing.worker import start_worker
from rest_framework.test import APIClient

from config.celery import app as celery_app
from games.models import Match
from league import tasks
from league.models import RatingsState, StandingsScope, StandingsTable
from tests.league.services.league_night import assert_converged, seat, stored_table
from tests.playing import simulated_turns


@pytest.mark.django_db(transaction=True)
def test_finishing_a_match_through_the_api_updates_standings_and_ratings(
    league_event, field, as_organizer
):
    match_id = seat(league_event, field[:3])
    turns = simulated_turns(Match.objects.get(pk=match_id), seed=1)
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
    assert_converged(league_event)


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
    match_id = seat(league_event, field[:2])
    turns = simulated_turns(Match.objects.get(pk=match_id), seed=3)
    started = time.monotonic()
    response = as_organizer.post(
        f"/api/v1/matches/{match_id}/result/", {"turns": turns}, format="json"
    )
    assert response.status_code == 201
    assert time.monotonic() - started < 15  # fails fast instead of hanging on the broker
    assert stored_table(StandingsScope.EVENT, league_event.pk).pending
    assert RatingsState.objects.get(league=league_event.league).pending
    # The broker is back: the periodic sweep (Celery beat) brings everything up to date.
    celery_app.conf.task_always_eager = True
    assert tasks.standings_sweep.apply().get() == {"standings": 2, "ratings": 1}
    assert_converged(league_event)


@pytest.mark.broker
@pytest.mark.django_db(transaction=True)
def test_a_real_worker_updates_standings_and_ratings_after_a_match_finishes(
    league_event, field, as_organizer
):
    match_id = seat(league_event, field[:3])
    turns = simulated_turns(Match.objects.get(pk=match_id), seed=5)
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
    assert_converged(league_event)
