from django.apps import AppConfig


class LeagueConfig(AppConfig):
    name = "league"

    def ready(self) -> None:
        # receivers: connects the games signal receivers. tasks: registers the jobs in every
        # process, not only in a worker (which discovers them): services enqueue them by name
        # (league.services.jobs), and a web process running tasks in-process finds them in the
        # registry only once the module is imported.
        from games import gates
        from league import receivers, tasks  # noqa: F401
        from league.models import Event, League
        from league.services import locks

        # what games asks of a match's event and league (games.gates)
        gates.register(
            event_closed_as=Event.closed_as,
            organizes=League.organizes_matches,
            before_organizer_write=locks.event_of_match_first,
        )
