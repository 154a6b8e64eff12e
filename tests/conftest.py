"""Shared fixtures.

Task mode: tests run Celery tasks eagerly in-process (as `make run` does) unless marked
`broker`; those talk to the real broker in CELERY_BROKER_URL through a real worker, and are
skipped, with the reason shown, when no broker is configured (CI always configures one)."""

import importlib
import random
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import pytest
from celery.result import _set_task_join_will_block  # type: ignore[attr-defined]
from django.conf import settings
from django.contrib.auth.models import User
from django.core.cache import cache
from django.db import connection
from django.db.backends.postgresql.operations import DatabaseOperations
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from config.celery import app as celery_app
from league.models import Event, League, Player
from league.pages import table_cache
from scoring import simulate

# Every constraint trigger that keeps the pages' versions (league migrations 0008, 0009, 0024).
PAGE_TRIGGERS: tuple[str, ...] = importlib.import_module(
    "league.migrations.0025_page_versions"
).TRIGGERS

# `strategy_dir` and `tables`: a Yardzee strategy table for the tests that analyse games.
pytest_plugins = ["tests.strategy_tables"]


_truncate = DatabaseOperations.sql_flush


def _delete_flush(
    self: DatabaseOperations,
    style: Any,
    tables: Sequence[str],
    *,
    reset_sequences: bool = False,
    allow_cascade: bool = False,
) -> list[str]:
    """How a transactional test (`django_db(transaction=True)`) empties the database after it:
    `DELETE FROM` each table, not Django's one `TRUNCATE` of them all. The tables hold the few
    rows of one test, and PostgreSQL's TRUNCATE of some fifty tables gives each new files and
    scans the shared buffers for each: 0.3 to 1.5 s a test on these machines against about
    10 ms for the deletes (docs/development.md, "Test time"). The foreign keys are checked at
    the commit (Django makes them deferrable), when every table is empty. A flush that resets
    sequences or cascades to tables it was not given keeps Django's TRUNCATE."""
    if reset_sequences or allow_cascade or not tables:
        return _truncate(
            self, style, tables, reset_sequences=reset_sequences, allow_cascade=allow_cascade
        )
    return ["SET CONSTRAINTS ALL DEFERRED;"] + [
        f"DELETE FROM {self.quote_name(table)};"  # noqa: S608 - Django's own table names
        for table in tables
    ]


DatabaseOperations.sql_flush = _delete_flush  # type: ignore[method-assign,assignment]


@pytest.fixture
def live_forecasts(settings) -> None:
    """Every stored turn enqueues its match's forecast, as in production: the test settings
    leave it to the sweep (`FORECAST_EACH_TURN`), since in-process it runs inside each turn."""
    settings.FORECAST_EACH_TURN = True


@pytest.fixture(autouse=True)
def _fresh_cache() -> Iterator[None]:
    """Rate-limit counters and rendered tables live in the cache (and each process keeps the
    tables it used last): every test starts with none."""
    cache.clear()
    table_cache.clear_local()
    yield
    cache.clear()
    table_cache.clear_local()


@pytest.fixture
def _django_db_helper(_django_db_helper: None) -> None:
    """pytest-django's database set-up, then, inside the transaction a test runs in (and rolls
    back, never committing), the triggers that keep the pages' versions made immediate: in
    production they run at the commit (league/migrations/0025_page_versions.py)."""
    if connection.in_atomic_block:
        with connection.cursor() as cursor:
            cursor.execute(f"SET CONSTRAINTS {', '.join(PAGE_TRIGGERS)} IMMEDIATE")


@pytest.fixture(autouse=True)
def _task_mode(request: pytest.FixtureRequest) -> Iterator[None]:
    uses_broker = request.node.get_closest_marker("broker") is not None
    if uses_broker and not settings.CELERY_BROKER_URL:
        pytest.skip("needs CELERY_BROKER_URL (a real Redis broker); CI sets it")
    previous = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = not uses_broker
    yield
    celery_app.conf.task_always_eager = previous
    # An eager task runs inside Celery's `denied_join_result`, which sets a flag global to the
    # process and puts back what it found: two threads of a test running eager tasks at once
    # (its requests' jobs) can leave it set, and every later `.get()` of this process would
    # then refuse ("Never call result.get() within a task!").
    _set_task_join_will_block(False)


