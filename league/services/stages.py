"""Stages of an event: draw them, seat their matches, and advance them as results come in.

The draw itself is pure (`league.draw`, docs/draw.md); these services load rows, run it, and
save what it returns. Locks are always taken match first, then stage, so a finishing match and
an organizer's forfeit never deadlock."""

import itertools
import json
import secrets
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from contextvars import ContextVar
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone

from games import services as game_services
from games.errors import UndoBlocked
from games.models import Match, MatchStatus, Seat
from league import draw, signals, standings
from league.errors import DrawError, LeagueError, StageConflict, StandingsError
from league.models import (
    Event,
    ForfeitReason,
    Player,
    PlayerRating,
    Seeding,
    Stage,
    StageBye,
    StageEntry,
    StageForfeit,
    StageFormat,
    StageMatch,
    StageStatus,
    StageVoid,
    StandingsScope,
    StandingsTable,
    VoidOutcome,
)
from league.services import locks
from league.services.organization import (
    clean_name,
    ensure_on_roster,
    event_play_over,
    ruleset_for_event,
)
from league.services.registration import absent_dropped
from league.services.standings_marks import standings_mark
from league.services.standings_refresh import compute_table
from league.stage_options import (
    FORMAT_OPTION_DEFAULTS,
    FORMAT_OPTIONS,
    MAX_ADVANCE,
    MAX_ENTRANTS,
    MAX_GROUPS,
    MAX_ROUNDS,
)
from scoring.errors import DomainError

# --- Create and start -------------------------------------------------------------------------


# What `stage_create` takes, and `stage_update` changes until the stage starts.
STAGE_OPTIONS = frozenset(
    {
        "name",
        "format",
        "player_ids",
        "table_size",
        "advance",
        "rounds",
        "groups",
        "seeding",
        "third_place",
        "grand_final_reset",
        "tiebreak",
        "source_stage_id",
        "source_top",
        "source_per_group",
        "source_best_rest",
    }
)


@transaction.atomic
def stage_create(
    *,
    event_id: int,
    name: str,
    format: str,
    player_ids: Sequence[int] = (),
    table_size: int = 2,
    advance: int = 1,
    rounds: int | None = None,
    groups: int = 1,
    seeding: str = "manual",
    third_place: bool = False,
    grand_final_reset: bool = True,
    tiebreak: list[str] | None = None,
    source_stage_id: int | None = None,
    source_top: int | None = None,
    source_per_group: int | None = None,
    source_best_rest: int = 0,
) -> Stage:
    """A draft stage with its participants seeded in the order given, or, fed by an earlier
    stage, taking when it starts the top `source_top` of that stage's final order, or the top
    `source_per_group` of each of its groups plus the best `source_best_rest` of the rest
    (docs/draw.md, "Round robin and groups"). Its options are checked now as at the start, a
    fed stage's for as many players as it will take: a stage that cannot be drawn is refused
    here (400), not once its source has been played. The event's row is locked while its
    stages are counted and their names compared: two stages added at once take the next two
    places, and a second of one name is refused as one named before."""
    event = _locked_event(event_id)
    event.ensure_open()
    stage = Stage(
        event=event,
        name=name,
        position=Stage.objects.filter(event_id=event_id).count() + 1,
        format=format,
        table_size=table_size,
        advance=advance,
        rounds=rounds,
        groups=groups,
        seeding=seeding,
        random_seed=secrets.randbelow(2**31) if seeding == "random" else None,
        third_place=third_place,
        grand_final_reset=grand_final_reset,
        tiebreak=tiebreak if tiebreak is not None else Stage._meta.get_field("tiebreak").default(),
        source_stage_id=source_stage_id,
        source_top=source_top,
        source_per_group=source_per_group,
        source_best_rest=source_best_rest,
    )
    _check_options(stage, player_ids)
    _save_named(stage)
    _enter(stage, player_ids)
    _check_draw(stage, player_ids)
    if player_ids:
        ensure_on_roster(event.league, player_ids)
    return stage


