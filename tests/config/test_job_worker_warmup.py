"""A Celery job process loads the strategy tables and strategies as it starts, not in its first
analysis (config/celery.py's `worker_process_init` receiver calls config/workers.py's
`warm_job_worker`; docs/benchmarks.md, "What sets the open loop's tail")."""

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# As a job process starts: the Celery app (config.celery, with Django set up), then the signal.
JOB_PROCESS = """
import gc, json, logging
import django
django.setup()
from celery.signals import worker_process_init
from config.celery import app
from analysis import strategies
from scoring.analysis import game_analysis
logging.basicConfig(level=logging.WARNING)
worker_process_init.send(sender=None)
print(json.dumps({
    "tables": strategies._loaded.cache_info().currsize,
    "yardkle": game_analysis._normal_strategy.cache_info().currsize,
    "frozen": gc.get_freeze_count(),
}))
"""


def start_job_process(database_url: str, strategy_dir: Path) -> tuple[dict[str, int], str]:
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings.dev",
        "DATABASE_URL": database_url,
        "STRATEGY_DIR": str(strategy_dir),
    }
    done = subprocess.run(
        [sys.executable, "-c", JOB_PROCESS], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.splitlines()[-1]), done.stderr


def test_a_job_process_loads_every_table_and_both_yardkle_strategies_then_freezes(
    empty_database_url, strategy_dir
):
    seen, _ = start_job_process(empty_database_url, strategy_dir)
    assert seen["tables"] == 2  # one a joker rule, as build_strategy writes them
    assert seen["yardkle"] == 2  # on the board or not, for the standard rules
    assert seen["frozen"] > 10_000


def test_a_missing_table_is_logged_and_the_process_still_starts(tmp_path, empty_database_url):
    seen, log = start_job_process(empty_database_url, tmp_path / "no-tables-here")
    assert seen["tables"] == 0
    assert "Strategy table not loaded" in log
    assert seen["yardkle"] == 2
