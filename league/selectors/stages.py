"""Reads of stages: their matches, their draw (rounds, or a bracket's slots) with results and
byes, the stages a player is entered in, an event's stages, a stage's summary and entries."""

from collections.abc import Collection, Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from django.db.models import Prefetch

from games.models import OPEN_STATUSES, Seat
from league import models
from league.selectors.matches import MatchResult, match_result


def stage_matches(
    stage_ids: Collection[int], *, round_: int | None = None, open_only: bool = False
) -> list[models.StageMatch]:
    """The matches of stages `stage_ids` with their seats and players and the forfeits at
    each, by stage, round, group and slot: every one, those of one round (`round_`), or those
    still to be played or being played (`open_only`: a scheduled or started match, not a
    walkover). Three queries; the page of one stage and the organizer's sheets read this."""
    found = models.StageMatch.objects.filter(stage_id__in=stage_ids)
    if round_ is not None:
        found = found.filter(round=round_)
    if open_only:
        found = found.filter(match__status__in=OPEN_STATUSES, walkover=False)
    return list(
        found.select_related("match")
        .defer("match__state", "match__rules", "match__score_key")
        .prefetch_related(
            Prefetch("match__seats", queryset=Seat.objects.select_related("player")),
            Prefetch(
                "forfeits",
                queryset=models.StageForfeit.objects.select_related("player").order_by(
                    "created_at", "pk"
                ),
            ),
        )
        .order_by("stage_id", "round", "group", "slot", "pk")
    )


@dataclass(frozen=True, slots=True)
class Forfeit:
    """A player who forfeited a stage match, and why (`ForfeitReason`)."""

    player: int
    reason: str


@dataclass(frozen=True, slots=True)
class StagePlay:
    """A stage match: where it sits (round, group, bracket slot), how it was decided (its
    finishing `order`, a `walkover`, the forfeits at it) and its match, if it has one."""

    stage_match: int
    round: int
    group: int
    slot: str | None
    walkover: bool
    order: tuple[int, ...] | None
    forfeits: tuple[Forfeit, ...]
    match: MatchResult | None

    def to_json(self) -> dict[str, Any]:
        return {
            "stage_match": self.stage_match,
            "round": self.round,
            "group": self.group,
            "slot": self.slot,
            "walkover": self.walkover,
            "order": None if self.order is None else list(self.order),
            "forfeits": [asdict(forfeit) for forfeit in self.forfeits],
            "match": None
            if self.match is None
            else {
                "id": self.match.id,
                "status": self.match.status,
                "table_label": self.match.table_label,
                "planned_at": self.match.planned_at,
                "time_zone": self.match.time_zone,
                "seats": [asdict(seat) for seat in self.match.seats],
            },
        }


@dataclass(frozen=True, slots=True)
class StageRound:
    number: int
    matches: tuple[StagePlay, ...]


@dataclass(frozen=True, slots=True)
class Bye:
    round: int
    player: int


@dataclass(frozen=True, slots=True)
class BracketSlot:
    """A slot of a stage's bracket: the slot as stored (`spec`: key, bracket, round, index,
    size, sources, advance, exits), its byes and its stage match, if it has one yet."""

    spec: Mapping[str, Any]
    byes: int
    play: StagePlay | None

    @property
    def key(self) -> str:
        return str(self.spec["key"])

    @property
    def sources(self) -> Sequence[Mapping[str, Any]]:
        return self.spec["sources"]  # type: ignore[no-any-return]

    @property
    def advance(self) -> int:
        return int(self.spec["advance"])


@dataclass(frozen=True, slots=True)
class StageDetail:
    """Everything a page needs to show a stage: its rounds (round robin, Swiss) or its
    bracket's slots (elimination: `bracket_format` and `slots`), and its byes."""

    rounds: tuple[StageRound, ...]
    bracket_format: str | None
    slots: tuple[BracketSlot, ...]
    byes: tuple[Bye, ...]

    def to_json(self) -> dict[str, Any]:
        """The stage's draw as the API answers it."""
        return {
            "rounds": [
                {"number": r.number, "matches": [play.to_json() for play in r.matches]}
                for r in self.rounds
            ],
            "bracket": None
            if self.bracket_format is None
            else {
                "format": self.bracket_format,
                "slots": [
                    {
                        **slot.spec,
                        "byes": slot.byes,
                        "play": None if slot.play is None else slot.play.to_json(),
                    }
                    for slot in self.slots
                ],
            },
            "byes": [asdict(bye) for bye in self.byes],
        }


