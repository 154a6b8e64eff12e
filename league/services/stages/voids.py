"""A stage match voided (`stage_match_voided`, taken back by `stage_match_unvoided`), forfeited
(`stage_forfeit`), or its result withdrawn (`stage_result_withdrawn`: an undo or a corrected
turn), and what taking a result back undoes (docs/draw.md, "Corrections, voids and
withdrawals")."""

from collections.abc import Mapping, Sequence
from typing import Any

from django.db import transaction
from django.utils import timezone

from games import services as game_services
from games.errors import UndoBlocked
from games.models import Match, MatchStatus, Seat
from league import draw, signals
from league.errors import LeagueError, StageConflict
from league.models import (
    ForfeitReason,
    Stage,
    StageBye,
    StageForfeit,
    StageFormat,
    StageMatch,
    StageStatus,
    StageVoid,
    VoidOutcome,
)
from league.services import locks
from league.services.stages._common import _standings_moved, withdrawn_players
from league.services.stages.advance import _advance, format_of

# A stage match is voided through `games.services.match_void` (with `then=`: what the organizer
# chose); the `match_voided` receiver calls `stage_match_voided`, which decides the slot. A
# forfeit and a withdrawal are voids of a match not started with a walkover against a player.


def _settle(
    stage: Stage,
    stage_match: StageMatch,
    seated: Sequence[int],
    *,
    rules: dict[str, Any],
    forfeits: Sequence[int] = (),
    reason: str = ForfeitReason.AWARDED,
    voided: Match,
) -> Match | None:
    """Decide a slot whose match (`voided`) was voided: `forfeits` take last place there, and
    the others play a fresh match among themselves (returned) at the voided match's table (its
    label, start, calendar entry and short link), or go on without playing (a walkover) when
    no more remain than go on."""
    StageForfeit.objects.bulk_create(
        StageForfeit(stage_match=stage_match, player_id=player, reason=reason)
        for player in forfeits
    )
    forfeited = list(
        stage_match.forfeits.order_by("created_at", "pk").values_list("player_id", flat=True)
    )
    remaining = [player for player in seated if player not in forfeited]
    if len(remaining) <= _goes_on(stage, stage_match) or len(remaining) < 2:
        seeds = dict(stage.entries.values_list("player_id", "seed"))
        stage_match.walkover = True
        stage_match.order = sorted(remaining, key=lambda p: seeds.get(p, 0)) + forfeited
        stage_match.save(update_fields=["walkover", "order"])
        return None
    replacement = game_services.match_create(
        game=stage.event.league.game,
        player_ids=remaining,
        rules=rules,
        event_id=stage.event_id,
        league_id=stage.event.league_id,
        in_place_of=voided,
    )
    stage_match.match = replacement
    stage_match.save(update_fields=["match"])
    signals.send_on_commit(signals.match_ready, StageMatch, match_id=replacement.pk)
    return replacement


def _goes_on(stage: Stage, stage_match: StageMatch) -> int:
    """How many of a stage match's players go on: its bracket slot's `advance`; 1 in rounds."""
    if not stage_match.slot:
        return 1
    return draw.Bracket.from_json(stage.bracket or {}).slot(stage_match.slot).advance


