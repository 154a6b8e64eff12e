from django.apps import AppConfig


class AnalysisConfig(AppConfig):
    name = "analysis"

    def ready(self) -> None:
        # receivers: a finished match is analysed, a withdrawn result forgets its analysis.
        # tasks: registered in every process (services enqueue them by name).
        from analysis import receivers, tasks  # noqa: F401
