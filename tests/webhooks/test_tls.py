"""Webhooks over real TLS (issue 21 item 4): the request goes to the address that was checked
while the certificate is checked against the endpoint's name (and the Host header carries it);
a certificate the trust store does not know delivers nothing. The receiver is http.server
behind ssl on 127.0.0.1 with a certificate for `localhost` from a throwaway CA (openssl)."""

import shutil
import ssl
import subprocess
import threading
from collections.abc import Iterator
from http.server import HTTPServer
from pathlib import Path
from typing import Any

import pytest
import requests

from tests.webhooks.receiver import Receiver, _Handler
from tests.webhooks.test_deliveries import verified
from webhooks import services
from webhooks.models import DeliveryStatus

pytestmark = [
    pytest.mark.skipif(shutil.which("openssl") is None, reason="needs the openssl command"),
    pytest.mark.django_db(transaction=True),
]


def _openssl(*args: str, cwd: Path) -> None:
    subprocess.run(["openssl", *args], cwd=cwd, check=True, capture_output=True)


@pytest.fixture(scope="module")
def certificates(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A CA, and a certificate it signed for the name `localhost`."""
    where = tmp_path_factory.mktemp("tls")
    _openssl(
        "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=Test CA",
        "-keyout", "ca.key", "-out", "ca.pem",
        "-addext", "basicConstraints=critical,CA:TRUE",
        "-addext", "keyUsage=critical,keyCertSign",
        cwd=where,
    )  # fmt: skip
    _openssl(
        "req", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=localhost",
        "-keyout", "leaf.key", "-out", "leaf.csr",
        cwd=where,
    )  # fmt: skip
    (where / "ext.cnf").write_text("subjectAltName=DNS:localhost\nbasicConstraints=CA:FALSE\n")
    _openssl(
        "x509", "-req", "-in", "leaf.csr", "-CA", "ca.pem", "-CAkey", "ca.key",
        "-CAcreateserial", "-days", "1", "-extfile", "ext.cnf", "-out", "leaf.pem",
        cwd=where,
    )  # fmt: skip
    return where


@pytest.fixture
def tls_receiver(certificates: Path) -> Iterator[Receiver]:
    server = HTTPServer(("127.0.0.1", 0), _Handler)
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(certificates / "leaf.pem", certificates / "leaf.key")
    server.socket = context.wrap_socket(server.socket, server_side=True)
    receiver = Receiver(url=f"https://localhost:{server.server_address[1]}/tls-hook")
    server.receiver = receiver  # type: ignore[attr-defined]
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield receiver
    server.shutdown()
    server.server_close()
    thread.join(timeout=10)


def test_item4_an_unknown_certificate_delivers_nothing(yardkle_league, tls_receiver):
    endpoint = services.endpoint_create(
        league=yardkle_league, url=tls_receiver.url, events=["event.finished"]
    )
    delivery = services.endpoint_ping(endpoint_id=endpoint.pk)
    delivery.refresh_from_db()
    assert delivery.last_error == "TLS error: the certificate or handshake failed"
    assert tls_receiver.requests == []


def test_item4_a_trusted_certificate_for_the_name_delivers_to_the_checked_address(
    yardkle_league, tls_receiver, certificates, monkeypatch
):
    # The one thing changed: the test CA is trusted (no public CA signs for this machine).
    merge = requests.Session.merge_environment_settings

    def trusting(self: requests.Session, *args: Any, **kwargs: Any) -> dict[str, Any]:
        merged: dict[str, Any] = merge(self, *args, **kwargs)
        return {**merged, "verify": str(certificates / "ca.pem")}

    monkeypatch.setattr(requests.Session, "merge_environment_settings", trusting)
    endpoint = services.endpoint_create(
        league=yardkle_league, url=tls_receiver.url, events=["event.finished"]
    )
    delivery = services.endpoint_ping(endpoint_id=endpoint.pk)
    delivery.refresh_from_db()
    assert delivery.status == DeliveryStatus.DELIVERED, delivery.last_error
    (request,) = tls_receiver.requests
    assert request.headers["Host"] == tls_receiver.url.split("/")[2]  # localhost:<port>
    assert request.path == "/tls-hook"
    verified(request, endpoint.secret)
