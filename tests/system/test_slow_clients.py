"""Slow clients (issue 14, item 6), against the production shape: gunicorn's three sync workers
behind nginx configured by deploy/nginx/yardleague.conf, the file docker-compose.yml mounts.
Only its `listen` and `server` lines are pointed at this machine (tests/system/proxy.py);
nginx is Debian's binary, started here with a prefix of its own (no system service).

A dozen clients send their headers, or their body, a byte a second: through nginx, /healthz and
a page still answer within 2 s each, and nginx's timeouts cut every one of them. The same
clients sent straight to gunicorn hold every worker, which is why nginx is there. Everything is
on 127.0.0.1, every wait is bounded, every socket is closed."""

import http.client
import os
import select
import socket
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests.system.conftest import needs_machine
from tests.system.proxy import NGINX, Proxy, running_nginx
from tests.system.proxy import status as _status
from tests.system.stack import ORGANIZER, Stack, running

WEB_WORKERS = 3  # as in docker-compose.yml
ANSWER_WITHIN = 2.0
# deploy/nginx/yardleague.conf: client_header_timeout and client_body_timeout.
HEADER_TIMEOUT = BODY_TIMEOUT = 10.0

pytestmark = [
    *needs_machine,
    pytest.mark.skipif(
        not Path(NGINX).exists(), reason="needs Debian's nginx (apt-get install nginx)"
    ),
]


@pytest.fixture(scope="module")
def stack() -> Iterator[Stack]:
    """gunicorn with production's three sync workers; no Celery worker or beat (no job here)."""
    with running(Stack(name="slow_clients", web_workers=WEB_WORKERS), workers=0, beat=False) as s:
        yield s


@pytest.fixture(scope="module")
def proxy(stack: Stack, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Proxy]:
    prefix = tmp_path_factory.mktemp("nginx")
    with running_nginx(name=stack.name, prefix=prefix, upstreams=[stack.port]) as started:
        yield started


def _timed(port: int, path: str) -> tuple[int | None, float]:
    started = time.monotonic()
    status = _status(port, path, timeout=ANSWER_WITHIN)
    return status, time.monotonic() - started


@dataclass
class SlowClient:
    """One connection that sends what it has left a byte a second, until it stops (`stall_at`
    seconds after it opened: then it only keeps the connection) or the server cuts it."""

    name: str
    sock: socket.socket
    rest: bytes
    stall_at: float = float("inf")
    opened: float = field(default_factory=time.monotonic)
    last_sent: float = 0.0
    cut_after: float | None = None
    answer: bytes = b""

    def tick(self, now: float) -> None:
        if self.cut_after is not None or not self.rest or now - self.opened >= self.stall_at:
            return
        try:
            self.sock.send(self.rest[:1])
        except OSError:
            self.cut_after = now - self.opened
            return
        self.rest = self.rest[1:]
        self.last_sent = now

    def notice_cut(self, now: float) -> None:
        """The server closed the connection (perhaps after an answer such as a 408)."""
        try:
            data = self.sock.recv(4096)
        except BlockingIOError:
            return
        except OSError:  # reset
            data = b""
        self.answer += data
        if not data:
            self.cut_after = now - self.opened


def open_slow_clients(
    port: int, *, headers: int, bodies: int, body_stall: float
) -> list[SlowClient]:
    clients = []
    for number in range(headers):
        sock = socket.create_connection(("127.0.0.1", port), timeout=5)
        request = (
            f"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: {'a' * 200}\r\n\r\n"
        ).encode()
        clients.append(SlowClient(f"headers-{number}", sock, request))
    for number in range(bodies):
        sock = socket.create_connection(("127.0.0.1", port), timeout=5)
        # The headers at once, then a body that never finishes in time.
        sock.sendall(
            b"POST /api/v1/auth/token/ HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            b"Content-Type: application/json\r\nContent-Length: 4000\r\n\r\n"
        )
        clients.append(SlowClient(f"body-{number}", sock, b"{" * 4000, stall_at=body_stall))
    for client in clients:
        client.sock.setblocking(False)
    return clients


def close_all(clients: list[SlowClient]) -> None:
    for client in clients:
        client.sock.close()


