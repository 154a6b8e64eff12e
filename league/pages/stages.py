"""A stage and its matches as the event page shows them: the lines of its rounds, its final
ranking, its bracket drawn as SVG (`league.pages.bracket`). Built from what the selectors read
(`StageSummary`, `StageDetail`, `MatchResult`), with no database, into frozen values that
`league/_event_live.html` and `league/_match_line.html` read."""

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime

from django.utils.safestring import SafeString, mark_safe

from games.models import OPEN_STATUSES, MatchStatus
from league.pages.bracket import bracket_boxes
from league.pages.forfeits import forfeit_notes, player_name
from league.pages.svg import bracket_svg
from league.pages.tables import across_groups, tiebreak_labels
from league.selectors import Entry, MatchResult, StageDetail, StagePlay, StageSummary


@dataclass(frozen=True, slots=True)
class LineSeat:
    """A seat of a match's line: the player's name, total and place, whether they won, and
    why they did not play (`note`: "withdrew", "did not show")."""

    player: int
    name: str
    total: int | None = None
    placement: int | None = None
    won: bool = False
    note: str | None = None


@dataclass(frozen=True, slots=True)
class MatchLine:
    """A match as a line of a list: its link (`id`, None for a slot decided without a
    match), status, group and seats."""

    id: int | None
    status: str
    status_text: str
    group: int
    seats: tuple[LineSeat, ...]
    # Where and when it is played, once scheduled; `time_zone` is the zone to show it in.
    table_label: str = ""
    planned_at: datetime | None = None
    time_zone: str = ""
    slot: str = ""  # a bracket's slot key, in the list of a bracket's scheduled tables
    # While it is played: who is likeliest to win and their chance ("Bea 78%"), once known.
    favourite: str = ""


def match_line(match: MatchResult, *, group: int = 1) -> MatchLine:
    """A match as a line of a list: its seats with names, totals and places."""
    finished = match.status == MatchStatus.FINISHED
    return MatchLine(
        id=match.id,
        status=match.status,
        status_text=match.status_text,
        group=group,
        seats=tuple(
            LineSeat(
                player=seat.player,
                name=seat.name,
                total=seat.total,
                placement=seat.placement,
                won=finished and seat.placement == 1,
            )
            for seat in match.seats
        ),
        table_label=match.table_label,
        planned_at=match.planned_at,
        time_zone=match.time_zone,
    )


def play_line(play: StagePlay, names: Mapping[int, str]) -> MatchLine:
    """A stage match as a line of its round. A slot decided without play reads "Walkover"
    (the match a forfeit replaced is void, but nothing was voided in the players' eyes), and
    each player who forfeited says why ("withdrew", "did not show") beside their name, also
    when the rest of the table played on at a new match. A match voided for another reason
    still reads "Void"."""
    notes = forfeit_notes(play)
    if play.walkover:
        return MatchLine(
            id=None,
            status="walkover",
            status_text="Walkover",
            group=play.group,
            seats=tuple(
                LineSeat(
                    player=p, name=player_name(names, p), won=p not in notes, note=notes.get(p)
                )
                for p in play.order or ()
            ),
        )
    if play.match is None:
        line = MatchLine(
            id=None, status="waiting", status_text="Waiting", group=play.group, seats=()
        )
    else:
        line = match_line(play.match, group=play.group)
    seated = {seat.player for seat in line.seats}
    absent = tuple(
        LineSeat(player=p, name=player_name(names, p), note=note)
        for p, note in notes.items()
        if p not in seated
    )
    return replace(line, seats=line.seats + absent)


@dataclass(frozen=True, slots=True)
class ByeLine:
    player: int
    name: str


@dataclass(frozen=True, slots=True)
class RoundView:
    """A round of a round robin or Swiss stage: its matches and byes; `groups` when its
    matches are of more than one group (each line then says its group)."""

    number: int
    matches: tuple[MatchLine, ...]
    byes: tuple[ByeLine, ...]
    groups: bool


def with_favourite(line: MatchLine, favourites: Mapping[int, tuple[int, float]]) -> MatchLine:
    """The line of a match being played, saying who is likeliest to win it (its seat in seat
    order and chance, from `analysis.selectors.favourites`)."""
    found = favourites.get(line.id) if line.id is not None else None
    if found is None or line.status != MatchStatus.IN_PROGRESS or found[0] >= len(line.seats):
        return line
    seat, chance = found
    return replace(line, favourite=f"{line.seats[seat].name} {round(100 * chance)}%")


