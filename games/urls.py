"""Pages of a match: its public scorecard, the part of it that refreshes while played, and the
phone scorekeeping page (organizers and holders of the private link or its short form)."""

from django.urls import path, re_path

from core.conditional import conditional
from games import pad_entry, printing, views

app_name = "games"

urlpatterns = [
    # The page and its refreshing part answer 304 when nothing changed (core.conditional).
    path("matches/<int:match_id>/", conditional(views.match_detail), name="match"),
    path("matches/<int:match_id>/live/", conditional(views.match_live), name="match_live"),
    path("matches/<int:match_id>/score/", views.match_score, name="score"),
    path("matches/<int:match_id>/score/pad/", pad_entry.match_pad_entry, name="pad_entry"),
    # Paper pads to print (games/printing.py).
    path("matches/<int:match_id>/pad/", printing.match_pad, name="match_pad"),
    path("pads/<slug:game>/", printing.blank_pad, name="blank_pad"),
    # A table's short link from the round sheet; typed by hand, so the last slash is optional.
    re_path(
        r"^t/(?P<match_id>[0-9]{1,18})/(?P<code>[^/]{1,40})/?$",
        views.match_short_link,
        name="short_link",
    ),
]
