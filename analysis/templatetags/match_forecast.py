"""`{% match_forecast match %}`: the Win probability section of a match page (the match page
is `games`', which cannot import this app; the template loads the tag). It refreshes by itself
while the match is played or its chances are being worked out."""

from typing import Any

from django import template
from django.urls import reverse

from analysis.chart import forecast_view
from analysis.models import MatchForecast
from games.models import Match, MatchStatus

register = template.Library()

# How often the section asks for fresh figures while they can change.
LIVE_SECONDS = 5


@register.inclusion_tag("analysis/_forecast.html")
def match_forecast(match: Match) -> dict[str, Any]:
    return forecast_context(match)


def forecast_context(match: Match) -> dict[str, Any]:
    """What the section shows: nothing for a void match, one from the paper pad, one not
    started, or one finished before its chances were worked out; else the chart of the stored
    chances, up to the turns the match has now (a turn taken back is dropped at once, before
    the job has run)."""
    if match.status == MatchStatus.VOID or match.pad is not None or not match.turns_played:
        return {"shown": False}
    stored = MatchForecast.objects.filter(match=match).first()
    if stored is None and match.status == MatchStatus.FINISHED:
        return {"shown": False}  # a finished game's chart comes with its job; nothing to await
    behind = stored is None or stored.version != match.version
    context: dict[str, Any] = {"shown": True, "match": match, "pending": stored is None}
    if behind or match.status == MatchStatus.IN_PROGRESS:
        context["live_url"] = reverse("analysis:forecast", args=[match.pk])
        context["live_seconds"] = LIVE_SECONDS
    if stored is not None:
        names = [seat.player.display_name for seat in match.seats.all()]
        chances = stored.chances[: match.turns_played + 1]
        if len(names) == len(stored.players) and chances:
            context["view"] = forecast_view(chances, stored.swings, names)
    return context
