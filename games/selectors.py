"""Reads of matches worth a name: a match with everything its page or API answer shows."""

from typing import Any

from django.db.models import Prefetch, QuerySet

from games.models import Match, Seat, Turn
from scoring.game import Game
from scoring.yardkle import YardkleGame
from scoring.yardzee import YardzeeGame


def match_detail_queryset() -> QuerySet[Match]:
    """Matches with their seats, players and turns: a constant number of queries however many
    turns were played."""
    return Match.objects.select_related("event").prefetch_related(
        Prefetch("seats", queryset=Seat.objects.select_related("player").order_by("order")),
        Prefetch("turns", queryset=Turn.objects.select_related("seat").order_by("sequence")),
    )


def match_board(match: Match, seats: list[Seat], game: Game | None = None) -> dict[str, Any]:
    """Whose turn it is, the round, and every player's scorecard (Yardzee) or score (Yardkle),
    computed by the rulebook from the stored state."""
    game = game or match.scoring_game()
    current = game.current_player
    board: dict[str, Any] = {
        "round": game.round,
        "current_player": seats[current].player_id if current is not None else None,
        "current_seat": current,
        "is_over": game.is_over,
    }
    if isinstance(game, YardzeeGame):
        board["scorecards"] = [
            {"seat": seat.order, "player": seat.player_id, **game.scorecard(seat.order).to_json()}
            for seat in seats
        ]
    elif isinstance(game, YardkleGame):
        by = game.final_round_by
        board["final_round"] = game.final_round
        board["final_round_by"] = seats[by].player_id if by is not None else None
        board["scores"] = [
            {
                "seat": seat.order,
                "player": seat.player_id,
                "total": game.total(seat.order),
                "on_board": game.on_board(seat.order),
            }
            for seat in seats
        ]
    return board
