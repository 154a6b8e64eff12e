"""Services enqueue jobs by name (league.services.jobs); a process that only serves the web
(no worker, which discovers tasks itself) must still know every job by that name, or each
result is only marked stale and waits for beat's sweep."""

import subprocess
import sys

from league.services import jobs

SCRIPT = """
import django
django.setup()
from celery import current_app
print(" ".join(sorted(name for name in current_app.tasks if not name.startswith("celery."))))
"""


def test_a_web_process_knows_every_job_services_enqueue_by_name():
    known = subprocess.run(
        [sys.executable, "-c", SCRIPT],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    ).stdout.split()
    assert jobs.STANDINGS_REFRESH in known
    assert jobs.RATINGS_REFRESH in known
