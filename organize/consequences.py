"""What a match control would change, found by doing it and taking it back.

An undo, a void, a walkover, an un-void or a correction can reach far beyond its match: a
result withdrawn empties the bracket slots it fed (deleting matches seated there but not
started), reopens a finished stage, puts later stages back to draft; a walkover seats the next
match. Only the services know all of it, and the receivers of `games.signals` in `league` do
their part. So the confirmation step does not guess: `rehearse` runs the very service call the
organizer would confirm inside a savepoint, reads the event's matches, stages and slots before
and after, and rolls back. Nothing it did is kept, and nothing waits on commit (standings jobs
are enqueued on commit, so a rolled-back savepoint discards them). A refusal (`undo_blocked`,
`stage_in_use`, a rule) is caught and shown as what would happen: nothing.

Reads are a fixed number of queries whatever the size of the event (three before and three
after the action); rows grow with the event's matches."""

from collections.abc import Callable
from dataclasses import dataclass, field

from django.db import transaction

from games.models import Match, MatchStatus, Seat
from league.models import Stage, StageMatch, StageStatus
from scoring.errors import DomainError


@dataclass(frozen=True, slots=True)
class MatchRow:
    pk: int
    status: str
    turns_played: int
    players: tuple[str, ...]

    @property
    def label(self) -> str:
        """The match as a sentence names it first, its players as they are written."""
        return f"Match #{self.pk} ({' v '.join(self.players)})"


@dataclass(frozen=True, slots=True)
class SlotRow:
    pk: int
    stage: str
    name: str  # the bracket slot ("W2-1") or "round 3"
    match_id: int | None
    walkover: bool
    decided: bool


@dataclass(frozen=True, slots=True)
class Snapshot:
    """The event's matches, stages and stage slots, as a service call may change them."""

    matches: dict[int, MatchRow]
    stages: dict[int, tuple[str, str]]  # id -> (name, status)
    slots: dict[int, SlotRow]


@dataclass(frozen=True, slots=True)
class Rehearsal:
    """What confirming would do: `changes` in words (empty when `refused`), or the service's
    refusal, which would change nothing."""

    changes: list[str] = field(default_factory=list)
    refused: DomainError | None = None


class _TakeBack(Exception):
    """Raised inside the savepoint to roll the rehearsed call back."""


def snapshot(match: Match) -> Snapshot:
    """The match's event as the controls may change it: three queries (a casual match: its
    own row and seats only)."""
    if match.event_id is None:
        matches = Match.objects.filter(pk=match.pk)
    else:
        matches = Match.objects.filter(event_id=match.event_id)
    names: dict[int, list[str]] = {}
    for match_id, name in (
        Seat.objects.filter(match__in=matches)
        .order_by("match_id", "order")
        .values_list("match_id", "player__display_name")
    ):
        names.setdefault(match_id, []).append(name)
    rows = {
        pk: MatchRow(pk, status, turns, tuple(names.get(pk, ())))
        for pk, status, turns in matches.values_list("pk", "status", "turns_played")
    }
    stages: dict[int, tuple[str, str]] = {}
    slots: dict[int, SlotRow] = {}
    if match.event_id is not None:
        for (
            pk,
            stage_id,
            stage_name,
            stage_status,
            slot,
            round_,
            match_id,
            walkover,
            order,
        ) in StageMatch.objects.filter(stage__event_id=match.event_id).values_list(
            "pk",
            "stage_id",
            "stage__name",
            "stage__status",
            "slot",
            "round",
            "match_id",
            "walkover",
            "order",
        ):
            stages[stage_id] = (stage_name, stage_status)
            slots[pk] = SlotRow(
                pk, stage_name, slot or f"round {round_}", match_id, walkover, order is not None
            )
        stages.update(
            (pk, (name, status))
            for pk, name, status in Stage.objects.filter(event_id=match.event_id).values_list(
                "pk", "name", "status"
            )
        )
    return Snapshot(rows, stages, slots)


def refusal_of(action: Callable[[], object]) -> DomainError | None:
    """The refusal of a service call, found by running it in a savepoint that is rolled back
    (so a confirmation is not offered for what the service will refuse); None if it would
    be done."""
    try:
        with transaction.atomic():
            action()
            raise _TakeBack
    except _TakeBack:
        return None
    except DomainError as error:
        return error