def _check_options(stage: Stage, player_ids: Sequence[int]) -> None:
    """Refuse options that contradict each other or the event (400 `invalid_option`), for a
    new stage or a changed draft; cleans its name and tiebreak order in place."""
    stage.name = clean_name(stage.name, field="name")
    _ensure_name_free(stage)
    if stage.format == StageFormat.DOUBLE_ELIMINATION and stage.table_size != 2:
        raise LeagueError(
            "invalid_option",
            "Double elimination is played in pairs only.",
            details={"field": "table_size"},
        )
    if not 2 <= stage.table_size <= 5:
        raise LeagueError("invalid_option", "Tables seat 2 to 5 players.")
    for option, value, low, high in (
        ("advance", stage.advance, 1, MAX_ADVANCE),
        ("rounds", stage.rounds, 1, MAX_ROUNDS),
        ("groups", stage.groups, 1, MAX_GROUPS),
        ("source_top", stage.source_top, 0, MAX_ENTRANTS),
        ("source_per_group", stage.source_per_group, 0, MAX_ENTRANTS),
        ("source_best_rest", stage.source_best_rest, 0, MAX_ENTRANTS),
    ):
        if value is not None and not low <= value <= high:
            raise LeagueError(
                "invalid_option",
                f"{option} is {low} to {high}, not {value}.",
                details={"field": option, "limit": high},
            )
    if stage.groups > 1 and stage.format != StageFormat.ROUND_ROBIN:
        raise LeagueError(
            "invalid_option", "Only a round robin is played in groups.", details={"field": "groups"}
        )
    for option, default in FORMAT_OPTION_DEFAULTS.items():
        if option not in FORMAT_OPTIONS[stage.format] and getattr(stage, option) != default:
            formats = [
                StageFormat(f).label for f, taken in FORMAT_OPTIONS.items() if option in taken
            ]
            # A change keeps what it leaves out: it must send the default.
            fix = (
                f"leave it out (or send {json.dumps(default)})"
                if stage.pk is None
                else f"send {json.dumps(default)} with the change"
            )
            raise LeagueError(
                "invalid_option",
                f"{option} is an option of {' and '.join(formats)} only; "
                f"{StageFormat(stage.format).label} does not use it: {fix}.",
                details={"field": option},
            )
    stage.tiebreak = list(
        standings.validate_tiebreak_order(stage.tiebreak, game=stage.event.league.game)
    )
    if stage.source_stage_id is None:
        if given := [name for name in _SOURCE_OPTIONS if getattr(stage, name)]:
            raise LeagueError(
                "invalid_option",
                f"{given[0]} takes players from an earlier stage: name it (source_stage).",
                details={"field": given[0]},
            )
        if len(player_ids) < 2:
            raise LeagueError("invalid_option", "A stage needs at least 2 participants.")
        return
    if player_ids:
        raise LeagueError(
            "invalid_option",
            "A stage fed by an earlier stage takes its players from it: leave out participants.",
            details={"field": "participants"},
        )
    if stage.seeding != Seeding.MANUAL:
        raise LeagueError(
            "invalid_option",
            "A stage fed by an earlier stage is seeded by that stage's final order: leave out "
            f'seeding (or send "{Seeding.MANUAL}").',
            details={"field": "seeding"},
        )
    source = _checked_source(stage, stage.source_stage_id)
    if stage.source_top and stage.source_per_group:
        raise LeagueError(
            "invalid_option",
            "Take the top N overall (source_top) or the top N of each group "
            "(source_per_group), not both.",
            details={"field": "source_per_group"},
        )
    if stage.source_best_rest and not stage.source_per_group:
        raise LeagueError(
            "invalid_option",
            "source_best_rest adds the best of the rest to the top of each group: it goes "
            "with source_per_group.",
            details={"field": "source_best_rest"},
        )
    if stage.source_best_rest < 0 or (
        stage.source_per_group is not None and stage.source_per_group < 1
    ):
        raise LeagueError(
            "invalid_option",
            "Take at least the winner of each group, and none or more of the rest.",
            details={"field": "source_per_group"},
        )
    if stage.source_per_group:
        if not (source.format == StageFormat.ROUND_ROBIN and source.groups > 1):
            raise LeagueError(
                "invalid_option",
                f"Stage {source.pk} is not played in groups: take its top N with source_top.",
                details={"field": "source_per_group"},
            )
    elif not stage.source_top or stage.source_top < 2:
        raise LeagueError(
            "invalid_option",
            "Take at least the top 2 of the source stage.",
            details={"field": "source_top"},
        )
    if _entrant_count(stage) > MAX_ENTRANTS:
        field = "source_per_group" if stage.source_per_group else "source_top"
        raise LeagueError(
            "invalid_option",
            f"A stage has at most {MAX_ENTRANTS} participants; take at most {MAX_ENTRANTS}.",
            details={"field": field, "limit": MAX_ENTRANTS},
        )


