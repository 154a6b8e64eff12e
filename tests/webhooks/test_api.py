"""Webhooks over the API (issue 21 item 4): leagues/{slug}/webhooks/ for the league's
organizers only; the secret in the answer once; bad input a 400 with a code that changes
nothing; re-enable, rotate, a test event and the delivery log."""

import pytest

from tests.conftest import client_for
from webhooks import services
from webhooks.errors import WebhookError
from webhooks.models import Delivery, Endpoint

pytestmark = pytest.mark.django_db(transaction=True)

URL = "/api/v1/leagues/yardkle/webhooks/"


def _create(client, **body):
    return client.post(URL, {"events": ["match.finished"], **body}, format="json")


def test_item4_an_organizer_registers_an_endpoint_and_sees_its_secret_once(
    yardkle_league, organizer, receiver
):
    client = client_for(organizer)
    created = _create(client, url=receiver.url, description="scoreboard")
    assert created.status_code == 201, created.json()
    body = created.json()
    assert body["secret"].startswith("whsec_")
    assert body["events"] == ["match.finished"]
    assert body["enabled"] is True
    listed = client.get(URL).json()
    assert [e["id"] for e in listed] == [body["id"]]
    assert "secret" not in listed[0]
    assert "secret" not in client.get(f"{URL}{body['id']}/").json()
    rotated = client.post(f"{URL}{body['id']}/rotate-secret/").json()
    assert rotated["secret"] not in (body["secret"], "")
    assert Endpoint.objects.get().secret == rotated["secret"]


def test_an_address_the_league_has_an_endpoint_for_is_refused(yardkle_league, organizer, receiver):
    client = client_for(organizer)
    first = _create(client, url=receiver.url).json()
    again = _create(client, url=receiver.url)
    assert again.status_code == 400
    assert (again.json()["code"], again.json()["details"]) == ("url_taken", {"field": "url"})
    other = _create(client, url=receiver.url + "/other").json()
    moved = client.patch(f"{URL}{other['id']}/", {"url": receiver.url}, format="json")
    assert moved.status_code == 400
    assert moved.json()["code"] == "url_taken"
    kept = client.patch(f"{URL}{first['id']}/", {"url": receiver.url}, format="json")
    assert kept.status_code == 200  # its own address is no other's
    assert Endpoint.objects.count() == 2


def test_item4_only_the_league_organizers_see_or_change_its_webhooks(
    yardkle_league, organizer, other_organizer, receiver
):
    endpoint_id = _create(client_for(organizer), url=receiver.url).json()["id"]
    assert client_for(None).get(URL).status_code == 401
    outsider = client_for(other_organizer)
    assert outsider.get(URL).status_code == 403
    assert outsider.get(f"{URL}{endpoint_id}/deliveries/").status_code == 403
    assert _create(outsider, url=receiver.url).json()["code"] == "permission_denied"
    assert outsider.post(f"{URL}{endpoint_id}/rotate-secret/").status_code == 403
    # Another league's address does not reach this endpoint.
    elsewhere = client_for(other_organizer).get(
        f"/api/v1/leagues/elsewhere/webhooks/{endpoint_id}/"
    )
    assert elsewhere.status_code == 404
    assert elsewhere.json()["code"] == "not_found"


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"url": "http://hooks.example.org/in"}, "invalid_url"),
        ({"url": "ftp://hooks.example.org/in"}, "invalid_url"),
        ({"url": "https://user:pw@hooks.example.org/in"}, "invalid_url"),
        ({"url": "https://10.1.2.3/in"}, "url_not_allowed"),
        ({"url": "https://169.254.169.254/latest/meta-data"}, "url_not_allowed"),
        ({"url": "https://[fd00::1]/in"}, "url_not_allowed"),
        ({"url": "https://hooks.example.org/in", "events": ["match.started"]}, "invalid"),
        ({"url": "https://hooks.example.org/in", "events": []}, "invalid_events"),
        ({"url": "https://hooks.example.org" + "/x" * 300}, "invalid_url"),
        # Addresses in other spellings are the addresses they name.
        ({"url": "https://167772161/in"}, "url_not_allowed"),  # 10.0.0.1 as one number
        ({"url": "https://10.1/in"}, "url_not_allowed"),
        ({"url": "https://0xa.0.0.1/in"}, "url_not_allowed"),
        ({"url": "https://012.0.0.1/in"}, "url_not_allowed"),
        ({"url": "https://10.0.0.1./in"}, "url_not_allowed"),
        ({"url": "https://[2002:a00:1::]/in"}, "url_not_allowed"),  # 6to4 of 10.0.0.1
        ({"url": "https://[64:ff9b::a00:1]/in"}, "url_not_allowed"),  # NAT64 of 10.0.0.1
        # Not a host name at all, or a line break urlsplit would have dropped.
        ({"url": "https://hooks example.org/in"}, "invalid_url"),
        ({"url": "https://hooks..example.org/in"}, "invalid_url"),
        ({"url": "https://-hooks.example.org/in"}, "invalid_url"),
        ({"url": "https://hooks.example.org/in\nX-Evil: 1"}, "invalid_url"),
        ({"url": "https://hooks.example.org:0/in"}, "invalid_url"),
    ],
)
def test_item4_a_refused_endpoint_is_a_400_with_a_code_and_saves_nothing(
    yardkle_league, organizer, body, code
):
    response = _create(client_for(organizer), **body)
    assert response.status_code == 400, response.json()
    assert response.json()["code"] == code
    assert response.json()["message"]
    if code in ("invalid_url", "url_not_allowed"):  # the field, as url_taken names it
        assert response.json()["details"]["field"] == "url"
    assert Endpoint.objects.count() == 0


