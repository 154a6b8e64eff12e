"""Reads of matches worth a name: a match with everything its page or API answer shows."""

from collections.abc import Sequence
from typing import Any, TypeVar

from django.db.models import Prefetch, QuerySet, prefetch_related_objects

from games import gates
from games.errors import EventClosed, MatchClosed
from games.models import Match, MatchStatus, Seat, Turn, TurnCorrection
from scoring import RuleViolation
from scoring.game import Game

_Turns = TypeVar("_Turns", bound=Sequence[Turn])

# A match's answer and page carry at most this many of its latest turns; the rest are read a
# page at a time (GET matches/{id}/turns/, the page's "Earlier turns"), so a match with very
# many turns never makes one huge answer.
LATEST_TURNS = 100


def match_detail_queryset() -> QuerySet[Match]:
    """Matches with their seats, players and latest turns (`latest_turns`, newest first, at
    most LATEST_TURNS): a constant number of queries however many turns were played."""
    return Match.objects.select_related("event", "league").prefetch_related(
        Prefetch("seats", queryset=Seat.objects.select_related("player").order_by("order")),
        Prefetch(
            "turns",
            queryset=Turn.objects.select_related("seat", "corrected_by").order_by("-sequence")[
                :LATEST_TURNS
            ],
            to_attr="latest_turns",
        ),
    )


def played_at_table(match: Match) -> Match:
    """The match played now at `match`'s table: itself, unless it was voided and another
    seated in its place that is not void itself (then the newest such). One query at most."""
    newer = replaced_by(match)
    return newer if newer is not None and newer.status != MatchStatus.VOID else match


def replaced_by(match: Match) -> Match | None:
    """For a void match, the newest match seated in its place at its table, if any."""
    if match.status != MatchStatus.VOID:
        return None
    return (
        Match.objects.select_related("event__league")
        .filter(origin_id=match.table_id, pk__gt=match.pk)
        .order_by("-pk")
        .first()
    )


def turns_newest_first(match: Match) -> QuerySet[Turn]:
    """Every turn of the match with its seat and who corrected it, newest first, to be read a
    page at a time."""
    return match.turns.select_related("seat", "corrected_by").order_by("-sequence")


def with_corrections(turns: _Turns) -> _Turns:
    """`turns`, with the versions corrections replaced read for those that were corrected
    (`turn.corrections.all()`, oldest first, with who corrected each): one query, none when
    no turn was corrected."""
    corrected = [turn for turn in turns if turn.corrected_at is not None]
    prefetch_related_objects(
        corrected,
        Prefetch("corrections", queryset=TurnCorrection.objects.select_related("corrected_by")),
    )
    return turns


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
    board.update(game.board([seat.player_id for seat in seats]))
    return board


def turn_preview(match: Match, partial: object) -> dict[str, Any]:
    """What the rules make of a turn still being entered, for the scorekeeping page, without
    storing anything. Yardzee `{"dice": [5 dice]}`: every open box of the current player with
    the points it would score (joker rules included; None where the joker forbids it) and the
    Yardzee bonus. Yardkle `{"throws": [...], "dice": [current throw]}`: the turn so far (total,
    dice to throw, hot dice, Yardkle, whether banking is allowed) and, for `dice`, every legal
    set-aside with its points. Invalid input raises RuleViolation."""
    if not match.is_open:
        raise MatchClosed(
            f"Match {match.pk} is {match.get_status_display().lower()}.",
            details={"status": match.status},
        )
    if closed_as := gates.event_closed_as(match.event_id):  # no turn can follow (409)
        raise EventClosed.of(match.event_id or 0, closed_as)
    if not isinstance(partial, dict):
        raise RuleViolation("wrong_type", "A preview request is a JSON object.")
    return match.scoring_game().preview(partial)
