"""Issue 14, item 8: a body sent with `Transfer-Encoding: chunked` is read (within the size
limit) or refused with 411, never taken as empty. Called through the WSGI entry point's
wrapper the way gunicorn calls it (gunicorn undoes the chunking and sets
`wsgi.input_terminated`)."""

import io
import json
from typing import Any

import pytest
from django.core import signals
from django.core.handlers.wsgi import WSGIHandler
from django.db import close_old_connections

from config.chunked import ChunkedBodies

pytestmark = pytest.mark.django_db


def _call(body: bytes, *, terminated: bool = True, length: str = "") -> tuple[str, Any]:
    environ = {
        "REQUEST_METHOD": "POST",
        "PATH_INFO": "/api/v1/auth/token/",
        "SERVER_NAME": "testserver",
        "SERVER_PORT": "80",
        "wsgi.url_scheme": "http",
        "wsgi.input": io.BytesIO(body),
        "wsgi.errors": io.StringIO(),
        "CONTENT_TYPE": "application/json",
        "HTTP_TRANSFER_ENCODING": "chunked",
    }
    if terminated:
        environ["wsgi.input_terminated"] = True
    if length:
        environ["CONTENT_LENGTH"] = length
    answer: dict[str, str] = {}

    def start_response(status: str, headers: list[tuple[str, str]], *_: Any) -> None:
        answer["status"] = status

    # As Django's test client does: keep the test's connection (and its transaction) open.
    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    try:
        chunks = ChunkedBodies(WSGIHandler())(environ, start_response)
        content = b"".join(chunks)
    finally:
        signals.request_started.connect(close_old_connections)
        signals.request_finished.connect(close_old_connections)
    return answer["status"], json.loads(content)


def test_item_8_a_chunked_body_is_read_not_taken_as_empty(organizer):
    body = json.dumps({"username": "orga", "password": "pw-orga"}).encode()
    status, answer = _call(body)
    assert status.startswith("200"), answer
    assert answer["token"]


def test_item_8_a_chunked_body_over_the_limit_is_413(organizer, settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 100
    status, answer = _call(b'{"username": "' + b"x" * 200 + b'"}')
    assert status.startswith("413")
    assert answer["code"] == "request_too_large"


def test_item_8_a_chunked_body_a_server_cannot_delimit_is_411(organizer):
    status, answer = _call(b'{"username": "orga"}', terminated=False)
    assert status.startswith("411")
    assert answer["code"] == "length_required"
