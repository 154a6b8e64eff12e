"""Fixtures of the page tests: events played with the services and the simulator, as the demo
league is, and the stored standings and ratings brought up to date as the jobs would."""

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from games import services as game_services
from games.models import Match
from league.models import Event, League, Player
from league.services import standings_refresh


def make_players(count: int, prefix: str = "Player") -> list[Player]:
    return list(
        Player.objects.bulk_create(
            Player(display_name=f"{prefix} {i}", handle=f"{prefix.lower()}-{i}")
            for i in range(1, count + 1)
        )
    )


def refresh_tables() -> None:
    """What the jobs do after commit: every stale standings table and rating recomputed."""
    standings_refresh.standings_sweep()


@pytest.fixture
def yardkle_event(organizer) -> Event:
    league = League.objects.create(name="Sunday Yardkle", slug="sunday-yardkle", game="yardkle")
    league.organizers.add(organizer)
    return Event.objects.create(league=league, name="Cup", date="2026-07-01", venue="Lawn")


@pytest.fixture
def zee_event(organizer) -> Event:
    league = League.objects.create(name="Backyard Yardzee", slug="backyard", game="yardzee")
    league.organizers.add(organizer)
    return Event.objects.create(league=league, name="Night 1", date="2026-06-06", venue="Lawn")


@pytest.fixture
def seat() -> Callable[..., Match]:
    """Seat a match at an event outside any stage (a league night's casual table)."""

    def seat_match(event: Event | None, players: list[Player], game: str = "yardzee") -> Match:
        return game_services.match_create(
            game=event.league.game if event else game,
            player_ids=[p.pk for p in players],
            event_id=event.pk if event else None,
            league_id=event.league_id if event else None,
        )

    return seat_match


# --- Browser tests (tests/web/browser.py) -------------------------------------------------------


@pytest.fixture(scope="module")
def orm_beside_playwright() -> Iterator[None]:
    """DJANGO_ALLOW_ASYNC_UNSAFE for a module's browser tests (tests/web/browser.py says why)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
        yield


@pytest.fixture(scope="module")
def browser(orm_beside_playwright: None) -> Iterator[Any]:
    """One headless Chromium for a module's tests."""
    from playwright.sync_api import sync_playwright

    from tests.web.browser import launch

    with sync_playwright() as playwright:
        launched = launch(playwright)
        yield launched
        launched.close()
