"""nginx in front of the harness's gunicorn processes, configured by deploy/nginx/yardleague.conf,
the file docker-compose.yml mounts. Only its `listen` line and its upstream's `server` line are
pointed at this machine (one `server` line per gunicorn port: nginx then round-robins across
them, as it does across compose's `web` replicas); nginx is Debian's binary, started with a
prefix of its own (no system service, no daemon)."""

from __future__ import annotations

import http.client
import os
import shutil
import signal
import subprocess
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from tests.system.stack import LOGS, ROOT, free_port

NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
CONF = ROOT / "deploy" / "nginx" / "yardleague.conf"
# The address of the gunicorn that answered, added to every answer by the test's copy of the
# configuration only (never by deploy/'s): which process served what.
UPSTREAM_HEADER = "X-Yardleague-Upstream"


def _swap(text: str, old: str, new: str) -> str:
    assert text.count(old) == 1, f"{CONF.name} no longer has exactly one {old!r}"
    return text.replace(old, new)


def site_config(*, listen: int, upstreams: Sequence[int], name_upstream: bool = False) -> str:
    """deploy/nginx/yardleague.conf listening on 127.0.0.1:`listen`, its upstream the gunicorn
    processes on `upstreams` (and each answer naming the one that served it if
    `name_upstream`)."""
    site = CONF.read_text()
    site = _swap(site, "listen 80 default_server;", f"listen 127.0.0.1:{listen} default_server;")
    servers = "\n    ".join(f"server 127.0.0.1:{port};" for port in upstreams)
    site = _swap(site, "server web:8000 resolve;", servers)
    if name_upstream:
        site = _swap(
            site,
            "proxy_pass http://yardleague_web;",
            "proxy_pass http://yardleague_web;\n"
            f"        add_header {UPSTREAM_HEADER} $upstream_addr always;",
        )
    return site


def nginx_config(
    *, prefix: Path, listen: int, upstreams: Sequence[int], name_upstream: bool = False
) -> Path:
    """`site_config` inside a main configuration of the test's own (no daemon, pid and
    temporary files under `prefix`)."""
    site = site_config(listen=listen, upstreams=upstreams, name_upstream=name_upstream)
    (prefix / "yardleague.conf").write_text(site)
    user = "user root root;" if os.geteuid() == 0 else ""  # workers must reach the prefix
    main = f"""
daemon off;
master_process on;
worker_processes 1;
{user}
pid {prefix}/nginx.pid;
error_log {prefix}/error.log info;
events {{ worker_connections 512; }}
http {{
    default_type application/octet-stream;
    client_body_temp_path {prefix}/body;
    proxy_temp_path {prefix}/proxy;
    fastcgi_temp_path {prefix}/fastcgi;
    uwsgi_temp_path {prefix}/uwsgi;
    scgi_temp_path {prefix}/scgi;
    include {prefix}/yardleague.conf;
}}
"""
    path = prefix / "nginx.conf"
    path.write_text(main)
    return path


@dataclass
class Proxy:
    port: int
    log: Path

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def read_log(self) -> str:
        return self.log.read_text(errors="replace") if self.log.exists() else ""


def status(port: int, path: str, timeout: float = 2.0) -> int | None:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        connection.request("GET", path)
        return connection.getresponse().status
    except OSError:
        return None
    finally:
        connection.close()


@contextmanager
def running_nginx(
    *, name: str, prefix: Path, upstreams: Sequence[int], name_upstream: bool = False
) -> Iterator[Proxy]:
    """nginx on a free port in front of `upstreams`, answering /healthz when this yields; its
    log in artifacts/system/<name>-nginx.log. Stopped (fast shutdown) afterwards."""
    port = free_port()
    config = nginx_config(
        prefix=prefix, listen=port, upstreams=upstreams, name_upstream=name_upstream
    )
    log = LOGS / f"{name}-nginx.log"
    log.unlink(missing_ok=True)
    with log.open("ab") as out:
        process = subprocess.Popen(
            [NGINX, "-p", str(prefix), "-c", str(config)],
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    started = Proxy(port=port, log=log)
    try:
        deadline = time.monotonic() + 10
        while status(port, "/healthz") != 200:
            assert process.poll() is None, f"nginx exited:\n{started.read_log()}"
            assert time.monotonic() < deadline, f"nginx did not answer:\n{started.read_log()}"
            time.sleep(0.1)
        yield started
    finally:
        os.killpg(process.pid, signal.SIGTERM)  # fast shutdown: slow clients are not waited for
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=10)
