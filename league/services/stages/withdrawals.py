"""A player withdrawn from a stage (`stage_withdraw`, `entry_withdraw`) or from every stage of an
event (`event_withdraw`), and the entries a fed stage kept when it went back to draft
(`draft_entries_keep`)."""

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone

from games.models import OPEN_STATUSES, Match, MatchStatus
from league.errors import LeagueError, StageConflict
from league.models import Event, ForfeitReason, Stage, StageEntry, StageMatch, StageStatus
from league.services import locks
from league.services.organization import ensure_on_roster
from league.services.stages._common import _held, _locked, _locked_draft, _standings_moved
from league.services.stages.advance import _advance, format_of
from league.services.stages.voids import stage_forfeit


@dataclass(frozen=True)
class Withdrawal:
    """What withdrawing a player from a stage changed: the slots now decided as walkovers, the
    tables that play on without them (slot, new match), their matches in progress (left for
    the organizer: finish or void them), and whether they were only taken off a draft."""

    stage: int
    player: int
    walkovers: list[int] = field(default_factory=list)
    replayed: list[dict[str, int]] = field(default_factory=list)
    in_progress: list[int] = field(default_factory=list)
    removed_from_draft: bool = False


@transaction.atomic
def stage_withdraw(*, stage_id: int, player_id: int, by: Any = None) -> Withdrawal:
    """Withdraw a player from a stage: from a draft, they are taken off its entries; from a
    running stage, every match of theirs not started becomes a forfeit (a walkover, or the
    others play on), and they are seated no more: a later bracket slot or Swiss round goes on
    without them (a double-elimination player who withdrew does not drop to the losers
    bracket). Their played results stand. A stage fed by this one does not take them."""
    locks.event_of_stage_first(stage_id)
    _lock_players_matches(player_id, stage_match__stage_id=stage_id)
    stage = _locked(stage_id)
    entry = _entry_to_withdraw(stage, player_id)
    if stage.status == StageStatus.FINISHED:
        raise StageConflict(
            "stage_finished",
            f"Stage {stage.pk} has finished: there is nothing left to withdraw from.",
            details={"stage": stage.pk},
        )
    if stage.status == StageStatus.DRAFT:
        _remove_entry(stage, entry)
        _standings_moved(stage, entrants=True)
        return Withdrawal(stage=stage.pk, player=player_id, removed_from_draft=True)
    entry.withdrawn_at = timezone.now()
    entry.save(update_fields=["withdrawn_at"])
    result = Withdrawal(stage=stage.pk, player=player_id)
    open_matches = (
        StageMatch.objects.filter(
            stage=stage,
            match__seats__player_id=player_id,
            match__status__in=OPEN_STATUSES,
        )
        .select_related("match")
        .order_by("round", "slot", "pk")
    )
    held = _held.set(stage.pk)  # advance once, below
    try:
        for stage_match in list(open_matches):
            match = stage_match.match
            assert match is not None  # noqa: S101 - filtered on its status
            if match.status == MatchStatus.IN_PROGRESS:
                result.in_progress.append(match.pk)
                continue
            decided = stage_forfeit(
                stage_match_id=stage_match.pk,
                player_id=player_id,
                reason=ForfeitReason.WITHDREW,
                by=by,
            )
            if decided.walkover:
                result.walkovers.append(decided.pk)
            elif decided.match_id is not None:
                result.replayed.append({"stage_match": decided.pk, "match": decided.match_id})
    finally:
        _held.reset(held)
    if stage.status == StageStatus.RUNNING:
        _advance(stage)  # a Swiss round or bracket slot waiting on nobody else
    _standings_moved(stage)
    return result


def _lock_players_matches(player_id: int, **stages: int) -> None:
    """Lock the player's stage matches not finished (of the stages `stages` filters), in the
    order of their ids: a withdrawal takes them before any stage, the order a result or a void
    takes them (match, then stage), so that one sent with either waits for it, never
    deadlocks."""
    list(
        Match.objects.select_for_update(of=("self",))
        .filter(seats__player_id=player_id, **stages)
        .filter(status__in=OPEN_STATUSES)
        .order_by("pk")
        .values_list("pk", flat=True)
    )


def _entry_to_withdraw(stage: Stage, player_id: int) -> StageEntry:
    """The player's entry in the stage, at an open event, not withdrawn yet (`not_entered`,
    `already_withdrawn`, `event_closed` otherwise)."""
    stage.event.ensure_open()
    entry = StageEntry.objects.filter(stage=stage, player_id=player_id).first()
    if entry is None:
        raise LeagueError(
            "not_entered",
            f"Player {player_id} is not entered in stage {stage.pk}.",
            details={"player": player_id, "stage": stage.pk},
        )
    if entry.withdrawn_at is not None:
        raise StageConflict(
            "already_withdrawn",
            f"Player {player_id} has already withdrawn from stage {stage.pk}.",
            details={"player": player_id, "stage": stage.pk},
        )
    return entry


