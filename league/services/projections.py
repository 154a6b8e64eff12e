"""A stage's projection: the stage read from the database as `league.projection` takes it,
simulated, and kept (`StageProjection`), by a job enqueued when one of its matches finishes
(docs/analysis.md, "Chance to qualify"). Pages and the API read the stored figures only."""

import logging
import time
from collections.abc import Mapping, Sequence

from django.conf import settings
from django.db import transaction

from analysis.models import MatchForecast
from games.models import MatchStatus, Seat
from league import draw, projection, standings
from league.models import (
    PlayerRating,
    Stage,
    StageFormat,
    StageMatch,
    StageProjection,
    StageStatus,
    StandingsScope,
    StandingsTable,
)
from league.rating import Rating
from league.results import load_results
from league.services import jobs

logger = logging.getLogger(__name__)

# The figures are reproducible: every projection of a stage draws from this seed.
SEED = 39


def stage_version(stage_id: int) -> int:
    """Where the stage's results stand: its standings table's mark, which every result of the
    stage (finished, withdrawn, voided) moves; 0 before its first."""
    return (
        StandingsTable.objects.filter(scope=StandingsScope.STAGE, scope_id=stage_id)
        .values_list("requested", flat=True)
        .first()
        or 0
    )


def projection_mark(stage_id: int) -> None:
    """The stage's figures are out of date: work them out again once this commits."""
    jobs.enqueue_once_on_commit(jobs.STAGE_PROJECTION, stage_id)


def stage_setup(stage: Stage) -> projection.StageSetup:
    """The stage as the simulator takes it: its entrants by seed, what counts in its standings,
    the matches left (or its bracket and decided slots), and the next stage's cut."""
    league = stage.event.league
    entries = list(stage.entries.order_by("seed").values_list("player_id", "group", "withdrawn_at"))
    results, byes = load_results((StandingsScope.STAGE, stage.pk), with_times=False)
    stage_matches = list(
        StageMatch.objects.filter(stage=stage)
        .select_related("match")
        .order_by("round", "slot", "pk")
        .only("round", "slot", "order", "match_id", "match__status")
    )
    playing = [
        sm
        for sm in stage_matches
        if sm.order is None
        and sm.match is not None
        and sm.match.status in (MatchStatus.SCHEDULED, MatchStatus.IN_PROGRESS)
    ]
    seats: dict[int, list[int]] = {}
    for match_id, player_id in (
        Seat.objects.filter(match_id__in=[sm.match_id for sm in playing])
        .order_by("match_id", "order")
        .values_list("match_id", "player_id")
    ):
        seats.setdefault(match_id, []).append(player_id)
    bracket = None
    slot_results: dict[str, draw.SlotResult] = {}
    if stage.is_elimination and stage.bracket:
        bracket = draw.Bracket.from_json(stage.bracket)
        slot_results = {
            sm.slot: draw.SlotResult(
                placements={player: place for place, player in enumerate(sm.order, start=1)}
            )
            for sm in stage_matches
            if sm.order is not None and sm.slot
        }
    following = stage.next_stages.order_by("position").first()
    return projection.StageSetup(
        format=stage.format,  # type: ignore[arg-type]  # a StageFormat value
        game=league.game,
        players=tuple(player for player, _group, _at in entries),
        tiebreak=tuple(stage.tiebreak),
        points=standings.LeaguePoints.from_json(stage.points or league.points),
        table_size=stage.table_size,
        results=tuple(results),
        byes=tuple(byes),
        pending=()
        if bracket is not None
        else tuple(
            projection.Pending(sm.match_id, tuple(seats[sm.match_id]), sm.round)
            for sm in playing
            if sm.match_id in seats
        ),
        rounds=(stage.rounds or 0) if stage.format == StageFormat.SWISS else 0,
        stage_id=stage.pk,
        groups={player: group for player, group, _at in entries}
        if stage.played_in_groups
        else None,
        withdrawn=frozenset(player for player, _group, at in entries if at is not None),
        bracket=bracket,
        slot_results=slot_results,
        slot_matches={sm.slot: sm.match_id for sm in playing if sm.slot and sm.match_id},
        qualifying=None
        if following is None
        else projection.Qualifying(
            top=following.source_top or 0,
            per_group=following.source_per_group or 0,
            best_rest=following.source_best_rest,
        ),
    )


