"""The statements of a turn on PostgreSQL, written by hand (issue 22; docs/benchmarks.md).

`games.services` owns the turn (its one pipeline: `turn_submit_locked`, `turn_submit`,
`result_apply`): the caller is checked, the rules (`scoring`) apply the turn and the answer is
built there. This module only reads and writes rows, in two statements inside the service's
transaction:

1. `lock`: the match row, locked (`FOR UPDATE OF` the match only), with its stored game state
   and its seats, found by its id (and the scoring key, for a caller who has
   only that key: a wrong key never locks the row).
2. `store`: the turn, the match's new state and, for a request with an `Idempotency-Key`, the
   receipt, in one data-modifying statement. Its first part looks the key's receipt up: this
   statement starts after the lock is held, so its snapshot holds whatever the transaction it
   waited for stored (a subquery of `lock` would not: docs/benchmarks.md). With a receipt
   found, nothing is written and the receipt comes back.

A turn that ends the game takes two more (`finish`): the match's stored turns, read for the
seats' game counts, and every seat's total, placement and counts, one statement for them all.
A whole result stores all its turns and the match in one statement (`store_all`), then
finishes so.

All are prepared on the server once per connection (`_prepared`, `core.prepared`: psycopg's
server-side binding, `prepare=True`) and then only executed: PostgreSQL parses and plans each
of them once per connection instead of once per turn (docs/benchmarks.md). Every other
statement of the project keeps Django's client-side binding but the pages' versions.

Every writer of turns goes through them: a turn from the API or the pages, a whole result
(`store_all`), the event import and the demo loader. `lock` also opens the
API's other writes of a match (`games.services.locked_submission`: a result, a take-back)."""

import json
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime
from typing import Any, NamedTuple

from django.db import connection
from django.db.backends.utils import CursorWrapper

from core.prepared import json_value, prepared_cursor
from games.models import Match

# The match's columns `lock` reads, in the model's order (what `Model.from_db` wants;
# tests/games/test_turn_submit_once.py checks it).
MATCH_FIELDS = (
    "id",
    "game",
    "status",
    "state",
    "turns_played",
    "version",
    "event_id",
    "league_id",
    "score_key",
    "created_by_id",
    "started_at",
)

_LOCK = """
SELECT m.id, m.game, m.status, m.state, m.turns_played, m.version, m.event_id, m.league_id,
       m.score_key, m.created_by_id, m.started_at,
       (SELECT array_agg(array[s.id, s.player_id] ORDER BY s."order")
          FROM games_seat s WHERE s.match_id = m.id)
  FROM games_match m
 WHERE m.id = %s"""
_LOCK_BY_ID = _LOCK + " FOR UPDATE OF m"
_LOCK_BY_KEY = _LOCK + " AND m.score_key = %s FOR UPDATE OF m"
_EXISTS = "SELECT 1 FROM games_match WHERE id = %s"

_FIND_RECEIPT = """
SELECT fingerprint, status_code, response, turn_sequence, undone_at
  FROM games_submissionreceipt WHERE match_id = %s AND key = %s"""

# Without a key: the turn and the match, one statement.
_STORE = """
WITH turn AS (
    INSERT INTO games_turn (match_id, sequence, seat_id, payload, points, bonus,
                            submitted_by_id, submitted_at, scored_with_key)
    VALUES (%(match)s, %(sequence)s, %(seat)s, %(payload)s::jsonb, %(points)s, %(bonus)s,
            %(submitted_by)s, %(now)s, %(scored_with_key)s)
)
UPDATE games_match
   SET state = %(state)s::jsonb, turns_played = %(sequence)s, status = %(status)s,
       started_at = COALESCE(started_at, %(now)s), finished_at = %(finished_at)s,
       version = %(version)s
 WHERE id = %(match)s"""

