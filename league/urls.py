"""Public pages of the organization: leagues, events, standings, players."""

from django.urls import path

from league.pages import views

app_name = "league"

urlpatterns = [
    path("", views.home, name="home"),
    path("leagues/<slug:slug>/", views.league_detail, name="league"),
    path("leagues/<slug:slug>/live/", views.league_live, name="league_live"),
    path("events/<int:event_id>/", views.event_detail, name="event"),
    path("events/<int:event_id>/live/", views.event_live, name="event_live"),
    path("players/<int:player_id>/", views.player_detail, name="player"),
]
