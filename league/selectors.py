"""Reads of the organization worth a name."""

from django.db.models import QuerySet

from league.models import League


def leagues_with_events() -> QuerySet[League]:
    """Every league with its events, newest first, in two queries."""
    return League.objects.prefetch_related("events")
