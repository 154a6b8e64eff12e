"""Reads of the organization worth a name."""

from collections import defaultdict
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.db.models import Count, Prefetch, Q, QuerySet

from games.models import Match, MatchStatus, Seat
from league import rating
from league.models import (
    Event,
    League,
    Player,
    PlayerRating,
    RatingChange,
    RatingsState,
    Stage,
    StageEntry,
    StageForfeit,
    StageMatch,
    StageStatus,
    StageVoid,
    StandingsTable,
    VoidOutcome,
)


def leagues_with_events() -> QuerySet[League]:
    """Every league with its events, newest first, in two queries."""
    return League.objects.prefetch_related("events")


def stage_matches(stage: Stage) -> list[StageMatch]:
    """A stage's matches with their seats and players, and the forfeits at each, in four
    queries."""
    return list(
        StageMatch.objects.filter(stage=stage)
        .select_related("match")
        .prefetch_related(
            Prefetch("match__seats", queryset=Seat.objects.select_related("player")),
            Prefetch("forfeits", queryset=StageForfeit.objects.order_by("created_at", "pk")),
        )
        .order_by("round", "slot", "pk")
    )


def _match_summary(stage_match: StageMatch) -> dict[str, Any]:
    match = stage_match.match
    return {
        "stage_match": stage_match.pk,
        "round": stage_match.round,
        "group": stage_match.group,
        "slot": stage_match.slot or None,
        "walkover": stage_match.walkover,
        "order": stage_match.order,
        "forfeits": [
            {"player": forfeit.player_id, "reason": forfeit.reason}
            for forfeit in stage_match.forfeits.all()
        ],
        "match": None
        if match is None
        else {
            "id": match.pk,
            "status": match.status,
            "seats": [
                {
                    "player": seat.player_id,
                    "name": seat.player.display_name,
                    "total": seat.total,
                    "placement": seat.placement,
                }
                for seat in sorted(match.seats.all(), key=lambda s: s.order)
            ],
        },
    }


def stage_detail(stage: Stage) -> dict[str, Any]:
    """Everything a page needs to show a stage: its rounds (round robin, Swiss) or its
    bracket's slots with their links, seats and results (elimination), and byes."""
    summaries = [_match_summary(sm) for sm in stage_matches(stage)]
    by_slot = {summary["slot"]: summary for summary in summaries if summary["slot"]}
    detail: dict[str, Any] = {
        "rounds": [],
        "bracket": None,
        "byes": [
            {"round": round_, "player": player}
            for round_, player in stage.byes.values_list("round", "player_id")
        ],
    }
    if stage.bracket:
        detail["bracket"] = {
            "format": stage.bracket["format"],
            "slots": [
                {**slot, "byes": slot["size"] - len(slot["sources"]), **_slot_play(by_slot, slot)}
                for slot in stage.bracket["slots"]
            ],
        }
    else:
        rounds: dict[int, list[dict[str, Any]]] = {}
        for summary in summaries:
            rounds.setdefault(summary["round"], []).append(summary)
        detail["rounds"] = [
            {"number": number, "matches": matches} for number, matches in sorted(rounds.items())
        ]
    return detail


def _slot_play(by_slot: dict[str, dict[str, Any]], slot: dict[str, Any]) -> dict[str, Any]:
    summary = by_slot.get(slot["key"])
    return {"play": summary}


def standings_answer(table: StandingsTable, *, group: int | None = None) -> dict[str, Any]:
    """A stored standings table as the API and pages show it; with `group`, only the rows of
    that group (a stage played in groups ranks each group on its own)."""
    rows = table.rows
    if group is not None:
        rows = [row for row in rows if row.get("group") == group]
    return {
        "scope": table.scope,
        "scope_id": table.scope_id,
        "group": group,
        "tiebreak": table.tiebreak,
        "computed_at": table.computed_at,
        "pending": table.pending,
        "rows": rows,
    }


def leaderboard(league: League) -> dict[str, Any]:
    """A league's ratings leaderboard by ordinal (equal ordinals share the rank), with when
    it was computed and whether newer results are pending."""
    ratings = list(
        PlayerRating.objects.filter(league=league)
        .select_related("player")
        .order_by("-ordinal", "player_id")
    )
    state = RatingsState.objects.filter(league=league).first()
    stored = {item.player_id: item for item in ratings}
    # Ranked by the one leaderboard rule (league.rating.leaderboard: equal ordinals share).
    entries = rating.leaderboard(
        {player: rating.Rating(mu=item.mu, sigma=item.sigma) for player, item in stored.items()}
    )
    rows = [
        {
            "rank": entry.rank,
            "player": entry.player,
            "name": stored[entry.player].player.display_name,
            "mu": entry.mu,
            "sigma": entry.sigma,
            "ordinal": entry.ordinal,
            "matches": stored[entry.player].matches,
        }
        for entry in entries
    ]
    return {
        "league": league.slug,
        "computed_at": state.computed_at if state else None,
        "pending": state.pending if state else False,
        "rows": rows,
    }


