"""Reads of the organizer pages, as typed rows: an event's stages with how many players each
has, the tables of its stages (each with its players in seat order), and who may withdraw.

Each read is a fixed number of queries, whatever the size of the event. Scoring keys are read
apart (`score_keys`), only by the page that prints them."""

from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime

from django.db.models import Count, Exists, OuterRef, Prefetch

from games.models import OPEN_STATUSES, Match, Seat
from league.models import (
    Event,
    Player,
    Registration,
    RegistrationStatus,
    SignUp,
    Stage,
    StageEntry,
    StageMatch,
    StageStatus,
)
from league.models.registration import ACTIVE
from league.pages.forfeits import forfeit_text, player_name
from league.selectors import (
    MatchResult,
    SeatResult,
    StagePlay,
    entered_stages,
    match_result,
    stage_matches,
    stage_play,
)


@dataclass(frozen=True, slots=True)
class Forfeited:
    """A player who forfeited a table (a walkover, or a table that played on without them),
    and why, in words ("withdrew", "did not show")."""

    name: str
    why: str


@dataclass(frozen=True, slots=True)
class TableRow:
    """A table: its stage and round (and group, or bracket slot; None for a casual match), its
    match (None when the slot was decided without play), the match's status, and its players
    in seat order."""

    stage: int | None
    round: int | None
    group: int
    slot: str
    match: int | None
    status: str
    status_text: str
    seats: tuple[SeatResult, ...]
    # Where and when it is played, once scheduled (league.services.schedule).
    table_label: str = ""
    planned_at: datetime | None = None
    time_zone: str = ""
    forfeits: tuple[Forfeited, ...] = ()

    @property
    def is_open(self) -> bool:
        return self.status in OPEN_STATUSES


@dataclass(frozen=True, slots=True)
class StageRow:
    """A stage of an event with its number of entrants (withdrawn ones included)."""

    stage: Stage
    entrants: int


@dataclass(frozen=True, slots=True)
class EntrantRow:
    """A player entered in a stage of an event, and whether they have withdrawn from it."""

    player: int
    name: str
    stage: int
    withdrawn: bool = False


def event_stages(event: Event) -> list[StageRow]:
    """The event's stages in their order, each with its number of entrants: one query."""
    stages = (
        Stage.objects.filter(event=event)
        .annotate(entrants=Count("entries"))
        .order_by("position", "pk")
    )
    return [StageRow(stage=stage, entrants=stage.entrants) for stage in stages]


def _names(stage_matches: Iterable[StageMatch]) -> dict[int, str]:
    """The names of every player of `stage_matches`: those seated (a walkover's void match
    included) and who forfeited come with them; one query more for the players of a slot
    decided without a match, none without."""
    names: dict[int, str] = {}
    for sm in stage_matches:
        if sm.match is not None:
            names.update(
                (seat.player_id, seat.player.display_name) for seat in sm.match.seats.all()
            )
        names.update((f.player_id, f.player.display_name) for f in sm.forfeits.all())
    missing = {p for sm in stage_matches for p in sm.order or () if p not in names}
    if missing:
        names.update(Player.objects.filter(pk__in=missing).values_list("pk", "display_name"))
    return names


def _row(stage: int, play: StagePlay, names: Mapping[int, str]) -> TableRow:
    """A stage's table from its play (`league.selectors.stage_play`)."""
    forfeits = tuple(
        Forfeited(player_name(names, f.player), forfeit_text(f.reason)) for f in play.forfeits
    )
    match = play.match
    if play.walkover or match is None:
        # A walkover keeps the match it replaced (void), whose seats name its players.
        order = play.order or (tuple(seat.player for seat in match.seats) if match else ())
        return TableRow(
            stage=stage,
            round=play.round,
            group=play.group,
            slot=play.slot or "",
            match=None,
            status="walkover",
            status_text="Walkover",
            seats=tuple(SeatResult(player=p, name=player_name(names, p)) for p in order),
            forfeits=forfeits,
        )
    return _played_row(match, play, stage=stage, forfeits=forfeits)


