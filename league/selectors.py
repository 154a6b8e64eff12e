"""Reads of the organization worth a name."""

from typing import Any

from django.db.models import Prefetch, QuerySet

from games.models import Seat
from league.models import (
    League,
    Player,
    PlayerRating,
    RatingChange,
    RatingsState,
    Stage,
    StageMatch,
    StandingsTable,
)


def leagues_with_events() -> QuerySet[League]:
    """Every league with its events, newest first, in two queries."""
    return League.objects.prefetch_related("events")


def stage_matches(stage: Stage) -> list[StageMatch]:
    """A stage's matches with their seats and players, in three queries."""
    return list(
        StageMatch.objects.filter(stage=stage)
        .select_related("match")
        .prefetch_related(Prefetch("match__seats", queryset=Seat.objects.select_related("player")))
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


def standings_answer(table: StandingsTable) -> dict[str, Any]:
    """A stored standings table as the API and pages show it."""
    return {
        "scope": table.scope,
        "scope_id": table.scope_id,
        "tiebreak": table.tiebreak,
        "computed_at": table.computed_at,
        "pending": table.pending,
        "rows": table.rows,
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
    rows: list[dict[str, Any]] = []
    for position, item in enumerate(ratings, start=1):
        tied = rows and rows[-1]["ordinal"] == item.ordinal
        rows.append(
            {
                "rank": rows[-1]["rank"] if tied else position,
                "player": item.player_id,
                "name": item.player.display_name,
                "mu": item.mu,
                "sigma": item.sigma,
                "ordinal": item.ordinal,
                "matches": item.matches,
            }
        )
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