def stage_play(stage_match: models.StageMatch) -> StagePlay:
    """A stage match read by `stage_matches` as a `StagePlay`."""
    match = stage_match.match
    return StagePlay(
        stage_match=stage_match.pk,
        round=stage_match.round,
        group=stage_match.group,
        slot=stage_match.slot or None,
        walkover=stage_match.walkover,
        order=None if stage_match.order is None else tuple(stage_match.order),
        forfeits=tuple(
            Forfeit(player=forfeit.player_id, reason=forfeit.reason)
            for forfeit in stage_match.forfeits.all()
        ),
        match=None if match is None else match_result(match),
    )


def entered_stages(
    event_id: int, player_id: int, statuses: Collection[str]
) -> list[tuple[int, str]]:
    """The stages of the event in one of `statuses` where the player is entered and has not
    withdrawn (a registration withdrawn leaves them there), as (id, name) in the event's
    order: one query."""
    return list(
        models.StageEntry.objects.filter(
            stage__event_id=event_id,
            stage__status__in=statuses,
            player_id=player_id,
            withdrawn_at=None,
        )
        .order_by("stage__position", "stage_id")
        .values_list("stage_id", "stage__name")
    )


def stage_detail(stage: models.Stage) -> StageDetail:
    """A stage's rounds or bracket slots with their matches, seats and results, and its byes,
    in four queries."""
    plays = [stage_play(sm) for sm in stage_matches([stage.pk])]
    byes = tuple(
        Bye(round=round_, player=player)
        for round_, player in stage.byes.values_list("round", "player_id")
    )
    if stage.bracket:
        by_slot = {play.slot: play for play in plays if play.slot}
        return StageDetail(
            rounds=(),
            bracket_format=stage.bracket["format"],
            slots=tuple(
                BracketSlot(
                    spec=slot,
                    byes=slot["size"] - len(slot["sources"]),
                    play=by_slot.get(slot["key"]),
                )
                for slot in stage.bracket["slots"]
            ),
            byes=byes,
        )
    rounds: dict[int, list[StagePlay]] = {}
    for play in plays:
        rounds.setdefault(play.round, []).append(play)
    return StageDetail(
        rounds=tuple(
            StageRound(number=number, matches=tuple(matches))
            for number, matches in sorted(rounds.items())
        ),
        bracket_format=None,
        slots=(),
        byes=byes,
    )


def event_stages(event: models.Event, *, with_projections: bool = False) -> list[models.Stage]:
    """An event's stages in their order, in one query; `with_projections`: each with its
    `projection` (`StageProjection`) in the same query, where it has one."""
    stages = models.Stage.objects.filter(event=event).order_by("position", "pk")
    if with_projections:
        stages = stages.select_related("projection")
    return list(stages)


def stage_projection(stage: models.Stage) -> models.StageProjection | None:
    """A running stage's projection, read with it by `event_stages(with_projections=True)`
    (no query); None for a stage not running or without one yet."""
    if stage.status != models.StageStatus.RUNNING:
        return None
    found: models.StageProjection | None = getattr(stage, "projection", None)
    return found


@dataclass(frozen=True, slots=True)
class StageSummary:
    """What a page shows of a stage itself: its name, format, tables, status, whether it is
    played in groups (and how many), its final ranking (tiers of player ids) and its bracket
    as stored (elimination)."""

    id: int
    name: str
    format_text: str
    table_size: int
    advance: int
    status: str
    status_text: str
    groups: int
    played_in_groups: bool
    ranking: tuple[tuple[int, ...], ...]
    bracket: Mapping[str, Any] | None


def stage_summary(stage: models.Stage) -> StageSummary:
    """A stage read already, as a `StageSummary` (no query)."""
    return StageSummary(
        id=stage.pk,
        name=stage.name,
        format_text=stage.get_format_display(),
        table_size=stage.table_size,
        advance=stage.advance,
        status=stage.status,
        status_text=stage.get_status_display(),
        groups=stage.groups,
        played_in_groups=stage.played_in_groups,
        ranking=tuple(tuple(tier) for tier in stage.ranking or []),
        bracket=stage.bracket or None,
    )


@dataclass(frozen=True, slots=True)
class Entry:
    """A stage's entry: the player, their name and seed."""

    player: int
    name: str
    seed: int


def stage_entries(stage_ids: Sequence[int]) -> dict[int, list[Entry]]:
    """The entries of several stages with their players, by stage and seed, in one query."""
    entries: dict[int, list[Entry]] = {stage_id: [] for stage_id in stage_ids}
    for entry in (
        models.StageEntry.objects.filter(stage_id__in=stage_ids)
        .select_related("player")
        .order_by("stage_id", "seed")
    ):
        entries[entry.stage_id].append(
            Entry(player=entry.player_id, name=entry.player.display_name, seed=entry.seed)
        )
    return entries
