"""A season of finished Yardzee results in bulk, written with PostgreSQL's COPY (psycopg), not
the ORM a row at a time: what `manage.py seed_season` and the season-scale benchmark
(`benchmarks/test_scale.py`, docs/benchmarks.md "Season scale") seed.

Two layouts, both sized by a factor of today's standings benchmark (1,000 players and 20,000
matches in one event):

- the season (`seed_season`): `2 x factor` leagues of 10,000 matches among 1,000 players each,
  from a pool of `max(1,000, 200 x factor)` players (at 50x: 100 leagues, 1,000,000 matches,
  10,000 players, each in about 10 leagues). What grows is the number of leagues; each
  league's table stays one league's size.
- one league (`seed_league`): a single league (and event) of `1,000 x factor` players and
  `20,000 x factor` matches: what grows is one table's length.

Both only add: seeding a larger factor over a smaller one adds the leagues, players and
matches missing, so the benchmark grows one database step by step. Matches get no signals:
their standings and ratings are computed afterwards (`recompute_standings`,
`recompute_ratings`, or the benchmark's own calls).

The match and seat tables' play-version triggers (league migration 0008) are off while the rows
go in: each row would mark its event's page at the commit, a million times over (the page is
versioned once a transaction, but each mark is a trigger's run). Each event seeded is marked
once instead. The caller holds the transaction (ALTER TABLE locks the two tables until it
ends)."""

import contextlib
import dataclasses
import datetime
import json
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

import numpy as np
from django.db import connection, models
from django.utils import timezone

from games.models import Match, Seat
from league.models import Event, League, Player

TABLE = 4
SEASON_LEAGUE_MATCHES = 10_000
SEASON_LEAGUE_PLAYERS = 1_000
SEASON_PLAYERS_PER_FACTOR = 200
ONE_LEAGUE_PLAYERS = 1_000
ONE_LEAGUE_MATCHES = 20_000
SEASON_PREFIX = "season-"
ONE_LEAGUE_SLUG = "season-one"
# Matches finish a second apart from here on, so every league's finish order is fixed.
START = datetime.datetime(2026, 1, 1, tzinfo=datetime.UTC)
CHUNK = 50_000  # matches a COPY round


@dataclasses.dataclass(frozen=True)
class Seeded:
    """What one call added."""

    leagues: int = 0
    players: int = 0
    matches: int = 0

    def __add__(self, other: "Seeded") -> "Seeded":
        return Seeded(
            self.leagues + other.leagues,
            self.players + other.players,
            self.matches + other.matches,
        )


# --- COPY ------------------------------------------------------------------------------------


def _text(value: Any) -> str:
    """A value in COPY's text format (None is \\N; tabs, newlines and backslashes escaped)."""
    if value is None:
        return "\\N"
    if isinstance(value, bool):
        return "t" if value else "f"
    if isinstance(value, dict | list):
        value = json.dumps(value)
    elif isinstance(value, datetime.datetime):
        value = value.isoformat()
    return (
        str(value)
        .replace("\\", "\\\\")
        .replace("\t", "\\t")
        .replace("\n", "\\n")
        .replace("\r", "\\r")
    )


def _constants(model: type[models.Model], given: Sequence[str]) -> dict[str, str]:
    """The columns of `model` that are not `given` and need a value (NOT NULL): each its
    field's default, in COPY text (`auto_now_add` dates get now). A NOT NULL column with no
    default is an error: the seeding forgot it."""
    now = timezone.now()
    constants: dict[str, str] = {}
    for field in model._meta.concrete_fields:
        if field.primary_key or field.column is None or field.column in given or field.null:
            continue
        if getattr(field, "auto_now_add", False) or getattr(field, "auto_now", False):
            constants[field.column] = _text(now)
        elif field.has_default() or field.empty_strings_allowed:  # "" for text columns
            constants[field.column] = _text(field.get_default())
        else:
            raise ValueError(f"{model.__name__}.{field.name} needs a value")
    return constants


def copy_rows(
    model: type[models.Model], columns: Sequence[str], lines: Iterable[str], **fixed: Any
) -> None:
    """COPY rows into `model`'s table: each line the `columns` in COPY text, tab-separated;
    `fixed` columns take one value for every row, other NOT NULL ones their defaults."""
    constants = _constants(model, [*columns, *fixed])
    constants.update({column: _text(value) for column, value in fixed.items()})
    tail = "".join("\t" + value for value in constants.values())
    names = ", ".join(f'"{column}"' for column in [*columns, *constants])
    table = model._meta.db_table
    with connection.cursor() as cursor:
        raw = cursor.cursor  # psycopg's own cursor: its copy()
        with raw.copy(f'COPY "{table}" ({names}) FROM STDIN') as copy:
            batch: list[str] = []
            for line in lines:
                batch.append(line + tail + "\n")
                if len(batch) >= CHUNK:
                    copy.write("".join(batch))
                    batch = []
            if batch:
                copy.write("".join(batch))


