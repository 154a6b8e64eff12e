"""Organizer pages under /organize/ (docs/organizing.md). Sign-in pages are Django's own,
under /accounts/ (config/urls.py)."""

from django.urls import path

from organize.views import home

app_name = "organize"

urlpatterns = [
    path("", home.home, name="home"),
]
