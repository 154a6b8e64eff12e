"""Standings end to end on the database (issue: "a league event with 1,000 players and 20,000
finished matches: a full standings recompute within 2 s"): load the finished results with their
seats, compute, as the refresh job does.

Needs PostgreSQL: `DATABASE_URL=postgres://... make bench` (skipped on SQLite)."""

import datetime
import random

import pytest
from django.db import connection
from django.utils import timezone

from games.models import Match, Seat
from league.models import Event, League, Player, StandingsScope
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
    rng = random.Random(2026)
    league = League.objects.create(name="Big", slug="big", game="yardzee")
    event = Event.objects.create(league=league, name="Season", date="2026-09-01")
    players = Player.objects.bulk_create(
        Player(display_name=f"Player {i}", handle=f"big-{i}") for i in range(PLAYERS)
    )
    start = timezone.now() - datetime.timedelta(days=30)
    matches = Match.objects.bulk_create(
        Match(
            game="yardzee",
            rules={"joker": "forced"},
            state={},
            status="finished",
            event=event,
            score_key=f"bench-{i}",
            finished_at=start + datetime.timedelta(seconds=i),
            turns_played=52,
        )
        for i in range(MATCHES)
    )
    seats = []
    for match in matches:
        totals = [rng.randint(120, 320) for _ in range(TABLE)]
        for order, player in enumerate(rng.sample(players, TABLE)):
            seats.append(
                Seat(
                    match=match,
                    player=player,
                    order=order,
                    total=totals[order],
                    placement=1 + sum(t > totals[order] for t in totals),
                    yardzees=int(rng.random() < 0.2),
                    upper_bonus=rng.random() < 0.4,
                )
            )
    Seat.objects.bulk_create(seats, batch_size=5_000)
    return event


def test_full_standings_recompute_of_1000_players_and_20000_matches(benchmark, big_event):
    scope = (StandingsScope.EVENT, big_event.pk)
    _, rows = benchmark.pedantic(
        standings_services.compute_rows, args=(scope,), rounds=5, iterations=1
    )
    assert len(rows) == PLAYERS
    assert benchmark.stats.stats.median < 2.0
