"""Plain values as the selectors read them, for the presenters' tests (no database)."""

from datetime import UTC, datetime
from typing import Any

from games.models import MatchStatus
from league.selectors import Forfeit, MatchResult, SeatResult, StagePlay

FINISHED_AT = datetime(2026, 5, 2, 19, 30, tzinfo=UTC)


def match(
    match_id: int, *seats: tuple[int, int | None, int | None], status: str = MatchStatus.FINISHED
) -> MatchResult:
    """A match whose seats are (player, total, placement), named "P<player>"."""
    return MatchResult(
        id=match_id,
        status=status,
        status_text=MatchStatus(status).label,
        seats=tuple(
            SeatResult(player=p, name=f"P{p}", total=total, placement=place)
            for p, total, place in seats
        ),
        turns_played=26 if status == MatchStatus.FINISHED else 0,
        finished_at=FINISHED_AT if status == MatchStatus.FINISHED else None,
    )


def play(
    stage_match: int,
    *,
    result: MatchResult | None = None,
    round_: int = 1,
    forfeits: dict[int, str] | None = None,
    **where: Any,
) -> StagePlay:
    """Stage match `stage_match` of round `round_`, in group 1 with no bracket slot, walkover
    or finishing order unless `where` gives them (group, slot, walkover, order, by name)."""
    return StagePlay(
        stage_match=stage_match,
        round=round_,
        forfeits=tuple(Forfeit(player=p, reason=r) for p, r in (forfeits or {}).items()),
        match=result,
        **{"group": 1, "slot": None, "walkover": False, "order": None, **where},
    )
