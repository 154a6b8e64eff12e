"""Celery jobs of play analysis: thin, ids in, call a service, safe to run twice."""

from celery import shared_task

from analysis import forecasts, services
from core import jobs


@shared_task(name=services.ANALYSE, acks_late=True)
def analyse_match(match_id: int) -> bool:
    return services.match_analyse(match_id=match_id) is not None


@shared_task(name="analysis.sweep", acks_late=True)
def analysis_sweep() -> int:
    return services.analysis_sweep()


@shared_task(name=forecasts.FORECAST, acks_late=True)
def forecast_match(match_id: int) -> bool:
    jobs.job_started(forecasts.FORECAST, match_id)  # before it reads: a turn from now sends one
    return forecasts.match_forecast(match_id=match_id) is not None


@shared_task(name="analysis.forecast_sweep", acks_late=True)
def forecast_sweep() -> int:
    return forecasts.forecast_sweep()