def trickle(
    clients: list[SlowClient], seconds: float, probe: Callable[[], None] | None = None
) -> None:
    """A byte a second to each client for `seconds` (or until all are cut), noticing the ones
    the server cuts; `probe()` runs once a second in between."""
    started = time.monotonic()
    next_tick = started
    while time.monotonic() - started < seconds:
        now = time.monotonic()
        if now >= next_tick:
            for client in clients:
                client.tick(now)
            if probe is not None:
                probe()
            next_tick += 1.0
        open_ = [c for c in clients if c.cut_after is None]
        if not open_:
            return
        wait = max(0.0, min(next_tick - time.monotonic(), 0.25))
        readable, _, _ = select.select([c.sock for c in open_], [], [], wait)
        for client in open_:
            if client.sock in readable:
                client.notice_cut(time.monotonic())


def test_slow_clients_through_nginx_leave_healthz_and_pages_answering_and_are_cut(
    stack: Stack, proxy: Proxy
) -> None:
    """Six clients trickle their headers and six their body (4x the gunicorn workers): every
    second /healthz and the home page through nginx answer 200 within 2 s. The header
    tricklers are cut at nginx's client_header_timeout; the body tricklers, once they stop
    sending, at its client_body_timeout."""
    body_stall = 6.0
    clients = open_slow_clients(proxy.port, headers=6, bodies=6, body_stall=body_stall)
    answers: list[tuple[str, int | None, float]] = []

    def probe() -> None:
        for path in ("/healthz", "/"):
            answers.append((path, *_timed(proxy.port, path)))

    try:
        # The attack while every client still sends: the site answers all along.
        trickle(clients, body_stall, probe)
        assert all(c.cut_after is None for c in clients), [(c.name, c.cut_after) for c in clients]
        # Then nginx's timeouts end them all (the bodies' 10 s counts from their last byte).
        trickle(clients, HEADER_TIMEOUT + BODY_TIMEOUT, probe)
    finally:
        close_all(clients)

    slow_answers = [a for a in answers if a[1] != 200 or a[2] > ANSWER_WITHIN]
    assert slow_answers == [], slow_answers
    assert len(answers) >= 2 * int(body_stall)
    worst = max(seconds for _, _, seconds in answers)
    print(f"{len(answers)} answers through nginx during the attack, the slowest {worst:.3f} s")
    for client in clients:
        assert client.cut_after is not None, f"{client.name} was never cut"
        if client.name.startswith("headers"):
            assert HEADER_TIMEOUT - 1 <= client.cut_after <= HEADER_TIMEOUT + 2, client
        else:
            # nginx times the gap between two reads of a body, so these are cut 10 s after
            # they stopped sending (a body still trickling keeps its nginx connection).
            cut_since_last_byte = client.cut_after - (client.last_sent - client.opened)
            assert BODY_TIMEOUT - 1 <= cut_since_last_byte <= BODY_TIMEOUT + 2, client
        # Closed without a word: nothing of it was passed to gunicorn.
        assert client.answer == b"", client
    print("cut after (s):", {c.name: round(c.cut_after or 0, 1) for c in clients})


def test_the_same_slow_clients_sent_straight_to_gunicorn_hold_every_worker(
    stack: Stack, proxy: Proxy
) -> None:
    """The reason for nginx: five header tricklers straight at gunicorn (three workers) and
    /healthz gets no answer within 2 s. Once they are closed gunicorn answers again."""
    clients = open_slow_clients(stack.port, headers=WEB_WORKERS + 2, bodies=0, body_stall=0)
    try:
        trickle(clients, 1.5)
        status, seconds = _timed(stack.port, "/healthz")
    finally:
        close_all(clients)
    assert status is None, (status, seconds)
    stack.wait_until(lambda: _status(stack.port, "/healthz") == 200, "gunicorn to answer", 30)