def reserve_ids(model: type[models.Model], count: int) -> int:
    """The first of `count` consecutive primary keys taken from the table's sequence for the
    rows about to be copied. The table is locked against other inserts until the
    transaction ends, so nobody takes one of them in between."""
    table = model._meta.db_table
    with connection.cursor() as cursor:
        cursor.execute(f'LOCK TABLE "{table}" IN SHARE ROW EXCLUSIVE MODE')
        cursor.execute("SELECT pg_get_serial_sequence(%s, 'id')", [table])
        (sequence,) = cursor.fetchone()
        cursor.execute("SELECT nextval(%s)", [sequence])
        (first,) = cursor.fetchone()
        if count > 1:
            cursor.execute("SELECT setval(%s, %s)", [sequence, first + count - 1])
    return int(first)


# --- Rows ------------------------------------------------------------------------------------


def new_players(prefix: str, start: int, count: int) -> np.ndarray:
    """`count` new players with handles `prefix-start` on: their ids."""
    if count <= 0:
        return np.empty(0, dtype=np.int64)
    first = reserve_ids(Player, count)
    copy_rows(
        Player,
        ["id", "display_name", "handle"],
        (f"{first + i}\tPlayer {start + i}\t{prefix}{start + i}" for i in range(count)),
    )
    return np.arange(first, first + count, dtype=np.int64)


def join_league(league: League, players: np.ndarray) -> None:
    """Put `players` on the league's roster (those on it already are left out)."""
    through = League.players.through
    have = set(through.objects.filter(league_id=league.pk).values_list("player_id", flat=True))
    copy_rows(
        through,
        ["player_id"],
        (str(p) for p in players.tolist() if p not in have),
        league_id=league.pk,
    )


def _tables(rng: np.random.Generator, players: int, count: int) -> np.ndarray:
    """`count` tables of TABLE different player indexes below `players`."""
    seated = rng.integers(0, players, size=(count, TABLE))
    while True:
        ordered = np.sort(seated, axis=1)
        clash = (ordered[:, 1:] == ordered[:, :-1]).any(axis=1)
        if not clash.any():
            return seated
        seated[clash] = rng.integers(0, players, size=(int(clash.sum()), TABLE))


def finished_matches(
    event: Event, players: np.ndarray, count: int, *, seed: int, number_from: int = 0
) -> int:
    """`count` finished 4-player Yardzee matches at `event` among `players` (ids), with
    plausible totals and the placements they give; finish times a second apart from
    START + `number_from` seconds. Returns how many were added."""
    if count <= 0:
        return 0
    rng = np.random.default_rng(seed)
    for done in range(0, count, CHUNK):
        size = min(CHUNK, count - done)
        first = reserve_ids(Match, size)
        numbers = range(number_from + done, number_from + done + size)
        copy_rows(
            Match,
            ["id", "score_key", "finished_at"],
            (
                f"{first + i}\tseed-{event.league_id}-{number}\t"
                f"{(START + datetime.timedelta(seconds=number)).isoformat()}"
                for i, number in enumerate(numbers)
            ),
            game="yardzee",
            rules={"joker": "forced"},
            state={},
            status="finished",
            event_id=event.pk,
            league_id=event.league_id,
            turns_played=13 * TABLE,
            version=13 * TABLE,
        )
        seated = players[_tables(rng, len(players), size)]
        totals = rng.integers(120, 321, size=(size, TABLE))
        placements = 1 + (totals[:, None, :] > totals[:, :, None]).sum(axis=2)
        yardzees = (rng.random((size, TABLE)) < 0.2).astype(np.int64)
        bonus = np.where(rng.random((size, TABLE)) < 0.4, "t", "f")
        copy_rows(
            Seat,
            ["match_id", "order", "player_id", "total", "placement", "yardzees", "upper_bonus"],
            _seat_lines(first, seated, totals, placements, yardzees, bonus),
        )
    return count


def _seat_lines(first: int, *columns: np.ndarray) -> Iterator[str]:
    seated, totals, placements, yardzees, bonus = (c.tolist() for c in columns)
    for i, row in enumerate(zip(seated, totals, placements, yardzees, bonus, strict=True)):
        for order, seat in enumerate(zip(*row, strict=True)):
            yield f"{first + i}\t{order}\t" + "\t".join(map(str, seat))


# --- Layouts ---------------------------------------------------------------------------------


PLAYED_TRIGGERS = {"games_match": "games_match_played", "games_seat": "games_seat_played"}


