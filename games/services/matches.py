"""A match: creating one, and what every write to it shares: the lock on its row, whether it still
takes play (its status, its event's), its seats and what a finished game gives each of them."""

from collections.abc import Sequence
from typing import Any

from django.contrib.auth.models import AnonymousUser, User
from django.db import transaction
from django.db.models import Prefetch, prefetch_related_objects
from django.utils import timezone

import scoring
from games import gates, score_keys, turn_sql
from games.errors import (
    EventClosed,
    MatchClosed,
    WrongScoreKey,
)
from games.models import (
    Match,
    MatchStatus,
    Seat,
    Turn,
)
from scoring import RuleViolation
from scoring.game import Game

UserLike = User | AnonymousUser


def _user_or_none(user: UserLike | None) -> User | None:
    return user if isinstance(user, User) else None


def _lock(match_id: int) -> Match:
    """The match, its row locked until the transaction ends (Match.DoesNotExist if none),
    read with its event (whether it still takes play) in the same statement; only the
    match's row is locked."""
    return Match.objects.select_related("event").select_for_update(of=("self",)).get(pk=match_id)


def _lock_by_key(match_id: int, score_key: str) -> Match:
    """`_lock` for the holder of a scoring key: the row is found (and locked) only with the
    right key. A key that is not even shaped like one never reaches the database."""
    found = None
    if score_keys.well_formed(score_key):
        found = (
            Match.objects.select_related("event")
            .select_for_update(of=("self",))
            .filter(pk=match_id, score_key=score_key)
            .first()
        )
    if found is None:
        if Match.objects.filter(pk=match_id).exists():
            raise WrongScoreKey("This scoring key does not open this match.")
        raise Match.DoesNotExist(f"No match {match_id}.")
    return found


def _lock_for_turns(match_id: int, score_key: str | None) -> turn_sql.Locked:
    """The match (with its event's status) and its seats in play order, its row locked until
    the transaction ends: one statement. With `score_key` (a caller who has only the table's
    scoring key) the row is found by its id and that key together: a wrong key raises
    WrongScoreKey without locking the row, and a key not even shaped like one never reaches
    the database. No match with this id: Match.DoesNotExist."""
    locked = turn_sql.lock(match_id, score_key) if _may_open(score_key) else None
    if locked is None:
        if score_key is not None and turn_sql.exists(match_id):
            raise WrongScoreKey("This scoring key does not open this match.")
        raise Match.DoesNotExist(f"No match {match_id}.")
    return locked


def _may_open(score_key: str | None) -> bool:
    """A scoring key not even shaped like one never reaches the database."""
    return score_key is None or score_keys.well_formed(score_key)


def _require_lock() -> None:
    """`turn_submit_locked` and `result_apply` change a match locked by `locked_submission`
    in the caller's transaction; outside one, the lock would already be gone."""
    if not transaction.get_connection().in_atomic_block:
        raise transaction.TransactionManagementError(
            "Lock the match first (locked_submission): no transaction is open."
        )


def _ensure_open(match: Match) -> None:
    if not match.is_open:
        raise MatchClosed(
            f"Match {match.pk} is {match.get_status_display().lower()}; it takes no more turns.",
            details={"status": match.status},
        )
    ensure_event_open(match, playing=True)


def ensure_event_open(match: Match, *, then: str = "", playing: bool = False) -> None:
    """EventClosed when the match's event is finished or cancelled (`games.gates`: asked of
    the league, read fresh, so a write that waited for the match's lock sees a close that
    committed meanwhile). For the next turn of a match being played (`playing`) it is not
    asked, and costs the turn no query: its event is open, since an event is closed (by its
    organizers, or by itself once its play is over) only with none of its matches in progress,
    and the close locks every match of the event first
    (`league.services.organization.event_close`). An organizer's write always asks."""
    if playing and match.status == MatchStatus.IN_PROGRESS:
        return
    if closed_as := gates.event_closed_as(match.event_id):
        assert match.event_id is not None  # noqa: S101 - only an event is closed
        raise EventClosed.of(match.event_id, closed_as, then)


def _ensure_changeable(match: Match) -> None:
    """The turns of a void match (MatchClosed) or of a match of a finished or cancelled event
    (EventClosed) are not changed."""
    if match.status == MatchStatus.VOID:
        raise MatchClosed(f"Match {match.pk} is void.", details={"status": match.status})
    ensure_event_open(match)