_SOURCE_OPTIONS = ("source_top", "source_per_group", "source_best_rest")


def _ensure_name_free(stage: Stage) -> None:
    """Refuse (400 `invalid_option`) a name another stage of the event has, case aside."""
    others = Stage.objects.filter(event_id=stage.event_id).exclude(pk=stage.pk)
    if (taken := others.filter(name__iexact=stage.name).first()) is not None:
        # The pages name stages ("takes the top 2 of Groups", "Groups must finish first"):
        # two of one name in an event could not be told apart.
        raise LeagueError(
            "invalid_option",
            f"name is taken: another stage of {stage.event.name} is called {taken.name!r}; "
            "give this one a name of its own.",
            details={"field": "name"},
        )


def _save_named(stage: Stage) -> None:
    """Save a new or changed stage, refused as `_ensure_name_free` refuses when the database
    finds its name taken after all (`stage_name_any_case`: another request stored it between
    the check and this write). In a savepoint, so the caller's transaction may go on."""
    try:
        with transaction.atomic():
            stage.save()
    except IntegrityError as error:
        if "stage_name_any_case" not in str(error):
            raise
        _ensure_name_free(stage)
        raise


def _checked_source(stage: Stage, source_id: int) -> Stage:
    """The stage a fed stage takes its players from: another stage of its event, and not one
    that takes its own players, directly or not, from this one."""
    source = Stage.objects.filter(pk=source_id, event_id=stage.event_id).first()
    if source is None or source.pk == stage.pk:
        raise LeagueError(
            "invalid_option",
            "The source stage must be another stage of this event.",
            details={"field": "source_stage"},
        )
    earlier: Stage | None = source
    while earlier is not None and stage.pk is not None:
        if earlier.source_stage_id == stage.pk:
            raise LeagueError(
                "invalid_option",
                f"Stage {source.pk} takes its players from this one: it cannot feed it.",
                details={"field": "source_stage"},
            )
        earlier = earlier.source_stage
    return source


def _entrant_count(stage: Stage) -> int:
    """How many players a stage draws: its entries, or as many as it takes from its source."""
    if stage.source_stage_id is None:
        return stage.entries.count()
    if stage.source_per_group:
        source = stage.source_stage
        assert source is not None  # noqa: S101 - source_stage_id is set
        return stage.source_per_group * source.groups + stage.source_best_rest
    return stage.source_top or 0


def _check_draw(stage: Stage, player_ids: Sequence[int]) -> None:
    """Refuse what the draw cannot do (DrawError, 400) before the stage starts: with its
    participants, or, fed by an earlier stage, check that the source will have as many to
    give (`qualifiers`), then draw with that many placeholders, exactly as the start will."""
    source = stage.source_stage
    if source is None:
        format_of(stage).check(stage, list(player_ids))
        return
    given = list(range(1, _entrant_count(source) + 1))  # the source's players, as placeholders
    if stage.source_per_group:
        draw.group_qualifiers(
            draw.snake_groups(given, source.groups),
            stage.source_per_group,
            best_rest=stage.source_best_rest,
        )
    else:
        draw.qualifiers(given, stage.source_top or 0)
    format_of(stage).check(stage, list(range(1, _entrant_count(stage) + 1)))


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