@transaction.atomic
def entry_withdraw(*, stage_id: int, player_id: int, by: Any = None) -> Withdrawal | None:
    """Withdraw a player from one stage as `event_withdraw` does from each stage of the event:
    from a stage still to finish, `stage_withdraw`; from a finished one, their entry is marked
    withdrawn (None: their results there stand, nothing is forfeited), so a stage that takes
    players from it later passes them over. The import replays every withdrawal of an export
    through it (league.services.exports), the finished stage's as the original was."""
    locks.event_of_stage_first(stage_id)
    _lock_players_matches(player_id, stage_match__stage_id=stage_id)
    stage = _locked(stage_id)
    if stage.status != StageStatus.FINISHED:
        return stage_withdraw(stage_id=stage.pk, player_id=player_id, by=by)
    entry = _entry_to_withdraw(stage, player_id)
    entry.withdrawn_at = timezone.now()
    entry.save(update_fields=["withdrawn_at"])
    return None


@dataclass(frozen=True, slots=True)
class KeptEntry:
    """An entry a fed stage kept when it went back to draft: its player, seed and group as
    its start gave them, and when the player withdrew from it (None: they did not)."""

    player_id: int
    seed: int
    group: int
    withdrawn_at: datetime | None


@transaction.atomic
def draft_entries_keep(*, stage_id: int, entries: Sequence[KeptEntry]) -> None:
    """Give a fed stage in draft the entries it kept when it went back to draft (a result of
    its source withdrawn, `_back_to_draft`, keeps the players its start took, and who withdrew
    since): the event import, whose file lists them (league.services.exports). They are a
    record until it starts again, which takes its players from its source afresh
    (`_take_qualifiers`). Only a fed stage in draft (`invalid_option` otherwise), each player
    once, seeds 1 to n, groups among the stage's."""
    stage = _locked_draft(stage_id, since="its entries are its start's")
    players = [entry.player_id for entry in entries]
    if stage.source_stage_id is None:
        raise LeagueError(
            "invalid_option",
            f"Stage {stage.pk} takes no players from another stage: its entries are given "
            "when it is made.",
            details={"stage": stage.pk},
        )
    if (
        len(set(players)) != len(players)
        or sorted(entry.seed for entry in entries) != list(range(1, len(entries) + 1))
        or any(not 1 <= entry.group <= stage.groups for entry in entries)
    ):
        raise LeagueError(
            "invalid_option",
            f"The entries of stage {stage.pk} must name each player once, with the seeds 1 to "
            f"{len(entries)} and groups 1 to {stage.groups}.",
            details={"stage": stage.pk},
        )
    ensure_on_roster(stage.event.league, players)
    StageEntry.objects.filter(stage=stage).delete()
    StageEntry.objects.bulk_create(
        StageEntry(
            stage=stage,
            player_id=entry.player_id,
            seed=entry.seed,
            group=entry.group,
            withdrawn_at=entry.withdrawn_at,
        )
        for entry in entries
    )
    _standings_moved(stage, entrants=True)


def _remove_entry(stage: Stage, entry: StageEntry) -> None:
    """Take a player off a draft stage; the seeds below close up, and the stage must still be
    drawable without them."""
    seed = entry.seed
    entry.delete()
    for later in StageEntry.objects.filter(stage=stage, seed__gt=seed).order_by("seed"):
        later.seed -= 1
        later.save(update_fields=["seed"])
    players = list(stage.entries.order_by("seed").values_list("player_id", flat=True))
    if stage.source_stage_id is None:
        if len(players) < 2:
            raise LeagueError(
                "invalid_option",
                "A stage needs at least 2 participants; delete the stage instead.",
            )
        format_of(stage).check(stage, players)


@transaction.atomic
def event_withdraw(*, event_id: int, player_id: int, by: Any = None) -> list[Withdrawal]:
    """Withdraw a player from every stage of an event they are entered in and that has not
    finished. Their entries in finished stages are marked too (their results there stand), so
    a stage that takes players from those later passes them over (`entry_withdraw`, stage by
    stage in their order). A player entered in none of its stages: 400 `not_entered`; one
    whose every entry is already withdrawn: 409 `already_withdrawn`, as from one stage."""
    locks.event_first(event_id)
    _lock_players_matches(player_id, stage_match__stage__event_id=event_id)
    event = Event.objects.select_related("league").get(pk=event_id)
    event.ensure_open()
    entries = StageEntry.objects.filter(stage__event=event, player_id=player_id)
    stage_ids = list(
        entries.filter(withdrawn_at=None)
        .order_by("stage__position", "stage_id")
        .values_list("stage_id", flat=True)
    )
    if not stage_ids:
        withdrawn = list(entries.order_by("stage__position").values_list("stage_id", flat=True))
        if withdrawn:
            raise StageConflict(
                "already_withdrawn",
                f"Player {player_id} has already withdrawn from every stage of event "
                f"{event.pk} they are entered in.",
                details={"player": player_id, "event": event.pk, "stages": withdrawn},
            )
        raise LeagueError(
            "not_entered",
            f"Player {player_id} is not entered in a stage of event {event.pk}.",
            details={"player": player_id, "event": event.pk},
        )
    done = [entry_withdraw(stage_id=pk, player_id=player_id, by=by) for pk in stage_ids]
    return [withdrawal for withdrawal in done if withdrawal is not None]
