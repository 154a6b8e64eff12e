"""Reads of the organization worth a name."""

from collections import defaultdict
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass
from datetime import date, datetime
from typing import Any

from django.db import connection
from django.db.models import Count, Prefetch, Q, QuerySet, Window

from games.models import Match, MatchStatus, Seat
from league import models, rating


@dataclass(frozen=True, slots=True)
class EventLine:
    """An event as a line of a list: its name, date, venue and status (`EventStatus`)."""

    id: int
    name: str
    date: date
    venue: str
    status: str
    status_text: str


def _event_line(event: models.Event) -> EventLine:
    return EventLine(
        id=event.pk,
        name=event.name,
        date=event.date,
        venue=event.venue,
        status=event.status,
        status_text=event.get_status_display(),
    )


@dataclass(frozen=True, slots=True)
class LeagueEvents:
    """A league (its slug, name and game) with its events, newest first."""

    slug: str
    name: str
    game_text: str
    events: tuple[EventLine, ...]


def leagues_with_events() -> list[LeagueEvents]:
    """Every league with its events, newest first, in two queries."""
    return [
        LeagueEvents(
            slug=league.slug,
            name=league.name,
            game_text=league.get_game_display(),
            events=tuple(_event_line(event) for event in league.events.all()),
        )
        for league in models.League.objects.prefetch_related("events")
    ]


def league_events(league: models.League) -> list[EventLine]:
    """A league's events, newest first, in one query."""
    return [_event_line(event) for event in league.events.all()]


def stage_matches(stage: models.Stage) -> list[models.StageMatch]:
    """A stage's matches with their seats and players, and the forfeits at each, in four
    queries."""
    return list(
        models.StageMatch.objects.filter(stage=stage)
        .select_related("match")
        .prefetch_related(
            Prefetch("match__seats", queryset=Seat.objects.select_related("player")),
            Prefetch("forfeits", queryset=models.StageForfeit.objects.order_by("created_at", "pk")),
        )
        .order_by("round", "slot", "pk")
    )


@dataclass(frozen=True, slots=True)
class SeatResult:
    """One seat of a match: its player, their name, total and place (None until finished)."""

    player: int
    name: str
    total: int | None = None
    placement: int | None = None


def seat_result(seat: Seat) -> SeatResult:
    """A seat read with its player (prefetched) as a `SeatResult`."""
    return SeatResult(
        player=seat.player_id,
        name=seat.player.display_name,
        total=seat.total,
        placement=seat.placement,
    )


