"""An event written as the export file has it (`event_export`)."""

from datetime import datetime
from typing import Any

from django.utils import timezone

from games.models import Match, Turn
from league.models import (
    Event,
    Player,
    Stage,
    StageBye,
    StageEntry,
    StageForfeit,
    StageMatch,
    StageVoid,
    StandingsScope,
)
from league.services.exports._common import FORMAT, VERSION
from league.services.standings_refresh import compute_rows


def _time(value: datetime | None) -> str | None:
    return value.isoformat() if value is not None else None


def event_export(*, event: Event) -> dict[str, Any]:
    """The event as the export file has it (a dict ready for JSON)."""
    league = event.league
    stages = list(event.stages.order_by("position", "pk"))
    stage_matches = {
        sm.match_id: sm for sm in StageMatch.objects.filter(stage__event=event, match__isnull=False)
    }
    # A stage match voided (also for a forfeit) left its slot: it still belongs to the stage.
    reasons = {
        (f.stage_match_id, f.player_id): f.reason
        for f in StageForfeit.objects.filter(stage_match__stage__event=event)
    }
    voids: dict[int, list[dict[str, Any]]] = {stage.pk: [] for stage in stages}
    for void in (
        StageVoid.objects.filter(stage_match__stage__event=event)
        .select_related("stage_match")
        .order_by("created_at", "pk")
    ):
        stage_matches.setdefault(void.match_id, void.stage_match)
        voids[void.stage_match.stage_id].append(
            {
                "match": void.match_id,
                "outcome": void.outcome,
                "forfeits": list(void.forfeits),
                "reason": next(
                    (
                        reasons[key]
                        for p in void.forfeits
                        if (key := (void.stage_match_id, p)) in reasons
                    ),
                    None,
                ),
                "created_at": void.created_at.isoformat(),
            }
        )
    forfeits: dict[int, list[dict[str, Any]]] = {stage.pk: [] for stage in stages}
    for forfeit in (
        StageForfeit.objects.filter(stage_match__stage__event=event)
        .select_related("stage_match")
        .order_by("created_at", "pk")
    ):
        forfeits[forfeit.stage_match.stage_id].append(
            {
                "player": forfeit.player_id,
                "reason": forfeit.reason,
                "round": forfeit.stage_match.round,
                "slot": forfeit.stage_match.slot or None,
            }
        )
    matches = list(
        Match.objects.filter(event=event).order_by("created_at", "pk").prefetch_related("seats")
    )
    turns: dict[int, list[Turn]] = {match.pk: [] for match in matches}
    for turn in (
        Turn.objects.filter(match__event=event).select_related("seat").order_by("match", "sequence")
    ):
        turns[turn.match_id].append(turn)
    player_ids = {seat.player_id for match in matches for seat in match.seats.all()}
    entries: dict[int, list[StageEntry]] = {stage.pk: [] for stage in stages}
    for entry in StageEntry.objects.filter(stage__event=event).order_by("stage", "seed"):
        entries[entry.stage_id].append(entry)
        player_ids.add(entry.player_id)
    byes: dict[int, list[StageBye]] = {stage.pk: [] for stage in stages}
    for bye in StageBye.objects.filter(stage__event=event).order_by("stage", "round", "player"):
        byes[bye.stage_id].append(bye)
    players = Player.objects.filter(pk__in=player_ids).order_by("pk")
    return {
        "format": FORMAT,
        "version": VERSION,
        "exported_at": timezone.now().isoformat(),
        "league": {
            "slug": league.slug,
            "name": league.name,
            "game": league.game,
            "rules": league.rules,
            "tiebreak": league.tiebreak,
            "points": league.points,
        },
        "event": {
            "id": event.pk,
            "name": event.name,
            "date": event.date.isoformat(),
            "venue": event.venue,
            "status": event.status,
            "rules": event.rules,
        },
        "players": [
            {"id": p.pk, "display_name": p.display_name, "handle": p.handle} for p in players
        ],
        "stages": [
            {
                **_stage_json(stage, entries[stage.pk], byes[stage.pk]),
                "forfeits": forfeits[stage.pk],
                "voids": voids[stage.pk],
            }
            for stage in stages
        ],
        "matches": [
            _match_json(match, stage_matches.get(match.pk), turns[match.pk]) for match in matches
        ],
        "standings": {
            "event": _table_json((StandingsScope.EVENT.value, event.pk)),
            "stages": [
                {"stage": stage.pk, **_table_json((StandingsScope.STAGE.value, stage.pk))}
                for stage in stages
            ],
        },
    }


def _stage_json(stage: Stage, entries: list[StageEntry], byes: list[StageBye]) -> dict[str, Any]:
    return {
        "id": stage.pk,
        "position": stage.position,
        "name": stage.name,
        "format": stage.format,
        "status": stage.status,
        "table_size": stage.table_size,
        "advance": stage.advance,
        "rounds": stage.rounds,
        "groups": stage.groups,
        "seeding": stage.seeding,
        "third_place": stage.third_place,
        "grand_final_reset": stage.grand_final_reset,
        "tiebreak": stage.tiebreak,
        "points": stage.points,
        "source_stage": stage.source_stage_id,
        "source_top": stage.source_top,
        "source_per_group": stage.source_per_group,
        "source_best_rest": stage.source_best_rest,
        "entries": [
            {
                "player": entry.player_id,
                "seed": entry.seed,
                "group": entry.group,
                "withdrawn": entry.withdrawn_at is not None,
                "withdrawn_at": _time(entry.withdrawn_at),
            }
            for entry in entries
        ],
        "byes": [{"round": bye.round, "player": bye.player_id} for bye in byes],
        "ranking": stage.ranking,
        "group_ranking": stage.group_ranking,
        "started_at": _time(stage.started_at),
        "finished_at": _time(stage.finished_at),
    }


def _match_json(match: Match, stage_match: StageMatch | None, turns: list[Turn]) -> dict[str, Any]:
    return {
        "id": match.pk,
        "game": match.game,
        "rules": match.rules,
        "status": match.status,
        "stage": stage_match.stage_id if stage_match else None,
        "round": stage_match.round if stage_match else None,
        "group": stage_match.group if stage_match else None,
        "slot": (stage_match.slot or None) if stage_match else None,
        "walkover": stage_match.walkover if stage_match else False,
        "seats": [
            {
                "player": seat.player_id,
                "order": seat.order,
                "total": seat.total,
                "placement": seat.placement,
            }
            for seat in sorted(match.seats.all(), key=lambda seat: seat.order)
        ],
        "created_at": match.created_at.isoformat(),
        "started_at": _time(match.started_at),
        "finished_at": _time(match.finished_at),
        "turns": [
            {
                "sequence": turn.sequence,
                "player": turn.seat.player_id,
                "payload": turn.payload,
                "points": turn.points,
                "bonus": turn.bonus,
                "submitted_at": turn.submitted_at.isoformat(),
            }
            for turn in turns
        ],
        "pad": match.pad,
    }


def _table_json(scope: tuple[str, int]) -> dict[str, Any]:
    """A table computed from the results now (never a stored one still pending)."""
    tiebreak, rows = compute_rows(scope)
    return {"tiebreak": tiebreak, "rows": rows}
