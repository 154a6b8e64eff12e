"""Request bodies sent with `Transfer-Encoding: chunked` (no Content-Length).

Django reads exactly CONTENT_LENGTH bytes of a body, so a chunked body would be read as empty
and the request handled as if nothing had been sent. This WSGI wrapper reads such a body
(gunicorn has already undone the chunking) up to the same size limit as any body, and hands
Django the bytes with their length. A server that cannot tell where a chunked body ends
(it does not set `wsgi.input_terminated`) gets 411 Length Required instead: never an empty
body in place of the one sent. Behind the project's nginx a chunked body arrives with a
Content-Length already (nginx buffers it), so this is the second line of defence."""

from __future__ import annotations

import io
import json
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from django.conf import settings

if TYPE_CHECKING:
    from _typeshed.wsgi import StartResponse, WSGIApplication, WSGIEnvironment


def _error(
    start_response: StartResponse, status: str, code: str, message: str, **details: Any
) -> list[bytes]:
    from core.error_shape import error_body  # imported once Django runs

    body = json.dumps(error_body(code, message, details)).encode()
    start_response(
        status, [("Content-Type", "application/json"), ("Content-Length", str(len(body)))]
    )
    return [body]


class ChunkedBodies:
    def __init__(self, app: WSGIApplication) -> None:
        self.app = app

    def __call__(self, environ: WSGIEnvironment, start_response: StartResponse) -> Iterable[bytes]:
        chunked = "chunked" in environ.get("HTTP_TRANSFER_ENCODING", "").lower()
        if not chunked or environ.get("CONTENT_LENGTH"):
            return self.app(environ, start_response)
        if not environ.get("wsgi.input_terminated"):
            return _error(
                start_response,
                "411 Length Required",
                "length_required",
                "Send the request body with a Content-Length.",
            )
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        body = environ["wsgi.input"].read(limit + 1)
        if len(body) > limit:
            return _error(
                start_response,
                "413 Request Entity Too Large",
                "request_too_large",
                f"The request body is larger than {limit} bytes.",
                limit=limit,
            )
        environ["wsgi.input"] = io.BytesIO(body)
        environ["CONTENT_LENGTH"] = str(len(body))
        return self.app(environ, start_response)
