"""The league night most tests of league's services play: a Yardkle league, its first event,
and six players on its roster; and the Yardzee cup the tests of stages fed by other stages
play (`event`; a module that needs another event defines its own)."""

import pytest

from league.models import Event, League
from tests.league.services.league_night import new_players


@pytest.fixture
def league_event(organizer) -> Event:
    league = League.objects.create(name="Yardkle Nights", slug="nights", game="yardkle")
    league.organizers.add(organizer)
    return Event.objects.create(league=league, name="Night 1", date="2026-08-01")


@pytest.fixture
def field(league_event) -> list[int]:
    """Six players on the league's roster (its stages seat only those): made after it."""
    return new_players("P", 6)


@pytest.fixture
def event(organizer) -> Event:
    league = League.objects.create(name="Backyard Yardzee", slug="yz", game="yardzee")
    league.organizers.add(organizer)
    return Event.objects.create(league=league, name="Cup", date="2026-07-01")
