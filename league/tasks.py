"""Celery jobs of the organization: thin, ids in, call a service, safe to run twice.

Services enqueue them by name through `league.services.jobs`, never by importing this module,
so imports go one way: tasks -> services. A job sent once while one waits
(`jobs.enqueue_once_on_commit`) clears its mark first (`jobs.job_started`), before it reads."""

from celery import shared_task

from league.services import jobs
from league.services.imports import import_run
from league.services.league_projections import league_project
from league.services.projections import stage_project
from league.services.ratings import ratings_refresh as refresh_ratings
from league.services.registration import check_in_sweep as announce_check_ins
from league.services.standings_refresh import standings_refresh as refresh_table
from league.services.standings_refresh import standings_sweep as sweep


@shared_task(name=jobs.STANDINGS_REFRESH, acks_late=True)
def standings_refresh(table_id: int) -> bool:
    jobs.job_started(jobs.STANDINGS_REFRESH, table_id)
    return refresh_table(table_id=table_id)


@shared_task(name=jobs.RATINGS_REFRESH, acks_late=True)
def ratings_refresh(league_id: int) -> bool:
    jobs.job_started(jobs.RATINGS_REFRESH, league_id)
    return refresh_ratings(league_id=league_id)


@shared_task(name="league.standings_sweep", acks_late=True)
def standings_sweep() -> dict[str, int]:
    return sweep()


@shared_task(name=jobs.EVENT_IMPORT, acks_late=True)
def event_import(job_id: str) -> str:
    return import_run(job_id=job_id)


@shared_task(name="league.check_in_sweep", acks_late=True)
def check_in_sweep() -> int:
    return announce_check_ins()


@shared_task(name=jobs.STAGE_PROJECTION, acks_late=True)
def stage_projection(stage_id: int) -> bool:
    jobs.job_started(jobs.STAGE_PROJECTION, stage_id)
    return stage_project(stage_id=stage_id) is not None


@shared_task(name=jobs.LEAGUE_PROJECTION, acks_late=True)
def league_projection(league_id: int) -> bool:
    jobs.job_started(jobs.LEAGUE_PROJECTION, league_id)
    return league_project(league_id=league_id) is not None
