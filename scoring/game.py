"""What every game of the rulebook offers the layers above: the `Game` protocol, placements.

`games/` keeps one game per match and only talks to it through these members, so a new dice
game is a new module with a class that satisfies `Game`, registered in `scoring.GAMES`.
"""

from collections.abc import Sequence
from typing import Any, ClassVar, Generic, Protocol, Self, TypeVar

from scoring.errors import RuleViolation
from scoring.json_input import brief, read_list, read_object, read_options

JsonObject = dict[str, Any]
"""A JSON object as Python sees it: only dicts, lists, str, int, bool and None inside."""


class Ruleset(Protocol):
    """A game's rule options, stored as JSON with every match (RULES.md, "Ruleset options")."""

    def to_json(self) -> JsonObject: ...


class RulesFromJson:
    """A ruleset (a frozen dataclass) read from its JSON: its `OPTIONS` are its fields."""

    __slots__ = ()

    OPTIONS: ClassVar[frozenset[str]]

    @classmethod
    def from_json(cls, value: object) -> Self:
        """A ruleset from JSON, strictly: unknown options and bad values are rule errors;
        `{}` is the default ruleset."""
        return cls(**read_options(value, allowed=cls.OPTIONS))


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

    def seat_counts(self, seat: int, turns: Sequence[object]) -> JsonObject:
        """What standings count of a seat's finished game beside its total, keyed as the
        match's seat keeps them (docs/standings.md): Yardzee `yardzees` and `upper_bonus`,
        Yardkle `yardkles`. `turns` are the seat's stored turns (the turn JSON), for facts
        the state does not keep."""
        ...

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
    turns played, and whose turn it is (seat order, RULES.md "Game"). A game gives its
    `title`, player limits and state version as class keywords, and says how it reads its
    ruleset (`read_rules`) and when it `is_over`."""

    __slots__ = ("_players", "_rules", "_turns_played")

    name: ClassVar[str]
    title: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    # The version of the stored state (`to_json`) this code reads and writes.
    state_version: ClassVar[int]
    # The stored state's keys, and the one of them whose list has an entry per seat.
    state_keys: ClassVar[frozenset[str]]
    seats_key: ClassVar[str]

    def __init_subclass__(
        cls,
        *,
        title: str,
        players: tuple[int, int],
        state_version: int,
        state_keys: frozenset[str],
        seats_key: str,
        **kwargs: Any,
    ) -> None:
        """A game declares its facts where it is declared: `class YardzeeGame(SeatedGame[...],
        title="Yardzee", players=(2, 5), state_version=1, state_keys=..., seats_key=...)`; its
        `name` is the title in lower case (what a match stores)."""
        super().__init_subclass__(**kwargs)
        cls.name = title.lower()
        cls.title = title
        cls.min_players, cls.max_players = players
        cls.state_version = state_version
        cls.state_keys = state_keys
        cls.seats_key = seats_key

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

    def _state_head(self) -> JsonObject:
        """What every stored state starts with: its game, its version and its ruleset."""
        return {"game": self.name, "version": self.state_version, "rules": self._rules.to_json()}

    @classmethod
    def _read_state(cls, state: object, *, keys: frozenset[str]) -> tuple[JsonObject, R]:
        """A stored state's fields (exactly `keys`) and its ruleset, once the checks every
        game makes pass: the state is this game's, of this version, and its ruleset names
        every option (a later change of defaults must not change it). `invalid_state`, or the
        code of the malformed part, otherwise."""
        fields = read_object(state, field="state", required=keys, allowed=keys)
        if fields["game"] != cls.name:
            raise invalid_state("state.game", f"is not {cls.name!r}")
        if type(fields["version"]) is not int or fields["version"] != cls.state_version:
            raise invalid_state("state.version", f"is not {cls.state_version}")
        rules = cls.read_rules(fields["rules"])
        if rules.to_json() != fields["rules"]:
            raise invalid_state("state.rules", "does not name every rule option")
        return fields, rules

    @classmethod
    def from_json(cls, state: object) -> Self:
        """A game from `to_json()` output, checked strictly: a state no legal game could reach
        is a `RuleViolation` (`invalid_state`, or the code of the malformed part). A seat per
        entry of the list at `seats_key`; the game checks and takes the rest (`_restore`)."""
        fields, rules = cls._read_state(state, keys=cls.state_keys)
        seats = read_list(fields[cls.seats_key], field=f"state.{cls.seats_key}")
        game = cls(players=len(seats), rules=rules)
        game._restore(fields, seats)
        return game

    def _restore(self, fields: JsonObject, seats: Sequence[Any]) -> None:
        """Check a stored state's `fields` against this game's seats and ruleset, and take
        them; `seats` is the list at `seats_key`."""
        raise NotImplementedError

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

    def total(self, seat: int) -> int:
        """A player's total so far (Yardzee's grand total, Yardkle's score)."""
        raise NotImplementedError

    def placements(self) -> list[int]:
        """1-based place per seat by total; equal totals share the better place (RULES.md,
        "Game", "End"). Final once `is_over`; before that, the standing so far."""
        return placements([self.total(seat) for seat in range(self._players)])

    @property
    def current_player(self) -> int | None:
        """The seat whose turn it is (seat order, RULES.md "Game"); None once the game is over."""
        return None if self.is_over else self._turns_played % self._players

    @property
    def turns_played(self) -> int:
        """How many turns have been applied."""
        return self._turns_played
