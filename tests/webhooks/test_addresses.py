# ruff: noqa: RUF001, RUF002 - the ambiguous characters are what is tested
"""Issue 37, item 3: where a webhook may go. Every special-purpose range of the IANA IPv4 and
IPv6 registries is refused (tested from the one table in `webhooks.addresses`: each range's
first and last address, and an IPv4 one in the forms a resolver also reads), at registration
and at sending alike, after the host is read as a resolver reads it: `https://[::ffff:0:
127.0.0.1]/` (IPv4-translated) and `https://１２７.０.０.１/` (full-width digits) were taken at
registration. Public addresses and names still are."""

import ipaddress
import socket

import pytest

from webhooks import sender, services
from webhooks.addresses import SPECIAL_PURPOSE, normal_host, refused_range
from webhooks.errors import WebhookError

FULL_WIDTH = str.maketrans("0123456789.", "０１２３４５６７８９．")
CIRCLED = str.maketrans("123456789", "①②③④⑤⑥⑦⑧⑨")


def _ends(network: str) -> list[str]:
    net = ipaddress.ip_network(network)
    return [str(net[0]), str(net[-1])]


def _url(address: str) -> str:
    return f"https://[{address}]/in" if ":" in address else f"https://{address}/in"


def _spellings(address: str) -> list[str]:
    """The address as a URL in the forms a resolver reads as that address."""
    ip = ipaddress.ip_address(address)
    if ip.version == 6:
        return [_url(address), _url(ip.exploded), _url(address.upper())]
    return [
        _url(address),
        _url(str(int(ip))),  # one number
        _url(address.translate(FULL_WIDTH)),  # full-width digits and dots
        _url(address.replace(".", "。")),  # ideographic full stops
        _url(".".join(hex(int(part)) for part in address.split("."))),  # hex parts
        _url(f"::ffff:{address}"),  # IPv4-mapped
        _url(f"::ffff:0:{address}"),  # IPv4-translated
        _url(f"64:ff9b::{address}"),  # NAT64
    ]


@pytest.fixture
def strict(settings):
    settings.WEBHOOK_ALLOW_LOOPBACK = False


CASES = [
    (network, name, address) for network, name in SPECIAL_PURPOSE for address in _ends(network)
]


@pytest.mark.parametrize(("network", "name", "address"), CASES, ids=[c[2] for c in CASES])
def test_every_special_purpose_address_is_refused_in_every_spelling(strict, network, name, address):
    assert refused_range(ipaddress.ip_address(address))
    for url in _spellings(address):
        with pytest.raises(WebhookError) as refused:
            sender.check_url(url)
        assert refused.value.code == "url_not_allowed", url


@pytest.mark.parametrize(
    "url",
    [
        "https://[::ffff:0:127.0.0.1]/",
        "https://１２７.０.０.１/",
        "https://①②⑦.0.0.1/",
        "https://[64:ff9b:1::a00:1]/",
        "https://10.0.0.1。/",
    ],
)
def test_the_probes_addresses_are_refused_at_registration(strict, yardkle_league, url):
    with pytest.raises(WebhookError) as refused:
        services.endpoint_create(league=yardkle_league, url=url, events=["event.finished"])
    assert refused.value.code == "url_not_allowed"
    assert refused.value.details["field"] == "url"


@pytest.mark.parametrize(
    "url",
    [
        "https://hooks.example.org%2F@10.0.0.1/",
        "https://%31%30.0.0.1/",
        "https://[fe80::1%25eth0]/",
    ],
)
def test_a_host_with_a_percent_is_refused(strict, url):
    with pytest.raises(WebhookError) as refused:
        sender.check_url(url)
    assert refused.value.code in ("invalid_url", "url_not_allowed")


@pytest.mark.parametrize(
    ("url", "host"),
    [
        ("https://8.8.8.8/in", "8.8.8.8"),
        ("https://[2606:4700:4700::1111]/in", "2606:4700:4700::1111"),
        ("https://Hooks.Example.ORG./in", "hooks.example.org"),
        ("https://ｈｏｏｋｓ．ｅｘａｍｐｌｅ．ｏｒｇ/in", "hooks.example.org"),
        ("https://bücher.example/in", "xn--bcher-kva.example"),
    ],
)
def test_public_addresses_and_names_are_taken_as_a_resolver_reads_them(strict, url, host):
    parts = sender.check_url(url)
    assert normal_host(parts.hostname or "")[0] == host


@pytest.mark.django_db(transaction=True)  # the delivery's job runs once its write commits
def test_a_name_resolving_to_an_ipv4_translated_address_is_not_called(
    strict, yardkle_league, monkeypatch
):
    endpoint = services.endpoint_create(
        league=yardkle_league, url="https://hooks.example.org/in", events=["event.finished"]
    )
    answer = [(socket.AF_INET6, socket.SOCK_STREAM, 6, "", ("::ffff:0:a00:7", 443, 0, 0))]
    monkeypatch.setattr(socket, "getaddrinfo", lambda *args, **kwargs: answer)
    delivery = services.endpoint_ping(endpoint_id=endpoint.pk)
    delivery.refresh_from_db()
    assert (
        delivery.last_error == "address not allowed: hooks.example.org resolves to ::ffff:0:a00:7"
    )


def test_an_endpoint_is_stored_as_its_address_is_read(strict, yardkle_league):
    endpoint = services.endpoint_create(
        league=yardkle_league,
        url="https://ＨＯＯＫＳ．example.org./in?x=1",
        events=["event.finished"],
    )
    assert endpoint.url == "https://hooks.example.org/in?x=1"
    with pytest.raises(WebhookError) as taken:  # the same address, written another way
        services.endpoint_create(
            league=yardkle_league, url="https://HOOKS.EXAMPLE.ORG/in?x=1", events=["event.finished"]
        )
    assert taken.value.code == "url_taken"
