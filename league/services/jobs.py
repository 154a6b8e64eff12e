"""The league's background jobs by name, enqueued through `core.jobs.enqueue_on_commit` once
the current transaction commits; the jobs that bring something up to date are sent once while
one is waiting (`enqueue_once_on_commit`), and call `job_started` first. Services never import
`league.tasks` (which imports them), so the two stay one-way: tasks -> services."""

from core.jobs import enqueue_on_commit, enqueue_once_on_commit, job_started

STANDINGS_REFRESH = "league.standings_refresh"
RATINGS_REFRESH = "league.ratings_refresh"
EVENT_IMPORT = "league.event_import"
STAGE_PROJECTION = "league.stage_projection"
LEAGUE_PROJECTION = "league.league_projection"

__all__ = [
    "EVENT_IMPORT",
    "LEAGUE_PROJECTION",
    "RATINGS_REFRESH",
    "STAGE_PROJECTION",
    "STANDINGS_REFRESH",
    "enqueue_on_commit",
    "enqueue_once_on_commit",
    "job_started",
]
