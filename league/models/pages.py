"""The versions the public league and event pages are kept rendered under, one row a page
(docs/pages.md, "Whole pages kept rendered"): a repeat request reads one row of one of these.

PostgreSQL keeps them, not the code (league migration 0024): a trigger on every table a page
shows marks the page as its transaction writes, and at the commit one more trigger adds one to
each page marked, under its league's page lock. No code writes them; a row is made with its
league or event and removed with it."""

from django.db import models

from league.models.organization import Event, League


class LeaguePage(models.Model):
    """The league page's version: one more with every transaction that changes what it shows
    (the league's row, its table's and ratings' stored versions, its analyses, its events'
    lines, its projection)."""

    # Removed by the triggers with the league, never by Django: no foreign key, nothing
    # cascades.
    league = models.OneToOneField(
        League,
        primary_key=True,
        on_delete=models.DO_NOTHING,
        db_constraint=False,
        related_name="page",
    )
    version = models.PositiveBigIntegerField(default=0)

    def __str__(self) -> str:
        return f"league {self.league_id}'s page, version {self.version}"


class EventPage(models.Model):
    """An event page's versions: `version`, one more with every transaction that changes what
    the page's live part shows (the event's and its league's rows, its matches, seats, stages
    and their rows, its tables' and projections' stored versions, its matches' chances);
    `play_version`, with its matches and stages alone (its list of matches is kept under it);
    `sign_up_version`, with its sign-up (shown on the page, not its live part), whose deadline
    is kept here so that the page's version reads whether it has passed."""

    event = models.OneToOneField(
        Event,
        primary_key=True,
        on_delete=models.DO_NOTHING,
        db_constraint=False,
        related_name="page",
    )
    version = models.PositiveBigIntegerField(default=0)
    play_version = models.PositiveBigIntegerField(default=0)
    sign_up_version = models.PositiveBigIntegerField(default=0)
    sign_up_deadline = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"event {self.event_id}'s page, version {self.version}"