# --- The organization: users, players, leagues, events -----------------------------------------


def _user(username: str, **extra: Any) -> User:
    return User.objects.create_user(username=username, password="pw-" + username, **extra)


@pytest.fixture
def organizer(db: None) -> User:
    return _user("orga")


@pytest.fixture
def other_organizer(db: None) -> User:
    """Organizes another league, not the one the tests play in."""
    user = _user("other-orga")
    League.objects.create(name="Elsewhere", slug="elsewhere", game="yardzee").organizers.add(user)
    return user


@pytest.fixture
def staff(db: None) -> User:
    return _user("staff", is_staff=True)


@pytest.fixture
def player_account(db: None) -> User:
    """A signed-in user who plays but organizes nothing."""
    return _user("just-a-player")


@pytest.fixture
def players(db: None) -> list[Player]:
    return [
        Player.objects.create(display_name=f"Player {i}", handle=f"player-{i}") for i in range(1, 7)
    ]


@pytest.fixture
def yardzee_league(organizer: User) -> League:
    league = League.objects.create(name="Backyard Yardzee", slug="yardzee", game="yardzee")
    league.organizers.add(organizer)
    return league


@pytest.fixture
def yardkle_league(organizer: User) -> League:
    league = League.objects.create(name="Backyard Yardkle", slug="yardkle", game="yardkle")
    league.organizers.add(organizer)
    return league


@pytest.fixture
def yardzee_event(yardzee_league: League) -> Event:
    return Event.objects.create(league=yardzee_league, name="Week 1", date="2026-06-01")


@pytest.fixture
def yardkle_event(yardkle_league: League) -> Event:
    return Event.objects.create(league=yardkle_league, name="Week 1", date="2026-06-01")


@pytest.fixture
def api() -> APIClient:
    return APIClient()


def client_for(user: User | None) -> APIClient:
    """An API client that sends `user`'s token (anonymous when None)."""
    client = APIClient()
    if user is not None:
        token, _ = Token.objects.get_or_create(user=user)
        client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    return client


@pytest.fixture
def as_organizer(organizer: User) -> APIClient:
    return client_for(organizer)


def next_turn_for(match: dict[str, Any], game: Any, rng: random.Random) -> dict[str, Any]:
    """The simulator's next legal turn for a match as the API shows it, naming its player."""
    turn = simulate.next_turn(game, rng)
    return {"player": match["board"]["current_player"], **turn}


def casual_league(game: str, organizer: User) -> League:
    """The league the tests' casual matches of `game` belong to, organized by `organizer`."""
    league, _ = League.objects.get_or_create(
        slug=f"casual-{game}", defaults={"name": f"Casual {game}", "game": game}
    )
    league.organizers.add(organizer)
    return league


@pytest.fixture
def seat_match(as_organizer: APIClient, organizer: User) -> Callable[..., dict[str, Any]]:
    """POST matches/ as the organizer; returns the created match's JSON. The players are put on
    the league's roster first (a casual match belongs to the league `casual-<game>`)."""

    def seat(
        game: str, player_list: list[Player], event: Event | None = None, **rules: Any
    ) -> dict[str, Any]:
        league = event.league if event else casual_league(game, organizer)
        league.players.add(*player_list)
        response = as_organizer.post(
            "/api/v1/matches/",
            {
                "event": event.pk if event else None,
                "league": None if event else league.slug,
                "game": game,
                "players": [p.pk for p in player_list],
                "rules": rules,
            },
            format="json",
        )
        assert response.status_code == 201, response.json()
        body: dict[str, Any] = response.json()
        return body

    return seat