@transaction.atomic
def stage_update(*, stage_id: int, changes: Mapping[str, Any]) -> Stage:
    """Change a stage that has not started (docs/draw.md, "Changing a stage before it
    starts"): `changes` holds any of `stage_create`'s options by name (STAGE_OPTIONS).
    Checked exactly as at creation. New participants, or a new seeding, are seeded again.
    Naming one of `source_top` and `source_per_group` drops the other; `source_stage_id` None
    drops both (the participants are then given by hand). Every draft stage fed by this one
    is checked again, and one that would no longer fit refuses the change (its id in
    `details.stage`). 409 `stage_started` once the stage is drawn."""
    if unknown := sorted(set(changes) - STAGE_OPTIONS):
        raise TypeError(f"Not an option of a stage: {', '.join(unknown)}.")
    stage = _locked_draft(stage_id, since="its options and participants are drawn")
    changes = _with_source_implied(changes)
    player_ids = changes.pop("player_ids", None)
    seeding, source_id = stage.seeding, stage.source_stage_id
    for name, value in changes.items():
        if name == "tiebreak" and value is None:
            value = Stage._meta.get_field("tiebreak").default()
        setattr(stage, name, value)
    if stage.seeding != seeding:
        stage.random_seed = secrets.randbelow(2**31) if stage.seeding == "random" else None
    if player_ids is not None or stage.source_stage_id is not None:
        players = list(player_ids or ())
    else:
        players = list(stage.entries.order_by("seed").values_list("player_id", flat=True))
    _check_options(stage, players)
    _save_named(stage)
    if player_ids is not None or stage.seeding != seeding or stage.source_stage_id != source_id:
        StageEntry.objects.filter(stage=stage).delete()
        _enter(stage, players)
        players = list(stage.entries.order_by("seed").values_list("player_id", flat=True))
    _check_draw(stage, players)
    if player_ids:
        ensure_on_roster(stage.event.league, player_ids)
    for later in Stage.objects.filter(source_stage=stage, status=StageStatus.DRAFT):
        _check_still_fed(later)
    standings_mark([(StandingsScope.STAGE, stage.pk)], rebuild=True)  # entrants, tiebreak
    return stage


def _with_source_implied(changes: Mapping[str, Any]) -> dict[str, Any]:
    """`changes` with what a change of source implies: one way of taking players drops the
    other, and no source drops them all."""
    implied = dict(changes)
    if "source_stage_id" in implied and implied["source_stage_id"] is None:
        implied.setdefault("source_top", None)
        implied.setdefault("source_per_group", None)
        implied.setdefault("source_best_rest", 0)
    if implied.get("source_per_group") is not None:
        implied.setdefault("source_top", None)
    if implied.get("source_top") is not None:
        implied.setdefault("source_per_group", None)
        implied.setdefault("source_best_rest", 0)
    if "source_best_rest" in implied and implied["source_best_rest"] is None:
        implied["source_best_rest"] = 0
    return implied


def _check_still_fed(later: Stage) -> None:
    """A draft stage fed by one that just changed must still be drawable from it; if not,
    the change is refused with this stage's reason."""
    try:
        _check_options(later, ())
        _check_draw(later, ())
    except (LeagueError, DrawError, StandingsError) as error:
        raise type(error)(
            error.code,
            f"Stage {later.pk} ({later.name}) takes its players from this one and would no "
            f"longer fit: {error.message}",
            details={**error.details, "stage": later.pk},
        ) from error


@transaction.atomic
def stage_delete(*, stage_id: int) -> None:
    """Delete a stage that has not started, with its entries; the stages after it move up a
    place. 409 `stage_started` once drawn; 409 `stage_is_source` while another stage takes
    its players from it (`details.stages`: delete those, or give them another source, first)."""
    stage = _locked_draft(stage_id, since="it cannot be deleted")
    fed = list(
        Stage.objects.filter(source_stage=stage)
        .order_by("position", "pk")
        .values_list("pk", flat=True)
    )
    if fed:
        raise StageConflict(
            "stage_is_source",
            f"Stage {', '.join(map(str, fed))} takes its players from stage {stage.pk}: delete "
            "it, or give it another source, first.",
            details={"stages": fed},
        )
    StandingsTable.objects.filter(scope=StandingsScope.STAGE, scope_id=stage.pk).delete()
    event_id, position = stage.event_id, stage.position
    stage.delete()
    # One at a time, first first: the event's positions stay unique at every row
    # (`stage_unique_position`), which one UPDATE of them all need not keep on the way.
    later = Stage.objects.filter(event_id=event_id, position__gt=position).order_by("position")
    for pk in later.values_list("pk", flat=True):
        Stage.objects.filter(pk=pk).update(position=F("position") - 1)


