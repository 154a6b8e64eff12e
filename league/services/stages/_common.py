"""What the modules of stages share: the locks they take, the stage a withdrawal holds back
(`_held`), the standings marks of a change outside a finished match, and the players withdrawn
from a stage."""

from contextvars import ContextVar

from league.errors import StageConflict
from league.models import Event, Stage, StageEntry, StageStatus, StandingsScope
from league.services import locks
from league.services.standings_marks import standings_mark


def _locked_event(event_id: int) -> Event:
    """The event, its row locked (not its league's), with its league: an organizer's write
    takes it first (`league.services.locks`), so that two such are made one after the other,
    and one racing the event's close sees it closed (`event_close` locks it too)."""
    return (
        Event.objects.select_for_update(no_key=True, of=("self",))
        .select_related("league")
        .get(pk=event_id)
    )


def _locked(stage_id: int) -> Stage:
    """The stage, its row locked, with its event and league."""
    return Stage.objects.select_for_update().select_related("event__league").get(pk=stage_id)


def _locked_draft(stage_id: int, *, since: str | None = None) -> Stage:
    """`_locked` for a stage not started of an event still open: 409 `stage_started` saying
    what it cannot be `since` then (None: to start it, that it has already started)."""
    locks.event_of_stage_first(stage_id)
    stage = _locked(stage_id)
    stage.event = _locked_event(stage.event_id)  # held already: its fields
    if stage.status != StageStatus.DRAFT:
        raise StageConflict(
            "stage_started",
            f"Stage {stage.pk} has started: {since}."
            if since is not None
            else f"Stage {stage.pk} has already started.",
            details={"stage": stage.pk},
        )
    stage.event.ensure_open()
    return stage


def _standings_moved(stage: Stage, *, rebuild: bool = False, entrants: bool = False) -> None:
    """Byes, walkovers and entrants count in the stage's, event's and league's tables; a
    change to them outside a finished match marks those tables stale (a finished match marks
    them itself). A tally only adds (docs/standings.md, "The tally"), so a change that takes
    something away has them counted afresh: `rebuild`, a bye or a walkover gone (every table);
    `entrants`, the stage's entries replaced or a player taken off them (only the stage's
    table lists entrants)."""
    if _held.get() == stage.pk:
        return
    if entrants and not rebuild:
        standings_mark([(StandingsScope.STAGE, stage.pk)], rebuild=True, match_ids=())
    standings_mark(
        [
            (StandingsScope.STAGE, stage.pk),
            (StandingsScope.EVENT, stage.event_id),
            (StandingsScope.LEAGUE, stage.event.league_id),
        ],
        rebuild=rebuild,
        match_ids=(),  # byes, walkovers and entrants: a refresh reads them whole
    )


# The stage whose advance and standings marks wait until a withdrawal has forfeited every
# match of the player (`stage_withdraw`): once at the end, not once per forfeit.
_held: ContextVar[int | None] = ContextVar("league_stage_held", default=None)


def withdrawn_players(stage: Stage) -> set[int]:
    return set(
        StageEntry.objects.filter(stage=stage, withdrawn_at__isnull=False).values_list(
            "player_id", flat=True
        )
    )