@contextlib.contextmanager
def played_triggers_off() -> Iterator[None]:
    """The insert triggers of `PLAYED_TRIGGERS` off until the block ends (in a transaction)."""
    if not connection.in_atomic_block:
        raise RuntimeError("Seeding needs a transaction.")
    with connection.cursor() as cursor:
        # Deferred checks and triggers of earlier writes in the transaction run now: ALTER
        # TABLE refuses a table with events pending.
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
        cursor.execute("SET CONSTRAINTS ALL DEFERRED")
        for table, trigger in PLAYED_TRIGGERS.items():
            cursor.execute(f'ALTER TABLE "{table}" DISABLE TRIGGER "{trigger}"')
        yield
        # The foreign keys' checks of the rows copied run now: ALTER TABLE waits for none.
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
        cursor.execute("SET CONSTRAINTS ALL DEFERRED")
        for table, trigger in PLAYED_TRIGGERS.items():
            cursor.execute(f'ALTER TABLE "{table}" ENABLE TRIGGER "{trigger}"')


def new_versions(events: Iterable[int]) -> None:
    """Mark the pages of `events` as played (league migration 0024): at the commit each gets
    one new version, as the triggers turned off would have given them."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT league_pages_marked('{}', '{}', %s::bigint[])", [list(events)])


def _league(slug: str, name: str) -> tuple[League, Event, bool]:
    league, created = League.objects.get_or_create(
        slug=slug, defaults={"name": name, "game": "yardzee"}
    )
    event, _ = Event.objects.get_or_create(
        league=league,
        name="Season",
        defaults={"date": datetime.date(2026, 9, 1), "status": "finished"},
    )
    return league, event, created


def _pool(prefix: str, size: int) -> np.ndarray:
    """The ids of players `prefix0` .. `prefix{size-1}`, making those missing."""
    have = dict(Player.objects.filter(handle__startswith=prefix).values_list("handle", "pk"))
    known = [have[f"{prefix}{i}"] for i in range(size) if f"{prefix}{i}" in have]
    if len(known) < size:
        known.extend(new_players(prefix, len(known), size - len(known)).tolist())
    return np.array(known, dtype=np.int64)


def seed_season(factor: int) -> Seeded:
    """The season at `factor`: leagues season-001 .. season-{2 x factor}, each of
    SEASON_LEAGUE_MATCHES matches among SEASON_LEAGUE_PLAYERS players. League k draws its
    players from the first max(1,000, 100 k) of the pool (the pool of the factor that first
    has it), so it is the same league whatever factor it was seeded at."""
    leagues = 2 * factor
    size = max(SEASON_LEAGUE_PLAYERS, SEASON_PLAYERS_PER_FACTOR * factor)
    before = Player.objects.filter(handle__startswith=f"{SEASON_PREFIX}p").count()
    pool = _pool(f"{SEASON_PREFIX}p", size)
    added = Seeded(players=len(pool) - before)
    seeded = []
    with played_triggers_off():
        for k in range(1, leagues + 1):
            league, event, created = _league(f"{SEASON_PREFIX}{k:03d}", f"Season league {k}")
            if not created and event.matches.exists():
                continue
            rng = np.random.default_rng(k)
            reach = max(SEASON_LEAGUE_PLAYERS, SEASON_PLAYERS_PER_FACTOR * k // 2)
            field = np.sort(rng.choice(pool[:reach], SEASON_LEAGUE_PLAYERS, replace=False))
            join_league(league, field)
            matches = finished_matches(event, field, SEASON_LEAGUE_MATCHES, seed=k)
            added += Seeded(leagues=1, matches=matches)
            seeded.append(event.pk)
    new_versions(seeded)
    _analyze()
    return added


def seed_league(factor: int) -> Seeded:
    """The one league (ONE_LEAGUE_SLUG) at `factor`: 1,000 x factor players, 20,000 x factor
    matches in its one event; the matches added to grow it seat any of its players."""
    league, event, created = _league(ONE_LEAGUE_SLUG, "One big league")
    players = ONE_LEAGUE_PLAYERS * factor
    before = Player.objects.filter(handle__startswith=f"{ONE_LEAGUE_SLUG}-").count()
    field = _pool(f"{ONE_LEAGUE_SLUG}-", players)
    join_league(league, field)
    have = event.matches.count()
    with played_triggers_off():
        matches = finished_matches(
            event, field, ONE_LEAGUE_MATCHES * factor - have, seed=have, number_from=have
        )
    new_versions([event.pk])
    _analyze()
    return Seeded(leagues=int(created), players=len(field) - before, matches=matches)


def _analyze() -> None:
    """Planner statistics for the new rows, as autovacuum keeps them for a live database."""
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE games_match, games_seat, league_player, league_league_players")