def _void_choice(
    stage: Stage, seated: Sequence[int], then: Mapping[str, Any]
) -> tuple[str, list[int], str]:
    """What the organizer chose for a voided stage match: the outcome, the players who forfeit
    (a walkover), and the reason recorded with their forfeits. Bad choices raise LeagueError
    (the void is then not made)."""
    outcome = then.get("outcome") or VoidOutcome.REPLAY
    if outcome not in VoidOutcome.values:
        raise LeagueError(
            "invalid_option",
            f"A voided stage match is replayed, a walkover or no result; not {outcome!r}.",
            details={"field": "outcome", "choices": list(VoidOutcome.values)},
        )
    forfeits = list(then.get("forfeits") or [])
    reason = then.get("reason") or ForfeitReason.AWARDED
    if outcome == VoidOutcome.WALKOVER:
        if not forfeits:
            raise LeagueError(
                "invalid_option",
                "A walkover names the players who forfeit (`forfeits`).",
                details={"field": "forfeits"},
            )
        if twice := sorted({p for p in forfeits if forfeits.count(p) > 1}):
            raise LeagueError(
                "invalid_option",
                f"`forfeits` names player {twice[0]} twice: name each player who forfeits once.",
                details={"field": "forfeits", "players": twice},
            )
        if not_seated := [p for p in forfeits if p not in seated]:
            raise LeagueError(
                "not_seated",
                f"Player {not_seated[0]} does not sit at this match.",
                details={"players": not_seated},
            )
        if len(set(forfeits)) >= len(seated):
            raise LeagueError(
                "invalid_option",
                "A walkover needs at least one player who does not forfeit.",
                details={"field": "forfeits"},
            )
    elif forfeits:
        raise LeagueError(
            "invalid_option",
            "Only a walkover names players who forfeit.",
            details={"field": "forfeits"},
        )
    withdrawn = withdrawn_players(stage) if outcome != VoidOutcome.NO_RESULT else set()
    if gone := [p for p in seated if p in withdrawn and p not in forfeits]:
        # A replay, or a walkover that sends them on, would seat a player who has withdrawn
        # (`stage_withdraw` leaves a match of theirs being played to finish or void).
        who = " and ".join(f"player {p}" for p in gone)
        rounds = stage.format in (StageFormat.ROUND_ROBIN, StageFormat.SWISS)
        raise LeagueError(
            "player_withdrawn",
            f"{who[0].upper()}{who[1:]} {'has' if len(gone) == 1 else 'have'} withdrawn from "
            f"stage {stage.pk}, so cannot play on at this table: award a walkover against "
            f"{'them' if len(gone) == 1 else 'each of them'}"
            f"{' or record no result' if rounds else ''}.",
            details={"field": "forfeits", "players": gone, "stage": stage.pk},
        )
    if outcome == VoidOutcome.NO_RESULT and stage.format not in (
        StageFormat.ROUND_ROBIN,
        StageFormat.SWISS,
    ):
        raise LeagueError(
            "invalid_option",
            "A bracket match must send someone on: replay it or award a walkover.",
            details={"field": "outcome"},
        )
    return outcome, list(dict.fromkeys(forfeits)), reason


def stage_match_voided(
    *,
    match: Match,
    was_finished: bool,
    then: Mapping[str, Any],
    voided_by: Any = None,
) -> StageMatch | None:
    """A stage match was voided (in the transaction that voided it): take back its result if
    it had one (`_withdraw_result`: refused when later play depends on it), then decide its
    slot as the organizer chose (`then`): replay it (the default: the same players at a fresh
    match with a new scoring key), a walkover against `forfeits`, or, in round robin and
    Swiss, no result. Recorded as a StageVoid, so it can be taken back (`stage_match_unvoided`).
    A choice for a match of no stage is refused (the void is then not made)."""
    stage_match = StageMatch.objects.filter(match_id=match.pk).first()
    if stage_match is None:
        if then.get("outcome") or then.get("forfeits"):
            raise LeagueError(
                "not_a_stage_match",
                f"Match {match.pk} is not a stage match: there is no slot to replay or award.",
                details={"match": match.pk},
            )
        return None
    stage = (
        Stage.objects.select_for_update()
        .select_related("event__league")
        .get(pk=stage_match.stage_id)
    )
    stage_match.stage = stage
    seated = list(
        Seat.objects.filter(match=match).order_by("order").values_list("player_id", flat=True)
    )
    outcome, forfeits, reason = _void_choice(stage, seated, then)
    if was_finished:
        _withdraw_result(stage, stage_match, reseed=bool(then.get("reseed_later_stages")))
    void = StageVoid(
        stage_match=stage_match,
        match=match,
        outcome=outcome,
        forfeits=forfeits,
        voided_by=voided_by,  # a User or None: games.services.match_void sends no other
    )
    if outcome == VoidOutcome.NO_RESULT:
        stage_match.order = []
        stage_match.save(update_fields=["order"])
    else:
        void.replay = _settle(
            stage,
            stage_match,
            seated,
            rules=match.rules,
            forfeits=forfeits,
            reason=reason,
            voided=match,
        )
    void.save()
    if stage.status == StageStatus.RUNNING:
        _advance(stage)
    _standings_moved(stage)
    return stage_match


