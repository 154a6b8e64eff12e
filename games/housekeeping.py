"""The body of the hourly clean-up jobs: old rows deleted a batch at a time."""

from typing import Any

from django.db.models import QuerySet


def delete_oldest(rows: QuerySet[Any], *, by: str, batch: int) -> int:
    """Delete `rows`, oldest by `by` first (then by key), `batch` at a time, each batch its own
    statement, so that no delete holds many rows or a long transaction beside the work being
    stored. Safe to run twice at once. Returns how many rows of the model went (not counting
    rows that cascade from them)."""
    model = rows.model
    deleted = 0
    while True:
        ids = list(rows.order_by(by, "pk").values_list("pk", flat=True)[:batch])
        if ids:
            _, per_model = model._default_manager.filter(pk__in=ids).delete()
            deleted += per_model.get(model._meta.label, 0)
        if len(ids) < batch:
            return deleted