def rounds(
    detail: StageDetail,
    names: Mapping[int, str],
    favourites: Mapping[int, tuple[int, float]] | None = None,
) -> tuple[RoundView, ...]:
    byes: dict[int, list[ByeLine]] = defaultdict(list)
    for bye in detail.byes:
        byes[bye.round].append(ByeLine(player=bye.player, name=player_name(names, bye.player)))
    found = []
    for round_ in detail.rounds:
        matches = tuple(
            with_favourite(play_line(play, names), favourites or {}) for play in round_.matches
        )
        found.append(
            RoundView(
                number=round_.number,
                matches=matches,
                byes=tuple(byes.get(round_.number, ())),
                groups=len({match.group for match in matches}) > 1,
            )
        )
    return tuple(found)


@dataclass(frozen=True, slots=True)
class RankedPlayer:
    id: int
    name: str


@dataclass(frozen=True, slots=True)
class Tier:
    """Players sharing a place of a final ranking."""

    place: int
    players: tuple[RankedPlayer, ...]


def ranking(tiers: Sequence[Sequence[int]], names: Mapping[int, str]) -> tuple[Tier, ...]:
    """A finished stage's ranking: each tier with its place (players sharing a tier share
    the place, and the next place is skipped)."""
    found = []
    place = 1
    for tier in tiers:
        found.append(
            Tier(
                place=place,
                players=tuple(RankedPlayer(id=p, name=player_name(names, p)) for p in tier),
            )
        )
        place += len(tier)
    return tuple(found)


@dataclass(frozen=True, slots=True)
class GroupTable:
    """One group's standings table, rendered (`league.pages.table_cache`)."""

    label: str
    html: SafeString


@dataclass(frozen=True, slots=True)
class StageView:
    """A stage as the event page shows it: its final ranking, bracket (SVG) or rounds, and
    its standings (one rendered table, or one a group)."""

    stage: StageSummary
    players: int
    ranking: tuple[Tier, ...]
    bracket_svg: SafeString | None
    slots: int
    rounds: tuple[RoundView, ...]
    standings: SafeString | None
    group_tables: tuple[GroupTable, ...]
    tiebreak: tuple[str, ...]
    across_groups: tuple[str, ...]
    # A bracket's tables still to play that have a table or a start (its SVG shows neither).
    scheduled: tuple[MatchLine, ...] = ()


def stage_view(
    stage: StageSummary,
    detail: StageDetail,
    entries: Sequence[Entry],
    *,
    tiebreak: Sequence[str],
    standings: SafeString | None,
    group_tables: Sequence[GroupTable] = (),
    favourites: Mapping[int, tuple[int, float]] | None = None,
    chances: Mapping[int, Mapping[int, float]] | None = None,
) -> StageView:
    """A stage with its rendered standings (`standings`, or one table a group), who is
    likeliest to win each match being played (`favourites`, by match id) and, in a bracket,
    each player's chance to win a match not finished (`chances`, by match id and player)."""
    names = {entry.player: entry.name for entry in entries}
    seeds = {entry.player: entry.seed for entry in entries}
    svg: SafeString | None = None
    slots = 0
    if detail.bracket_format is not None:
        boxes = bracket_boxes(stage.bracket, detail.slots, names, seeds, chances)
        # Every text in the SVG is escaped by bracket_svg.
        svg = mark_safe(  # noqa: S308
            bracket_svg(boxes, title=f"Bracket of {stage.name}", id_prefix=f"stage-{stage.id}")
        )
        slots = len(boxes)
    return StageView(
        stage=stage,
        players=len(entries),
        ranking=ranking(stage.ranking, names),
        bracket_svg=svg,
        slots=slots,
        rounds=() if detail.bracket_format is not None else rounds(detail, names, favourites),
        standings=standings,
        group_tables=tuple(group_tables),
        tiebreak=tiebreak_labels(tiebreak),
        across_groups=across_groups(tiebreak),
        scheduled=tuple(with_favourite(line, favourites or {}) for line in scheduled_slots(detail)),
    )


def scheduled_slots(detail: StageDetail) -> tuple[MatchLine, ...]:
    """A bracket's matches still to play (or being played) that have a table or a planned
    start, each as a line naming its slot, soonest first."""
    found = [
        replace(match_line(slot.play.match), slot=slot.key)
        for slot in detail.slots
        if slot.play is not None
        and slot.play.match is not None
        and slot.play.match.status in OPEN_STATUSES
        and (slot.play.match.table_label or slot.play.match.planned_at is not None)
    ]
    return tuple(
        sorted(
            found,
            key=lambda line: (
                line.planned_at is None,
                line.planned_at.timestamp() if line.planned_at else 0.0,
                line.slot,
            ),
        )
    )
