"""Sending one attempt of a delivery, and where it may go.

An endpoint's address is checked when it is registered (HTTPS; no address that is private,
loopback, link-local or otherwise not public) and again at every attempt, on the addresses its
name resolves to then: the request goes to the address that was checked (the name is kept for
TLS and the Host header), so a name that resolves elsewhere later cannot point a delivery at
the service's own network (SSRF). `WEBHOOK_ALLOW_LOOPBACK` lets tests and demos use loopback
addresses, over plain HTTP too; production never does.

No redirect is followed, no proxy from the environment is used, the timeouts are short and only
the first characters of the answer are read."""

import contextlib
import dataclasses
import ipaddress
import socket
import threading
import time
from typing import Any
from urllib.parse import SplitResult, urlsplit, urlunsplit

import requests
import urllib3
from django.conf import settings
from requests.adapters import HTTPAdapter

from webhooks.addresses import is_loopback, normal_host, refused_range
from webhooks.errors import WebhookError

URL_MAX_LENGTH = 500
EXCERPT_CHARS = 500
ADDRESSES_TRIED = 3  # of a name's addresses, in order, while none accepts the connection


@dataclasses.dataclass(frozen=True, slots=True)
class Outcome:
    """What one attempt met: an HTTP status, or an error (timeout, refused, not allowed)."""

    status_code: int | None = None
    error: str = ""
    excerpt: str = ""
    duration_ms: int = 0

    @property
    def ok(self) -> bool:
        return self.status_code is not None and 200 <= self.status_code < 300

    def summary(self) -> str:
        if self.status_code is None:
            return self.error
        return f"HTTP {self.status_code}" + (f" ({self.error})" if self.error else "")


def allow_loopback() -> bool:
    return bool(settings.WEBHOOK_ALLOW_LOOPBACK)


def _address_allowed(address: str) -> bool:
    """Whether a delivery may go to `address` (`webhooks.addresses`): none of the
    special-purpose ranges, but loopback where `WEBHOOK_ALLOW_LOOPBACK` allows it."""
    ip = ipaddress.ip_address(address.split("%", 1)[0])  # a resolver's zone is not part of it
    if is_loopback(ip):
        return allow_loopback()
    return not refused_range(ip)


def _is_loopback_name(host: str) -> bool:
    return host == "localhost" or host.endswith(".localhost")


def check_url(url: str) -> SplitResult:
    """The address of an endpoint, or `invalid_url` / `url_not_allowed` saying what is wrong.
    Names are resolved only when sending (a name may not resolve yet when it is registered)."""
    url = url.strip()
    if len(url) > URL_MAX_LENGTH:
        raise WebhookError(
            "invalid_url", f"The address is longer than {URL_MAX_LENGTH} characters."
        )
    if any(c.isspace() or not c.isprintable() for c in url):
        # urlsplit would drop a tab or a line break silently and keep a space in the host.
        raise WebhookError("invalid_url", "The address may not hold spaces or control characters.")
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018  (raises on a port that is not a number)
    except ValueError as error:
        raise WebhookError("invalid_url", f"The address cannot be read: {error}.") from None
    host = parts.hostname or ""
    if parts.scheme not in ("https", "http") or not host:
        raise WebhookError("invalid_url", "The address must be an https:// URL with a host name.")
    if parts.username is not None or parts.password is not None:
        raise WebhookError("invalid_url", "The address may not carry a user name or password.")
    if parts.fragment:
        raise WebhookError("invalid_url", "The address may not carry a #fragment.")
    if parts.port == 0:
        raise WebhookError("invalid_url", "The address's port must be 1 to 65535.")
    # The host as a resolver reads it (full-width or circled digits, `127.1`, IDNA, ...).
    host, literal = normal_host(host)
    loopback = _is_loopback_name(host) or (literal is not None and is_loopback(literal))
    if loopback and not allow_loopback():
        raise WebhookError(
            "url_not_allowed", "Webhooks are not sent to this machine's own (loopback) address."
        )
    if literal is not None and not _address_allowed(host):
        raise WebhookError(
            "url_not_allowed",
            f"Webhooks are only sent to public addresses; {host} is in a special-purpose "
            f"range: {refused_range(literal)}.",
            details={"range": refused_range(literal)},
        )
    if parts.scheme == "http" and not (loopback and allow_loopback()):
        raise WebhookError("invalid_url", "The address must be an https:// URL.")
    return parts


class _Deadline:
    """The end of one attempt: the sockets it opened are shut once it has passed, so a far end
    that answers a byte at a time (each within the timeout of a read) cannot hold the attempt,
    and the worker or the request sending it in-process, longer than the timeouts allow."""

    def __init__(self, seconds: float) -> None:
        self.expired = False
        self._lock = threading.Lock()
        self._sockets: list[socket.socket] = []
        self._timer = threading.Timer(seconds, self._expire)
        self._timer.daemon = True
        self._timer.start()

    def watch(self, sock: socket.socket) -> None:
        with self._lock:
            self._sockets.append(sock)
            if not self.expired:
                return
        self._shut(sock)

    def _expire(self) -> None:
        with self._lock:
            self.expired = True
            sockets = list(self._sockets)
        for sock in sockets:
            self._shut(sock)

    @staticmethod
    def _shut(sock: socket.socket) -> None:
        with contextlib.suppress(OSError):  # closed already
            sock.shutdown(socket.SHUT_RDWR)

    def cancel(self) -> None:
        self._timer.cancel()


def _watched(base: type[Any], deadline: _Deadline) -> type[Any]:
    """`base` (urllib3's connection class) whose socket `deadline` shuts when it passes."""

    class Watched(base):
        def connect(self) -> None:
            super().connect()
            deadline.watch(self.sock)

    return Watched


