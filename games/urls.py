"""Pages of a match: its public scorecard, the part of it that refreshes while played, and the
phone scorekeeping page (organizers and holders of the private link)."""

from django.urls import path

from games import views

app_name = "games"

urlpatterns = [
    path("matches/<int:match_id>/", views.match_detail, name="match"),
    path("matches/<int:match_id>/live/", views.match_live, name="match_live"),
    path("matches/<int:match_id>/score/", views.match_score, name="score"),
]
