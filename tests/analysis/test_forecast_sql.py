"""The forecast job's one write (`analysis.forecast_sql.store`): the chances of a version the
match has left are kept as behind and the next job builds on them, and a job that ran late never
overwrites a newer forecast; the job reads the match, its players and its kept forecast in one
statement and its turns in another."""

from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from analysis import forecast_sql, forecasts
from analysis.models import MatchForecast
from games import services as game_services
from games.models import Match
from tests.playing import simulated_turns

pytestmark = pytest.mark.django_db


def _store(match: Match, version: int, chance: float) -> int | None:
    forecast = MatchForecast(
        match_id=match.pk,
        version=version,
        model="test",
        players=[seat.player_id for seat in match.seats.order_by("order")],
        chances=[[chance, 1 - chance]],
        marks=[],
        losses=[],
        swings=[],
        seconds=0.0,
        updated_at=timezone.now(),
    )
    return forecast_sql.store(forecast)


def _yardkle_match(players, turns: int) -> tuple[Match, list[dict[str, Any]]]:
    match = game_services.match_create(game="yardkle", player_ids=[p.pk for p in players[:2]])
    played = simulated_turns(match, seed=11)
    for turn in played[:turns]:
        game_services.turn_submit(match_id=match.pk, turn=turn)
    match.refresh_from_db()
    return match, played


def test_a_forecast_of_a_version_the_match_has_left_is_kept_as_behind_and_built_on(players):
    """A turn stored while the job computed: what it computed is kept (behind), and the next
    job computes only the turns after it."""
    match, played = _yardkle_match(players, 4)
    computed_at = match.version
    game_services.turn_submit(match_id=match.pk, turn=played[4])  # a turn while it computed
    first = forecasts.match_forecast(match_id=match.pk)
    assert first is not None
    kept = MatchForecast.objects.get(match=match)
    assert kept.version > computed_at
    kept.version, kept.chances, kept.marks = computed_at, kept.chances[:-1], kept.marks[:-1]
    kept.chances[1] = [0.123, 0.877]  # marked: computed by the earlier job
    kept.save()
    assert forecasts.match_forecast(match_id=match.pk) is not None
    again = MatchForecast.objects.get(match=match)
    assert again.chances[1] == [0.123, 0.877]  # kept, not computed again
    assert again.chances[2:] == first.chances[2:]
    match.refresh_from_db()
    assert again.version == match.version
    assert _store(match, computed_at, 0.5) is None  # and never stored over the newer one


def test_chances_computed_while_a_turn_was_stored_are_stored_behind(players):
    match, played = _yardkle_match(players, 2)
    computed_at = match.version
    game_services.turn_submit(match_id=match.pk, turn=played[2])  # a turn while it computed
    assert _store(match, computed_at, 0.5) is not None
    assert MatchForecast.objects.get(match=match).version == computed_at  # behind


def test_a_late_job_never_overwrites_a_newer_forecast(players):
    match, _ = _yardkle_match(players, 2)
    first = _store(match, match.version, 0.25)
    assert first is not None
    assert _store(match, match.version, 0.75) is None  # the same version again: kept as is
    assert _store(match, match.version - 1, 0.75) is None  # an older one
    kept = MatchForecast.objects.get(match=match)
    assert (kept.pk, kept.version, kept.chances) == (first, match.version, [[0.25, 0.75]])


def test_the_job_reads_in_two_statements_and_writes_in_one(players):
    match, played = _yardkle_match(players, 3)
    forecasts.match_forecast(match_id=match.pk)
    game_services.turn_submit(match_id=match.pk, turn=played[3])
    with CaptureQueriesContext(connection) as queries:
        stored = forecasts.match_forecast(match_id=match.pk)
    assert stored is not None
    assert len(stored.chances) == 5
    statements = [query["sql"].split()[0] for query in queries.captured_queries]
    # The match and kept forecast, the turns, the write; then the stage's lookup (league).
    assert statements[:3] == ["SELECT", "SELECT", "INSERT"]
    assert len(statements) <= 4
    assert MatchForecast.objects.get(match=match).chances == stored.chances
