"""A real HTTP receiver for the webhook tests: `http.server` in a thread on 127.0.0.1 that
records every request (headers and raw body), answers with the statuses it is told to (200
once they run out), and can hold its answer until the test opens a gate."""

import threading
import time
from collections import deque
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass
class Received:
    headers: dict[str, str]
    body: bytes
    path: str
    gate_was_open: bool | None = None  # held requests: whether the gate opened before timing out


@dataclass
class Receiver:
    url: str = ""
    statuses: deque[int] = field(default_factory=deque)
    requests: list[Received] = field(default_factory=list)
    gate: threading.Event | None = None
    arrived: threading.Event = field(default_factory=threading.Event)
    answered: int = 0

    def wait_for(self, count: int, timeout: float = 30) -> None:
        """Block until `count` requests have been answered (fail after `timeout`: a hang)."""
        deadline = time.monotonic() + timeout
        while self.answered < count:
            assert time.monotonic() < deadline, f"{self.answered} of {count} requests answered"
            time.sleep(0.02)


class _Handler(BaseHTTPRequestHandler):
    server: Any

    def do_POST(self) -> None:
        receiver: Receiver = self.server.receiver
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        received = Received(dict(self.headers.items()), body, self.path)
        receiver.requests.append(received)
        receiver.arrived.set()
        if receiver.gate is not None:
            received.gate_was_open = receiver.gate.wait(timeout=60)
        status = receiver.statuses.popleft() if receiver.statuses else 200
        try:
            self.send_response(status)
            self.send_header("Content-Type", "text/plain")
            self.end_headers()
            self.wfile.write(f"answered {status} ".encode() + b"x" * 2000)
        finally:
            receiver.answered += 1

    def log_message(self, format: str, *args: Any) -> None:
        pass


@contextmanager
def running_receiver() -> Iterator[Receiver]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    server.daemon_threads = True
    receiver = Receiver(url=f"http://127.0.0.1:{server.server_address[1]}/yard-hook")
    server.receiver = receiver  # type: ignore[attr-defined]
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield receiver
    finally:
        if receiver.gate is not None:
            receiver.gate.set()
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)