def test_item4_loopback_endpoints_are_refused_unless_the_setting_allows_them(
    yardkle_league, organizer, settings
):
    settings.WEBHOOK_ALLOW_LOOPBACK = False
    client = client_for(organizer)
    for url in (
        "https://127.0.0.1/in",
        "https://localhost/in",
        "http://127.0.0.1:8000/in",
        "https://2130706433/in",
        "https://127.1/in",
        "https://0x7f.0.0.1/in",
        "https://localhost./in",
        "https://127.0.0.1./in",
        "https://[::ffff:7f00:1]/in",
        "https://[2002:7f00:1::]/in",
    ):
        response = _create(client, url=url)
        assert response.json()["code"] == "url_not_allowed", url
    settings.WEBHOOK_ALLOW_LOOPBACK = True
    assert _create(client, url="http://127.0.0.1:8000/in").status_code == 201


def test_item4_a_test_event_the_delivery_log_and_re_enabling(
    yardkle_league, organizer, receiver, settings
):
    settings.WEBHOOK_DISABLE_AFTER = 1
    client = client_for(organizer)
    endpoint_id = _create(client, url=receiver.url).json()["id"]
    receiver.statuses.extend([500])
    sent = client.post(f"{URL}{endpoint_id}/test/")
    assert sent.status_code == 202
    assert sent.json()["event"] == "ping"
    endpoint = client.get(f"{URL}{endpoint_id}/").json()
    assert endpoint["enabled"] is False
    assert "HTTP 500" in endpoint["disabled_reason"]
    refused = client.post(f"{URL}{endpoint_id}/test/")
    assert refused.status_code == 409
    assert refused.json()["code"] == "endpoint_disabled"
    assert Delivery.objects.count() == 1
    enabled = client.post(f"{URL}{endpoint_id}/enable/").json()
    assert (enabled["enabled"], enabled["failures"], enabled["disabled_reason"]) == (True, 0, "")
    assert client.post(f"{URL}{endpoint_id}/test/").status_code == 202
    log = client.get(f"{URL}{endpoint_id}/deliveries/").json()
    assert log["count"] == 2
    newest, oldest = log["results"]
    assert newest["status"] == "delivered"
    assert [a["status_code"] for a in newest["attempt_log"]] == [200]
    assert oldest["status"] == "failed"
    assert oldest["last_status_code"] == 500
    assert oldest["attempt_log"][0]["response_excerpt"].startswith("answered 500")


def test_item4_an_organizer_changes_turns_off_and_deletes_an_endpoint(
    yardkle_league, organizer, receiver
):
    client = client_for(organizer)
    endpoint_id = _create(client, url=receiver.url).json()["id"]
    changed = client.patch(
        f"{URL}{endpoint_id}/",
        {"events": ["stage.finished", "event.finished"], "enabled": False},
        format="json",
    ).json()
    assert changed["events"] == ["stage.finished", "event.finished"]
    assert changed["enabled"] is False
    assert changed["disabled_reason"] == "Disabled by an organizer."
    bad = client.patch(f"{URL}{endpoint_id}/", {"url": "https://10.0.0.1/"}, format="json")
    assert bad.json()["code"] == "url_not_allowed"
    assert Endpoint.objects.get().url == receiver.url
    assert client.delete(f"{URL}{endpoint_id}/").status_code == 204
    assert Endpoint.objects.count() == 0


