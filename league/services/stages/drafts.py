"""A stage before it starts: made (`stage_create`), changed (`stage_update`) or deleted
(`stage_delete`), its options and participants checked as its start will draw them (docs/draw.md,
"Changing a stage before it starts")."""

import json
import secrets
from collections.abc import Mapping, Sequence
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import F

from league import draw, standings
from league.errors import DrawError, LeagueError, StageConflict, StandingsError
from league.models import (
    Player,
    PlayerRating,
    Seeding,
    Stage,
    StageEntry,
    StageFormat,
    StageStatus,
    StandingsScope,
    StandingsTable,
)
from league.services.organization import clean_name, ensure_on_roster
from league.services.stages._common import _locked_draft, _locked_event
from league.services.stages.advance import format_of
from league.services.standings_marks import standings_mark
from league.stage_options import (
    FORMAT_OPTION_DEFAULTS,
    FORMAT_OPTIONS,
    MAX_ADVANCE,
    MAX_ENTRANTS,
    MAX_GROUPS,
    MAX_ROUNDS,
)

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
