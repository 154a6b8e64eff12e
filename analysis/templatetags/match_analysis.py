"""`{% match_analysis match %}`: the Analysis section of a finished match's page (the match
page is `games`', which cannot import this app; the template loads the tag)."""

from typing import Any

from django import template
from django.urls import reverse

from analysis.presenters import analysis_view
from analysis.services import current_analysis
from games.models import Match, MatchStatus

register = template.Library()


@register.inclusion_tag("analysis/_section.html")
def match_analysis(match: Match) -> dict[str, Any]:
    return section_context(match)


def section_context(match: Match) -> dict[str, Any]:
    if match.status != MatchStatus.FINISHED:
        return {"shown": False}
    if match.pad is not None:  # entered from the paper pad: no turns were played here
        return {"shown": True, "match": match, "from_pad": True}
    stored = current_analysis(match)
    context: dict[str, Any] = {"shown": True, "match": match, "pending": stored is None}
    if stored is None:
        context["live_url"] = reverse("analysis:section", args=[match.pk])
        return context
    names = {seat.player_id: seat.player.display_name for seat in match.seats.all()}
    context["view"] = analysis_view(match.game, stored.players, stored.turns, names)
    return context
