from django.apps import AppConfig


class LeagueConfig(AppConfig):
    name = "league"

    def ready(self) -> None:
        from league import receivers  # noqa: F401  (connects the games signal receivers)