# With a key: its receipt looked up first; the three writes only if there is none.
_STORE_KEYED = """
WITH prior AS (
    SELECT fingerprint, status_code, response, turn_sequence, undone_at
      FROM games_submissionreceipt WHERE match_id = %(match)s AND key = %(key)s
), turn AS (
    INSERT INTO games_turn (match_id, sequence, seat_id, payload, points, bonus,
                            submitted_by_id, submitted_at, scored_with_key)
    SELECT %(match)s, %(sequence)s, %(seat)s, %(payload)s::jsonb, %(points)s, %(bonus)s,
           %(submitted_by)s, %(now)s, %(scored_with_key)s
     WHERE NOT EXISTS (SELECT FROM prior)
), saved AS (
    UPDATE games_match
       SET state = %(state)s::jsonb, turns_played = %(sequence)s, status = %(status)s,
           started_at = COALESCE(started_at, %(now)s), finished_at = %(finished_at)s,
           version = %(version)s
     WHERE id = %(match)s AND NOT EXISTS (SELECT FROM prior)
), receipt AS (
    INSERT INTO games_submissionreceipt (match_id, key, fingerprint, status_code, response,
                                         turn_sequence, created_at)
    SELECT %(match)s, %(key)s, %(fingerprint)s, %(status_code)s, %(response)s::jsonb,
           %(sequence)s, %(now)s
     WHERE NOT EXISTS (SELECT FROM prior)
)
SELECT fingerprint, status_code, response, turn_sequence, undone_at FROM prior"""

# A whole result: every turn in one insert, and the match once.
_STORE_ALL = """
WITH turn AS (
    INSERT INTO games_turn (match_id, sequence, seat_id, payload, points, bonus,
                            submitted_by_id, submitted_at, scored_with_key)
    SELECT %(match)s, t.sequence, t.seat, t.payload, t.points, t.bonus,
           %(submitted_by)s, %(now)s, false
      FROM unnest(%(sequences)s::integer[], %(seats)s::bigint[], %(payloads)s::jsonb[],
                  %(points)s::integer[], %(bonuses)s::integer[])
           AS t(sequence, seat, payload, points, bonus)
)
UPDATE games_match
   SET state = %(state)s::jsonb, turns_played = %(turns_played)s, status = %(status)s,
       started_at = COALESCE(started_at, %(now)s), finished_at = %(finished_at)s,
       version = %(version)s
 WHERE id = %(match)s"""

# The last turn: the stored turns for the game counts, then every seat's result at once.
_PLAYED = """
SELECT seat_id, payload FROM games_turn WHERE match_id = %s ORDER BY sequence"""
_SEAT_RESULTS = """
UPDATE games_seat AS s
   SET total = r.total, placement = r.placement,
       yardzees = COALESCE(r.yardzees, s.yardzees),
       upper_bonus = COALESCE(r.upper_bonus, s.upper_bonus),
       yardkles = COALESCE(r.yardkles, s.yardkles)
  FROM unnest(%s::bigint[], %s::integer[], %s::smallint[], %s::smallint[], %s::boolean[],
              %s::smallint[]) AS r(id, total, placement, yardzees, upper_bonus, yardkles)
 WHERE s.id = r.id"""
# The seat columns of a game count (`Game.seat_counts`), in `_SEAT_RESULTS`' order.
SEAT_COUNTS = ("yardzees", "upper_bonus", "yardkles")


class Played(NamedTuple):
    """One turn of a whole result, as `store_all` stores it."""

    sequence: int
    seat_id: int
    payload: object
    points: int
    bonus: int


class SeatResult(NamedTuple):
    """What a finished game gives one seat: its total, its placement and its game counts
    (`Game.seat_counts`; a count the game does not keep is left as it is)."""

    seat_id: int
    total: int
    placement: int
    counts: dict[str, Any]


class Prior(NamedTuple):
    """A receipt kept for an Idempotency-Key: the first answer and what became of its turn."""

    fingerprint: str
    status_code: int
    response: dict[str, Any]
    turn_sequence: int | None
    undone_at: datetime | None


class Locked(NamedTuple):
    """What `lock` read: the match (its event's status set on a bare event), its seats in
    play order as (seat id, player id)."""

    match: Match
    seats: list[tuple[int, int]]


@contextmanager
def _prepared() -> Iterator[CursorWrapper]:
    """A cursor of Django's connection whose statements are prepared on the server
    (`core.prepared`); Django's query log shows each as None."""
    with prepared_cursor(connection) as cursor:
        yield cursor


