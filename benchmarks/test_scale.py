"""Season scale (issue 41, "Past one machine"; docs/benchmarks.md, "Season scale"): how the
full standings recompute, the one-match refresh, the ratings replay and the league and event
pages grow from 1x to 50x the standings benchmark (1,000 players, 20,000 matches), on a
database seeded with COPY (`league.management.seeding`, as `manage.py seed_season`).

Two series, each growing one database step by step (a factor's seeding only adds):

- `season`: 2 N leagues of 10,000 matches among 1,000 players each, from a pool of
  max(1,000, 200 N) players (at 50x: 100 leagues, 1,000,000 matches, 10,000 players). One
  league's figures should stay flat; the recompute of every league's table (`season_all`)
  grows with the number of leagues.
- `league`: one league of 1,000 N players and 20,000 N matches (at 50x: 50,000 players and
  1,000,000 matches in one table). Everything about that table grows with it.

At each factor: the full recompute of the league's table (`compute_rows`, nothing stored), the
refresh of that table after one more match (`standings_refresh`, its tally kept by the worker,
as in benchmarks/test_standings_db.py), the ratings replay of the league (`ratings_replay`, its
history written), and the league and event pages through Django's test client in this process:
`*_page_first` right after the tables were computed (the table rendered), `*_page` again (the
rendered table from the cache). Times are CPU seconds of this process plus its PostgreSQL
backend (`/proc/<pid>/stat`; the machine is shared, wall time counts the other processes'
turns), per operation; wall times are printed beside them. Then for each figure the log-log
slope (numpy.polyfit of log time against log factor): nothing may grow faster than linearly
(slope <= 1.1), and in the season series the one-match refresh and the pages stay flat
(slope <= 0.2).

Opt-in, as 50x takes a while: `SCALE_FACTORS=1,2,5,10,20,50` (the season series) and
`SCALE_LEAGUE_FACTORS` (the one-league series; SCALE_FACTORS when unset), with
DATABASE_URL's PostgreSQL on this machine (the backend's CPU is read from /proc):

    SCALE_FACTORS=1,2,5,10,20,50 SCALE_LEAGUE_FACTORS=1,2,5,10 DATABASE_URL=postgres://... \\
        .venv/bin/python -m pytest benchmarks/test_scale.py -s -p no:cacheprovider"""

import datetime
import itertools
import math
import os
import statistics
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.utils import timezone

from games.models import Match, Seat
from league.management import seeding
from league.models import Event, League, ScopeKey, StandingsScope
from league.pages import table_cache
from league.services import ratings, standings_marks, standings_refresh


def _factors(name: str, fallback: str = "") -> list[int]:
    text = os.environ.get(name, fallback)
    return sorted({int(part) for part in text.split(",") if part.strip()})


SEASON_FACTORS = _factors("SCALE_FACTORS")
LEAGUE_FACTORS = _factors("SCALE_LEAGUE_FACTORS", os.environ.get("SCALE_FACTORS", ""))
LINEAR = 1.1
FLAT = 0.2
FULL_ROUNDS = 3
ONE_MATCH_ROUNDS = 20
FIRST_PAGE_ROUNDS = 3
PAGE_ROUNDS = 30
# The figures that must stay flat in the season series (one league's, however many leagues).
SEASON_FLAT = ("one_match", "league_page", "event_page", "full", "ratings")

pytestmark = [
    pytest.mark.skipif(
        len(SEASON_FACTORS) < 2, reason="opt-in: SCALE_FACTORS=1,2,5,... (two or more factors)"
    ),
    pytest.mark.django_db,
]

TICKS = os.sysconf("SC_CLK_TCK")


