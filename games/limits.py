"""How many turns a match takes at most (docs/rules.md, "How long a game can be").

Yardzee ends by its rules after 13 rounds. Yardkle ends when someone reaches the target and
the others have had one more turn, which a game need never do: a Yardkle (a throw that scores
nothing) ends a turn with nothing banked, and a turn may bank as little as 50 once a player is
on the board. Without a bound one match could hold any number of turns, and every write that
replays a match (an import, a correction of an early turn) would cost as much. So a Yardkle
match takes at most YARDKLE_ROUNDS rounds (a round: one turn of each player) at the standard
target, and proportionally more for a higher one: a game that long is not a game (the players
would have banked less than 100 points a turn on average; real games take 15 to 40 rounds),
and its next turn is refused (`turn_limit`, 422), with nothing stored."""

from collections.abc import Mapping
from typing import Any

from scoring.yardzee import ROUNDS as YARDZEE_ROUNDS

YARDKLE_ROUNDS = 100
# The points of the target per allowed round: 10,000 -> 100 rounds, 50,000 -> 500.
YARDKLE_POINTS_PER_ROUND = 100


def yardkle_rounds(target: int) -> int:
    """The rounds a Yardkle match to `target` takes at most."""
    return max(YARDKLE_ROUNDS, -(-target // YARDKLE_POINTS_PER_ROUND))


def turn_limit(game: str, players: int, rules: Mapping[str, Any]) -> int:
    """The turns a match of `game` with `players` seats under `rules` takes at most."""
    if game == "yardkle":
        return players * yardkle_rounds(int(rules.get("target", 10_000)))
    return players * YARDZEE_ROUNDS
