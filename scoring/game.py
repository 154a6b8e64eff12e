"""What every game of the rulebook offers the layers above: the `Game` protocol, placements.

`games/` keeps one game per match and only talks to it through these members, so a new dice
game is a new module with a class that satisfies `Game`, registered in `scoring.GAMES`.
"""

from collections.abc import Sequence
from typing import Any, ClassVar, Generic, Protocol, Self, TypeVar

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


R = TypeVar("R", bound=Ruleset)


class SeatedGame(Generic[R]):
    """What every game of the rulebook keeps alike (a base class; `Game` is what the layers
    above see): its seats, checked against the game's player limits, its ruleset `R`, the
    turns played, and whose turn it is (seat order, RULES.md "Game"). A game says its `name`,
    `title`, limits and how it reads its ruleset (`read_rules`), and when it `is_over`."""

    __slots__ = ("_players", "_rules", "_turns_played")

    name: ClassVar[str]
    title: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]

    def __init__(self, players: int, rules: R | None = None) -> None:
        self._players = self._checked_players(players)
        self._rules = rules if rules is not None else self.read_rules({})
        self._turns_played = 0

    @classmethod
    def read_rules(cls, rules_json: object) -> R:
        """The game's ruleset from its JSON (`{}`: the default ruleset)."""
        raise NotImplementedError

    @classmethod
    def _checked_players(cls, players: object) -> int:
        return check_player_count(
            players, minimum=cls.min_players, maximum=cls.max_players, game=cls.title
        )

    @classmethod
    def create(cls, players: object, rules_json: object) -> Self:
        """A new game from a player count and a ruleset's JSON (as stored on a match)."""
        rules = cls.read_rules(rules_json)
        return cls(players=cls._checked_players(players), rules=rules)

    @property
    def players(self) -> int:
        """The number of seats."""
        return self._players

    @property
    def rules(self) -> R:
        """The ruleset this game is played by."""
        return self._rules

    @property
    def is_over(self) -> bool:
        raise NotImplementedError

    @property
    def current_player(self) -> int | None:
        """The seat whose turn it is (seat order, RULES.md "Game"); None once the game is over."""
        return None if self.is_over else self._turns_played % self._players

    @property
    def turns_played(self) -> int:
        """How many turns have been applied."""
        return self._turns_played