def test_a_chunked_body_through_nginx_reaches_django_whole(stack: Stack, proxy: Proxy) -> None:
    """nginx reads a chunked body whole and hands gunicorn a Content-Length: the token login
    sent in three chunks signs in."""
    body = f'{{"username": "{ORGANIZER[0]}", "password": "{ORGANIZER[1]}"}}'.encode()
    chunks = [body[:10], body[10:30], body[30:]]
    connection = http.client.HTTPConnection("127.0.0.1", proxy.port, timeout=10)
    try:
        connection.request(
            "POST",
            "/api/v1/auth/token/",
            body=iter(chunks),
            headers={"Content-Type": "application/json", "Transfer-Encoding": "chunked"},
            encode_chunked=True,
        )
        answer = connection.getresponse()
        text = answer.read().decode()
    finally:
        connection.close()
    assert answer.status == 200, text
    assert '"token"' in text


def _post(port: int, headers: dict[str, str], body: object) -> tuple[int, str, str]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        connection.request(
            "POST",
            "/api/v1/auth/token/",
            body=body,  # type: ignore[arg-type]
            headers=headers,
            encode_chunked="Transfer-Encoding" in headers,
        )
        answer = connection.getresponse()
        return answer.status, answer.getheader("Content-Type") or "", answer.read().decode()
    except (BrokenPipeError, ConnectionResetError) as error:
        return 0, "", repr(error)
    finally:
        connection.close()


def test_a_body_over_one_mebibyte_is_refused_by_nginx_with_the_api_error(
    stack: Stack, proxy: Proxy
) -> None:
    limit = 1024 * 1024
    status, kind, text = _post(
        proxy.port, {"Content-Type": "application/json", "Content-Length": str(limit + 1)}, None
    )
    assert (status, kind) == (413, "application/json"), text
    assert '"code": "request_too_large"' in text
    assert f'"limit": {limit}' in text
    chunked = iter([b"[" + b"0," * (limit // 2), b"0]"])
    status, kind, text = _post(
        proxy.port, {"Content-Type": "application/json", "Transfer-Encoding": "chunked"}, chunked
    )
    assert status == 413, text
    # Exactly the limit passes nginx (and Django, which parses it).
    status, kind, text = _post(
        proxy.port, {"Content-Type": "application/json"}, b" " * (limit - 2) + b"{}"
    )
    assert status == 400, text  # a well-formed body without a username


def test_the_nginx_access_log_has_the_path_but_no_query_string_or_referer(
    stack: Stack, proxy: Proxy
) -> None:
    secret = "k3y-" + os.urandom(6).hex()
    path = f"/no-such-page-{secret[4:]}/"  # its own line in the log, found by its path
    connection = http.client.HTTPConnection("127.0.0.1", proxy.port, timeout=5)
    try:
        connection.request(
            "GET",
            f"{path}?key={secret}",
            headers={"Referer": f"http://127.0.0.1/matches/1/score/?key={secret}-referer"},
        )
        assert connection.getresponse().status == 404
    finally:
        connection.close()
    deadline = time.monotonic() + 5
    while f'"GET {path} HTTP/1.1" 404' not in proxy.read_log():
        assert time.monotonic() < deadline, proxy.read_log()[-2000:]
        time.sleep(0.1)
    line = next(line for line in proxy.read_log().splitlines() if path in line)
    print(line)
    assert f"?key={secret}" not in proxy.read_log()
    assert "/matches/1/score/" not in proxy.read_log()


def test_the_nginx_access_log_redacts_the_secret_of_a_short_link_a_sign_up_and_an_invitation(
    stack: Stack, proxy: Proxy
) -> None:
    secret = "s3c" + os.urandom(6).hex()
    paths = (
        f"/t/4/{secret}",
        f"/sign-up/{secret}/",
        f"/sign-up/{secret}/check-in/",
        f"/invitations/{secret}/",
    )
    for path in paths:
        connection = http.client.HTTPConnection("127.0.0.1", proxy.port, timeout=5)
        try:
            connection.request("GET", path)
            connection.getresponse().read()
        finally:
            connection.close()
    expected = (
        "/t/4/[redacted] ",
        "/sign-up/[redacted]/ ",
        "/sign-up/[redacted]/check-in/ ",
        "/invitations/[redacted]/ ",
    )
    deadline = time.monotonic() + 5
    while not all(line in proxy.read_log() for line in expected):
        assert time.monotonic() < deadline, proxy.read_log()[-2000:]
        time.sleep(0.1)
    assert secret not in proxy.read_log()
