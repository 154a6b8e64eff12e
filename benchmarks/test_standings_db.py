"""Standings end to end on the database (issue: "a league event with 1,000 players and 20,000
finished matches: a full standings recompute within 2 s"): load the finished results with their
seats, compute, as the refresh job does.

Needs PostgreSQL: `DATABASE_URL=postgres://... make bench` (skipped on SQLite)."""

import pytest
from django.db import connection

from benchmarks import seed
from league.models import Event, League, StandingsScope
from league.services import standings as standings_services

PLAYERS = 1_000
MATCHES = 20_000
TABLE = 4

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.skipif(connection.vendor != "postgresql", reason="measured on PostgreSQL"),
]


@pytest.fixture
def big_event() -> Event:
    league = League.objects.create(name="Big", slug="big", game="yardzee")
    event = Event.objects.create(league=league, name="Season", date="2026-09-01")
    seed.finished_matches(event, players=PLAYERS, matches=MATCHES, table=TABLE)
    return event


def test_full_standings_recompute_of_1000_players_and_20000_matches(benchmark, big_event):
    scope = (StandingsScope.EVENT, big_event.pk)
    _, rows = benchmark.pedantic(
        standings_services.compute_rows, args=(scope,), rounds=5, iterations=1
    )
    assert len(rows) == PLAYERS
    assert benchmark.stats.stats.median < 2.0