class _Adapter(HTTPAdapter):
    """No retries; every connection watched by the attempt's deadline."""

    def __init__(self, deadline: _Deadline) -> None:
        self._deadline = deadline
        super().__init__(max_retries=0)

    def get_connection_with_tls_context(self, *args: Any, **kwargs: Any) -> Any:
        pool = super().get_connection_with_tls_context(*args, **kwargs)
        if "ConnectionCls" not in vars(pool):  # a pool of this session's, watched once
            pool.ConnectionCls = _watched(type(pool).ConnectionCls, self._deadline)
        return pool


class _PinnedHost(_Adapter):
    """Connects to the checked address while TLS checks the certificate of the name."""

    def __init__(self, hostname: str, deadline: _Deadline) -> None:
        self._hostname = hostname
        super().__init__(deadline)

    def init_poolmanager(self, *args: Any, **kwargs: Any) -> None:
        kwargs["server_hostname"] = self._hostname
        kwargs["assert_hostname"] = self._hostname
        super().init_poolmanager(*args, **kwargs)


def _resolve(host: str, port: int) -> tuple[list[str], str]:
    """The addresses to try, in the resolver's order (at most `ADDRESSES_TRIED`), or none and
    why not: every address the name resolves to must be allowed."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError) as error:
        return [], f"DNS: {getattr(error, 'strerror', None) or error}"
    addresses = list(dict.fromkeys(str(info[4][0]) for info in infos))
    refused = [address for address in addresses if not _address_allowed(address)]
    if refused or not addresses:
        return [], f"address not allowed: {host} resolves to {', '.join(refused) or 'nothing'}"
    return addresses[:ADDRESSES_TRIED], ""


def _not_connected(error: requests.RequestException) -> bool:
    """The request never reached the far end (refused, unreachable, no connection in time):
    the next address may be tried without sending it twice."""
    reason = getattr(error.args[0], "reason", None) if error.args else None
    return isinstance(reason, urllib3.exceptions.ConnectTimeoutError)  # NewConnectionError too


def _error(error: requests.RequestException) -> str:
    if isinstance(error, requests.ConnectTimeout):
        return "timeout: no connection"
    if isinstance(error, requests.ReadTimeout):
        return "timeout: no answer"
    if isinstance(error, requests.exceptions.SSLError):
        return "TLS error: the certificate or handshake failed"
    if isinstance(error, requests.ConnectionError):
        reason = str(error.args[0] if error.args else error)
        if "refused" in reason.lower():
            return "connection refused"
        return "connection failed"
    return f"request failed: {type(error).__name__}"


def post(url: str, body: bytes, headers: dict[str, str]) -> Outcome:
    """POST `body` to `url` once; what it met. Never raises for what the far end does."""
    started = time.monotonic()

    def outcome(**fields: Any) -> Outcome:
        return Outcome(duration_ms=int((time.monotonic() - started) * 1000), **fields)

    try:
        parts = check_url(url)
    except WebhookError as error:
        return outcome(error=error.message)
    host, _ = normal_host(parts.hostname or "")
    port = parts.port or (443 if parts.scheme == "https" else 80)
    addresses, why = _resolve(host, port)
    if not addresses:
        return outcome(error=why)
    default_port = port == (443 if parts.scheme == "https" else 80)
    named = f"[{host}]" if ":" in host else host  # an IPv6 literal is bracketed in Host
    host_header = named if default_port else f"{named}:{port}"
    timeout = float(settings.WEBHOOK_TIMEOUT_SECONDS)
    # The whole attempt: the time to connect and again for the answer, its body included.
    deadline = _Deadline(2 * timeout)
    try:
        return _send(
            parts, addresses, port, host, body, {**headers, "Host": host_header}, deadline, started
        )
    finally:
        deadline.cancel()


def _send(
    parts: SplitResult,
    addresses: list[str],
    port: int,
    host: str,
    body: bytes,
    headers: dict[str, str],
    deadline: _Deadline,
    started: float,
) -> Outcome:
    timeout = float(settings.WEBHOOK_TIMEOUT_SECONDS)

    def outcome(**fields: Any) -> Outcome:
        return Outcome(duration_ms=int((time.monotonic() - started) * 1000), **fields)

    with requests.Session() as session:
        session.trust_env = False  # no proxy or .netrc from the environment
        session.mount("https://", _PinnedHost(host, deadline))
        session.mount("http://", _Adapter(deadline))
        for address in addresses:
            netloc = f"[{address}]:{port}" if ":" in address else f"{address}:{port}"
            target = urlunsplit((parts.scheme, netloc, parts.path or "/", parts.query, ""))
            try:
                response = session.post(
                    target,
                    data=body,
                    headers=headers,
                    timeout=(timeout, timeout),
                    allow_redirects=False,
                    stream=True,
                )
            except requests.RequestException as failure:
                if deadline.expired:
                    return outcome(error="timeout: no answer")
                if address != addresses[-1] and _not_connected(failure):
                    continue  # e.g. an IPv6 address this machine cannot reach: the next one
                return outcome(error=_error(failure))
            break
        with response:
            try:
                start = response.raw.read(EXCERPT_CHARS * 4, decode_content=True)
            except Exception:  # the answer's body is only a courtesy: its status is what counts
                start = b""
        excerpt = start.decode("utf-8", errors="replace")[:EXCERPT_CHARS]
        redirect = 300 <= response.status_code < 400
        return outcome(
            status_code=response.status_code,
            error="redirect not followed" if redirect else "",
            excerpt=excerpt,
        )
