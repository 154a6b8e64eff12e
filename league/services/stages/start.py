"""A stage started (`stage_start`): a fed stage takes its players from its source, an event
using check-in drops those not checked in, and the draw seats the first matches."""

from collections.abc import Iterable

from django.db import transaction
from django.utils import timezone

from league import draw, standings
from league.errors import StageConflict
from league.models import Event, EventStatus, Stage, StageEntry, StageStatus
from league.services.registration import absent_dropped
from league.services.stages._common import _locked_draft, _standings_moved
from league.services.stages.advance import _advance, _table_ranking, format_of
from scoring.errors import DomainError


@transaction.atomic
def stage_start(*, stage_id: int) -> Stage:
    """Draw the first round (round robin: every round; elimination: the whole bracket) and
    seat its matches. From then on the stage keeps its points scheme (the league's now, when
    it has none of its own; docs/standings.md, "League points")."""
    stage = _locked_draft(stage_id)
    dropped = absent_dropped(stage)  # an event using check-in seats only those checked in
    if stage.source_stage_id is not None:
        _take_qualifiers(stage)
    players = list(stage.entries.order_by("seed").values_list("player_id", flat=True))
    try:
        format_of(stage).start(stage, players)
    except DomainError as refusal:
        if dropped:  # the draw's reason alone would speak of players the stage still lists
            _refused_after_check_in(refusal, dropped, len(players))
        raise
    if not stage.points:
        # The stage keeps the scheme it is played under: a later change of the league's
        # points never re-ranks it, so its final ranking and its table always agree.
        stage.points = standings.LeaguePoints.from_json(stage.event.league.points).to_json()
    stage.status = StageStatus.RUNNING
    stage.started_at = timezone.now()
    stage.save(update_fields=["status", "started_at", "rounds", "bracket", "points"])
    # Its event is running from now (not from its first turn): its tables are seated. The
    # event's row last, after the stage's, in the order of league.services.locks.
    Event.objects.filter(pk=stage.event_id, status=EventStatus.UPCOMING).update(
        status=EventStatus.RUNNING
    )
    _advance(stage)
    # Its entrants are listed (those its start took from a source, or left checked in), and
    # first-round byes count.
    _standings_moved(stage, entrants=bool(dropped) or stage.source_stage_id is not None)
    return stage


def _refused_after_check_in(refusal: DomainError, dropped: list[int], left: int) -> None:
    """A draw refused once the players not checked in were dropped: its sentence says so
    first, and `details.dropped` lists them (the start is rolled back: nothing changes)."""
    entered = len(dropped) + left
    some = f"Only {left}" if left else "None"
    refusal.message = (
        f"{some} of the {entered} players entered {'are' if left > 1 else 'is'} checked in, "
        f"and a stage starts with those checked in: {refusal.message} Check them in, or "
        "change the stage."
    )
    refusal.args = (refusal.message,)
    refusal.details = {**refusal.details, "dropped": dropped}


def _take_qualifiers(stage: Stage) -> None:
    """Enter the players a fed stage takes from its finished source, seeded in the source's
    final order (docs/draw.md, "Round robin and groups"): its top `source_top`, or the top
    `source_per_group` of each group plus the best `source_best_rest` of the rest. A place
    shared at a cut goes to the better seed of the source; players who withdrew from the
    source are passed over."""
    source = stage.source_stage
    assert source is not None  # noqa: S101 - checked by the caller
    if source.status != StageStatus.FINISHED or not source.ranking:
        raise StageConflict(
            "source_not_finished",
            f"Stage {source.pk} must finish before this one starts.",
            details={"source_stage": source.pk},
        )
    seeds = dict(source.entries.filter(withdrawn_at=None).values_list("player_id", "seed"))

    def cut_order(tiers: Iterable[Iterable[int]]) -> list[int]:
        return [
            p
            for tier in tiers
            for p in sorted((p for p in tier if p in seeds), key=seeds.__getitem__)
        ]

    overall = cut_order(source.ranking)
    in_groups: list[list[int]] = []
    if source.played_in_groups:
        group_ranking = source.group_ranking or _table_ranking(source)[1] or {}
        in_groups = [cut_order(group_ranking.get(str(n), ())) for n in range(1, source.groups + 1)]
    if stage.source_per_group:
        taken = draw.group_qualifiers(
            in_groups,
            stage.source_per_group,
            best_rest=stage.source_best_rest,
            overall=overall,
        )
    else:
        taken = draw.qualifiers(overall, stage.source_top or 0)
    if in_groups:
        taken = draw.groups_apart(
            taken,
            groups={p: number for number, group in enumerate(in_groups) for p in group},
            places={p: place for group in in_groups for place, p in enumerate(group)},
            meetings=format_of(stage).meetings(stage, len(taken)),
        )
    StageEntry.objects.filter(stage=stage).delete()
    StageEntry.objects.bulk_create(
        StageEntry(stage=stage, player_id=player_id, seed=seed)
        for seed, player_id in enumerate(taken, start=1)
    )
