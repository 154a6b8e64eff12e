"""A league's season projection: each player's chance to finish in each place of the league
table and to win the league, from simulating the matches of the league's events that are
drawn and not finished, kept (`LeagueProjection`) by a job after each result (with the live
chances of the matches being played then: docs/analysis.md, "Chance to win the league").
Pages and the API read what is kept.

The season has no schedule beyond what is drawn: what is left to play is every match of the
league's events that is scheduled or being played (a round robin's matches, the current Swiss
round's, the bracket slots seated), decided by the ratings or, while played, by the live
chances; the league table is then ranked by the league's points scheme and tiebreak order, as
a round robin of those matches would be (`league.projection.project_stage`)."""

import logging
import time

from django.conf import settings
from django.db import transaction

from games.models import Match, MatchStatus, Seat
from league import projection, standings
from league.models import (
    League,
    LeagueProjection,
    PlayerRating,
    Scope,
    StandingsScope,
    StandingsTable,
)
from league.rating import Rating
from league.results import load_results
from league.services import jobs
from league.services.projections import SEED, live_chances

logger = logging.getLogger(__name__)


def league_version(league_id: int) -> int:
    """Where the league table's results stand: its `requested` mark (0 before its first)."""
    return (
        StandingsTable.objects.filter(scope=StandingsScope.LEAGUE, scope_id=league_id)
        .values_list("requested", flat=True)
        .first()
        or 0
    )


def league_projection_mark(league_id: int | None) -> None:
    """The league's figures are out of date: work them out again once this commits."""
    if league_id is not None:  # one job while one waits: a night's results cost a few
        jobs.enqueue_once_on_commit(jobs.LEAGUE_PROJECTION, league_id)


def league_setup(league: League) -> projection.StageSetup:
    """The season as the simulator takes it: the league table's results, the matches of its
    events left to play, the players in the order of the stored table (then by id): who is
    ahead now is the better "seed" when the figures leave two players equal."""
    scope = (StandingsScope.LEAGUE.value, league.pk)
    results, byes = load_results(scope, with_times=False)
    left = list(
        Match.objects.filter(
            Scope(*scope).matches(), status__in=(MatchStatus.SCHEDULED, MatchStatus.IN_PROGRESS)
        )
        .order_by("pk")
        .values_list("pk", flat=True)
    )
    seats: dict[int, list[int]] = {}
    for match_id, player_id in (
        Seat.objects.filter(match_id__in=left)
        .order_by("match_id", "order")
        .values_list("match_id", "player_id")
    ):
        seats.setdefault(match_id, []).append(player_id)
    pending = tuple(
        projection.Pending(match_id, tuple(players))
        for match_id, players in seats.items()
        if len(players) >= 2
    )
    everyone = {seat.player for result in results for seat in result.seats}
    everyone |= {bye.player for bye in byes} | {p for m in pending for p in m.players}
    # The league table's order as it stands (best first): ties go to the player ahead.
    table = (
        StandingsTable.objects.filter(scope=StandingsScope.LEAGUE, scope_id=league.pk)
        .only("ranking")
        .first()
    )
    placed = [] if table is None else table.players_in_order
    ranked = [player for player in placed if player in everyone]
    order = ranked + sorted(everyone - set(ranked))
    return projection.StageSetup(
        format="round_robin",
        game=league.game,
        players=tuple(order),
        tiebreak=tuple(league.tiebreak),
        points=standings.LeaguePoints.from_json(league.points),
        results=tuple(results),
        byes=tuple(byes),
        pending=pending,
    )


def league_project(
    *, league_id: int, runs: int | None = None, force: bool = False
) -> LeagueProjection | None:
    """Work out the league's figures and keep them; None for no such league. Figures made at
    the table's current version, with the same matches left and the same live chances, are
    kept as they are, unless `force`."""
    league = League.objects.filter(pk=league_id).first()
    if league is None:
        return None
    version = league_version(league_id)
    stored = LeagueProjection.objects.filter(league=league).first()
    setup = league_setup(league)
    live, live_versions = live_chances({m.match_id: m.players for m in setup.pending})
    if (
        stored is not None
        and not force
        and (
            stored.version > version
            or (
                stored.version == version
                and stored.live == live_versions
                and stored.left == len(setup.pending)
            )
        )
    ):
        return stored
    started = time.perf_counter()
    ratings = {
        player: Rating(mu, sigma)
        for player, mu, sigma in PlayerRating.objects.filter(
            league=league, player_id__in=list(setup.players)
        ).values_list("player_id", "mu", "sigma")
    }
    decided = not setup.pending  # nothing left: one run is the table as it stands
    figures = (
        projection.project_stage(
            setup,
            ratings,
            runs=1 if decided else (runs or int(settings.STAGE_PROJECTION_RUNS)),
            seed=SEED,
            overrides=live,
        )
        if setup.players
        else projection.Projection(runs=1, seed=SEED, players=())
    )
    seconds = time.perf_counter() - started
    with transaction.atomic():
        kept, _ = LeagueProjection.objects.select_for_update().get_or_create(
            league=league, defaults={"runs": figures.runs, "version": version}
        )
        if kept.version > version:  # a newer one was kept meanwhile
            return kept
        kept.version = version
        kept.live = live_versions
        kept.left = len(setup.pending)
        kept.runs = figures.runs
        kept.seed = figures.seed
        kept.figures = figures.to_json()
        if decided:
            kept.figures["standard_error"] = 0.0
        kept.seconds = seconds
        kept.save()
    logger.info(
        "Projected league %s (%d players, %d matches left, %d runs) in %.3f s.",
        league_id,
        len(setup.players),
        len(setup.pending),
        figures.runs,
        seconds,
    )
    return kept


def current_league_projection(league: League) -> LeagueProjection | None:
    """The stored figures of the league, whatever version they were made at (None before the
    first); `LeagueProjection.version` against `league_version` says whether they are behind."""
    return LeagueProjection.objects.filter(league=league).first()