def test_item4_a_league_has_at_most_ten_endpoints(yardkle_league, organizer, receiver):
    client = client_for(organizer)
    for n in range(10):
        assert _create(client, url=f"{receiver.url}/{n}").status_code == 201
    refused = _create(client, url=f"{receiver.url}/10")
    assert refused.status_code == 400
    assert refused.json()["code"] == "too_many_endpoints"
    assert refused.json()["details"] == {"limit": 10}
    assert Endpoint.objects.count() == 10


@pytest.mark.parametrize(
    ("description", "characters"),
    [
        ("scores\u202edraoB", ["U+202E"]),  # a right-to-left override reverses what follows
        ("line one\nline two", ["U+000A"]),
        ("bell\u0007", ["U+0007"]),
        ("zero\u200bwidth", ["U+200B"]),
    ],
)
def test_a_note_holding_invisible_or_control_characters_is_refused_and_changes_nothing(
    yardkle_league, organizer, receiver, description, characters
):
    """A webhook's note is shown on the organizer pages: like a name, it may not hold control
    or format characters (400 `invalid_description`, `details.characters`), on creation and on
    a change; the endpoint is left as it was."""
    client = client_for(organizer)
    created = _create(client, url=receiver.url, description=description)
    assert created.status_code == 400, created.json()
    assert created.json()["code"] == "invalid_description"
    assert created.json()["details"] == {"field": "description", "characters": characters}
    assert Endpoint.objects.count() == 0
    endpoint_id = _create(client, url=receiver.url, description="scoreboard").json()["id"]
    changed = client.patch(f"{URL}{endpoint_id}/", {"description": description}, format="json")
    assert changed.status_code == 400, changed.json()
    assert changed.json()["code"] == "invalid_description"
    assert Endpoint.objects.get().description == "scoreboard"


def test_a_note_longer_than_stored_is_refused_not_cut(yardkle_league, receiver):
    """The service refuses a note over 200 characters (`invalid_description`, as the API's
    field and the page's form do) rather than storing its first 200: nothing is lost."""
    with pytest.raises(WebhookError) as refused:
        services.endpoint_create(
            league=yardkle_league,
            url=receiver.url,
            events=["match.finished"],
            description="n" * 201,
        )
    assert refused.value.code == "invalid_description"
    assert refused.value.message == "The note has at most 200 characters; this one has 201."
    assert Endpoint.objects.count() == 0
    kept = services.endpoint_create(
        league=yardkle_league, url=receiver.url, events=["match.finished"], description="n" * 200
    )
    assert kept.description == "n" * 200


def test_an_endpoint_registered_with_enabled_false_is_off_until_enabled(
    yardkle_league, organizer, receiver
):
    """`enabled` is a field of the endpoint: `false` on registration is kept (it was ignored,
    and the endpoint answered as on), as on a change."""
    client = client_for(organizer)
    created = _create(client, url=receiver.url, enabled=False)
    assert created.status_code == 201, created.json()
    assert created.json()["enabled"] is False
    assert created.json()["disabled_reason"] == "Disabled by an organizer."
    assert Endpoint.objects.get().enabled is False
    enabled = client.post(f"{URL}{created.json()['id']}/enable/")
    assert enabled.json()["enabled"] is True


def test_a_body_sent_to_enable_rotate_or_test_is_refused_not_ignored(endpoint, organizer):
    """enable/, rotate-secret/ and test/ take no fields: `{"secret": "mine"}` to rotate-secret/
    made a new secret of the server's, answered 200, the key ignored. Now 400 `invalid` naming
    it, and nothing changes."""
    client = client_for(organizer)
    before = Endpoint.objects.get(pk=endpoint.pk).secret
    for step, body, key in (
        ("rotate-secret", {"secret": "whsec_mine"}, "secret"),
        ("enable", {"enabled": True}, "enabled"),
        ("test", {"event": "match.finished"}, "event"),
    ):
        response = client.post(f"{URL}{endpoint.pk}/{step}/", body, format="json")
        assert response.status_code == 400, (step, response.json())
        assert list(response.json()["details"]["fields"]) == [key]
    assert Endpoint.objects.get(pk=endpoint.pk).secret == before
    assert not Delivery.objects.exists()
    assert client.post(f"{URL}{endpoint.pk}/rotate-secret/", {}, format="json").status_code == 200
