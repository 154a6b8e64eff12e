"""gunicorn's access log as production writes it (config/gunicorn.conf.py): the path without
its query string, and the secret of a table's short link, a player's sign-up link or an
organizer's invitation redacted. And gunicorn started any other way (no config file, a log
format naming the query string and the Referer): no secret reaches its logs either
(config.wsgi guards them; issue 37, item 8).
A real gunicorn on a free port."""

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


def _get(port: int, path: str, referer: str = "") -> None:
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}")
    if referer:
        request.add_header("Referer", referer)
    with contextlib.suppress(urllib.error.HTTPError):  # only the line in the log matters
        urllib.request.urlopen(request, timeout=10).read()  # noqa: S310 - http to itself


def _gunicorn(port: int, how: list[str]) -> list[str]:
    gunicorn = str(Path(sys.executable).with_name("gunicorn"))
    return [gunicorn, "config.wsgi", *how, "--bind", f"127.0.0.1:{port}", "--workers", "1"]


def test_the_gunicorn_access_log_redacts_scoring_keys_short_links_sign_up_and_invitation_links(
    tmp_path, empty_database_url
):
    _check_the_log(tmp_path, empty_database_url, ["--config", "config/gunicorn.conf.py"])


def test_gunicorn_without_the_projects_config_logs_no_secret_either(tmp_path, empty_database_url):
    # gunicorn's default log format has the request line (%(r)s: path and query string); this
    # one adds the query string and the Referer on their own.
    fmt = '%(h)s "%(r)s" %(U)s %(q)s "%(f)s" %(s)s'
    how = ["--access-logfile", "-", "--error-logfile", "-", "--access-logformat", fmt]
    _check_the_log(tmp_path, empty_database_url, how)


def _check_the_log(tmp_path: Path, database_url: str, how: list[str]) -> None:
    port = _free_port()
    secret = "s3c" + os.urandom(6).hex()
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings.dev",
        "DATABASE_URL": database_url,  # no tables: 500s are fine
    }
    command = _gunicorn(port, how)
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
            f"/invitations/{secret}/",
            f"/matches/4/score/?key={secret}",
        ):
            _get(port, path, referer=f"http://127.0.0.1:{port}/matches/4/score/?key={secret}")
        expected = (
            "GET /t/4/[redacted]",
            "GET /sign-up/[redacted]/",
            "GET /invitations/[redacted]/",
            "GET /matches/4/score/",
        )
        while not all(line in log.read_text() for line in expected):
            assert time.monotonic() < deadline, log.read_text()[-3000:]
            time.sleep(0.2)
    finally:
        server.terminate()
        server.wait(timeout=20)
    assert secret not in log.read_text()
