"""What a player's page shows: their matches, the void matches forfeits replaced, their places,
stage finishes and ratings."""

from collections import defaultdict
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from datetime import date

from django.db.models import Count, Prefetch

from games.models import MatchStatus, Seat
from league import models


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
