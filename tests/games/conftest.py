"""Fixtures of the games services' own tests: matches seated and played through the services
(no HTTP), a record of everything stored for a match (to show a refusal changed nothing), and
receivers of the match signals connected for one test."""

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from django.dispatch import Signal

from games import services, signals
from games.models import Match, SubmissionReceipt, TurnUndo
from league.models import Event, Player
from scoring.yardzee import CATEGORIES
from tests.playing import simulated_turns

# A whole Yardzee game of two seats, each turn one roll, with known results: seat 0 fills its
# boxes in scorecard order with the same poor dice and scores 30; seat 1 scores 499 (50 in the
# Yardzee box, two Yardzee bonuses as forced jokers in sixes and fives, the upper bonus on 95),
# so seat 1 places first although it plays second.
_POOR_DICE = [1, 2, 2, 4, 6]
_SEAT_1_CARD = [
    ("yardzee", [6, 6, 6, 6, 6]),
    ("sixes", [6, 6, 6, 6, 6]),
    ("fives", [5, 5, 5, 5, 5]),
    ("fours", [4, 4, 4, 4, 1]),
    ("threes", [3, 3, 3, 3, 1]),
    ("twos", [2, 2, 2, 2, 1]),
    ("aces", [1, 1, 1, 1, 2]),
    ("three_of_a_kind", [1, 1, 1, 2, 3]),
    ("four_of_a_kind", [1, 1, 1, 1, 3]),
    ("full_house", [2, 2, 3, 3, 3]),
    ("small_straight", [1, 2, 3, 4, 6]),
    ("large_straight", [1, 2, 3, 4, 5]),
    ("chance", [1, 1, 2, 2, 3]),
]
SCRIPTED_YARDZEE: list[dict[str, Any]] = [
    turn
    for seat_0_box, (seat_1_box, dice) in zip(CATEGORIES, _SEAT_1_CARD, strict=True)
    for turn in (
        {"rolls": [{"dice": _POOR_DICE}], "category": seat_0_box},
        {"rolls": [{"dice": dice}], "category": seat_1_box},
    )
]
# What the seats of SCRIPTED_YARDZEE hold once it is over (seat order):
# (total, placement, yardzees, upper_bonus, yardkles).
SCRIPTED_YARDZEE_SEATS = [(30, 2, 0, False, None), (499, 1, 3, True, None)]

# A short Yardkle game (`YARDKLE_RULES`, simulator seed YARDKLE_SEED): 9 turns; seat 0 banks
# 1,400 with two Yardkles, seat 1 reaches 3,400 with one and places first.
YARDKLE_RULES = {"target": 3000}
YARDKLE_SEED = 1
YARDKLE_SEATS = [(1400, 2, None, None, 2), (3400, 1, None, None, 1)]

SEAT_RESULT_FIELDS = ("total", "placement", "yardzees", "upper_bonus", "yardkles")


@dataclass(frozen=True)
class WholeGame:
    """A game the tests play a match to its end with: the fixture that seats the match (`zee`
    or `kle`), the game's turns for that match, and what its seats hold once it is over."""

    fixture: str
    turns: Callable[[Match], list[dict[str, Any]]]
    seats: list[tuple[Any, ...]]


WHOLE_YARDZEE = WholeGame("zee", lambda match: SCRIPTED_YARDZEE, SCRIPTED_YARDZEE_SEATS)
WHOLE_YARDKLE = WholeGame(
    "kle", lambda match: simulated_turns(match, seed=YARDKLE_SEED), YARDKLE_SEATS
)
# For `pytest.mark.parametrize("whole", WHOLE_GAMES)`: each game's test once.
WHOLE_GAMES = [pytest.param(WHOLE_YARDZEE, id="yardzee"), pytest.param(WHOLE_YARDKLE, id="yardkle")]


def seat_results(match: Match) -> list[tuple[Any, ...]]:
    """What each seat holds of the result, in seat order (SEAT_RESULT_FIELDS)."""
    return list(match.seats.order_by("order").values_list(*SEAT_RESULT_FIELDS))