def _enter(stage: Stage, player_ids: Sequence[int]) -> None:
    if len(set(player_ids)) != len(player_ids):
        raise LeagueError("duplicate_player", "A player can enter a stage only once.")
    known = set(Player.objects.filter(pk__in=player_ids).values_list("pk", flat=True))
    if unknown := [pk for pk in player_ids if pk not in known]:
        raise LeagueError(
            "unknown_player", f"No player with id {unknown[0]}.", details={"players": unknown}
        )
    ordered = list(player_ids)
    if stage.seeding == "random" and stage.random_seed is not None:
        ordered = list(draw.random_seeding(ordered, seed=stage.random_seed))
    elif stage.seeding == "rating":
        ordered = _by_rating(stage, ordered)
    StageEntry.objects.bulk_create(
        StageEntry(stage=stage, player_id=player_id, seed=seed)
        for seed, player_id in enumerate(ordered, start=1)
    )


def _by_rating(stage: Stage, player_ids: list[int]) -> list[int]:
    """Seeds by the league's rating ordinal, best first; unrated players after the rated,
    in the order given."""
    ordinals = dict(
        PlayerRating.objects.filter(
            league_id=stage.event.league_id, player_id__in=player_ids
        ).values_list("player_id", "ordinal")
    )
    return list(draw.rating_seeding(player_ids, ordinals))


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
        standings_mark([(StandingsScope.STAGE, stage.pk)], rebuild=True)
    standings_mark(
        [
            (StandingsScope.STAGE, stage.pk),
            (StandingsScope.EVENT, stage.event_id),
            (StandingsScope.LEAGUE, stage.event.league_id),
        ],
        rebuild=rebuild,
    )


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


def _seat(
    stage: Stage, players: Sequence[int], *, round_: int, group: int = 1, slot: str = ""
) -> StageMatch:
    match = game_services.match_create(
        game=stage.event.league.game,
        player_ids=players,
        rules=ruleset_for_event(stage.event),
        event_id=stage.event_id,
        league_id=stage.event.league_id,
    )
    return StageMatch.objects.create(stage=stage, match=match, round=round_, group=group, slot=slot)


def _seat_round(stage: Stage, round_: draw.Round, *, group: int = 1) -> None:
    for table in round_.tables:
        _seat(stage, table.players, round_=round_.number, group=group)
    StageBye.objects.bulk_create(
        StageBye(stage=stage, round=round_.number, player_id=player) for player in round_.byes
    )


# --- Advance ----------------------------------------------------------------------------------


def _stage_matches(stage: Stage) -> list[StageMatch]:
    return list(
        StageMatch.objects.filter(stage=stage)
        .select_related("match")
        .prefetch_related("forfeits", "match__seats")
    )


def _decide(stage: Stage, stage_match: StageMatch, seeds: dict[int, int]) -> None:
    """Freeze a finished match's finishing order: by placement; players tied at a place by
    the stage's tiebreak order (their standings rank when the match finished), then by seed,
    never by chance; forfeits last. Frozen once, so a later result never moves a cut."""
    match = stage_match.match
    if stage_match.order is not None or match is None or match.status != MatchStatus.FINISHED:
        return
    placements = [seat.placement for seat in match.seats.all()]
    tied = len(set(placements)) < len(placements)
    rank = {row.player: row.rank for row in _stage_table(stage)} if tied else {}
    seats = sorted(
        match.seats.all(),
        key=lambda s: (s.placement or 99, rank.get(s.player_id, 0), seeds.get(s.player_id, 0)),
    )
    stage_match.order = [seat.player_id for seat in seats] + [
        forfeit.player_id for forfeit in stage_match.forfeits.all()
    ]
    stage_match.save(update_fields=["order"])


# The stage whose advance and standings marks wait until a withdrawal has forfeited every
# match of the player (`stage_withdraw`): once at the end, not once per forfeit.
_held: ContextVar[int | None] = ContextVar("league_stage_held", default=None)


def _advance(stage: Stage) -> None:
    if _held.get() == stage.pk:
        return
    seeds = dict(stage.entries.values_list("player_id", "seed"))
    stage_matches = _stage_matches(stage)
    for stage_match in stage_matches:
        _decide(stage, stage_match, seeds)
    format_of(stage).advance(stage, stage_matches, seeds)


