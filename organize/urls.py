"""Organizer pages under /organize/ (docs/organizing.md). Sign-in pages are Django's own,
under /accounts/ (config/urls.py)."""

from django.urls import path

from organize.views import (
    events,
    home,
    leagues,
    matches,
    players,
    registration,
    schedule,
    sheets,
    webhooks,
)

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
    # A league's webhooks (organize/views/webhooks.py).
    path("leagues/<slug:slug>/webhooks/", webhooks.webhooks, name="webhooks"),
    path("leagues/<slug:slug>/webhooks/<int:endpoint_id>/", webhooks.endpoint_page, name="webhook"),
    path(
        "leagues/<slug:slug>/webhooks/<int:endpoint_id>/<str:step>/",
        webhooks.endpoint_action,
        name="webhook_action",
    ),
    # Events, their stages and round sheets (organize/views/events.py, sheets.py).
    path("leagues/<slug:slug>/events/", events.league_events, name="league_events"),
    path("events/<int:event_id>/", events.event_page, name="event"),
    path("events/<int:event_id>/tables/", events.event_tables, name="event_tables"),
    path("events/<int:event_id>/stages/add/", events.stage_add, name="stage_add"),
    path("events/<int:event_id>/close/", events.event_close_page, name="event_close"),
    path("events/<int:event_id>/reopen/", events.event_reopen_page, name="event_reopen"),
    path("events/<int:event_id>/withdraw/", events.withdraw, name="withdraw"),
    # Sign-up and check-in (organize/views/registration.py).
    path("events/<int:event_id>/sign-up/", registration.sign_up, name="sign_up"),
    path(
        "events/<int:event_id>/registrations/add/",
        registration.registration_add,
        name="registration_add",
    ),
    *(
        path(
            f"registrations/<int:registration_id>/{step}/",
            registration.registration_action,
            {"step": step},
            name=f"registration_{step.replace('-', '_')}",
        )
        for step in ("approve", "refuse", "withdraw", "check-in")
    ),
    path("stages/<int:stage_id>/edit/", events.stage_edit, name="stage_edit"),
    path("stages/<int:stage_id>/delete/", events.stage_delete, name="stage_delete"),
    path("stages/<int:stage_id>/start/", events.stage_start, name="stage_start"),
    path("stages/<int:stage_id>/sheet/", sheets.stage_sheet, name="stage_sheet"),
    path("stages/<int:stage_id>/sheet/live/", sheets.stage_sheet_live, name="stage_sheet_live"),
    path(
        "stages/<int:stage_id>/rounds/<int:number>/sheet/", sheets.round_sheet, name="round_sheet"
    ),
    path(
        "stages/<int:stage_id>/rounds/<int:number>/schedule/",
        schedule.round_schedule_page,
        name="round_schedule",
    ),
    path("matches/<int:match_id>/sheet/", sheets.match_sheet, name="match_sheet"),
    path("matches/<int:match_id>/sheet/live/", sheets.match_sheet_live, name="match_sheet_live"),
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
