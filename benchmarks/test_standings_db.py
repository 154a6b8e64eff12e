"""Standings end to end on the database (issue 6: "a league event with 1,000 players and 20,000
finished matches: a full standings recompute within 2 s; the update after one more match within
100 ms"): the refresh job's work, loading what it needs, computing and storing the table.

`make bench`, on DATABASE_URL's PostgreSQL or the embedded one."""

import datetime
import itertools

import pytest
from django.utils import timezone

from benchmarks import seed
from games.models import Match, Seat
from league.models import Event, League, StandingsScope, StandingsTable
from league.services import standings_marks, standings_refresh

PLAYERS = 1_000
MATCHES = 20_000
TABLE = 4

pytestmark = pytest.mark.django_db


@pytest.fixture
def big_event() -> Event:
    league = League.objects.create(name="Big", slug="big", game="yardzee")
    event = Event.objects.create(league=league, name="Season", date="2026-09-01")
    seed.finished_matches(event, players=PLAYERS, matches=MATCHES, table=TABLE)
    return event


def test_full_standings_recompute_of_1000_players_and_20000_matches(benchmark, big_event):
    """Counting every result from scratch: what a rebuild (an undone result, the first
    refresh, `recompute_standings`) costs."""
    scope = (StandingsScope.EVENT, big_event.pk)
    _, rows = benchmark.pedantic(
        standings_refresh.compute_rows, args=(scope,), rounds=5, iterations=1
    )
    assert len(rows) == PLAYERS
    assert benchmark.stats.stats.median < 2.0


def test_refresh_after_one_more_match_of_1000_players_and_20000(benchmark, big_event):
    """The refresh job after one more match finished: read the stored tally, add the new
    result, rank 1,000 players again with the default tiebreak order, store table and tally."""
    scope = (StandingsScope.EVENT, big_event.pk)
    (table_id,) = standings_marks.standings_mark([scope])
    standings_refresh.standings_refresh(table_id=table_id)  # the stored tally to add to
    players = list(big_event.league.events.values_list("matches__seats__player_id", flat=True)[:8])
    numbers = itertools.count(1)

    def one_more_match() -> None:
        number = next(numbers)
        match = Match.objects.create(
            game="yardzee",
            rules={"joker": "forced"},
            state={},
            status="finished",
            event=big_event,
            score_key=f"one-more-{number}",
            finished_at=timezone.now() + datetime.timedelta(seconds=number),
            turns_played=13 * TABLE,
        )
        seated = players[number % 4 : number % 4 + TABLE]
        Seat.objects.bulk_create(
            Seat(match=match, player_id=p, order=i, total=200 + i, placement=TABLE - i)
            for i, p in enumerate(seated)
        )
        standings_marks.standings_mark([scope])

    def refresh() -> bool:
        return standings_refresh.standings_refresh(table_id=table_id)

    assert benchmark.pedantic(refresh, setup=one_more_match, rounds=50, iterations=1)
    stored = StandingsTable.objects.get(pk=table_id)
    assert not stored.pending
    assert stored.rows == standings_refresh.compute_rows(scope)[1]
    assert benchmark.stats.stats.median < 0.1
