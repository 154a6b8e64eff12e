"""A gunicorn worker keeps what it loaded out of the garbage collector's full collections
(config/gunicorn.conf.py's `post_worker_init` calls config/workers.py's
`freeze_loaded_objects`; docs/benchmarks.md, "End to end")."""

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# As a worker runs it after loading the app: config.wsgi, then the config file's hook.
WORKER = """
import gc, json, logging, runpy, sys
from types import SimpleNamespace
import config.wsgi
hooks = runpy.run_path("config/gunicorn.conf.py")
loaded_before = "api.views" in sys.modules
worker = SimpleNamespace(log=SimpleNamespace(access_log=logging.getLogger("gunicorn.access")))
hooks["post_worker_init"](worker)
print(json.dumps({
    "loaded_before": loaded_before,
    "views_loaded": all(m in sys.modules for m in ("api.views", "league.pages.views")),
    "frozen": gc.get_freeze_count(),
    "tracked": len(gc.get_objects()),
}))
"""


def test_a_worker_loads_every_view_then_freezes_what_it_holds(empty_database_url):
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings.dev",
        "DATABASE_URL": empty_database_url,
    }
    done = subprocess.run(
        [sys.executable, "-c", WORKER], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout.strip().splitlines()[-1])
    assert not found["loaded_before"]  # the URLconf's views load on the first request otherwise
    assert found["views_loaded"]
    # Everything alive is frozen: a full collection walks none of it.
    assert found["frozen"] > 50_000
    assert found["tracked"] < 1_000