def _played_row(
    match: MatchResult,
    play: StagePlay | None,
    *,
    stage: int | None,
    forfeits: tuple[Forfeited, ...] = (),
) -> TableRow:
    """A table with its match, and who forfeited it (a table that played on without them)."""
    return TableRow(
        stage=stage,
        round=play.round if play else None,
        group=play.group if play else 1,
        slot=(play.slot or "") if play else "",
        match=match.id,
        status=match.status,
        status_text=match.status_text,
        seats=match.seats,
        table_label=match.table_label,
        planned_at=match.planned_at,
        time_zone=match.time_zone,
        forfeits=forfeits,
    )


def stage_tables(
    stage_ids: Collection[int], *, round_: int | None = None, open_only: bool = False
) -> dict[int, list[TableRow]]:
    """The tables of several stages by stage, in round, group and slot order: every table, the
    tables of one round, or those still to be played or being played (`open_only`). Read as
    the stage page reads them (`league.selectors.stage_matches`: three queries), and one more
    for the names of the players of slots decided without a match, when there are any."""
    tables: dict[int, list[TableRow]] = {stage_id: [] for stage_id in stage_ids}
    if not stage_ids:
        return tables
    found = stage_matches(stage_ids, round_=round_, open_only=open_only)
    names = _names(found)
    for stage_match in found:
        tables[stage_match.stage_id].append(
            _row(stage_match.stage_id, stage_play(stage_match), names)
        )
    return tables


def match_table(match_id: int) -> tuple[Match, TableRow] | None:
    """A match with its event and league, and its table (a casual match's, or its stage's):
    two queries; None for no such match."""
    match = (
        Match.objects.select_related("event__league", "stage_match")
        .prefetch_related(
            Prefetch("seats", queryset=Seat.objects.select_related("player").order_by("order"))
        )
        .filter(pk=match_id)
        .first()
    )
    if match is None:
        return None
    stage_match = getattr(match, "stage_match", None)
    play = (
        None
        if stage_match is None
        else StagePlay(
            stage_match=stage_match.pk,
            round=stage_match.round,
            group=stage_match.group,
            slot=stage_match.slot or None,
            walkover=stage_match.walkover,
            order=None,
            forfeits=(),
            match=None,
        )
    )
    return match, _played_row(
        match_result(match), play, stage=stage_match.stage_id if stage_match else None
    )


def match_statuses(match_ids: Collection[int], *, stage_id: int | None = None) -> dict[int, str]:
    """The status of each of `match_ids` (of stage `stage_id`, when given): one query."""
    found = Match.objects.filter(pk__in=match_ids)
    if stage_id is not None:
        found = found.filter(stage_match__stage_id=stage_id)
    return dict(found.values_list("pk", "status"))


def table_links(match_ids: Collection[int]) -> dict[int, tuple[int, str]]:
    """What the sheet prints to open each of `match_ids`: its table's id and that table's first
    match's scoring key (a match seated in another's place keeps the table's short link, which
    opens the match played there now; `Match.table_id`). One query."""
    return {
        pk: (origin, origin_key) if origin is not None else (pk, key)
        for pk, key, origin, origin_key in Match.objects.filter(pk__in=match_ids).values_list(
            "pk", "score_key", "origin_id", "origin__score_key"
        )
    }


def event_entrants(event: Event) -> list[EntrantRow]:
    """Every player entered in a stage of the event, by name, with each stage they are in and
    whether they have withdrawn from it: one query."""
    return [
        EntrantRow(player=player, name=name, stage=stage, withdrawn=withdrawn is not None)
        for player, name, stage, withdrawn in StageEntry.objects.filter(stage__event=event)
        .order_by("player__display_name", "player_id", "stage__position")
        .values_list("player_id", "player__display_name", "stage_id", "withdrawn_at")
    ]


def event_matches(event: Event, match_ids: Collection[int]) -> list[TableRow]:
    """Matches of the event by id (a refusal names them), with their players: two queries."""
    matches = (
        Match.objects.filter(event=event, pk__in=match_ids)
        # What a table shows (`_played_row`): a field left out would be read match by match.
        .only(
            "pk",
            "status",
            "event_id",
            "turns_played",
            "finished_at",
            "table_label",
            "planned_at",
            "planned_zone",
            "schedule_sequence",
        )
        .prefetch_related(
            Prefetch("seats", queryset=Seat.objects.select_related("player").order_by("order"))
        )
        .order_by("pk")
    )
    return [_played_row(match_result(match), None, stage=None) for match in matches]