def _backend_cpu() -> float:
    """CPU seconds of this connection's PostgreSQL backend so far (0 where /proc does not
    show it: a database on another machine; then only this process is counted)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        (pid,) = cursor.fetchone()
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / TICKS  # utime, stime


def measure(work: Callable[[], object], rounds: int, setup: Callable[[], object] | None = None):
    """(CPU seconds an operation, its median wall seconds): this process and its backend,
    over `rounds` rounds of `work` (`setup` before each, not counted)."""
    cpu, walls = 0.0, []
    for _ in range(rounds):
        if setup is not None:
            setup()
        backend, process, wall = _backend_cpu(), time.process_time(), time.perf_counter()
        work()
        walls.append(time.perf_counter() - wall)
        cpu += time.process_time() - process + _backend_cpu() - backend
    return cpu / rounds, statistics.median(walls)


NUMBERS = itertools.count(1)  # the matches added, over all factors


class OneMore:
    """One more finished match at `event` among its first players, marked as a result is."""

    def __init__(self, event: Event) -> None:
        self.event = event
        self.players = list(
            Seat.objects.filter(match__event=event).values_list("player_id", flat=True)[:8]
        )
        self.players = list(dict.fromkeys(self.players))

    def __call__(self) -> None:
        number = next(NUMBERS)
        match = Match.objects.create(
            game="yardzee",
            rules={"joker": "forced"},
            state={},
            status="finished",
            event=self.event,
            league_id=self.event.league_id,
            score_key=f"one-more-{self.event.pk}-{number}",
            finished_at=timezone.now() + datetime.timedelta(seconds=number),
            turns_played=52,
        )
        seated = self.players[number % 4 : number % 4 + 4]
        Seat.objects.bulk_create(
            Seat(match=match, player_id=p, order=i, total=200 + i, placement=4 - i)
            for i, p in enumerate(seated)
        )
        # The mark lists the match, as a finished match's does (`result_changed`).
        standings_marks.standings_mark(
            [(StandingsScope.LEAGUE, self.event.league_id)], match_ids=[match.pk]
        )


def _forget_pages() -> None:
    """Nothing rendered kept: the next request renders its tables (as after a computation)."""
    cache.clear()
    table_cache.clear_local()
    table_cache.clear_pages()


def figures_of(league: League) -> dict[str, tuple[float, float]]:
    """Every figure of one league, (CPU seconds, wall seconds) each."""
    event = league.events.get()
    scope = (StandingsScope.LEAGUE, league.pk)
    got = {"full": measure(lambda: standings_refresh.compute_rows(scope), FULL_ROUNDS)}
    got["ratings"] = measure(lambda: ratings.ratings_replay(league_id=league.pk), 1)
    (table_id,) = standings_marks.standings_mark([scope])
    standings_refresh.standings_refresh(table_id=table_id)  # the tally the worker keeps
    got["one_match"] = measure(
        lambda: standings_refresh.standings_refresh(table_id=table_id),
        ONE_MATCH_ROUNDS,
        setup=OneMore(event),
    )
    client = Client()
    for table_scope in (scope, (StandingsScope.EVENT, event.pk)):  # the pages' tables, current
        table = standings_refresh.standings_table_computed_on_miss(table_scope)
        standings_refresh.standings_recompute(table_id=table.pk)
    for name, path in (("league", f"/leagues/{league.slug}/"), ("event", f"/events/{event.pk}/")):

        def get(path: str = path) -> None:
            response = client.get(path)
            assert response.status_code == 200, response.status_code

        got[f"{name}_page_first"] = measure(get, FIRST_PAGE_ROUNDS, setup=_forget_pages)
        got[f"{name}_page"] = measure(get, PAGE_ROUNDS)
    return got


def slope(factors: list[int], values: list[float]) -> float:
    """The log-log slope of `values` against `factors` (1: linear, 0: flat)."""
    return float(np.polyfit(np.log(factors), np.log(values), 1)[0])


def report(series: str, table: dict[int, dict[str, tuple[float, float]]]) -> dict[str, float]:
    """Print every figure as `name=value` (milliseconds) and each one's slope; the slopes."""
    factors = sorted(table)
    print()
    for factor in factors:
        for name, (cpu, wall) in table[factor].items():
            print(f"{series}_{factor}x_{name}_cpu_ms={cpu * 1000:.1f}")
            print(f"{series}_{factor}x_{name}_wall_ms={wall * 1000:.1f}")
    slopes = {}
    for name in table[factors[0]]:
        # A CPU time below the clock's tick may read as 0: a floor keeps the log finite.
        values = [max(table[f][name][0], 1e-4) for f in factors]
        slopes[name] = slope(factors, values)
        print(f"{series}_{name}_slope={slopes[name]:.2f}")
    return slopes


def test_season_of_many_leagues_from_1x_up():
    """2 N leagues of one size: one league's figures stay flat, all the leagues' full
    recompute grows linearly with their number."""
    table = {}
    for factor in SEASON_FACTORS:
        started = time.perf_counter()
        added = seeding.seed_season(factor)
        print(f"\nseason_{factor}x_seeded={added} in {time.perf_counter() - started:.1f} s")
        leagues = League.objects.filter(slug__startswith=seeding.SEASON_PREFIX).exclude(
            slug=seeding.ONE_LEAGUE_SLUG
        )
        got = figures_of(leagues.get(slug=f"{seeding.SEASON_PREFIX}001"))
        scopes: list[ScopeKey] = [
            (StandingsScope.LEAGUE, pk) for pk in leagues.values_list("pk", flat=True)
        ]
        assert len(scopes) == 2 * factor

        def every_league(scopes: list[ScopeKey] = scopes) -> None:
            for scope in scopes:
                standings_refresh.compute_rows(scope)

        got["season_all"] = measure(every_league, 1)
        table[factor] = got
    slopes = report("season", table)
    assert all(s <= LINEAR for s in slopes.values()), slopes
    flat = {name: slopes[name] for name in SEASON_FLAT}
    assert all(s <= FLAT for s in flat.values()), flat
    assert math.isclose(slopes["season_all"], 1, abs_tol=0.25), slopes["season_all"]


@pytest.mark.skipif(len(LEAGUE_FACTORS) < 2, reason="SCALE_LEAGUE_FACTORS: two or more factors")
def test_one_league_growing_from_1x_up():
    """One league of 1,000 N players and 20,000 N matches: nothing grows faster than the
    table (slope <= 1.1); what the refresh and the pages cost with the table's length is
    printed, not asserted flat (docs/benchmarks.md, "Season scale")."""
    table = {}
    for factor in LEAGUE_FACTORS:
        started = time.perf_counter()
        added = seeding.seed_league(factor)
        print(f"\nleague_{factor}x_seeded={added} in {time.perf_counter() - started:.1f} s")
        table[factor] = figures_of(League.objects.get(slug=seeding.ONE_LEAGUE_SLUG))
    slopes = report("league", table)
    assert all(s <= LINEAR for s in slopes.values()), slopes
