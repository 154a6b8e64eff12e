"""Celery jobs of play analysis: thin, ids in, call a service, safe to run twice."""

from celery import shared_task

from analysis import services


@shared_task(name=services.ANALYSE, acks_late=True)
def analyse_match(match_id: int) -> bool:
    return services.match_analyse(match_id=match_id) is not None


@shared_task(name="analysis.sweep", acks_late=True)
def analysis_sweep() -> int:
    return services.analysis_sweep()