def rating_history(player: Player) -> list[dict[str, Any]]:
    """A player's rating after each of their rated matches, oldest first, in every league."""
    return [
        {
            "league": slug,
            "match": match_id,
            "finished_at": finished_at,
            "mu": mu,
            "sigma": sigma,
            "ordinal": ordinal,
        }
        for slug, match_id, finished_at, mu, sigma, ordinal in RatingChange.objects.filter(
            player=player
        )
        .order_by("finished_at", "match_id")
        .values_list("league__slug", "match_id", "finished_at", "mu", "sigma", "ordinal")
    ]


# --- Reads of the public pages (league/views.py) --------------------------------------------


def event_stages(event: Event) -> list[Stage]:
    """An event's stages in their order, in one query."""
    return list(Stage.objects.filter(event=event).order_by("position", "pk"))


def stage_entries(stage_ids: Sequence[int]) -> dict[int, list[StageEntry]]:
    """The entries of several stages with their players, by stage and seed, in one query."""
    entries: dict[int, list[StageEntry]] = {stage_id: [] for stage_id in stage_ids}
    for entry in (
        StageEntry.objects.filter(stage_id__in=stage_ids)
        .select_related("player")
        .order_by("stage_id", "seed")
    ):
        entries[entry.stage_id].append(entry)
    return entries


def _loose_matches(event: Event) -> QuerySet[Match]:
    """The event's matches of no stage: neither a stage's match now, nor one a stage replaced
    when it was voided (a forfeit, a replay: `StageVoid`)."""
    return Match.objects.filter(event=event, stage_match__isnull=True, stage_void__isnull=True)


def _latest_loose_matches(event: Event) -> QuerySet[Match]:
    """Newest first, read in that order through the index `match_event_newest`."""
    return _loose_matches(event).order_by("-created_at", "-pk")


def event_loose_matches(event: Event, *, limit: int) -> list[Match]:
    """An event's latest `limit` matches that belong to no stage (the casual tables of a
    league night), newest first, with their seats and players, in two queries."""
    return list(
        _latest_loose_matches(event)
        .defer("state", "rules")  # a line of the list shows neither
        .prefetch_related(
            Prefetch("seats", queryset=Seat.objects.select_related("player").order_by("order"))
        )[:limit]
    )


def event_loose_match_versions(event: Event, *, limit: int) -> list[Match]:
    """The same matches as `event_loose_matches`, with only what tells whether a line of the
    list changed (id, status, turns played, finished at): one query, no seats."""
    return list(
        _latest_loose_matches(event).only("pk", "status", "turns_played", "finished_at")[:limit]
    )


def event_loose_match_counts(event: Event) -> dict[str, int]:
    """How many matches outside any stage the event has (`all`), and how many of them are
    still to be played or being played (`open`), in one query."""
    return _loose_matches(event).aggregate(
        all=Count("pk"),
        open=Count("pk", filter=Q(status__in=[MatchStatus.SCHEDULED, MatchStatus.IN_PROGRESS])),
    )


def stored_standings(
    scopes: Iterable[tuple[str, int]], *, rows: bool = True
) -> dict[tuple[str, int], StandingsTable]:
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
    tables = StandingsTable.objects.filter(condition, computed_at__isnull=False)
    if not rows:
        tables = tables.defer("rows")
    return {(table.scope, table.scope_id): table for table in tables}


def ratings_state(league: League) -> RatingsState | None:
    """Whether the league's ratings are current, and which computation they come from."""
    return RatingsState.objects.filter(league=league).first()


def player_seats(player: Player, limit: int = 50) -> list[Seat]:
    """A player's latest `limit` matches (newest first) with their event, league and every
    seat of each, in three queries."""
    return list(
        Seat.objects.filter(player=player)
        .select_related("match__event__league")
        .prefetch_related(
            Prefetch(
                "match__seats", queryset=Seat.objects.select_related("player").order_by("order")
            )
        )
        .order_by("-match__created_at", "-match_id")[:limit]
    )


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
        StageMatch.objects.filter(match_id__in=match_ids, walkover=True).values_list(
            "match_id", "pk"
        )
    )
    voids = {
        void.match_id: void
        for void in StageVoid.objects.filter(
            match_id__in=match_ids, outcome=VoidOutcome.WALKOVER
        ).only("match_id", "stage_match_id", "replay_id", "forfeits")
    }
    slots = set(walkovers.values()) | {void.stage_match_id for void in voids.values()}
    reasons: dict[int, dict[int, str]] = defaultdict(dict)
    for stage_match_id, player, reason in StageForfeit.objects.filter(
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


def player_placement_counts(player: Player) -> dict[int, int]:
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


def player_stage_finishes(player: Player) -> list[dict[str, Any]]:
    """Where the player finished in every finished stage they entered (competition ranking:
    players sharing a tier share the place), newest event first, in one query."""
    finishes = []
    for stage in (
        Stage.objects.filter(entries__player=player, status=StageStatus.FINISHED)
        .select_related("event__league")
        .order_by("-event__date", "-pk")
    ):
        place = 1
        for tier in stage.ranking or []:
            if player.pk in tier:
                finishes.append({"stage": stage, "place": place, "shared": len(tier) > 1})
                break
            place += len(tier)
    return finishes


def player_ratings(player: Player) -> list[PlayerRating]:
    """The player's current rating in every league they are rated in, in one query."""
    return list(
        PlayerRating.objects.filter(player=player).select_related("league").order_by("league")
    )
