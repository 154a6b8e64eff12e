"""Migration 0018 (what the notifications need of league): a check-in already open when it
runs is taken as announced, so its players get no mail about a window that opened before
notifications existed; one still to open is announced when it opens."""

import importlib
from datetime import timedelta
from types import SimpleNamespace

import pytest
from django.apps import apps
from django.db import connection
from django.utils import timezone

from league.models import Event, League, SignUp

migration = importlib.import_module("league.migrations.0018_notification")

pytestmark = pytest.mark.django_db


def test_a_check_in_open_before_the_migration_is_not_announced_one_to_open_is(
    yardzee_league: League,
):
    now = timezone.now()
    events = [
        Event.objects.create(league=yardzee_league, name=name, date="2026-06-01")
        for name in ("Open", "Opens later", "Always open", "No check-in")
    ]
    for event, check_in, opens in zip(
        events,
        (True, True, True, False),
        (now - timedelta(hours=1), now + timedelta(hours=1), None, None),
        strict=True,
    ):
        SignUp.objects.create(event=event, check_in=check_in, check_in_opens=opens)
    migration.open_ones_announced(apps, SimpleNamespace(connection=connection))
    announced = {
        sign_up.event.name: sign_up.check_in_announced_at is not None
        for sign_up in SignUp.objects.select_related("event")
    }
    assert announced == {
        "Open": True,
        "Opens later": False,
        "Always open": True,
        "No check-in": False,
    }
