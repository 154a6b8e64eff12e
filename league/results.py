"""Database rows -> the pure packages' plain results: the finished matches, byes and forfeits
of a scope as `league.standings` takes them."""

import logging
from collections import defaultdict
from collections.abc import Collection
from datetime import datetime

from django.db.models import QuerySet

from games.models import Match, MatchStatus, Seat
from league import standings
from league.models import Scope, ScopeKey, StageBye, StageForfeit

logger = logging.getLogger(__name__)

# --- Loading results --------------------------------------------------------------------------


def finished_matches(scope: ScopeKey) -> QuerySet[Match]:
    """The finished matches that count in a scope's table."""
    return Match.objects.filter(Scope(*scope).matches(), status=MatchStatus.FINISHED)


def load_results(
    scope: ScopeKey,
    *,
    since: datetime | None = None,
    with_times: bool = True,
    match_ids: Collection[int] | None = None,
) -> tuple[list[standings.MatchResult], list[standings.Bye]]:
    """The finished results and byes that count in `scope`, in a constant number of queries:
    finished matches with their seats, forfeits (a walkover becomes a result of its own, and a
    player who forfeited a table that played on is added to it as last), and byes.
    `with_times=False` leaves out when each finished: ratings need it, standings do not, and
    reading 20,000 timestamps costs a third of a second. `since` and `match_ids` narrow the
    finished matches (walkovers and byes are always all of them: there are few)."""
    matches = finished_matches(scope)
    if since is not None:
        matches = matches.filter(finished_at__gte=since)
    if match_ids is not None:
        matches = matches.filter(pk__in=list(match_ids))
    info: dict[int, tuple[datetime | None, int | None]]
    if with_times:
        info = {
            pk: (finished_at, round_)
            for pk, finished_at, round_ in matches.values_list(
                "pk", "finished_at", "stage_match__round"
            )
        }
    else:
        info = {
            pk: (None, round_) for pk, round_ in matches.values_list("pk", "stage_match__round")
        }
    seats: dict[int, list[standings.SeatResult]] = defaultdict(list)
    for match_id, player, placement, total, yardzees, upper_bonus, yardkles in (
        Seat.objects.filter(match__in=matches)
        .order_by("match_id", "order")
        .values_list(
            "match_id", "player_id", "placement", "total", "yardzees", "upper_bonus", "yardkles"
        )
    ):
        seats[match_id].append(
            standings.SeatResult(
                player=player,
                placement=placement or 1,
                score=total or 0,
                yardzees=yardzees or 0,
                upper_bonus=int(bool(upper_bonus)),
                yardkles=yardkles or 0,
            )
        )
    walkovers: dict[int, tuple[list[int], set[int], int, int, datetime]] = {}
    for (
        stage_match_id,
        match_id,
        walkover,
        order,
        round_,
        player,
        created_at,
    ) in StageForfeit.objects.filter(Scope(*scope).stage_rows("stage_match__")).values_list(
        "stage_match_id",
        "stage_match__match_id",
        "stage_match__walkover",
        "stage_match__order",
        "stage_match__round",
        "player_id",
        "created_at",
    ):
        if walkover:
            entry = walkovers.setdefault(
                stage_match_id, (list(order or []), set(), round_, stage_match_id, created_at)
            )
            entry[1].add(player)
        elif match_id in seats:
            seats[match_id].append(
                standings.SeatResult(
                    player=player, placement=len(seats[match_id]) + 1, score=None, forfeited=True
                )
            )
    results = [
        standings.MatchResult(
            match_id=pk, seats=tuple(seats[pk]), round=info[pk][1], finished_at=info[pk][0]
        )
        for pk in info
        if len(seats[pk]) >= 2
    ]
    for order, forfeited, round_, stage_match_id, created_at in walkovers.values():
        if len(order) >= 2:
            results.append(
                standings.MatchResult(
                    # Walkovers have no game row; negative ids keep them apart from matches.
                    match_id=-stage_match_id,
                    seats=tuple(
                        standings.SeatResult(
                            player=p, placement=place, score=None, forfeited=p in forfeited
                        )
                        for place, p in enumerate(order, start=1)
                    ),
                    round=round_,
                    finished_at=created_at,
                )
            )
    byes = [
        standings.Bye(player=player, round=round_, table_size=size, stage=stage_id)
        for stage_id, round_, player, size in StageBye.objects.filter(
            Scope(*scope).stage_rows("")
        ).values_list("stage_id", "round", "player_id", "stage__table_size")
    ]
    return results, byes