@transaction.atomic
def match_create(
    *,
    game: str,
    player_ids: Sequence[int],
    rules: dict[str, Any] | None = None,
    event_id: int | None = None,
    league_id: int | None = None,
    created_by: UserLike | None = None,
    in_place_of: Match | None = None,
) -> Match:
    """Seat `player_ids` in that order at a new match of `game` under `rules` (options not
    given take the game's defaults, and None all of them; the full ruleset is stored on the
    match). `rules` that are not a JSON object are the rulebook's `wrong_type`.

    `in_place_of`: the match this one is seated in place of (a replay of a voided match, the
    rest of a table playing on without a withdrawn player). The new match keeps its table: the
    label, the planned start and zone, and the table's id (`Match.table_id`), so the calendar
    entry is the same one with a higher SEQUENCE and the printed short link opens the new
    match."""
    fresh = scoring.new_game(game, len(player_ids), {} if rules is None else rules)
    table: dict[str, Any] = {}
    if in_place_of is not None:
        table = {
            "origin_id": in_place_of.table_id,
            "table_label": in_place_of.table_label,
            "planned_at": in_place_of.planned_at,
            "planned_zone": in_place_of.planned_zone,
            "schedule_changed_at": timezone.now(),
            "schedule_sequence": in_place_of.schedule_sequence + 1,
        }
    match = Match.objects.create(
        game=game,
        rules=fresh.rules.to_json(),
        state=fresh.to_json(),
        event_id=event_id,
        league_id=league_id,
        created_by=_user_or_none(created_by),
        **table,
    )
    Seat.objects.bulk_create(
        Seat(match=match, player_id=player_id, order=order)
        for order, player_id in enumerate(player_ids)
    )
    return match


def _check_player(turn: object, expected: int) -> None:
    """RULES.md, "What a submitted turn must carry": it must be player `expected`'s turn."""
    if not isinstance(turn, dict) or "player" not in turn:
        return
    player = turn["player"]
    if type(player) is not int:
        raise RuleViolation(
            "wrong_type",
            "The turn's player must be a player id (an integer).",
            details={"field": "player"},
        )
    if player != expected:
        raise RuleViolation(
            "not_your_turn",
            f"It is not player {player}'s turn; player {expected} plays next.",
            rule="Game",
            details={"player": player, "expected_player": expected},
        )


# What a seat holds of a finished match's result: what standings, stages and ratings read.
_SEAT_RESULT = ("total", "placement", "yardzees", "upper_bonus", "yardkles")


def _scored(turn: Turn) -> dict[str, Any]:
    """The turn's sequence, payload, points and bonus, by name: what its undo and its
    correction keep of it, and what the answer to it shows."""
    return {name: getattr(turn, name) for name in ("sequence", "payload", "points", "bonus")}


def _seats(match: Match) -> list[Seat]:
    """The match's seats in play order, with their players, in one query. They are kept as
    the match's prefetched `seats`, so what shows the match next (the API's answer to the
    turn) reads them from there instead of querying again, once per seat."""
    prefetch_related_objects(
        [match],
        Prefetch("seats", queryset=Seat.objects.select_related("player").order_by("order")),
    )
    return list(match.seats.all())


def _place_seats(match: Match, game: Game, seats: list[Seat]) -> None:
    """Set each seat's result of the finished `game` on it (not yet stored): its total, its
    placement and its game counts (`_seat_results`)."""
    for seat, result in zip(seats, _seat_results(match, game, [s.pk for s in seats]), strict=True):
        seat.total = result.total
        seat.placement = result.placement
        for name, value in result.counts.items():
            setattr(seat, name, value)


def _seat_results(match: Match, game: Game, seat_ids: list[int]) -> list[turn_sql.SeatResult]:
    """Each seat's result of the finished `game` (`seat_ids` in play order): its total, its
    placement and its game counts (`Game.seat_counts`: Yardzees and the upper bonus, or
    Yardkles), kept on the seat so standings never replay a game (docs/standings.md). The
    stored turns are read once, for the counts a game's state does not keep."""
    played: dict[int, list[object]] = {seat_id: [] for seat_id in seat_ids}
    for seat_id, payload in turn_sql.played(match.pk):
        played[seat_id].append(payload)
    return [
        turn_sql.SeatResult(
            seat_id, game.total(order), placement, game.seat_counts(order, played[seat_id])
        )
        for order, (seat_id, placement) in enumerate(zip(seat_ids, game.placements(), strict=True))
    ]


def _clear_results(seats: list[Seat]) -> None:
    """Withdraw the result the seats held (stored): on the seats themselves, so the match's
    prefetched seats stay what is stored."""
    for seat in seats:
        for name in _SEAT_RESULT:
            setattr(seat, name, None)
    Seat.objects.bulk_update(seats, _SEAT_RESULT)
