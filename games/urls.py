"""Public pages of a match: its scorecard, and the part of it that refreshes while played."""

from django.urls import path

from games import views

app_name = "games"

urlpatterns = [
    path("matches/<int:match_id>/", views.match_detail, name="match"),
    path("matches/<int:match_id>/live/", views.match_live, name="match_live"),
]
