"""An event import sent to the API, run as a job (`league.services.imports`; docs/api.md,
"Event export and import"): the file, who sent it, where it stands, and what came of it."""

import uuid

from django.conf import settings
from django.db import models

from league.models.organization import League


class ImportStatus(models.TextChoices):
    PENDING = "pending", "Pending"
    RUNNING = "running", "Running"
    DONE = "done", "Done"
    FAILED = "failed", "Failed"


class EventImportJob(models.Model):
    """One import: its file is kept until it has run; `result` holds what it made (the new
    event and the new id of each player and match of the file), `error` the refusal (the API's
    error body) when it failed. Its id is a UUID: the status URL names no count of imports."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="import_jobs")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    status = models.CharField(
        max_length=10, choices=ImportStatus.choices, default=ImportStatus.PENDING
    )
    data = models.JSONField(null=True, help_text="The file, until the import has run.")
    result = models.JSONField(null=True, blank=True)
    error = models.JSONField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"Import {self.pk} into {self.league_id} ({self.status})"
