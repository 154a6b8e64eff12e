"""A fresh Python process with Django set up, for the tests of what the settings make of the
environment (this process's own settings were fixed when it started)."""

import os
import secrets
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def django_process(
    code: str, environment: Mapping[str, str], *, check: bool = False
) -> subprocess.CompletedProcess[str]:
    """`django.setup()`, then `code`, in a new Python in the project's root with exactly
    `environment`; what it printed is captured."""
    return subprocess.run(
        [sys.executable, "-c", f"import django; django.setup(); {code}"],
        cwd=ROOT,
        env=dict(environment),
        capture_output=True,
        text=True,
        timeout=60,
        check=check,
    )


def production_environment(**environment: str) -> dict[str, str]:
    """This process's environment with the production settings, a fresh secret key and an
    allowed host, and `environment` on top."""
    return {
        **os.environ,
        # Production has no embedded database: without a URL of the tests' own, one that the
        # settings take (these processes check the settings; none of them connects).
        "DATABASE_URL": os.environ.get("DATABASE_URL") or "postgres://league@db:5432/yards",
        "DJANGO_SETTINGS_MODULE": "config.settings.production",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "ALLOWED_HOSTS": "league.example.org",
        **environment,
    }
