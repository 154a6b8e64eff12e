"""The league's background jobs by name, enqueued through `core.jobs.enqueue_on_commit` once
the current transaction commits; the jobs that bring something up to date are sent once while
one is waiting (`enqueue_once_on_commit`), and call `job_started` first. Services never import
`league.tasks` (which imports them), so the two stay one-way: tasks -> services."""

from core.jobs import enqueue_on_commit, enqueue_once_on_commit, job_started, wait_longer

STANDINGS_REFRESH = "league.standings_refresh"
RATINGS_REFRESH = "league.ratings_refresh"
EVENT_IMPORT = "league.event_import"
STAGE_PROJECTION = "league.stage_projection"
LEAGUE_PROJECTION = "league.league_projection"

# A league's chances (to win it, to finish in each place) after a result: the results of half a
# minute are one projection, which costs a second or more of a core for a few hundred players
# (docs/analysis.md, "Chance to win the league"), on the cores that serve a night's turns.
LEAGUE_PROJECTION_WAIT = 30.0
wait_longer(LEAGUE_PROJECTION, LEAGUE_PROJECTION_WAIT)

__all__ = [
    "EVENT_IMPORT",
    "LEAGUE_PROJECTION",
    "LEAGUE_PROJECTION_WAIT",
    "RATINGS_REFRESH",
    "STAGE_PROJECTION",
    "STANDINGS_REFRESH",
    "enqueue_on_commit",
    "enqueue_once_on_commit",
    "job_started",
]
