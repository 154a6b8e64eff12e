"""The plain data of a draw: rounds of tables, bracket slots and their links, results and the
state a bracket is in. Frozen, typed, free of the database (docs/draw.md, "Data model")."""

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from league.draw.errors import DrawError

PlayerId = int
"""A participant, as the caller knows it (a player's primary key)."""

SourceKind = Literal["seed", "winner", "loser"]
BracketName = Literal["winners", "losers", "grand_final", "third_place"]
SlotStatus = Literal["waiting", "ready", "played", "bye", "skipped"]


@dataclass(frozen=True, slots=True)
class Table:
    """Players who sit down together for one match, best seed first."""

    players: tuple[PlayerId, ...]


@dataclass(frozen=True, slots=True)
class Round:
    """One round of a round robin or Swiss stage: its tables and the players with a bye.

    A bye counts as a win (first place at a table) in the standings."""

    number: int
    tables: tuple[Table, ...]
    byes: tuple[PlayerId, ...] = ()

    @property
    def players(self) -> tuple[PlayerId, ...]:
        """Everyone in the round: seated players, then byes."""
        return tuple(p for table in self.tables for p in table.players) + self.byes


@dataclass(frozen=True, slots=True)
class Source:
    """Who fills one seat of a slot: a seed of the stage, or whoever finished `rank` in an
    earlier slot (`winner` when that place advances there, `loser` when it drops down)."""

    kind: SourceKind
    seed: int | None = None
    slot: str | None = None
    rank: int | None = None

    @classmethod
    def from_seed(cls, seed: int) -> "Source":
        """The participant seeded `seed` (1 is the top seed)."""
        return cls(kind="seed", seed=seed)

    @classmethod
    def winner(cls, slot: str, rank: int = 1) -> "Source":
        """The player placed `rank` in `slot`, a place that advances."""
        return cls(kind="winner", slot=slot, rank=rank)

    @classmethod
    def loser(cls, slot: str, rank: int = 2) -> "Source":
        """The player placed `rank` in `slot`, a place that drops down (a pair's loser: 2)."""
        return cls(kind="loser", slot=slot, rank=rank)


@dataclass(frozen=True, slots=True)
class Exit:
    """Where the player placed `rank` in a slot sits next."""

    rank: int
    slot: str


@dataclass(frozen=True, slots=True)
class Slot:
    """One match of a bracket, known before anyone plays it.

    `sources` fill the seats in order; a round-1 slot has fewer sources than `size` when seats
    are byes. The top `advance` places go on (for the last slot of a bracket, 1: the title or
    the place it decides). `exits` say where each place goes next (none: the player's run ends
    here). `level` orders where runs end: a player whose run ends in a slot of a higher level
    ranks above one whose run ends lower. A slot with `reset_of` is a grand-final reset: played
    only when the player of the second seat of `reset_of` (the losers-bracket side) wins it.
    """

    key: str
    bracket: BracketName
    round: int
    index: int
    size: int
    advance: int
    sources: tuple[Source, ...]
    exits: tuple[Exit, ...] = ()
    level: int = 0
    reset_of: str | None = None

    @property
    def byes(self) -> int:
        """Seats left empty by the draw (a seed that does not exist)."""
        return self.size - len(self.sources)


@dataclass(frozen=True, slots=True)
class Bracket:
    """An elimination stage drawn in full: every slot in an order where feeders come first."""

    format: Literal["single_elimination", "double_elimination"]
    participants: tuple[PlayerId, ...]
    table_size: int
    advance: int
    slots: tuple[Slot, ...]

    def slot(self, key: str) -> Slot:
        """The slot with this key (`DrawError` `unknown_slot` when there is none)."""
        for slot in self.slots:
            if slot.key == key:
                return slot
        raise DrawError("unknown_slot", f"The bracket has no slot {key!r}.")

    def rounds(self, bracket: BracketName = "winners") -> tuple[tuple[Slot, ...], ...]:
        """The slots of one bracket grouped by round, top to bottom: columns of a drawing."""
        numbers = sorted({s.round for s in self.slots if s.bracket == bracket})
        return tuple(
            tuple(s for s in self.slots if s.bracket == bracket and s.round == number)
            for number in numbers
        )

    def to_json(self) -> dict[str, Any]:
        """The bracket as stored with its stage (plain JSON)."""
        return dataclasses.asdict(self)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> "Bracket":
        """A bracket as `to_json` stored it."""
        return cls(
            format=data["format"],
            participants=tuple(data["participants"]),
            table_size=data["table_size"],
            advance=data["advance"],
            slots=tuple(
                Slot(
                    **{
                        **slot,
                        "sources": tuple(Source(**source) for source in slot["sources"]),
                        "exits": tuple(Exit(**exit_) for exit_ in slot["exits"]),
                    }
                )
                for slot in data["slots"]
            ),
        )


@dataclass(frozen=True, slots=True)
class SlotResult:
    """What happened in a slot: each seated player's place (1 is best, equal places are ties)
    and the players who forfeited (they rank last there).

    A result with only forfeits decides the slot when no more players remain than advance
    (a walkover); otherwise the remaining players still play."""

    placements: Mapping[PlayerId, int] = field(default_factory=dict)
    forfeited: frozenset[PlayerId] = frozenset()


@dataclass(frozen=True, slots=True)
class SlotState:
    """Where a slot stands given the results so far.

    `seats` follow the slot's sources: a player, or None while unknown (or, once the feeders
    are decided, because that source produced nobody: a bye). `order` is the slot's finishing
    order once it is decided (`played` or `bye`), best first, ties already broken."""

    key: str
    status: SlotStatus
    seats: tuple[PlayerId | None, ...]
    order: tuple[PlayerId, ...] = ()

    @property
    def players(self) -> tuple[PlayerId, ...]:
        """The players known to sit here."""
        return tuple(p for p in self.seats if p is not None)

    @property
    def decided(self) -> bool:
        """Whether the slot needs nothing more: played, a bye, or a reset not needed."""
        return self.status in ("played", "bye", "skipped")

    def to_json(self) -> dict[str, Any]:
        """The slot's state as stored with its stage (`slot_states_to_json`)."""
        return {"status": self.status, "seats": list(self.seats), "order": list(self.order)}


def slot_states_to_json(state: "BracketState") -> dict[str, Any]:
    """Every slot's state, by key: what a stage stores beside its bracket each time the bracket
    advances, so that pages draw it without advancing it again."""
    return {key: slot.to_json() for key, slot in state.slots.items()}


def slot_states_from_json(data: Mapping[str, Any]) -> dict[str, SlotState]:
    """The slot states `slot_states_to_json` stored."""
    return {
        key: SlotState(
            key=key,
            status=value["status"],
            seats=tuple(value["seats"]),
            order=tuple(value["order"]),
        )
        for key, value in data.items()
    }


@dataclass(frozen=True, slots=True)
class BracketState:
    """A bracket given the results so far: every slot's state, which slots can be played now,
    which were decided by byes, and once all is decided the champion and final ranking (places
    best first; players sharing a place, such as both losing semi-finalists, share a tier)."""

    slots: Mapping[str, SlotState]
    ready: tuple[str, ...]
    byes: tuple[str, ...]
    finished: bool
    champion: PlayerId | None = None
    ranking: tuple[tuple[PlayerId, ...], ...] = ()
