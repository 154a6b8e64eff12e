"""Public pages of the organization: leagues, events, standings, players."""

from django.urls import path, register_converter

from core.conditional import conditional
from league.pages import calendar, embeds, invitations, registration, views

app_name = "league"


class SignUpKey:
    """A registration's private key in its links (`secrets.token_urlsafe`, at most 64)."""

    regex = "[A-Za-z0-9_-]{1,64}"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


register_converter(SignUpKey, "signup_key")


class InvitationToken(SignUpKey):
    """An organizer's invitation's token in its link (`secrets.token_urlsafe`, at most 64)."""


register_converter(InvitationToken, "invitation_token")

# The pages that refresh themselves answer 304 when nothing changed (core.conditional).
urlpatterns = [
    path("", views.home, name="home"),
    path("leagues/<slug:slug>/", conditional(views.league_detail), name="league"),
    path("leagues/<slug:slug>/live/", conditional(views.league_live), name="league_live"),
    path("events/<int:event_id>/", conditional(views.event_detail), name="event"),
    path("events/<int:event_id>/live/", conditional(views.event_live), name="event_live"),
    path("players/<int:player_id>/", views.player_detail, name="player"),
    # Embeds (league.pages.embeds): pages another site may frame, and the bracket as a file.
    path("embed/leagues/<slug:slug>/standings/", embeds.league_standings, name="embed_league"),
    path("embed/events/<int:event_id>/standings/", embeds.event_standings, name="embed_event"),
    path("embed/stages/<int:stage_id>/standings/", embeds.stage_standings, name="embed_stage"),
    path("embed/stages/<int:stage_id>/bracket/", embeds.stage_bracket, name="embed_bracket"),
    path("stages/<int:stage_id>/bracket.svg", embeds.stage_bracket_svg, name="bracket_svg"),
    # Sign-up (league/pages/registration.py): the form, and a registration's private link.
    path("events/<int:event_id>/sign-up/", registration.sign_up, name="sign_up"),
    path("sign-up/<signup_key:key>/", registration.registration_page, name="registration"),
    path(
        "sign-up/<signup_key:key>/check-in/",
        registration.registration_check_in,
        name="registration_check_in",
    ),
    path(
        "sign-up/<signup_key:key>/withdraw/",
        registration.registration_withdraw,
        name="registration_withdraw",
    ),
    # An organizer's invitation (league/pages/invitations.py): the mailed link, exchanged for a
    # cookie, and the page at its clean address.
    path("invitations/", invitations.invitation_page, name="invitation"),
    path(
        "invitations/<invitation_token:token>/",
        invitations.invitation_link,
        name="invitation_link",
    ),
    # Calendar feeds of the scheduled matches (league/pages/calendar.py).
    path("events/<int:event_id>/calendar.ics", calendar.event_calendar, name="event_calendar"),
    path("players/<int:player_id>/calendar.ics", calendar.player_calendar, name="player_calendar"),
]