@dataclass(frozen=True, slots=True)
class Names:
    """What a page calls the players, stages and events a service's sentence names by id
    (the API's words: "player 15", "Stage 12 (Pool)", "Final (stage 13)", "Event 9")."""

    players: Mapping[int, str] = field(default_factory=dict)
    stages: Mapping[int, str] = field(default_factory=dict)
    events: Mapping[int, str] = field(default_factory=dict)
    # The Yardzee boxes it names by their API keys ("three_of_a_kind"), by their labels.
    boxes: Mapping[str, str] = field(default_factory=dict)
    # The standings metric it names by its key, quoted ("'points'"), by its label.
    metrics: Mapping[str, str] = field(default_factory=dict)


def names_of(ids: Mapping[str, Collection[int]]) -> Names:
    """The names of the players, stages and events of these ids (`ids["player"]`, ...), for
    a refusal in a page's words (organize.forms.words): a query for each kind asked."""

    def read(model: type[Player | Stage | Event], column: str, kind: str) -> dict[int, str]:
        wanted = ids.get(kind) or ()
        if not wanted:
            return {}
        return dict(model.objects.filter(pk__in=wanted).values_list("pk", column))

    return Names(
        players=read(Player, "display_name", "player"),
        stages=read(Stage, "name", "stage"),
        events=read(Event, "name", "event"),
    )


def stages_still_entered(event_id: int, player_id: int | None) -> list[str]:
    """The names of the stages of the event still to finish where the player is entered and
    has not withdrawn (a registration withdrawn leaves them there): one query."""
    if player_id is None:
        return []
    unfinished = (StageStatus.DRAFT, StageStatus.RUNNING)
    return [name for _, name in entered_stages(event_id, player_id, unfinished)]


def found_by(search: str, *texts: str) -> bool:
    """Whether a player's name or handle (`texts`) holds what was typed in a search box, in
    any case; everyone when nothing was typed."""
    folded = search.strip().casefold()
    return not folded or any(folded in text.casefold() for text in texts if text)


@dataclass(frozen=True, slots=True)
class RosterChoice:
    """A roster player not entered in the event yet, as the entrants' list shows them."""

    player: int
    name: str
    handle: str


@dataclass(frozen=True, slots=True)
class RosterChoices:
    """The roster players not entered in the event (`shown`: those the search and the filter
    keep), how many there are in all, and the league's event before this one (the filter
    "played at <it>"), if any."""

    shown: list[RosterChoice]
    not_entered: int
    previous: Event | None


def roster_to_enter(
    event: Event, *, search: str = "", played_before: bool = False
) -> RosterChoices:
    """The league's roster players with no active registration at the event, by name: those
    whose name or handle holds `search` (any case), and with `played_before` only those seated
    at the league's previous event (by date). Three queries."""
    previous = (
        Event.objects.filter(league_id=event.league_id, date__lte=event.date)
        .exclude(pk=event.pk)
        .order_by("-date", "-pk")
        .first()
    )
    entered = Registration.objects.filter(event=event, status__in=ACTIVE, player_id=OuterRef("pk"))
    roster = (
        event.league.players.annotate(entered=Exists(entered))
        .filter(entered=False)
        .order_by("display_name", "pk")
    )
    everyone = list(roster.values_list("pk", "display_name", "handle"))
    played: set[int] | None = None
    if played_before and previous is not None:
        played = set(Seat.objects.filter(match__event=previous).values_list("player_id", flat=True))
    shown = [
        RosterChoice(pk, name, handle)
        for pk, name, handle in everyone
        if found_by(search, name, handle) and (played is None or pk in played)
    ]
    return RosterChoices(shown=shown, not_entered=len(everyone), previous=previous)


def expected_players(event: Event) -> tuple[list[int], str]:
    """Who a new stage of the event seats to begin with, and how to say so: the players
    checked in when the event uses check-in (a stage starts with those alone), else its
    confirmed players; none (and "") when it has no registrations. Two queries."""
    uses_check_in = SignUp.objects.filter(event=event, check_in=True).exists()
    confirmed = Registration.objects.filter(
        event=event, status=RegistrationStatus.CONFIRMED, player__isnull=False
    )
    if uses_check_in:
        players = list(
            confirmed.filter(checked_in_at__isnull=False).values_list("player_id", flat=True)
        )
        return players, "the players checked in" if players else ""
    players = list(confirmed.values_list("player_id", flat=True))
    return players, "the confirmed players" if players else ""
