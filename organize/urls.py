"""Organizer pages under /organize/ (docs/organizing.md). Sign-in pages are Django's own,
under /accounts/ (config/urls.py)."""

from django.urls import include, path

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

# Each object's pages under its own prefix (include): /organize/leagues/<slug>/..., and so on.
league = [
    path("", leagues.league_settings, name="league"),
    path("tiebreak/", leagues.league_tiebreak, name="league_tiebreak"),
    path("organizers/", leagues.organizer_add, name="organizer_add"),
    path("organizers/remove/", leagues.organizer_remove, name="organizer_remove"),
    path("invitations/", leagues.invitation_add, name="invitation_add"),
    path("invitations/revoke/", leagues.invitation_revoke, name="invitation_revoke"),
    # Its roster (organize/views/players.py).
    path("players/", players.roster, name="players"),
    path("players/import/", players.players_import, name="players_import"),
    path("players/merge/", players.players_merge, name="players_merge"),
    path("players/<int:player_id>/", players.player_rename, name="player"),
    # Its webhooks (organize/views/webhooks.py).
    path("webhooks/", webhooks.webhooks, name="webhooks"),
    path("webhooks/<int:endpoint_id>/", webhooks.endpoint_page, name="webhook"),
    path("webhooks/<int:endpoint_id>/<str:step>/", webhooks.endpoint_action, name="webhook_action"),
    path("events/", events.league_events, name="league_events"),
]

# Events, their stages and round sheets (organize/views/events.py, sheets.py, schedule.py).
event = [
    path("", events.event_page, name="event"),
    path("tables/", events.event_tables, name="event_tables"),
    path("stages/add/", events.stage_add, name="stage_add"),
    path("close/", events.event_close_page, name="event_close"),
    path("reopen/", events.event_reopen_page, name="event_reopen"),
    path("withdraw/", events.withdraw, name="withdraw"),
    # Sign-up and check-in (organize/views/registration.py).
    path("sign-up/", registration.sign_up, name="sign_up"),
    path("registrations/add/", registration.registration_add, name="registration_add"),
    path("registrations/roster/", registration.roster_enter, name="roster_enter"),
    path("registrations/check-in/", registration.check_in_all, name="check_in_all"),
]

registration_steps = [
    path(
        f"{step}/",
        registration.registration_action,
        {"step": step},
        name=f"registration_{step.replace('-', '_')}",
    )
    for step in ("approve", "refuse", "withdraw", "check-in")
]

stage = [
    path("edit/", events.stage_edit, name="stage_edit"),
    path("delete/", events.stage_delete, name="stage_delete"),
    path("start/", events.stage_start, name="stage_start"),
    path("sheet/", sheets.stage_sheet, name="stage_sheet"),
    path("sheet/live/", sheets.stage_sheet_live, name="stage_sheet_live"),
    path("rounds/<int:number>/sheet/", sheets.round_sheet, name="round_sheet"),
    path("rounds/<int:number>/schedule/", schedule.round_schedule_page, name="round_schedule"),
]

match = [
    path("sheet/", sheets.match_sheet, name="match_sheet"),
    path("sheet/live/", sheets.match_sheet_live, name="match_sheet_live"),
    # Match control (organize/views/matches.py).
    path("undo/", matches.match_undo, name="match_undo"),
    path("correct/", matches.match_correct, name="match_correct"),
    path("void/", matches.match_void, name="match_void"),
    path("walkover/", matches.match_void, {"walkover": True}, name="match_walkover"),
    path("unvoid/", matches.match_unvoid, name="match_unvoid"),
]

urlpatterns = [
    path("", home.home, name="home"),
    path("leagues/new/", leagues.league_new, name="league_new"),
    path("leagues/<slug:slug>/", include(league)),
    path("events/<int:event_id>/", include(event)),
    path("registrations/<int:registration_id>/", include(registration_steps)),
    path("stages/<int:stage_id>/", include(stage)),
    path("matches/<int:match_id>/", include(match)),
]
