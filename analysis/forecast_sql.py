"""The forecast job's statements on PostgreSQL, written by hand and prepared on the server
(`core.prepared`), as a turn's are (`games.turn_sql`).

The job runs after every burst of turns, on the cores that serve the turns
(docs/benchmarks.md, "What sets the open loop's tail"), and through Django's ORM its dozen
statements (the match, the kept forecast, the seats, the turns, then a transaction that
locked the match, read the forecast again and updated it) cost several times the chances of
a Yardkle turn. Here it is three, each prepared once per connection:

1. `read`: the match, its seats' players in seat order and its kept forecast, if any.
2. `turns`: the match's turns in play order, with the seat of each.
3. `store`: the new forecast, inserted or updated in one statement, unless a newer one is
   kept (a job that ran late never overwrites it). A forecast of a version the match has left
   meanwhile is stored all the same, as behind (readers compare its version with the match's):
   the turn stored meanwhile sent the next job, which keeps the chances of every turn that is
   as it was (their marks) and computes only the rest, so a long catch-up (a worker back after
   an outage, turns still coming) is never thrown away. No transaction nor lock of the match."""

import json
from datetime import datetime
from typing import Any, NamedTuple

from django.db import connection

from analysis.models import MatchForecast
from core.prepared import json_value, prepared_cursor

_READ = """
SELECT m.game, m.rules, m.status, m.state, m.version, m.pad IS NOT NULL,
       (SELECT array_agg(s.player_id ORDER BY s."order")
          FROM games_seat s WHERE s.match_id = m.id),
       f.version, f.players, f.chances, f.marks, f.losses
  FROM games_match m LEFT JOIN analysis_matchforecast f ON f.match_id = m.id
 WHERE m.id = %s"""

_TURNS = """
SELECT t.id, t.corrected_at, s."order", t.points, t.payload
  FROM games_turn t JOIN games_seat s ON s.id = t.seat_id
 WHERE t.match_id = %s
 ORDER BY t.sequence"""

_STORE = """
INSERT INTO analysis_matchforecast AS f
       (match_id, version, model, players, chances, marks, losses, swings, seconds, updated_at)
VALUES (%(match)s, %(version)s, %(model)s, %(players)s::jsonb, %(chances)s::jsonb,
        %(marks)s::jsonb, %(losses)s::jsonb, %(swings)s::jsonb, %(seconds)s, %(now)s)
    ON CONFLICT (match_id) DO UPDATE
   SET version = EXCLUDED.version, model = EXCLUDED.model, players = EXCLUDED.players,
       chances = EXCLUDED.chances, marks = EXCLUDED.marks, losses = EXCLUDED.losses,
       swings = EXCLUDED.swings, seconds = EXCLUDED.seconds, updated_at = EXCLUDED.updated_at
 WHERE f.version < EXCLUDED.version
RETURNING f.id"""


class Kept(NamedTuple):
    """The forecast kept for a match, as far as the job reads it."""

    version: int
    players: list[int]
    chances: list[list[float]]
    marks: list[str]
    losses: list[float]


class MatchRead(NamedTuple):
    """A match as the forecast job reads it."""

    game: str
    rules: dict[str, Any]
    status: str
    state: dict[str, Any]
    version: int
    from_pad: bool
    players: list[int]
    kept: Kept | None


class TurnRead(NamedTuple):
    pk: int
    corrected_at: datetime | None
    seat: int
    points: int
    payload: Any


def read(match_id: int) -> MatchRead | None:
    """The match `match_id` with its players and kept forecast; None for no such match."""
    with prepared_cursor(connection, log_text=True) as cursor:
        cursor.execute(_READ, [match_id])
        row = cursor.fetchone()
    if row is None:
        return None
    game, rules, status, state, version, from_pad, players, *forecast = row
    kept = None
    if forecast[0] is not None:
        kept = Kept(forecast[0], *map(json_value, forecast[1:]))
    return MatchRead(
        game, json_value(rules), status, json_value(state), version, from_pad, players or [], kept
    )


def turns(match_id: int) -> list[TurnRead]:
    """The match's turns in play order."""
    with prepared_cursor(connection, log_text=True) as cursor:
        cursor.execute(_TURNS, [match_id])
        return [
            TurnRead(pk, corrected, seat, points, json_value(payload))
            for pk, corrected, seat, points, payload in cursor.fetchall()
        ]


def store(forecast: MatchForecast) -> int | None:
    """Store `forecast` (unsaved, made at the match's `version`); its id, or None when a newer
    forecast is kept (nothing written)."""
    params: dict[str, Any] = {
        "match": forecast.match_id,
        "version": forecast.version,
        "model": forecast.model,
        "players": json.dumps(forecast.players),
        "chances": json.dumps(forecast.chances),
        "marks": json.dumps(forecast.marks),
        "losses": json.dumps(forecast.losses),
        "swings": json.dumps(forecast.swings),
        "seconds": forecast.seconds,
        "now": forecast.updated_at,
    }
    with prepared_cursor(connection, log_text=True) as cursor:
        cursor.execute(_STORE, params)
        row = cursor.fetchone()
    return None if row is None else int(row[0])
