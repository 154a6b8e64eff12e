from django.apps import AppConfig


class LeagueConfig(AppConfig):
    name = "league"

    def ready(self) -> None:
        # receivers: connects the games signal receivers. tasks: registers the jobs in every
        # process, not only in a worker (which discovers them): services enqueue them by name
        # (league.services.jobs), and a web process running tasks in-process finds them in the
        # registry only once the module is imported.
        from league import receivers, tasks  # noqa: F401
