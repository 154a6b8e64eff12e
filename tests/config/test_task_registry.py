"""Services enqueue jobs by name (league.services.jobs); a process that only serves the web
(no worker, which discovers tasks itself) must still know every job by that name, or each
result is only marked stale and waits for beat's sweep."""

import subprocess
import sys

from django.conf import settings

from config.celery import app
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


def test_every_job_has_its_queue_and_a_worker_without_q_takes_them_all():
    """docs/operations.md, "More than one machine": the turns' follow-ups, standings, ratings,
    analysis, webhooks and mail each on a queue of their own, the rest on the default."""
    router = app.amqp.router
    expected = {
        "analysis.forecast_match": "turns",
        "analysis.forecast_sweep": "turns",
        "league.standings_refresh": "standings",
        "league.standings_sweep": "standings",
        "league.stage_projection": "standings",
        "league.league_projection": "standings",
        "league.ratings_refresh": "ratings",
        "analysis.analyse_match": "analysis",
        "analysis.sweep": "analysis",
        "webhooks.deliver": "webhooks",
        "webhooks.sweep": "webhooks",
        "notifications.send": "mail",
        "league.event_import": settings.CELERY_TASK_DEFAULT_QUEUE,
        "games.receipts_expire": settings.CELERY_TASK_DEFAULT_QUEUE,
    }
    for task, queue in expected.items():
        assert router.route({}, task)["queue"].name == queue, task
    consumed = set(app.amqp.queues)  # what `celery worker` without -Q consumes
    assert consumed == {*expected.values()}