def stored(match_id: int) -> dict[str, Any]:
    """Everything kept of a match: its row, seats, turns, undo records and receipts."""
    match = Match.objects.get(pk=match_id)
    return {
        "match": (
            match.status,
            match.state,
            match.turns_played,
            match.started_at,
            match.finished_at,
        ),
        "seats": seat_results(match),
        "turns": list(
            match.turns.order_by("sequence").values_list(
                "sequence", "seat__order", "payload", "points", "bonus"
            )
        ),
        "undos": list(TurnUndo.objects.filter(match=match).values_list("sequence", flat=True)),
        "receipts": list(
            SubmissionReceipt.objects.filter(match=match)
            .order_by("key")
            .values_list("key", "turn_sequence", "undone_at")
        ),
    }


def receipt(match: Match, key: str, turn_sequence: int) -> SubmissionReceipt:
    """The receipt of a write that stored turn `turn_sequence` of `match` under `key`."""
    return SubmissionReceipt.objects.create(
        match=match,
        key=key,
        fingerprint="0" * 64,
        status_code=201,
        response={},
        turn_sequence=turn_sequence,
    )


@pytest.fixture
def seat(players: list[Player]) -> Callable[..., Match]:
    """Seat a match of the first `count` players with the service (no event, no league)."""

    def seat_match(game: str = "yardzee", count: int = 2, **options: Any) -> Match:
        return services.match_create(
            game=game, player_ids=[p.pk for p in players[:count]], **options
        )

    return seat_match


@pytest.fixture
def zee(seat: Callable[..., Match]) -> Match:
    return seat("yardzee")


@pytest.fixture
def kle(seat: Callable[..., Match]) -> Match:
    return seat("yardkle", rules=YARDKLE_RULES)


@pytest.fixture
def event_zee(seat: Callable[..., Match], yardzee_event: Event) -> Match:
    """A Yardzee match seated at `yardzee_event`, in its league."""
    return seat(event_id=yardzee_event.pk, league_id=yardzee_event.league_id)


@pytest.fixture
def play() -> Callable[..., list[dict[str, Any]]]:
    """Submit the first `turns` turns of the simulator's game (seed `seed`) one at a time;
    returns them."""

    def play_turns(match: Match, turns: int, seed: int = 0) -> list[dict[str, Any]]:
        played = simulated_turns(match, seed)[:turns]
        for turn in played:
            services.turn_submit(match_id=match.pk, turn=turn)
        return played

    return play_turns


@pytest.fixture
def finished_zee(zee: Match) -> Match:
    """`zee` played to its end with SCRIPTED_YARDZEE."""
    services.result_submit(match_id=zee.pk, turns=SCRIPTED_YARDZEE)
    zee.refresh_from_db()
    return zee


@dataclass(frozen=True)
class Sent:
    """One signal as a receiver saw it: which, for which match, and what was stored then."""

    signal: str
    match_id: int
    status: str
    seats: list[tuple[Any, ...]]
    was_finished: bool | None = None


@pytest.fixture
def connect() -> Iterator[Callable[[Signal, Callable[..., None]], None]]:
    """Connect a receiver to a match signal for this test only."""
    connected: list[tuple[Signal, Callable[..., None]]] = []

    def connect_receiver(signal: Signal, receiver: Callable[..., None]) -> None:
        signal.connect(receiver, sender=Match, weak=False)
        connected.append((signal, receiver))

    yield connect_receiver
    for signal, receiver in connected:
        signal.disconnect(receiver, sender=Match)


@pytest.fixture
def refuse(
    connect: Callable[[Signal, Callable[..., None]], None],
) -> Callable[[Signal, Exception], None]:
    """Connect a receiver that raises `error` whenever `signal` is sent, for this test only
    (as a receiver in `league` refuses a change to a bracket that has moved on)."""

    def refuse_with(signal: Signal, error: Exception) -> None:
        def receiver(**kwargs: Any) -> None:
            raise error

        connect(signal, receiver)

    return refuse_with


@pytest.fixture
def sent(connect: Callable[[Signal, Callable[..., None]], None]) -> list[Sent]:
    """Every match signal sent during the test, with the match's stored status and seats at
    the moment it was sent (what a receiver in `league` reads)."""
    record: list[Sent] = []
    for name in ("match_finished", "match_reopened", "match_voided", "match_corrected"):

        def receiver(sender: type[Match], match: Match, name: str = name, **kwargs: Any) -> None:
            row = Match.objects.get(pk=match.pk)
            record.append(
                Sent(name, match.pk, row.status, seat_results(row), kwargs.get("was_finished"))
            )

        connect(getattr(signals, name), receiver)
    return record
