from django.apps import AppConfig


class AnalysisConfig(AppConfig):
    name = "analysis"

    def ready(self) -> None:
        # receivers: a finished match is analysed, a withdrawn result forgets its analysis.
        # tasks: registered in every process (services enqueue them by name).
        from analysis import receivers, strategies, tasks  # noqa: F401
        from core import warmup

        # a job process loads the strategy tables as it starts, not in its first analysis
        warmup.on_job_process_start(strategies.preload)
