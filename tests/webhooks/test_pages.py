"""A league's webhook pages (issue 21 item 4, docs/organizing.md "Webhooks"): only its
organizers open them; an endpoint is added with its secret shown once; its page shows the
delivery log with status codes and errors, why it was disabled, and re-enables it."""

import re

import pytest
from django.test import Client

from tests.webhooks.receiver import Receiver
from webhooks.models import Delivery, Endpoint

pytestmark = pytest.mark.django_db(transaction=True)

PAGE = "/organize/leagues/yardkle/webhooks/"


@pytest.fixture
def organizer_client(organizer) -> Client:
    client = Client()
    client.force_login(organizer)
    return client


def _text(response) -> str:
    return str(response.content.decode())


def test_item4_only_the_league_organizers_open_the_webhook_pages(
    yardkle_league, other_organizer, endpoint
):
    outsider = Client()
    outsider.force_login(other_organizer)
    assert outsider.get(PAGE).status_code == 403
    assert outsider.get(f"{PAGE}{endpoint.pk}/").status_code == 403
    assert outsider.post(f"{PAGE}{endpoint.pk}/rotate/").status_code == 403
    assert Client().get(PAGE).status_code == 302  # to sign in
    assert Endpoint.objects.get().secret == endpoint.secret


def test_item4_an_endpoint_is_added_and_its_secret_shown_once(
    yardkle_league, organizer_client, receiver: Receiver
):
    added = organizer_client.post(
        PAGE, {"url": receiver.url, "events": ["match.finished", "event.finished"]}
    )
    assert added.status_code == 200
    endpoint = Endpoint.objects.get()
    assert endpoint.events == ["match.finished", "event.finished"]
    assert endpoint.secret in _text(added)
    assert "shown only this once" in _text(added)
    assert added["Cache-Control"] == "no-store"
    for page in (PAGE, f"{PAGE}{endpoint.pk}/"):
        assert endpoint.secret not in _text(organizer_client.get(page))
    rotated = organizer_client.post(f"{PAGE}{endpoint.pk}/rotate/")
    new_secret = Endpoint.objects.get().secret
    assert new_secret != endpoint.secret
    assert new_secret in _text(rotated)


def test_an_endpoint_sent_again_as_a_reload_does_is_refused_not_made_twice(
    yardkle_league, organizer_client, receiver: Receiver
):
    """The secret's page answers the POST itself (it is shown once, kept nowhere), so a
    reload sends the form again: a second endpoint of the same address would have every event
    sent twice. The address is refused on the form, nothing saved."""
    form = {"url": receiver.url, "events": ["match.finished"]}
    assert organizer_client.post(PAGE, form).status_code == 200
    again = organizer_client.post(PAGE, form)
    assert again.status_code == 400
    said = _text(again)
    assert "It is taken: another endpoint of" in said
    assert "sent to it twice" in said
    assert "shown only this once" not in said
    assert Endpoint.objects.count() == 1


def test_item4_a_refused_address_is_shown_on_the_form_and_nothing_saved(
    yardkle_league, organizer_client
):
    refused = organizer_client.post(PAGE, {"url": "https://10.0.0.1/in", "events": ["ping"]})
    assert refused.status_code == 400
    refused = organizer_client.post(
        PAGE, {"url": "https://10.0.0.1/in", "events": ["match.finished"]}
    )
    assert refused.status_code == 400
    assert "only sent to public addresses" in _text(refused)
    assert Endpoint.objects.count() == 0


def test_a_note_with_a_control_character_is_refused_on_the_form_and_nothing_saved(
    yardkle_league, organizer_client, receiver: Receiver
):
    refused = organizer_client.post(
        PAGE,
        {"url": receiver.url, "events": ["match.finished"], "description": "scores\u202eboard"},
    )
    assert refused.status_code == 400
    assert "invisible or control characters (U+202E)" in _text(refused)
    assert Endpoint.objects.count() == 0


def test_item4_the_log_shows_status_codes_and_errors_and_a_disabled_endpoint_says_why(
    endpoint, receiver: Receiver, organizer_client, settings
):
    settings.WEBHOOK_DISABLE_AFTER = 2
    receiver.statuses.extend([500])
    organizer_client.post(f"{PAGE}{endpoint.pk}/test/")
    Endpoint.objects.filter(pk=endpoint.pk).update(url="http://127.0.0.1:9/closed")
    organizer_client.post(f"{PAGE}{endpoint.pk}/test/")
    page = _text(organizer_client.get(f"{PAGE}{endpoint.pk}/"))
    assert "HTTP 500" in page
    assert "connection refused" in page
    assert "Disabled" in page
    assert "Disabled after 2 failed attempts in a row; the last: connection refused." in page
    listing = _text(organizer_client.get(PAGE))
    assert "Disabled after 2 failed attempts" in listing
    assert re.search(r'class="num">2</td>\s*<td class="num">0<', listing)  # both failed
    Endpoint.objects.filter(pk=endpoint.pk).update(url=receiver.url)
    enabled = organizer_client.post(f"{PAGE}{endpoint.pk}/enable/", follow=True)
    assert "The endpoint is enabled again." in _text(enabled)
    organizer_client.post(f"{PAGE}{endpoint.pk}/test/")
    assert Delivery.objects.filter(status="delivered").count() == 1
    assert organizer_client.post(f"{PAGE}{endpoint.pk}/explode/").status_code == 404


def test_item4_the_list_shows_an_endpoint_failing_while_its_deliveries_are_retried(
    endpoint, receiver: Receiver, organizer_client
):
    receiver.statuses.extend([500])
    organizer_client.post(f"{PAGE}{endpoint.pk}/test/")
    assert Delivery.objects.get().status == "retrying"
    listing = _text(organizer_client.get(PAGE))
    assert 'On <span class="error">(1 failed attempt in a row)</span>' in listing
    assert re.search(r'class="num">0</td>\s*<td class="num">1<', listing)  # still being tried


def test_item4_an_endpoint_is_turned_off_and_deleted_from_its_page(endpoint, organizer_client):
    organizer_client.post(f"{PAGE}{endpoint.pk}/disable/")
    assert Endpoint.objects.get().disabled_reason == "Disabled by an organizer."
    refused = organizer_client.post(f"{PAGE}{endpoint.pk}/test/", follow=True)
    assert "disabled; enable it before sending it a test event" in _text(refused)
    organizer_client.post(f"{PAGE}{endpoint.pk}/delete/")
    assert Endpoint.objects.count() == 0


def test_item4_my_leagues_links_each_league_to_its_webhooks(yardkle_league, organizer_client):
    home = _text(organizer_client.get("/organize/"))
    assert 'href="/organize/leagues/yardkle/webhooks/"' in home
    assert 'aria-label="Webhooks of Backyard Yardkle"' in home