def stage_match_unvoided(*, match: Match) -> None:
    """A void taken back (in the transaction that took it back): the slot gets its match
    again, and what the void had put there goes: a replay not yet started is deleted, the
    forfeits it recorded and its walkover or no result are taken back. Refused (409
    `void_in_use`) when the slot has moved on: its replay has started, or a later void of it
    stands; and, like an undo, when later play depends on the slot's outcome (`undo_blocked`,
    `stage_in_use`). A finished match then counts again (`match_finished` follows)."""
    void = StageVoid.objects.filter(match=match).select_related("replay").first()
    if void is None:
        return
    stage_match = StageMatch.objects.get(pk=void.stage_match_id)
    stage = (
        Stage.objects.select_for_update()
        .select_related("event__league")
        .get(pk=stage_match.stage_id)
    )
    stage_match.stage = stage
    latest = stage_match.voids.order_by("-created_at", "-pk").first()
    if latest is not None and latest.pk != void.pk:
        raise StageConflict(
            "void_in_use",
            f"Match {latest.match_id} of this slot was voided after match {match.pk}: "
            "take that void back first.",
            details={"match": latest.match_id},
        )
    replay = void.replay
    if replay is not None and (replay.status != MatchStatus.SCHEDULED or replay.turns_played):
        raise StageConflict(
            "void_in_use",
            f"Match {replay.pk}, seated when match {match.pk} was voided, has started: void "
            "it first, or leave the void.",
            details={"replay": replay.pk},
        )
    if stage_match.order is not None:  # a walkover or no result decided the slot
        _withdraw_result(stage, stage_match)
    StageForfeit.objects.filter(stage_match=stage_match, player_id__in=void.forfeits).delete()
    stage_match.walkover = False
    stage_match.match = match
    stage_match.save(update_fields=["walkover", "match"])
    void.delete()
    if replay is not None:
        replay.delete()
        _table_back(match, replay)
    if stage.status == StageStatus.RUNNING:
        _advance(stage)
    _standings_moved(stage, rebuild=True)  # its walkover and forfeits count no more


def _table_back(match: Match, replay: Match) -> None:
    """The table's calendar entry was the replay's; it is `match`'s again, a change the
    calendar app is told of by a SEQUENCE higher than any the entry had."""
    if match.planned_at is None or match.schedule_sequence > replay.schedule_sequence:
        return
    match.schedule_sequence = replay.schedule_sequence + 1
    match.schedule_changed_at = timezone.now()
    match.save(update_fields=["schedule_sequence", "schedule_changed_at"])


@transaction.atomic
def stage_forfeit(
    *,
    stage_match_id: int,
    player_id: int,
    reason: str = ForfeitReason.NO_SHOW,
    by: Any = None,
) -> StageMatch:
    """A player does not show for a match not yet started: they take last place there. The
    others play on among themselves at a fresh match, or, when no more remain than go on, go
    on without playing (a walkover)."""
    locks.event_of_stage_match_first(stage_match_id)
    stage_match = StageMatch.objects.get(pk=stage_match_id)
    if stage_match.match_id is None or stage_match.walkover:
        raise StageConflict("match_started", "This slot was already decided without a match.")
    match = Match.objects.select_for_update().get(pk=stage_match.match_id)
    if match.status != MatchStatus.SCHEDULED:
        raise StageConflict(
            "match_started", f"Match {match.pk} has started; a forfeit is only for one not started."
        )
    if not Seat.objects.filter(match=match, player_id=player_id).exists():
        raise LeagueError("not_seated", f"Player {player_id} does not sit at match {match.pk}.")
    game_services.match_void(
        match_id=match.pk,
        voided_by=by,
        then={"outcome": VoidOutcome.WALKOVER, "forfeits": [player_id], "reason": reason},
    )
    stage_match.refresh_from_db()
    return stage_match


def blocking_matches(stage_match: StageMatch) -> tuple[list[StageMatch], list[int]]:
    """The later stage matches fed by this one, and the ids of those already started (which
    block undoing this one's result)."""
    later = format_of(stage_match.stage).fed_by(stage_match)
    started = [
        sm.match_id
        for sm in later
        if sm.match is not None and sm.match.status != MatchStatus.SCHEDULED
    ]
    return later, [pk for pk in started if pk is not None]


def _blocked_sentence(later: Sequence[StageMatch], blocking: Sequence[int]) -> str:
    """Why a result cannot be taken back, in words true of each blocking match: one being
    or already played has started; a void one (a walkover, a no-show's too, or no result)
    never may have, but it decided its slot, and taking it back comes first."""
    void = {
        sm.match_id for sm in later if sm.match is not None and sm.match.status == MatchStatus.VOID
    }
    played = [pk for pk in blocking if pk not in void]
    decided = [pk for pk in blocking if pk in void]
    sentences = []
    if played:
        sentences.append(
            f"Later matches fed by this result have started: {', '.join(map(str, played))}."
        )
    if decided:
        sentences.append(
            f"Later {'matches' if len(decided) > 1 else 'match'} "
            f"{', '.join(map(str, decided))}, fed by this result, "
            f"{'were' if len(decided) > 1 else 'was'} voided and decided without play since "
            "(a walkover or no result): take that void back first."
        )
    return " ".join(sentences)


