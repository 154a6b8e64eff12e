"""Two jobs of one league or one table at once (issue 14, item 16), on PostgreSQL: both
succeed, and what they store equals a computation from scratch.

The overlap is forced, not hoped for: each job waits at a barrier at a point of its work
where, without a lock, both would be in the middle of it (`overlapping`, tests/threads.py);
a change that creates a table waits until the second one is seen blocked on it in
`pg_stat_activity`."""

import threading
import time

import pytest
from django.db import connection, connections, transaction

import scoring
from core import jobs
from games import services as game_services
from league import rating
from league.models import (
    Event,
    League,
    Player,
    RatingsState,
    StandingsScope,
    StandingsTable,
)
from league.services import checks, ratings, standings_marks, standings_refresh
from scoring import simulate
from tests.threads import overlapping, run_at_once

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def event(db: None) -> Event:
    league = League.objects.create(name="Busy Nights", slug="busy", game="yardkle")
    return Event.objects.create(league=league, name="Night 1", date="2026-08-01")


@pytest.fixture
def no_jobs(monkeypatch: pytest.MonkeyPatch) -> None:
    """Marks are made, no job runs (a queue whose worker has not picked anything up yet)."""
    monkeypatch.setattr(jobs, "send", lambda task, args: None)


def _finish_matches(event: Event, count: int) -> None:
    players = [
        Player.objects.create(display_name=f"B-{i}", handle=f"busy-{i}").pk for i in range(5)
    ]
    for seed in range(count):
        seated = [players[(seed + k) % 5] for k in range(3)]
        match = game_services.match_create(
            game="yardkle", player_ids=seated, rules={}, event_id=event.pk
        )
        turns = simulate.play_game(scoring.new_game("yardkle", 3, match.rules), seed=seed)
        game_services.result_submit(match_id=match.pk, turns=turns)


@pytest.mark.parametrize("second", ["ratings_refresh", "ratings_replay"])
def test_item_16_two_ratings_jobs_of_one_league_at_once_both_succeed_and_equal_a_replay(
    event, no_jobs, monkeypatch, second
):
    """Item 16. Both jobs wait for each other at the barrier inside `rating.replay`, reached
    once a job has read what to rate and before it writes anything. Without the league's
    lock both get there and both insert the same `RatingChange` rows (`rating_change_unique`
    fails in one); with it, the second waits at the lock, the first's barrier times out and it
    finishes alone, and the second then finds the work done (or, a replay, does it again)."""
    _finish_matches(event, 4)
    league_id = event.league_id
    assert RatingsState.objects.get(league_id=league_id).pending
    jobs = {
        "ratings_refresh": lambda: ratings.ratings_refresh(league_id=league_id),
        "ratings_replay": lambda: ratings.ratings_replay(league_id=league_id),
    }
    with overlapping(monkeypatch, rating, "replay"):
        results, errors = run_at_once(jobs["ratings_refresh"], jobs[second])
    assert errors == []
    assert results[0] in (True, False)
    assert not RatingsState.objects.get(league_id=league_id).pending
    assert list(checks.ratings_check([league_id]).differences) == []


def test_two_refreshes_of_one_standings_table_at_once_both_succeed_and_equal_a_count(
    event, no_jobs, monkeypatch
):
    """Both refreshes wait for each other at the barrier on the way into `write_lines`, after
    they counted and ranked and before they write (`rank_standings`, where the barrier was,
    is no longer on a refresh's way since it ranks with `RankedTable`: the second refresh
    could find the table current and not compute): both write conditionally (only a refresh
    that saw a later mark than the stored one writes), so one writes and the table equals a
    count from scratch."""
    _finish_matches(event, 3)
    table = StandingsTable.objects.get(scope=StandingsScope.EVENT, scope_id=event.pk)
    assert table.pending
    with overlapping(monkeypatch, standings_refresh, "write_lines"):
        results, errors = run_at_once(
            lambda: standings_refresh.standings_refresh(table_id=table.pk),
            lambda: standings_refresh.standings_refresh(table_id=table.pk),
        )
    assert errors == []
    assert results == [True, True]  # both computed; the conditional write kept one
    assert list(checks.standings_check([(StandingsScope.EVENT, event.pk)]).differences) == []


def _backend_pid() -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        return int(cursor.fetchone()[0])


def _wait_until_blocked(pid: int) -> None:
    deadline = time.monotonic() + 10
    with connections["default"].cursor() as cursor:
        while time.monotonic() < deadline:
            # The activity view is read once per transaction unless its snapshot is dropped.
            cursor.execute("SELECT pg_stat_clear_snapshot()")
            cursor.execute("SELECT wait_event_type FROM pg_stat_activity WHERE pid = %s", [pid])
            row = cursor.fetchone()
            if row and row[0] == "Lock":
                return
            time.sleep(0.02)
    raise AssertionError(f"backend {pid} never waited for a lock")


@pytest.mark.parametrize("kind", ["standings", "ratings"])
def test_item_16_two_results_marking_a_new_table_at_once_are_both_counted(event, no_jobs, kind):
    """Item 16, the marks: the first result of a new table creates it (requested 1) while a
    second result's transaction, which found no table to mark, waits on the first's insert.
    The second must still mark the table once the first commits; otherwise a refresh run
    between the two commits computes without the second result and nothing marks it again."""
    league_id = event.league_id
    scope = (StandingsScope.EVENT, event.pk)

    def mark() -> None:
        if kind == "standings":
            standings_marks.standings_mark([scope])
        else:
            standings_marks.ratings_mark(league_id)

    def requested() -> int:
        if kind == "standings":
            return StandingsTable.objects.get(scope=scope[0], scope_id=scope[1]).requested
        return RatingsState.objects.get(league_id=league_id).requested

    created = threading.Event()
    second_pid: list[int] = []
    second_ready = threading.Event()

    def first() -> None:
        with transaction.atomic():
            mark()
            created.set()
            second_ready.wait(10)
            _wait_until_blocked(second_pid[0])

    def second() -> None:
        second_pid.append(_backend_pid())
        created.wait(10)
        second_ready.set()
        with transaction.atomic():
            mark()

    _, errors = run_at_once(first, second)
    assert errors == []
    assert requested() == 2
