"""A match read with its seats as a result, and what tells whether its line in a list changed."""

from dataclasses import dataclass
from datetime import datetime

from games.models import Match, Seat


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


@dataclass(frozen=True, slots=True)
class MatchVersion:
    """What tells whether a match's line in a list changed: its status and turns played, and
    when it finished (finished again after an undo is a new time)."""

    id: int
    status: str
    turns_played: int
    finished_at: datetime | None
    schedule_sequence: int = 0  # counts each change of its table or time
