"""`{% match_control match %}`: the organizer's controls of a match (undo the last turn,
correct a turn, void, walkover, take back a void), shown on the match and scorekeeping pages
to the match's organizers only (`Match.is_organizer`, the API's rule) and to no one else: for
anyone else it renders nothing and reads nothing more."""

from typing import Any

from django import template
from django.urls import reverse

from organize.views.matches import control_panel

register = template.Library()


@register.inclusion_tag("organize/matches/_control.html", takes_context=True)
def match_control(context: template.Context, match: Any, back: str = "match") -> dict[str, Any]:
    """`back`: the page the controls return to when done, "match" or "score"."""
    request = context.get("request")
    user = getattr(request, "user", None)
    if user is None or not match.is_organizer(user):
        return {"show": False}
    back_url = reverse("games:score" if back == "score" else "games:match", args=[match.pk])
    return {
        "show": True,
        "level": 3 if back == "score" else 2,  # under "For organizers" on the score page
        "messages": context.get("messages"),
        **control_panel(match, back_url=back_url),
    }
