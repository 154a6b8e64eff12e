"""The floor of any write on this stack: one row, inserted by a bare authenticated DRF view."""

from typing import ClassVar

from django.db import models


class FloorRow(models.Model):
    match_id = models.BigIntegerField()
    payload = models.JSONField()
    created_at = models.DateTimeField(auto_now_add=True)

    # Declared: the app is installed only by config.settings.bench, which mypy does not load.
    objects: ClassVar[models.Manager["FloorRow"]] = models.Manager()

    def __str__(self) -> str:
        return f"floor row {self.pk}"