def stage_ratings(stage: Stage, players: Sequence[int]) -> dict[int, Rating]:
    """The players' current ratings in the stage's league (a player without one: none here,
    and the simulator takes a new player's)."""
    return {
        player: Rating(mu, sigma)
        for player, mu, sigma in PlayerRating.objects.filter(
            league_id=stage.event.league_id, player_id__in=list(players)
        ).values_list("player_id", "mu", "sigma")
    }


def live_overrides(
    stage: Stage, setup: projection.StageSetup
) -> tuple[dict[int, list[float]], dict[str, int]]:
    """The chances of the stage's matches being played, from their live forecasts, as the
    simulator's overrides (match id to chances in the seat order the simulator takes: a
    bracket slot's), and what they are (match id to forecast version): `live_chances`."""
    slot_of = {match_id: slot for slot, match_id in setup.slot_matches.items()}
    seated: dict[int, tuple[int, ...]] = {m.match_id: m.players for m in setup.pending}
    if slot_of and setup.bracket is not None:
        state = draw.advance_bracket(setup.bracket, setup.slot_results)
        seated.update({match_id: state.slots[slot].players for match_id, slot in slot_of.items()})
    return live_chances(seated)


def live_chances(
    seated: Mapping[int, Sequence[int]],
) -> tuple[dict[int, list[float]], dict[str, int]]:
    """For the matches of `seated` (match id to its players in the order the simulator takes
    them) that are being played, each player's chance to win from the match's live forecast
    (`analysis.MatchForecast`: the chances after the last turn computed), in that order; and
    the forecasts' versions by match id. Only a match in progress with a turn computed counts:
    before the first turn the forecast knows nothing of the players."""
    rows = MatchForecast.objects.filter(
        match_id__in=list(seated), match__status=MatchStatus.IN_PROGRESS
    ).values_list("match_id", "version", "players", "chances")
    overrides: dict[int, list[float]] = {}
    versions: dict[str, int] = {}
    for match_id, version, players, chances in rows:
        if len(chances) < 2 or sorted(players) != sorted(seated[match_id]):
            continue
        by_player = dict(zip(players, chances[-1], strict=True))
        overrides[match_id] = [float(by_player[p]) for p in seated[match_id]]
        versions[str(match_id)] = version
    return overrides, versions


def stage_project(
    *,
    stage_id: int,
    runs: int | None = None,
    overrides: Mapping[int, Sequence[float]] | None = None,
    force: bool = False,
) -> StageProjection | None:
    """Work out the stage's figures and keep them; None for a stage not started (or gone).
    A projection already made at the stage's current version, with the same live chances of
    the matches being played (`live_overrides`), is kept as it is, unless `force`.
    `overrides`: match id to each seat's chance to win, for matches in progress, over the
    live ones."""
    stage = Stage.objects.select_related("event__league").filter(pk=stage_id).first()
    if stage is None or stage.status == StageStatus.DRAFT:
        return None
    version = stage_version(stage_id)
    stored = StageProjection.objects.filter(stage=stage).first()
    setup = stage_setup(stage)
    live, live_versions = live_overrides(stage, setup)
    if (
        stored is not None
        and not force
        and (
            stored.version > version or (stored.version == version and stored.live == live_versions)
        )
    ):
        return stored
    started = time.perf_counter()
    finished = stage.status == StageStatus.FINISHED
    figures = projection.project_stage(
        setup,
        stage_ratings(stage, setup.players),
        runs=1 if finished else (runs or int(settings.STAGE_PROJECTION_RUNS)),  # 1: decided
        seed=SEED,
        overrides={**live, **(overrides or {})},
    )
    seconds = time.perf_counter() - started
    with transaction.atomic():
        kept, _ = StageProjection.objects.select_for_update().get_or_create(
            stage=stage,
            defaults={"runs": figures.runs, "version": version},
        )
        if kept.version > version:  # a newer one was kept meanwhile
            return kept
        kept.version = version
        kept.runs = figures.runs
        kept.seed = figures.seed
        kept.figures = figures.to_json()
        kept.live = live_versions
        if finished:  # one run of a stage with nothing left: the figures are certain
            kept.figures["standard_error"] = 0.0
        kept.seconds = seconds
        kept.save()
    logger.info(
        "Projected stage %s (%d players, %d runs, %d live) in %.3f s.",
        stage_id,
        len(setup.players),
        figures.runs,
        len(live),
        seconds,
    )
    return kept


def current_projection(stage: Stage) -> StageProjection | None:
    """The stored figures of the stage, whatever version they were made at (None before the
    first); `StageProjection.version` against `stage_version` says whether they are behind."""
    return StageProjection.objects.filter(stage=stage).first()
