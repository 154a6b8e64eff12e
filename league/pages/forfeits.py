"""What the pages say of a player who forfeited a stage match, instead of the "void" of the
match the forfeit replaced."""

from collections.abc import Mapping
from typing import Final

from league.models import ForfeitReason
from league.selectors import StagePlay

# By the forfeit's reason (`ForfeitReason`).
FORFEIT_TEXT: Final[Mapping[str, str]] = {
    ForfeitReason.NO_SHOW: "did not show",
    ForfeitReason.WITHDREW: "withdrew",
    ForfeitReason.AWARDED: "forfeited",
}


def forfeit_text(reason: str) -> str:
    return FORFEIT_TEXT.get(reason, "forfeited")


def forfeit_notes(play: StagePlay | None) -> dict[int, str]:
    """Each player who forfeited a stage match, with why."""
    if play is None:
        return {}
    return {forfeit.player: forfeit_text(forfeit.reason) for forfeit in play.forfeits}


def player_name(names: Mapping[int, str], player: int) -> str:
    """A player's name, or "Player 12" for one the page has no name of."""
    return names.get(player, f"Player {player}")
