"""Pages: server-rendered, read-only for anyone."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from league.selectors import leagues_with_events


def home(request: HttpRequest) -> HttpResponse:
    return render(request, "league/home.html", {"leagues": leagues_with_events()})
