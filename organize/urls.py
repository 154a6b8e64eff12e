"""Organizer pages under /organize/ (docs/organizing.md). Sign-in pages are Django's own,
under /accounts/ (config/urls.py)."""

from django.urls import path

from organize.views import home, leagues, matches, players

app_name = "organize"

urlpatterns = [
    path("", home.home, name="home"),
    # Leagues, their organizers and rosters (organize/views/leagues.py, players.py).
    path("leagues/new/", leagues.league_new, name="league_new"),
    path("leagues/<slug:slug>/", leagues.league_settings, name="league"),
    path("leagues/<slug:slug>/tiebreak/", leagues.league_tiebreak, name="league_tiebreak"),
    path("leagues/<slug:slug>/organizers/", leagues.organizer_add, name="organizer_add"),
    path(
        "leagues/<slug:slug>/organizers/remove/",
        leagues.organizer_remove,
        name="organizer_remove",
    ),
    path("leagues/<slug:slug>/players/", players.roster, name="players"),
    path("leagues/<slug:slug>/players/import/", players.players_import, name="players_import"),
    path("leagues/<slug:slug>/players/merge/", players.players_merge, name="players_merge"),
    path("leagues/<slug:slug>/players/<int:player_id>/", players.player_rename, name="player"),
    # Match control (organize/views/matches.py).
    path("matches/<int:match_id>/undo/", matches.match_undo, name="match_undo"),
    path("matches/<int:match_id>/correct/", matches.match_correct, name="match_correct"),
    path("matches/<int:match_id>/void/", matches.match_void, name="match_void"),
    path(
        "matches/<int:match_id>/walkover/",
        matches.match_void,
        {"walkover": True},
        name="match_walkover",
    ),
    path("matches/<int:match_id>/unvoid/", matches.match_unvoid, name="match_unvoid"),
]
