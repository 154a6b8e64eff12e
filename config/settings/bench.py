"""Production settings plus the floor endpoint of the end-to-end benchmark
(`benchmarks/test_system_perf.py`): `POST /bench/floor/` inserts one row. Never deployed."""

from config.settings.production import *  # noqa: F403

INSTALLED_APPS = [*INSTALLED_APPS, "benchmarks.floor"]  # noqa: F405
ROOT_URLCONF = "benchmarks.floor.urls"
