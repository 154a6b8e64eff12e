from django.apps import AppConfig


class WebhooksConfig(AppConfig):
    name = "webhooks"

    def ready(self) -> None:
        # receivers: what games and league send becomes deliveries. tasks: registered in every
        # process (services enqueue them by name).
        from webhooks import receivers, tasks  # noqa: F401