def lock(match_id: int, score_key: str | None) -> Locked | None:
    """The match and its seats, its row locked until the transaction ends; None when no
    match has this id (and this scoring key, when one is given)."""
    with _prepared() as cursor:
        if score_key is None:
            cursor.execute(_LOCK_BY_ID, (match_id,))
        else:
            cursor.execute(_LOCK_BY_KEY, (match_id, score_key))
        row = cursor.fetchone()
    if row is None:
        return None
    values = list(row[: len(MATCH_FIELDS)])
    values[3] = json_value(values[3])  # state
    match = Match.from_db(connection.alias, MATCH_FIELDS, values)
    seats = row[len(MATCH_FIELDS)]
    return Locked(match, [(seat, player) for seat, player in seats or []])


def exists(match_id: int) -> bool:
    with connection.cursor() as cursor:
        cursor.execute(_EXISTS, (match_id,))
        return cursor.fetchone() is not None


def find_receipt(match_id: int, key: str) -> Prior | None:
    """The receipt of `key` for the match, read in its own statement (after the lock)."""
    with connection.cursor() as cursor:
        cursor.execute(_FIND_RECEIPT, (match_id, key))
        row = cursor.fetchone()
    return _prior(row)


def _prior(row: Any) -> Prior | None:
    if row is None:
        return None
    fingerprint, status_code, response, turn_sequence, undone_at = row
    return Prior(fingerprint, status_code, json_value(response), turn_sequence, undone_at)


def store(
    *,
    match: Match,
    sequence: int,
    seat_id: int,
    payload: object,
    points: int,
    bonus: int,
    submitted_by: int | None,
    scored_with_key: bool,
    now: datetime,
    key: str | None,
    fingerprint: str | None,
    status_code: int,
    response: dict[str, Any],
) -> Prior | None:
    """Store the turn and the match's new state (`match.state`, `status`, `finished_at`,
    `version`, already set) and, with `key`, the receipt of `response`: one statement. With a
    receipt of `key` already stored, nothing is written and that receipt is returned."""
    params: dict[str, Any] = {
        "match": match.pk,
        "sequence": sequence,
        "seat": seat_id,
        "payload": json.dumps(payload),
        "points": points,
        "bonus": bonus,
        "submitted_by": submitted_by,
        "now": now,
        "scored_with_key": scored_with_key,
        "state": json.dumps(match.state),
        "status": match.status,
        "finished_at": match.finished_at,
        "version": match.version,
    }
    with _prepared() as cursor:
        if key is None:
            cursor.execute(_STORE, params)
            return None
        params |= {
            "key": key,
            "fingerprint": fingerprint,
            "status_code": status_code,
            "response": json.dumps(response),
        }
        cursor.execute(_STORE_KEYED, params)
        return _prior(cursor.fetchone())


def store_all(
    *, match: Match, turns: list[Played], submitted_by: int | None, now: datetime
) -> None:
    """Store a whole result: every turn (in order, not sent with a scoring key) and the match's
    new state (`match.state`, `turns_played`, `status`, `finished_at`, `version`, already set),
    one statement however many turns."""
    params: dict[str, Any] = {
        "match": match.pk,
        "sequences": [turn.sequence for turn in turns],
        "seats": [turn.seat_id for turn in turns],
        "payloads": [json.dumps(turn.payload) for turn in turns],
        "points": [turn.points for turn in turns],
        "bonuses": [turn.bonus for turn in turns],
        "submitted_by": submitted_by,
        "now": now,
        "state": json.dumps(match.state),
        "turns_played": match.turns_played,
        "status": match.status,
        "finished_at": match.finished_at,
        "version": match.version,
    }
    with _prepared() as cursor:
        cursor.execute(_STORE_ALL, params)


def played(match_id: int) -> list[tuple[int, Any]]:
    """The match's stored turns in order, as (seat id, payload)."""
    with _prepared() as cursor:
        cursor.execute(_PLAYED, (match_id,))
        return [(seat, json_value(payload)) for seat, payload in cursor.fetchall()]


def finish(results: list[SeatResult]) -> None:
    """Store every seat's result of a finished game: one statement."""
    columns: list[list[Any]] = [
        [r.seat_id for r in results],
        [r.total for r in results],
        [r.placement for r in results],
        *([r.counts.get(name) for r in results] for name in SEAT_COUNTS),
    ]
    with _prepared() as cursor:
        cursor.execute(_SEAT_RESULTS, columns)
