"""The forecast job's one write (`analysis.forecast_sql.store`): the new chances are kept only
while the match is still at the version they were computed from, and a job that ran late never
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
    return forecast_sql.store(
        match_id=match.pk,
        version=version,
        model="test",
        players=[seat.player_id for seat in match.seats.order_by("order")],
        chances=[[chance, 1 - chance]],
        marks=[],
        losses=[],
        swings=[],
        seconds=0.0,
        now=timezone.now(),
    )


def _yardkle_match(players, turns: int) -> tuple[Match, list[dict[str, Any]]]:
    match = game_services.match_create(game="yardkle", player_ids=[p.pk for p in players[:2]])
    played = simulated_turns(match, seed=11)
    for turn in played[:turns]:
        game_services.turn_submit(match_id=match.pk, turn=turn)
    match.refresh_from_db()
    return match, played


def test_chances_of_a_version_the_match_has_left_are_not_stored(players):
    match, played = _yardkle_match(players, 2)
    computed_at = match.version
    game_services.turn_submit(match_id=match.pk, turn=played[2])  # a turn while it computed
    assert _store(match, computed_at, 0.5) is None
    assert not MatchForecast.objects.filter(match=match).exists()
    match.refresh_from_db()
    assert _store(match, match.version, 0.5) is not None
    assert MatchForecast.objects.get(match=match).version == match.version


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