def _stage_table(stage: Stage) -> tuple[standings.Standing, ...]:
    """The stage's standings now, ranked by its tiebreak order (docs/standings.md)."""
    return compute_table((StandingsScope.STAGE, stage.pk))[1]


def _swiss_standings(
    stage: Stage, stage_matches: Iterable[StageMatch], seeds: dict[int, int]
) -> list[draw.SwissStanding]:
    """Each player's league points so far and every opponent met, best first."""
    opponents: dict[int, list[int]] = defaultdict(list)
    for stage_match in stage_matches:
        order = stage_match.order or []
        for player in order:
            opponents[player].extend(p for p in order if p != player)
    table = _stage_table(stage)
    withdrawn = withdrawn_players(stage)
    return [
        draw.SwissStanding(
            player=row.player,
            score=row.points,
            opponents=tuple(opponents[row.player]),
            byes=row.byes,
        )
        for row in sorted(table, key=lambda row: (row.rank, seeds.get(row.player, 0)))
        if row.player not in withdrawn
    ]


def _table_ranking(stage: Stage) -> tuple[list[list[int]], dict[str, list[list[int]]] | None]:
    """The final order of a round robin or Swiss stage from its standings by the tiebreak
    order, players equal on every metric sharing a tier; and for one played in groups each
    group's own order, the final order then merging them place by place
    (`standings.merge_groups`: never by head-to-head across groups)."""
    table = _stage_table(stage)
    ranking = [list(tier) for tier in standings.merge_groups(table, stage.tiebreak)]
    if not stage.played_in_groups:
        return ranking, None
    places: dict[str, dict[int, list[int]]] = defaultdict(lambda: defaultdict(list))
    for row in table:
        places[str(row.group)][row.rank].append(row.player)
    return ranking, {
        group: [tiers[rank] for rank in sorted(tiers)] for group, tiers in sorted(places.items())
    }


def _advance_bracket(stage: Stage, stage_matches: list[StageMatch], seeds: dict[int, int]) -> None:
    bracket = draw.Bracket.from_json(stage.bracket or {})
    by_slot = {sm.slot: sm for sm in stage_matches}
    results = {
        sm.slot: draw.SlotResult(
            placements={player: place for place, player in enumerate(sm.order, start=1)},
        )
        for sm in stage_matches
        if sm.order is not None
    }
    state = draw.advance_bracket(bracket, results)
    _store_slot_states(stage, state)
    withdrawn = withdrawn_players(stage)
    walkovers = False
    for key in state.ready:
        if key not in by_slot:
            slot = bracket.slot(key)
            players = state.slots[key].players
            if withdrawn.intersection(players):
                walkovers |= _seat_without(stage, slot, players, withdrawn, seeds)
            else:
                _seat(stage, players, round_=slot.round, slot=key)
    if walkovers:
        _advance(stage)  # a slot decided without play may make later ones ready
    elif state.finished:
        _finish(stage, [list(tier) for tier in state.ranking])


def _store_slot_states(stage: Stage, state: draw.BracketState) -> None:
    """Keep where every slot stands beside the bracket (`bracket["state"]`), so that pages
    draw it as the stage advanced it, never advancing it again themselves."""
    stored = draw.slot_states_to_json(state)
    if (stage.bracket or {}).get("state") != stored:
        stage.bracket = {**(stage.bracket or {}), "state": stored}
        stage.save(update_fields=["bracket"])


def _seat_without(
    stage: Stage,
    slot: draw.Slot,
    players: Sequence[int],
    withdrawn: set[int],
    seeds: dict[int, int],
) -> bool:
    """Seat a bracket slot some of whose players have withdrawn: they forfeit it, and the
    others play it, or go on without playing (a walkover, returns True) when no more remain
    than go on."""
    present = [p for p in players if p not in withdrawn]
    gone = [p for p in players if p in withdrawn]
    if len(present) > slot.advance and len(present) >= 2:
        stage_match = _seat(stage, present, round_=slot.round, slot=slot.key)
    else:
        stage_match = StageMatch.objects.create(
            stage=stage,
            round=slot.round,
            slot=slot.key,
            walkover=True,
            order=sorted(present, key=lambda p: seeds.get(p, 0)) + gone,
        )
    StageForfeit.objects.bulk_create(
        StageForfeit(stage_match=stage_match, player_id=p, reason=ForfeitReason.WITHDREW)
        for p in gone
    )
    return stage_match.walkover


