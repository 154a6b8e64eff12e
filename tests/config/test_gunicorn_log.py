"""gunicorn's access log as production writes it (config/gunicorn.conf.py): the path without
its query string, and the secret of a table's short link or a player's sign-up link redacted.
A real gunicorn with the project's config file, on a free port."""

import contextlib
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _get(port: int, path: str) -> None:
    with contextlib.suppress(urllib.error.HTTPError):  # only the line in the log matters
        urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=10).read()


def test_the_gunicorn_access_log_redacts_scoring_keys_short_links_and_sign_up_links(
    tmp_path, empty_database_url
):
    port = _free_port()
    secret = "s3c" + os.urandom(6).hex()
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings.dev",
        "DATABASE_URL": empty_database_url,  # no tables: 500s are fine
    }
    command = [
        str(Path(sys.executable).with_name("gunicorn")),
        "config.wsgi",
        "--config",
        "config/gunicorn.conf.py",
        "--bind",
        f"127.0.0.1:{port}",
        "--workers",
        "1",
    ]
    log = tmp_path / "gunicorn.log"
    with log.open("wb") as out:
        server = subprocess.Popen(command, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                _get(port, "/healthz")
                break
            except OSError:
                assert time.monotonic() < deadline, log.read_text()
                time.sleep(0.2)
        for path in (
            f"/t/4/{secret}",
            f"/sign-up/{secret}/",
            f"/matches/4/score/?key={secret}",
        ):
            _get(port, path)
        expected = (
            '"GET /t/4/[redacted] ',
            '"GET /sign-up/[redacted]/ ',
            '"GET /matches/4/score/ ',
        )
        while not all(line in log.read_text() for line in expected):
            assert time.monotonic() < deadline, log.read_text()[-3000:]
            time.sleep(0.2)
    finally:
        server.terminate()
        server.wait(timeout=20)
    assert secret not in log.read_text()
