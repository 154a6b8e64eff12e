"""Webhook fixtures: a real local receiver, and a league endpoint pointing at it."""

from collections.abc import Iterator

import pytest

from league.models import League
from tests.webhooks.receiver import Receiver, running_receiver
from webhooks import services
from webhooks.models import SUBSCRIBABLE, Endpoint


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    with running_receiver() as running:
        yield running


@pytest.fixture
def endpoint(yardkle_league: League, receiver: Receiver, organizer) -> Endpoint:
    return services.endpoint_create(
        league=yardkle_league, url=receiver.url, events=list(SUBSCRIBABLE), created_by=organizer
    )