def _finish(
    stage: Stage,
    ranking: list[list[int]],
    group_ranking: dict[str, list[list[int]]] | None = None,
) -> None:
    """Store the stage's final order, once: pages and later stages read it as stored."""
    stage.status = StageStatus.FINISHED
    stage.finished_at = timezone.now()
    stage.ranking = ranking
    stage.group_ranking = group_ranking
    stage.save(update_fields=["status", "finished_at", "ranking", "group_ranking"])
    signals.send_on_commit(signals.stage_finished, Stage, stage_id=stage.pk)
    event_play_over(event_id=stage.event_id)  # the event finishes with its last stage


@transaction.atomic
def stage_advance(*, stage_id: int) -> Stage:
    """Bring a running stage up to date with its finished matches: seat the matches whose
    feeders are decided, draw the next Swiss round, finish the stage. Idempotent: with nothing
    new it changes nothing."""
    stage = _locked(stage_id)
    if stage.status == StageStatus.RUNNING:
        _advance(stage)
    return stage


# --- Forfeits, voids, withdrawals and undo --------------------------------------------------
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
) -> Match | None:
    """Decide a slot whose match was voided: `forfeits` take last place there, and the others
    play a fresh match among themselves (returned), or go on without playing (a walkover) when
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
    )
    stage_match.match = replacement
    stage_match.save(update_fields=["match"])
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
            stage, stage_match, seated, rules=match.rules, forfeits=forfeits, reason=reason
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
    if stage.status == StageStatus.RUNNING:
        _advance(stage)
    _standings_moved(stage, rebuild=True)  # its walkover and forfeits count no more


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
            match__status__in=(MatchStatus.SCHEDULED, MatchStatus.IN_PROGRESS),
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
        .filter(status__in=(MatchStatus.SCHEDULED, MatchStatus.IN_PROGRESS))
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


def withdrawn_players(stage: Stage) -> set[int]:
    return set(
        StageEntry.objects.filter(stage=stage, withdrawn_at__isnull=False).values_list(
            "player_id", flat=True
        )
    )


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


# --- What each format does ------------------------------------------------------------------
# One object per format (as Tabbycat maps draw types to managers): how it checks its options,
# draws at the start, advances after results, which later matches a result feeds, and what a
# withdrawn result takes back. A new format is a new class and a row of FORMATS
# (docs/draw.md, "Adding a format").


class StageFormatRules:
    """A format played in rounds drawn all at once (round robin): the stage finishes once
    every match is decided, ranked by its standings."""

    def check(self, stage: Stage, players: list[int]) -> None:
        """Refuse options the format cannot draw (DrawError), at creation: groups of two or
        more players."""
        if stage.groups > 1:
            draw.snake_groups(players, stage.groups)

    def start(self, stage: Stage, players: list[int]) -> None:
        groups = draw.snake_groups(players, stage.groups) if stage.groups > 1 else (players,)
        for number, schedule in enumerate(
            draw.group_round_robin(groups, table_size=stage.table_size), start=1
        ):
            StageEntry.objects.filter(stage=stage, player_id__in=groups[number - 1]).update(
                group=number
            )
            for round_ in schedule:
                _seat_round(stage, round_, group=number)

    def meetings(self, stage: Stage, count: int) -> dict[tuple[int, int], int]:
        """When the seeds of `count` players can first meet (lower seed first; pairs that
        never meet are left out), which `draw.groups_apart` reads to keep players of one
        earlier group apart: in a round robin played in groups, the seeds of one group
        (round 1: the whole group is one draw); without groups everyone meets anyway."""
        if stage.groups <= 1:
            return {}
        seeds = list(range(1, count + 1))
        return {
            pair: 1
            for group in draw.snake_groups(seeds, stage.groups)
            for pair in itertools.combinations(sorted(group), 2)
        }

    def advance(self, stage: Stage, stage_matches: list[StageMatch], seeds: dict[int, int]) -> None:
        if all(sm.order is not None for sm in stage_matches):
            _finish(stage, *_table_ranking(stage))

    def fed_by(self, stage_match: StageMatch) -> list[StageMatch]:
        """The later stage matches whose players this one's result decided."""
        return []

    def withdrawn(self, stage_match: StageMatch) -> None:
        """Take back what a result no longer standing had decided, beyond its later matches."""


