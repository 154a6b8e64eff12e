"""The demo data (issue 21): a league with a webhook endpoint that points at nothing real, its
deliveries failing visibly in the log."""

import pytest
from django.core.management import CommandError, call_command
from django.test import override_settings

from league.models import League, Player
from webhooks.models import Delivery, DeliveryStatus, Endpoint


@pytest.mark.django_db(transaction=True)
@override_settings(DEBUG=True)
def test_item4_the_demo_has_a_webhook_endpoint_whose_deliveries_fail_visibly():
    call_command("load_demo")
    endpoint = Endpoint.objects.get()
    assert endpoint.url == "https://hooks.invalid/yard"
    assert endpoint.league.slug == "sunday-yardkle"
    events = set(Delivery.objects.values_list("event", flat=True))
    assert {"match.finished", "standings.changed", "ping"} <= events
    for delivery in Delivery.objects.all():
        assert delivery.status == DeliveryStatus.RETRYING  # tried once in-process; no worker
        assert delivery.last_error.startswith("DNS: ")
    count = Delivery.objects.count()
    call_command("load_demo")
    assert (Endpoint.objects.count(), Delivery.objects.count()) == (1, count)


@pytest.mark.django_db
def test_the_webhook_demo_alone_refuses_to_touch_a_real_league_with_debug_off():
    # A production league may well be called Sunday Yardkle: the command, listed by
    # `manage.py help`, added an event with a simulated match to it and an endpoint at nothing.
    league = League.objects.create(name="Sunday Yardkle", slug="sunday-yardkle", game="yardkle")
    league.players.add(
        *(Player.objects.create(display_name=name, handle=name.lower()) for name in ("Ann", "Bob"))
    )
    with pytest.raises(CommandError, match="DEBUG"):
        call_command("load_webhook_demo")
    assert not Endpoint.objects.exists()
    assert not league.events.exists()
