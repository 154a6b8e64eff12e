"""The organizer's start page: the leagues they organize, with their events."""

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from core.methods import read_only
from league.models import League


@read_only
@login_required
def home(request: HttpRequest) -> HttpResponse:
    leagues = (
        League.objects.organized_by(request.user).prefetch_related("events").order_by("name", "pk")
    )
    return render(request, "organize/home.html", {"leagues": leagues})