@dataclass(frozen=True, slots=True)
class MatchResult:
    """A match with its seats in seat order. `status` is a `MatchStatus` value."""

    id: int
    status: str
    status_text: str
    seats: tuple[SeatResult, ...]
    turns_played: int
    finished_at: datetime | None
    # Where and when it is played, once scheduled (league.services.schedule).
    table_label: str = ""
    planned_at: datetime | None = None
    time_zone: str = ""
    schedule_sequence: int = 0

    @property
    def version(self) -> "MatchVersion":
        return MatchVersion(
            self.id, self.status, self.turns_played, self.finished_at, self.schedule_sequence
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


def _play(stage_match: models.StageMatch) -> StagePlay:
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


def match_result(match: Match) -> MatchResult:
    """A match read with its seats and players (prefetched) as a `MatchResult`."""
    return MatchResult(
        id=match.pk,
        status=match.status,
        status_text=match.get_status_display(),
        seats=tuple(seat_result(seat) for seat in sorted(match.seats.all(), key=lambda s: s.order)),
        turns_played=match.turns_played,
        finished_at=match.finished_at,
        table_label=match.table_label,
        planned_at=match.planned_at,
        time_zone=match.display_zone,
        schedule_sequence=match.schedule_sequence,
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
    in five queries."""
    plays = [_play(sm) for sm in stage_matches(stage)]
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


@dataclass(frozen=True, slots=True)
class StandingsAnswer:
    """A stored standings table (with `group`, one group's rows). `rows` are the stored rows
    (docs/standings.md lists their keys)."""

    scope: str
    scope_id: int
    group: int | None
    tiebreak: tuple[str, ...]
    computed_at: datetime | None
    pending: bool
    rows: tuple[Mapping[str, Any], ...]


def standings_answer(table: models.StandingsTable, *, group: int | None = None) -> StandingsAnswer:
    """A stored standings table as the API and pages show it; with `group`, only the rows of
    that group (a stage played in groups ranks each group on its own)."""
    rows = table.rows
    if group is not None:
        rows = [row for row in rows if row.get("group") == group]
    return StandingsAnswer(
        scope=table.scope,
        scope_id=table.scope_id,
        group=group,
        tiebreak=tuple(str(key) for key in table.tiebreak),
        computed_at=table.computed_at,
        pending=table.pending,
        rows=tuple(rows),
    )


@dataclass(frozen=True, slots=True)
class LeaderboardRow:
    rank: int
    player: int
    name: str
    mu: float
    sigma: float
    ordinal: float
    matches: int


@dataclass(frozen=True, slots=True)
class Leaderboard:
    """A league's ratings by ordinal, when they were computed and whether newer results are
    still to be rated."""

    league: str
    computed_at: datetime | None
    pending: bool
    rows: tuple[LeaderboardRow, ...]


def leaderboard(league: models.League) -> Leaderboard:
    """A league's ratings leaderboard by ordinal (equal ordinals share the rank), with when
    it was computed and whether newer results are pending."""
    ratings = list(
        models.PlayerRating.objects.filter(league=league)
        .select_related("player")
        .order_by("-ordinal", "player_id")
    )
    state = models.RatingsState.objects.filter(league=league).first()
    stored = {item.player_id: item for item in ratings}
    # Ranked by the one leaderboard rule (league.rating.leaderboard: equal ordinals share).
    entries = rating.leaderboard(
        {player: rating.Rating(mu=item.mu, sigma=item.sigma) for player, item in stored.items()}
    )
    return Leaderboard(
        league=league.slug,
        computed_at=state.computed_at if state else None,
        pending=state.pending if state else False,
        rows=tuple(
            LeaderboardRow(
                rank=entry.rank,
                player=entry.player,
                name=stored[entry.player].player.display_name,
                mu=entry.mu,
                sigma=entry.sigma,
                ordinal=entry.ordinal,
                matches=stored[entry.player].matches,
            )
            for entry in entries
        ),
    )


@dataclass(frozen=True, slots=True)
class RatingPoint:
    """A player's rating in `league` (its slug) after match `match`."""

    league: str
    match: int
    finished_at: datetime
    mu: float
    sigma: float
    ordinal: float


def rating_history(player: models.Player) -> list[RatingPoint]:
    """A player's rating after each of their rated matches, oldest first, in every league."""
    return [
        RatingPoint(*row)
        for row in models.RatingChange.objects.filter(player=player)
        .order_by("finished_at", "match_id")
        .values_list("league__slug", "match_id", "finished_at", "mu", "sigma", "ordinal")
    ]


# --- Reads of the public pages (league/views.py) --------------------------------------------


def event_stages(event: models.Event) -> list[models.Stage]:
    """An event's stages in their order, in one query."""
    return list(models.Stage.objects.filter(event=event).order_by("position", "pk"))


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


def _loose_matches(event: models.Event) -> QuerySet[Match]:
    """The event's matches of no stage: neither a stage's match now, nor one a stage replaced
    when it was voided (a forfeit, a replay: `StageVoid`)."""
    return Match.objects.filter(event=event, stage_match__isnull=True, stage_void__isnull=True)


def _latest_loose_matches(event: models.Event) -> QuerySet[Match]:
    """Newest first, read in that order through the index `match_event_newest`."""
    return _loose_matches(event).order_by("-created_at", "-pk")


def event_loose_matches(event: models.Event, *, limit: int) -> list[MatchResult]:
    """An event's latest `limit` matches that belong to no stage (the casual tables of a
    league night), newest first, with their seats and players, in two queries."""
    return [
        match_result(match)
        for match in _latest_loose_matches(event)
        .defer("state", "rules")  # a line of the list shows neither
        .prefetch_related(
            Prefetch("seats", queryset=Seat.objects.select_related("player").order_by("order"))
        )[:limit]
    ]


@dataclass(frozen=True, slots=True)
class MatchVersion:
    """What tells whether a match's line in a list changed: its status and turns played, and
    when it finished (finished again after an undo is a new time)."""

    id: int
    status: str
    turns_played: int
    finished_at: datetime | None
    schedule_sequence: int = 0  # counts each change of its table or time


def event_loose_match_versions(event: models.Event, *, limit: int) -> list[MatchVersion]:
    """The versions of the matches `event_loose_matches` reads: one query, no seats."""
    return [
        MatchVersion(*row)
        for row in _latest_loose_matches(event).values_list(
            "pk", "status", "turns_played", "finished_at", "schedule_sequence"
        )[:limit]
    ]


@dataclass(frozen=True, slots=True)
class MatchCounts:
    """How many matches (`count`), and how many of them are still to be played or being
    played (`open`)."""

    count: int
    open: int


def event_loose_matches_latest(
    event: models.Event, *, limit: int
) -> tuple[MatchCounts, list[MatchVersion]]:
    """`event_loose_match_counts` and `event_loose_match_versions` in one query (the counts
    as window aggregates over the matches the versions are the latest `limit` of): the event
    page's version reads its matches once."""
    open_statuses = [MatchStatus.SCHEDULED, MatchStatus.IN_PROGRESS]
    rows = list(
        _latest_loose_matches(event)
        .annotate(
            all_count=Window(Count("pk")),
            open_count=Window(Count("pk", filter=Q(status__in=open_statuses))),
        )
        .values_list(
            "pk",
            "status",
            "turns_played",
            "finished_at",
            "schedule_sequence",
            "all_count",
            "open_count",
        )[:limit]
    )
    if not rows:
        return MatchCounts(count=0, open=0), []
    return MatchCounts(count=rows[0][5], open=rows[0][6]), [MatchVersion(*row[:5]) for row in rows]


def event_loose_match_counts(event: models.Event) -> MatchCounts:
    """How many matches outside any stage the event has, and how many of them are open, in
    one query."""
    counts = _loose_matches(event).aggregate(
        count=Count("pk"),
        open=Count("pk", filter=Q(status__in=[MatchStatus.SCHEDULED, MatchStatus.IN_PROGRESS])),
    )
    return MatchCounts(count=counts["count"], open=counts["open"])


def stored_standings(
    scopes: Iterable[tuple[str, int]], *, rows: bool = True
) -> dict[tuple[str, int], models.StandingsTable]:
    """The stored standings tables of several scopes, in one query; a scope with no table
    computed yet is missing from the answer. `rows=False` leaves out the rows (a 1,000-row
    table is a large JSON document), for a page that only needs to know which version is
    stored."""
    wanted = list(scopes)
    if not wanted:
        return {}
    condition = Q()
    for kind, scope_id in wanted:
        condition |= Q(scope=kind, scope_id=scope_id)
    tables = models.StandingsTable.objects.filter(condition, computed_at__isnull=False)
    if not rows:
        tables = tables.defer("rows")
    return {(table.scope, table.scope_id): table for table in tables}


# The league page's version (`league.pages.views.league_context`), in one query: the league's
# row, its table and ratings without their rows, its matches' analyses (as
# `analysis.selectors.league_analysis_version`) and its events as their lines show them.
_LEAGUE_PAGE_VERSION = """
SELECT to_jsonb(l)::text,
       (SELECT jsonb_build_array(t.id, t.requested, t.computed, t.computed_at, t.tiebreak)::text
          FROM league_standingstable t
         WHERE t.scope = %(league_scope)s AND t.scope_id = l.id AND t.computed_at IS NOT NULL),
       (SELECT jsonb_build_array(r.requested, r.computed, r.computed_at)::text
          FROM league_ratingsstate r WHERE r.league_id = l.id),
       (SELECT jsonb_build_array(max(a.id), count(a.id))::text
          FROM analysis_matchanalysis a JOIN games_match m ON m.id = a.match_id
         WHERE m.league_id = l.id),
       (SELECT jsonb_agg(jsonb_build_array(e.id, e.name, e.date, e.venue, e.status)
                         ORDER BY e.date DESC, e.id)::text
          FROM league_event e WHERE e.league_id = l.id)
  FROM league_league l
 WHERE l.slug = %(slug)s
"""


def league_page_version(slug: str) -> tuple[str | None, ...] | None:
    """Everything the league page shows changes with one of these, read in one query on
    PostgreSQL (None: no such league)."""
    with connection.cursor() as cursor:
        cursor.execute(
            _LEAGUE_PAGE_VERSION, {"slug": slug, "league_scope": models.StandingsScope.LEAGUE.value}
        )
        row = cursor.fetchone()
    return None if row is None else tuple(row)


# The event page's version (`league.pages.views.event_context`), in one query: the event's row
# (with its `play_version`, which PostgreSQL's triggers move with every write of its matches,
# seats and stages), its league's, its sign-up's opening and deadline (passed or not: the page
# says whether it takes sign-ups), and the stored versions of its own table and its stages'
# tables, without their rows.
_EVENT_PAGE_VERSION = """
SELECT to_jsonb(e)::text,
       to_jsonb(l)::text,
       (SELECT jsonb_build_array(s.open, s.deadline, s.deadline <= now())::text
          FROM league_signup s WHERE s.event_id = e.id),
       (SELECT jsonb_agg(jsonb_build_array(t.scope, t.scope_id, t.id, t.requested, t.computed,
                                           t.computed_at, t.tiebreak) ORDER BY t.id)::text
          FROM league_standingstable t
         WHERE t.computed_at IS NOT NULL
           AND ((t.scope = %(event_scope)s AND t.scope_id = e.id)
                OR (t.scope = %(stage_scope)s
                    AND t.scope_id IN (SELECT st.id FROM league_stage st
                                        WHERE st.event_id = e.id))))
  FROM league_event e JOIN league_league l ON l.id = e.league_id
 WHERE e.id = %(event)s
"""


def event_page_version(event_id: int) -> tuple[str | None, ...] | None:
    """Everything the event page shows changes with one of these (the sign-up's part, third,
    only matters to the page, not to its live part), read in one query on PostgreSQL (None:
    no such event)."""
    with connection.cursor() as cursor:
        cursor.execute(
            _EVENT_PAGE_VERSION,
            {
                "event": event_id,
                "event_scope": models.StandingsScope.EVENT.value,
                "stage_scope": models.StandingsScope.STAGE.value,
            },
        )
        row = cursor.fetchone()
    return None if row is None else tuple(row)


def standings_table(table_id: int) -> models.StandingsTable:
    """A stored standings table with its rows and the version they belong to, in one query."""
    return models.StandingsTable.objects.get(pk=table_id)


def ratings_state(league: models.League) -> models.RatingsState | None:
    """Whether the league's ratings are current, and which computation they come from."""
    return models.RatingsState.objects.filter(league=league).first()


@dataclass(frozen=True, slots=True)
class EventRef:
    id: int
    name: str
    date: date


@dataclass(frozen=True, slots=True)
class Opponent:
    player: int
    name: str


@dataclass(frozen=True, slots=True)
class PlayerMatch:
    """A match on a player's list: the match (`status` a `MatchStatus` value), its event if
    any, the player's place and total, the table's size and the others at it."""

    match: int
    game_text: str
    status: str
    status_text: str
    event: EventRef | None
    placement: int | None
    total: int | None
    table: int
    opponents: tuple[Opponent, ...]


def player_matches(player: models.Player, limit: int = 50) -> list[PlayerMatch]:
    """A player's latest `limit` matches (newest first) with their event and every seat of
    each, in three queries."""
    seats = (
        Seat.objects.filter(player=player)
        .select_related("match__event__league")
        .prefetch_related(
            Prefetch(
                "match__seats", queryset=Seat.objects.select_related("player").order_by("order")
            )
        )
        .order_by("-match__created_at", "-match_id")[:limit]
    )
    found = []
    for seat in seats:
        match = seat.match
        event = match.event
        others = match.seats.all()
        found.append(
            PlayerMatch(
                match=match.pk,
                game_text=match.get_game_display(),
                status=match.status,
                status_text=match.get_status_display(),
                event=None
                if event is None
                else EventRef(id=event.pk, name=event.name, date=event.date),
                placement=seat.placement,
                total=seat.total,
                table=len(others),
                opponents=tuple(
                    Opponent(player=other.player_id, name=other.player.display_name)
                    for other in others
                    if other.player_id != player.pk
                ),
            )
        )
    return found


@dataclass(frozen=True, slots=True)
class ForfeitVoid:
    """A void match that forfeits replaced: its slot went on without play (`walkover`), or the
    rest of its table played on at match `replay`. `forfeits`: each player who forfeited it,
    with the reason (`ForfeitReason`: no_show, withdrew, awarded)."""

    walkover: bool
    replay: int | None
    forfeits: Mapping[int, str]


def forfeit_voids(match_ids: Collection[int]) -> dict[int, ForfeitVoid]:
    """Those of the void matches `match_ids` that a forfeit replaced (a no-show, a withdrawal,
    a walkover awarded), by match id, so a list says "walkover" or "withdrew" and not "void".
    Three queries; none without ids. A match voided for another reason is not in the answer."""
    if not match_ids:
        return {}
    walkovers = dict(
        models.StageMatch.objects.filter(match_id__in=match_ids, walkover=True).values_list(
            "match_id", "pk"
        )
    )
    voids = {
        void.match_id: void
        for void in models.StageVoid.objects.filter(
            match_id__in=match_ids, outcome=models.VoidOutcome.WALKOVER
        ).only("match_id", "stage_match_id", "replay_id", "forfeits")
    }
    slots = set(walkovers.values()) | {void.stage_match_id for void in voids.values()}
    reasons: dict[int, dict[int, str]] = defaultdict(dict)
    for stage_match_id, player, reason in models.StageForfeit.objects.filter(
        stage_match_id__in=slots
    ).values_list("stage_match_id", "player_id", "reason"):
        reasons[stage_match_id][player] = reason
    found = {}
    for match_id in match_ids:
        if (void := voids.get(match_id)) is not None:
            forfeited = set(void.forfeits or [])
            found[match_id] = ForfeitVoid(
                walkover=void.replay_id is None,
                replay=void.replay_id,
                forfeits={
                    player: reason
                    for player, reason in reasons[void.stage_match_id].items()
                    if player in forfeited
                },
            )
        elif match_id in walkovers:
            found[match_id] = ForfeitVoid(
                walkover=True, replay=None, forfeits=reasons[walkovers[match_id]]
            )
    return found


def player_placement_counts(player: models.Player) -> dict[int, int]:
    """How many finished matches the player finished in each place (1 first), in one query."""
    counts = (
        Seat.objects.filter(player=player, match__status=MatchStatus.FINISHED)
        .exclude(placement=None)
        .values_list("placement")
        .annotate(count=Count("pk"))
        .values_list("placement", "count")
        .order_by("placement")
    )
    return {place: count for place, count in counts if place is not None}


@dataclass(frozen=True, slots=True)
class StageFinish:
    """Where a player finished a stage (`shared` with others of their tier)."""

    stage: str
    event: int
    event_name: str
    league_name: str
    place: int
    shared: bool


def player_stage_finishes(player: models.Player) -> list[StageFinish]:
    """Where the player finished in every finished stage they entered (competition ranking:
    players sharing a tier share the place), newest event first, in one query."""
    finishes = []
    for stage in (
        models.Stage.objects.filter(entries__player=player, status=models.StageStatus.FINISHED)
        .select_related("event__league")
        .order_by("-event__date", "-pk")
    ):
        place = 1
        for tier in stage.ranking or []:
            if player.pk in tier:
                finishes.append(
                    StageFinish(
                        stage=stage.name,
                        event=stage.event_id,
                        event_name=stage.event.name,
                        league_name=stage.event.league.name,
                        place=place,
                        shared=len(tier) > 1,
                    )
                )
                break
            place += len(tier)
    return finishes


@dataclass(frozen=True, slots=True)
class LeagueRating:
    """A player's current rating in one league."""

    league: str
    league_name: str
    mu: float
    sigma: float
    ordinal: float
    matches: int


def player_ratings(player: models.Player) -> list[LeagueRating]:
    """The player's current rating in every league they are rated in, in one query."""
    return [
        LeagueRating(
            league=item.league.slug,
            league_name=item.league.name,
            mu=item.mu,
            sigma=item.sigma,
            ordinal=item.ordinal,
            matches=item.matches,
        )
        for item in models.PlayerRating.objects.filter(player=player)
        .select_related("league")
        .order_by("league")
    ]


# The most matches a calendar feed lists (the latest planned ones).
CALENDAR_MATCHES = 500


def calendar_matches(
    *, event: models.Event | None = None, player: models.Player | None = None
) -> list[Match]:
    """The matches with a planned start of an event, or of a player (in any league), for their
    calendar feed: the latest `CALENDAR_MATCHES` planned, in order of their start, each with
    its event, stage slot and stage, and its seats with their players. Two queries."""
    found = Match.objects.filter(planned_at__isnull=False)
    if event is not None:
        found = found.filter(event=event)
    if player is not None:
        found = found.filter(seats__player=player)
    latest = list(
        found.select_related("event", "stage_match__stage")
        .defer("state", "rules", "score_key")
        .prefetch_related(
            Prefetch("seats", queryset=Seat.objects.select_related("player").order_by("order"))
        )
        .order_by("-planned_at", "-pk")[:CALENDAR_MATCHES]
    )
    return latest[::-1]
