"""The Analysis section of a match page on its own, for the page to refresh while pending."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from analysis.templatetags.match_analysis import section_context
from analysis.templatetags.match_forecast import forecast_context
from core.methods import read_only
from games.models import Match


@read_only
def section(request: HttpRequest, match_id: int) -> HttpResponse:
    match = get_object_or_404(Match.objects.prefetch_related("seats__player"), pk=match_id)
    return render(request, "analysis/_section.html", section_context(match))


@read_only
def forecast(request: HttpRequest, match_id: int) -> HttpResponse:
    match = get_object_or_404(Match.objects.prefetch_related("seats__player"), pk=match_id)
    return render(request, "analysis/_forecast.html", forecast_context(match))
