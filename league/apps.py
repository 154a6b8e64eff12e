from django.apps import AppConfig


class LeagueConfig(AppConfig):
    name = "league"

    def ready(self) -> None:
        from league import receivers  # noqa: F401  (connects the games signal receivers)

        # Registers the jobs in every process, not only in a worker (which discovers them):
        # services enqueue them by name (league.services.jobs), and a web process with tasks
        # run in-process finds them in the registry only once this module is imported.
        from league import tasks  # noqa: F401