def stage_result_withdrawn(*, match_id: int, reseed: bool = False) -> None:
    """A stage match's result no longer stands (its last turn undone, or a turn corrected):
    take it back (`_withdraw_result`)."""
    stage_match = StageMatch.objects.filter(match_id=match_id).first()
    if stage_match is None:
        return
    stage = (
        Stage.objects.select_for_update()
        .select_related("event__league")
        .get(pk=stage_match.stage_id)
    )
    stage_match.stage = stage
    _withdraw_result(stage, stage_match, reseed=reseed)
    if stage.status == StageStatus.RUNNING:
        _advance(stage)  # a bracket's stored slot states follow the emptied slots


def _withdraw_result(stage: Stage, stage_match: StageMatch, *, reseed: bool = False) -> None:
    """Take back a decided stage match's outcome: refused when a later match fed by it has
    started (UndoBlocked names them), or when its stage has finished and a later stage has
    taken players by its ranking (`_later_stages_in_use`); otherwise empty the slots it fed
    and reopen the stage."""
    later, started = blocking_matches(stage_match)
    if started:
        raise UndoBlocked(_blocked_sentence(later, started), details={"blocking_matches": started})
    if stage.status == StageStatus.FINISHED:
        _later_stages_in_use(stage, reseed=reseed)
    later_ids = [sm.match_id for sm in later if sm.match_id is not None]
    StageMatch.objects.filter(pk__in=[sm.pk for sm in later]).delete()
    Match.objects.filter(pk__in=later_ids, status=MatchStatus.SCHEDULED).delete()
    format_of(stage).withdrawn(stage_match)
    stage_match.order = None
    stage_match.save(update_fields=["order"])
    if stage.status == StageStatus.FINISHED:
        stage.status = StageStatus.RUNNING
        stage.finished_at = None
        stage.ranking = None
        stage.group_ranking = None
        stage.save(update_fields=["status", "finished_at", "ranking", "group_ranking"])


def _later_stages_in_use(stage: Stage, *, reseed: bool) -> None:
    """A finished stage's ranking may change: refuse (409 `stage_in_use`, naming the stages
    and their matches) when a later stage has taken its players. With `reseed`, the organizer
    confirmed: later stages none of whose matches has started go back to draft (they take
    their players again when started); one with a match started still refuses."""
    later = list(Stage.objects.filter(source_stage=stage).exclude(status=StageStatus.DRAFT))
    if not later:
        return
    rows = list(
        StageMatch.objects.filter(stage__in=later)
        .exclude(match=None)
        .values_list("stage_id", "match_id", "match__status", "match__turns_played")
    )
    played = [
        match_id for _, match_id, status, turns in rows if status != MatchStatus.SCHEDULED or turns
    ]
    finished_later = [s.pk for s in later if s.status == StageStatus.FINISHED]
    if not reseed or played or finished_later:
        names = ", ".join(f"{s.name} (stage {s.pk})" for s in later)
        raise StageConflict(
            "stage_in_use",
            f"Stage {stage.pk} ({stage.name}) has finished and {names} took players by its "
            "ranking; a change to its results could change who qualified. "
            + (
                f"Play has begun there ({'match' if len(played) == 1 else 'matches'} "
                + ", ".join(map(str, played))
                + "), so they cannot be seated again."
                if played
                else "They have finished, so they cannot be seated again."
                if finished_later
                else "Send reseed_later_stages: true to put those stages back to draft and "
                "seat them again from the new ranking."
            ),
            details={
                "stages": [s.pk for s in later],
                "matches": [match_id for _, match_id, _, _ in rows],
                "played": played,
            },
        )
    for later_stage in later:
        _back_to_draft(later_stage)


def _back_to_draft(stage: Stage) -> None:
    """A started stage none of whose matches has started goes back to draft."""
    stage_matches = StageMatch.objects.filter(stage=stage)
    match_ids = list(stage_matches.exclude(match=None).values_list("match_id", flat=True))
    stage_matches.delete()
    Match.objects.filter(pk__in=match_ids).delete()
    StageBye.objects.filter(stage=stage).delete()
    stage.status = StageStatus.DRAFT
    stage.started_at = None
    stage.bracket = None
    stage.save(update_fields=["status", "started_at", "bracket"])
    _standings_moved(stage, rebuild=True)  # its byes went with its draw
