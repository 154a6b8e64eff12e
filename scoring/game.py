"""What every game of the rulebook offers the layers above: the `Game` protocol, placements.

`games/` keeps one game per match and only talks to it through these members, so a new dice
game is a new module with a class that satisfies `Game`, registered in `scoring.GAMES`.
"""

from collections.abc import Sequence
from typing import Any, ClassVar, Protocol, Self

from scoring.errors import RuleViolation
from scoring.json_input import brief

JsonObject = dict[str, Any]
"""A JSON object as Python sees it: only dicts, lists, str, int, bool and None inside."""


class Ruleset(Protocol):
    """A game's rule options, stored as JSON with every match (RULES.md, "Ruleset options")."""

    def to_json(self) -> JsonObject: ...


class TurnResult(Protocol):
    """What one applied turn did: whose it was and the points it put on the scorecard."""

    @property
    def seat(self) -> int: ...

    @property
    def points(self) -> int: ...


class Game(Protocol):
    """One game at one table: seats 0..players-1 take turns given as JSON dicts."""

    name: ClassVar[str]

    @property
    def players(self) -> int: ...

    @property
    def rules(self) -> Ruleset: ...

    @property
    def current_player(self) -> int | None: ...

    @property
    def round(self) -> int: ...

    @property
    def is_over(self) -> bool: ...

    def play(self, turn: object) -> TurnResult: ...

    def total(self, seat: int) -> int: ...

    def placements(self) -> list[int]: ...

    def board(self, players: Sequence[int]) -> JsonObject:
        """The game's own part of a match's board (scorecards, scores), each seat naming the
        id `players[seat]`."""
        ...

    def preview(self, partial: object) -> JsonObject:
        """What the rules make of a turn still being entered (RuleViolation if invalid)."""
        ...

    def to_json(self) -> JsonObject: ...

    @classmethod
    def from_json(cls, state: object) -> Self: ...

    @classmethod
    def create(cls, players: object, rules_json: object) -> Self: ...


def placements(totals: Sequence[int]) -> list[int]:
    """1-based place per seat; equal totals share the better place, and the next place is
    skipped (two players on 250 are both 1st, the next is 3rd). RULES.md, "Game" and "End"."""
    return [1 + sum(other > total for other in totals) for total in totals]


def check_player_count(players: object, *, minimum: int, maximum: int, game: str) -> int:
    """The number of players a game allows (RULES.md, "Game")."""
    if type(players) is not int or not minimum <= players <= maximum:
        raise RuleViolation(
            "player_count",
            f"{game} is played by {minimum} to {maximum} players, not {brief(players)}.",
            details={"min": minimum, "max": maximum},
        )
    return players


def check_seat(seat: object, players: int) -> int:
    """A seat index 0..players-1."""
    if type(seat) is not int or not 0 <= seat < players:
        raise RuleViolation(
            "unknown_seat",
            f"There is no seat {brief(seat)}; seats are 0 to {players - 1}.",
            details={"players": players},
        )
    return seat


def game_over() -> RuleViolation:
    """The error for a turn played after the end (RULES.md, "Game" / "End")."""
    return RuleViolation("game_over", "The game is over; no more turns can be played.")


def invalid_state(field: str, why: str) -> RuleViolation:
    """The error for a stored game state that no legal game could have reached."""
    return RuleViolation(
        "invalid_state",
        f"The stored game state is invalid: {field} {why}.",
        details={"field": field},
    )
