"""Reads of the organizer pages, as typed rows: an event's stages with how many players each
has, the tables of its stages (each with its players in seat order), and who may withdraw.

Each read is a fixed number of queries, whatever the size of the event. Scoring keys are read
apart (`score_keys`), only by the page that prints them."""

from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime

from django.db.models import Count, Exists, OuterRef, Prefetch

from games.models import Match, MatchStatus, Seat
from league.models import (
    Event,
    Player,
    Registration,
    RegistrationStatus,
    SignUp,
    Stage,
    StageEntry,
    StageForfeit,
    StageMatch,
    StageStatus,
)
from league.models.registration import ACTIVE
from league.pages.forfeits import forfeit_text
from league.selectors import SeatResult, entered_stages, seat_result

OPEN_STATUSES = (MatchStatus.SCHEDULED, MatchStatus.IN_PROGRESS)


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


def _walkover_names(stage_matches: Iterable[StageMatch]) -> dict[int, str]:
    """The names of the players of slots decided without play: one query, none without."""
    ids = {p for sm in stage_matches if sm.match_id is None for p in sm.order or []}
    if not ids:
        return {}
    return dict(Player.objects.filter(pk__in=ids).values_list("pk", "display_name"))


def _forfeits(stage_matches: Iterable[StageMatch]) -> dict[int, tuple[Forfeited, ...]]:
    """Who forfeited each stage match, by stage match: one query, none when no stage match has
    a forfeit (`has_forfeits`, annotated by `stage_tables`)."""
    ids = [sm.pk for sm in stage_matches if getattr(sm, "has_forfeits", False)]
    found: dict[int, list[Forfeited]] = {}
    if ids:
        rows = (
            StageForfeit.objects.filter(stage_match_id__in=ids)
            .order_by("created_at", "pk")
            .values_list("stage_match_id", "player__display_name", "reason")
        )
        for stage_match, name, reason in rows:
            found.setdefault(stage_match, []).append(Forfeited(name, forfeit_text(reason)))
    return {stage_match: tuple(each) for stage_match, each in found.items()}


def _row(
    stage_match: StageMatch, names: dict[int, str], forfeits: tuple[Forfeited, ...] = ()
) -> TableRow:
    match = stage_match.match
    if stage_match.walkover or match is None:
        # A walkover keeps the match it replaced (void), whose seats name its players.
        seated = {s.player_id: s.player.display_name for s in match.seats.all()} if match else {}
        order = stage_match.order or list(seated)
        return TableRow(
            stage=stage_match.stage_id,
            round=stage_match.round,
            group=stage_match.group,
            slot=stage_match.slot,
            match=None,
            status="walkover",
            status_text="Walkover",
            seats=tuple(
                SeatResult(player=p, name=seated.get(p) or names.get(p, f"Player {p}"))
                for p in order
            ),
            forfeits=forfeits,
        )
    return _played_row(match, stage_match, forfeits)


def _played_row(
    match: Match, stage_match: StageMatch | None, forfeits: tuple[Forfeited, ...] = ()
) -> TableRow:
    """A table with its match (seats and players prefetched in seat order), and who forfeited
    it (a table that played on without them)."""
    return TableRow(
        stage=stage_match.stage_id if stage_match else None,
        round=stage_match.round if stage_match else None,
        group=stage_match.group if stage_match else 1,
        slot=stage_match.slot if stage_match else "",
        match=match.pk,
        status=match.status,
        status_text=match.get_status_display(),
        seats=tuple(seat_result(seat) for seat in match.seats.all()),
        table_label=match.table_label,
        planned_at=match.planned_at,
        time_zone=match.display_zone,
        forfeits=forfeits,
    )


def stage_tables(
    stage_ids: Collection[int], *, round_: int | None = None, open_only: bool = False
) -> dict[int, list[TableRow]]:
    """The tables of several stages by stage, in round, group and slot order: every table, the
    tables of one round, or those still to be played or being played (`open_only`). Two
    queries (stage matches with their matches; seats with players), and one more for each of:
    the names of walkovers' players when there are walkovers without a match, who forfeited
    when a table has forfeits."""
    tables: dict[int, list[TableRow]] = {stage_id: [] for stage_id in stage_ids}
    if not stage_ids:
        return tables
    found = StageMatch.objects.filter(stage_id__in=stage_ids)
    if round_ is not None:
        found = found.filter(round=round_)
    if open_only:
        found = found.filter(match__status__in=OPEN_STATUSES, walkover=False)
    stage_matches = list(
        found.select_related("match")
        .defer("match__state", "match__rules", "match__score_key")
        .annotate(has_forfeits=Exists(StageForfeit.objects.filter(stage_match=OuterRef("pk"))))
        .prefetch_related(
            Prefetch(
                "match__seats", queryset=Seat.objects.select_related("player").order_by("order")
            )
        )
        .order_by("stage_id", "round", "group", "slot", "pk")
    )
    names = _walkover_names(stage_matches)
    forfeits = _forfeits(stage_matches)
    for stage_match in stage_matches:
        row = _row(stage_match, names, forfeits.get(stage_match.pk, ()))
        tables[stage_match.stage_id].append(row)
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
    return match, _played_row(match, getattr(match, "stage_match", None))


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
        .only("pk", "status", "event_id", "table_label", "planned_at", "planned_zone")
        .prefetch_related(
            Prefetch("seats", queryset=Seat.objects.select_related("player").order_by("order"))
        )
        .order_by("pk")
    )
    return [_played_row(match, None) for match in matches]


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
