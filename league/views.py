"""Pages: server-rendered, read-only for anyone."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render


def home(request: HttpRequest) -> HttpResponse:
    return render(request, "league/home.html")