def rehearse(match: Match, action: Callable[[], list[str] | None]) -> Rehearsal:
    """Run `action` (a service call on `match`) and roll it back: what it changed, in words
    (first the sentences `action` returns, read before the rollback: what it did to the match
    itself), or its refusal."""
    before = snapshot(match)
    seen: list[tuple[list[str], Snapshot]] = []

    def run() -> None:
        own = action() or []
        seen.append((own, snapshot(match)))  # read before the rollback

    refusal = refusal_of(run)
    if refusal is not None:
        return Rehearsal(refused=refusal)
    own, after = seen[0]
    changes = own + describe(before, after, match.pk)
    this_before, this_after = before.matches[match.pk], after.matches.get(match.pk)
    counted = MatchStatus.FINISHED in (this_before.status, this_after and this_after.status)
    if match.event_id is not None and counted and this_after != this_before:
        changes.append(
            "The standings of its event and league (and stage) are counted again, and the "
            "league's ratings."
        )
    return Rehearsal(changes=changes)


_STATUS_WORDS: dict[str, str] = {
    MatchStatus.SCHEDULED.value: "not started",
    MatchStatus.IN_PROGRESS.value: "in progress",
    MatchStatus.FINISHED.value: "finished",
    MatchStatus.VOID.value: "void",
}


def describe(before: Snapshot, after: Snapshot, match_id: int) -> list[str]:
    """The differences between two snapshots, as sentences an organizer reads: this match
    first, then other matches removed, seated or changed, then slots and stages."""
    lines: list[str] = []
    this_before, this_after = before.matches.get(match_id), after.matches.get(match_id)
    if this_before and this_after and this_before.status != this_after.status:
        lines.append(_this_match(this_before, this_after))
    for pk, row in sorted(before.matches.items()):
        if pk == match_id:
            continue
        now = after.matches.get(pk)
        if now is None:
            lines.append(f"{row.label}, not started yet, is taken off the draw.")
        elif now.status != row.status:
            lines.append(f"{row.label} becomes {_STATUS_WORDS.get(now.status, now.status)}.")
    for pk, row in sorted(after.matches.items()):
        if pk not in before.matches:
            lines.append(f"{row.label} is seated.")
    for pk, slot in sorted(after.slots.items()):
        old = before.slots.get(pk)
        if slot.walkover and (old is None or not old.walkover):
            lines.append(f"{slot.stage}, {slot.name}: decided by a walkover, without play.")
        elif old is not None and old.decided and not slot.decided:
            lines.append(f"{slot.stage}, {slot.name}: undecided again.")
    for pk, (name, status) in sorted(after.stages.items()):
        was = before.stages.get(pk, (name, status))[1]
        if was == status:
            continue
        if was == StageStatus.FINISHED:
            lines.append(f"{name} is running again: its final ranking is withdrawn.")
        elif status == StageStatus.DRAFT:
            lines.append(
                f"{name} goes back to draft: its matches not started are deleted, and it takes "
                "its players again from the new ranking when started."
            )
        elif status == StageStatus.FINISHED:
            lines.append(f"{name} finishes.")
    removed_stages = sorted(set(before.stages) - set(after.stages))
    lines.extend(f"{before.stages[pk][0]} is deleted." for pk in removed_stages)
    return lines


def _this_match(before: MatchRow, after: MatchRow) -> str:
    if after.status == MatchStatus.VOID:
        return f"Match #{after.pk} becomes void: it no longer counts anywhere (its turns are kept)."
    if before.status == MatchStatus.FINISHED:
        return (
            f"Match #{after.pk} is open again: its result is withdrawn from the standings until "
            "it finishes again."
        )
    if before.status == MatchStatus.VOID:
        return f"Match #{after.pk} counts again: it is {_STATUS_WORDS[after.status]}."
    if after.status == MatchStatus.FINISHED:
        return f"Match #{after.pk} finishes."
    return f"Match #{after.pk} becomes {_STATUS_WORDS.get(after.status, after.status)}."
