"""A league night played through the services, for the tests of standings and ratings jobs:
players on every league's roster, a stage played in groups, matches seated and finished by the
simulator, jobs held back; the stored tables and ratings against a computation from scratch."""

import json
from collections.abc import Iterator
from contextlib import contextmanager

from core import jobs
from games import services as game_services
from games.models import Match
from league import rating
from league import results as result_rows
from league.models import (
    Event,
    League,
    Player,
    PlayerRating,
    RatingChange,
    Stage,
    StandingsScope,
    StandingsTable,
)
from league.services import stages, standings_refresh
from tests.playing import play


def new_players(tag: str, count: int) -> list[int]:
    """`count` new players' ids, on the roster of every league; `tag` keeps their handles
    apart from other players'."""
    players = [
        Player.objects.create(display_name=f"{tag}-{i}", handle=f"{tag.lower()}-{i}")
        for i in range(count)
    ]
    for league in League.objects.all():
        league.players.add(*players)
    return [player.pk for player in players]


def groups_stage(
    event: Event, players: list[int], *, groups: int = 3, table_size: int = 4, **options: object
) -> Stage:
    """A draft round robin "Groups" of `players` at `event`, played in `groups` groups at
    tables of `table_size` (three groups of four, with twelve players)."""
    return stages.stage_create(
        event_id=event.pk,
        name="Groups",
        format="round_robin",
        player_ids=players,
        table_size=table_size,
        groups=groups,
        **options,  # type: ignore[arg-type]
    )


def finish(match_id: int, seed: int) -> None:
    play(Match.objects.get(pk=match_id), seed)


def seat(event: Event, players: list[int]) -> int:
    return game_services.match_create(
        game=event.league.game, player_ids=players, rules={}, event_id=event.pk
    ).pk


@contextmanager
def no_tasks() -> Iterator[None]:
    """Enqueueing does nothing while open: the marks are made, no job runs (like a queue whose
    worker has not picked anything up yet)."""
    send = jobs.send
    jobs.send = lambda task, args: None
    try:
        yield
    finally:
        jobs.send = send


def stored_table(kind: str, scope_id: int) -> StandingsTable:
    return StandingsTable.objects.get(scope=kind, scope_id=scope_id)


def fresh_rows(scope: tuple[str, int]) -> list[dict[str, object]]:
    """A from-scratch computation, as JSON stores it."""
    rows: list[dict[str, object]] = json.loads(json.dumps(standings_refresh.compute_rows(scope)[1]))
    return rows


def assert_converged(event: Event) -> None:
    for scope in [(StandingsScope.EVENT, event.pk), (StandingsScope.LEAGUE, event.league_id)]:
        table = stored_table(*scope)
        assert not table.pending
        assert table.rows == fresh_rows(scope)
    assert_ratings_converged(event.league)


def assert_ratings_converged(league: League) -> None:
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
