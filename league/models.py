"""The organization: players, leagues and their events."""

from typing import Any

from django.conf import settings
from django.db import models

from games.models import GameName


class Player(models.Model):
    """Someone who plays. Optionally linked to a user account (to see their own results)."""

    display_name = models.CharField(max_length=80)
    handle = models.SlugField(max_length=40, unique=True)
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="player",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["display_name", "id"]

    def __str__(self) -> str:
        return f"{self.display_name} (@{self.handle})"


class LeagueQuerySet(models.QuerySet["League"]):
    def organized_by(self, user: Any) -> "LeagueQuerySet":
        if not user.is_authenticated:
            return self.none()
        if user.is_staff:
            return self
        return self.filter(organizers=user)


class League(models.Model):
    """A league plays one game under a default ruleset; its organizers run its events."""

    name = models.CharField(max_length=120)
    slug = models.SlugField(max_length=60, unique=True)
    game = models.CharField(max_length=16, choices=GameName.choices)
    rules = models.JSONField(
        default=dict, blank=True, help_text="Default ruleset options for its matches."
    )
    organizers = models.ManyToManyField(
        settings.AUTH_USER_MODEL, related_name="organized_leagues", blank=True
    )
    created_at = models.DateTimeField(auto_now_add=True)

    objects = LeagueQuerySet.as_manager()

    class Meta:
        ordering = ["name", "id"]

    def __str__(self) -> str:
        return self.name

    def is_organizer(self, user: Any) -> bool:
        if not user.is_authenticated:
            return False
        return bool(user.is_staff) or self.organizers.filter(pk=user.pk).exists()


class EventStatus(models.TextChoices):
    UPCOMING = "upcoming", "Upcoming"
    RUNNING = "running", "Running"
    FINISHED = "finished", "Finished"
    CANCELLED = "cancelled", "Cancelled"


class Event(models.Model):
    """One league night or tournament: a date, a venue, its matches and stages."""

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="events")
    name = models.CharField(max_length=120)
    date = models.DateField()
    venue = models.CharField(max_length=120, blank=True)
    status = models.CharField(
        max_length=16, choices=EventStatus.choices, default=EventStatus.UPCOMING
    )
    rules = models.JSONField(
        default=dict, blank=True, help_text="Ruleset options overriding the league's."
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-date", "id"]
        indexes = [models.Index(fields=["league", "date"])]

    def __str__(self) -> str:
        return f"{self.name} ({self.date})"

    def ruleset(self) -> dict[str, Any]:
        """The league's default options with this event's overrides on top."""
        return {**self.league.rules, **self.rules}
