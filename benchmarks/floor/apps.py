from django.apps import AppConfig


class FloorConfig(AppConfig):
    """Installed only by config.settings.bench: never in production."""

    name = "benchmarks.floor"
    label = "floor"
    default_auto_field = "django.db.models.BigAutoField"
