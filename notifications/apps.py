from django.apps import AppConfig


class NotificationsConfig(AppConfig):
    name = "notifications"

    def ready(self) -> None:
        # receivers: what league sends becomes notifications. tasks: registered in every
        # process (services enqueue them by name).
        from notifications import receivers, tasks  # noqa: F401