class SwissRules(StageFormatRules):
    """Rounds drawn one at a time from the standings; byes count."""

    @staticmethod
    def _first_round(stage: Stage, players: Sequence[int]) -> draw.Round:
        """Round 1, drawn from the seeds alone (players in seed order)."""
        return draw.swiss_round(
            [draw.SwissStanding(player=p) for p in players], number=1, table_size=stage.table_size
        )

    def meetings(self, stage: Stage, count: int) -> dict[tuple[int, int], int]:
        """Round 1 is drawn from the seeds; later rounds from the results."""
        first = self._first_round(stage, range(1, count + 1))
        return {
            pair: 1
            for table in first.tables
            for pair in itertools.combinations(sorted(table.players), 2)
        }

    def start(self, stage: Stage, players: list[int]) -> None:
        stage.rounds = stage.rounds or draw.swiss_rounds(len(players), stage.table_size)
        _seat_round(stage, self._first_round(stage, players))

    def advance(self, stage: Stage, stage_matches: list[StageMatch], seeds: dict[int, int]) -> None:
        if not all(sm.order is not None for sm in stage_matches):
            return
        current = max((sm.round for sm in stage_matches), default=0)
        if current < (stage.rounds or 0):
            _seat_round(
                stage,
                draw.swiss_round(
                    _swiss_standings(stage, stage_matches, seeds),
                    number=current + 1,
                    table_size=stage.table_size,
                ),
            )
            return
        _finish(stage, *_table_ranking(stage))

    def fed_by(self, stage_match: StageMatch) -> list[StageMatch]:
        return list(
            StageMatch.objects.filter(
                stage=stage_match.stage, round__gt=stage_match.round
            ).select_related("match")
        )

    def withdrawn(self, stage_match: StageMatch) -> None:
        StageBye.objects.filter(stage=stage_match.stage, round__gt=stage_match.round).delete()


class EliminationRules(StageFormatRules):
    """A bracket drawn in full at the start, its matches seated as their players are known."""

    def bracket(self, stage: Stage, players: list[int]) -> draw.Bracket:
        return draw.single_elimination(
            players,
            table_size=stage.table_size,
            advance=stage.advance,
            third_place=stage.third_place,
        )

    def check(self, stage: Stage, players: list[int]) -> None:
        self.bracket(stage, players)

    def meetings(self, stage: Stage, count: int) -> dict[tuple[int, int], int]:
        return draw.meeting_rounds(self.bracket(stage, list(range(1, count + 1))))

    def start(self, stage: Stage, players: list[int]) -> None:
        stage.bracket = self.bracket(stage, players).to_json()

    def advance(self, stage: Stage, stage_matches: list[StageMatch], seeds: dict[int, int]) -> None:
        _advance_bracket(stage, stage_matches, seeds)

    def fed_by(self, stage_match: StageMatch) -> list[StageMatch]:
        stage = stage_match.stage
        bracket = draw.Bracket.from_json(stage.bracket or {})
        dependents = draw.dependent_slots(bracket, stage_match.slot)
        return list(
            StageMatch.objects.filter(stage=stage, slot__in=dependents).select_related("match")
        )


class DoubleEliminationRules(EliminationRules):
    def bracket(self, stage: Stage, players: list[int]) -> draw.Bracket:
        return draw.double_elimination(players, grand_final_reset=stage.grand_final_reset)


FORMATS: dict[str, StageFormatRules] = {
    StageFormat.ROUND_ROBIN: StageFormatRules(),
    StageFormat.SWISS: SwissRules(),
    StageFormat.SINGLE_ELIMINATION: EliminationRules(),
    StageFormat.DOUBLE_ELIMINATION: DoubleEliminationRules(),
}


def format_of(stage: Stage) -> StageFormatRules:
    return FORMATS[stage.format]
