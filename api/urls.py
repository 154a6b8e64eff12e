"""The HTTP API, version 1: resources, the OpenAPI schema and its documentation pages."""

from django.urls import include, path, re_path
from django.views.generic import RedirectView
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView
from rest_framework.routers import DefaultRouter

from api import exports, registration, schedule, views, webhooks
from api.serializers import ID_IN_URL as ID
from core.error_shape import not_found

app_name = "api"

router = DefaultRouter(trailing_slash=True)
# No format suffixes (`matches/6/turns.json`): a format is asked for with `?format=` or the
# Accept header (api/negotiation.py). The router's suffix routes reached the actions with a
# `format` argument none of them takes (500), and only the router's paths had them.
router.include_format_suffixes = False
# Matches first: a turn's URL is the one asked most (the prefixes do not overlap, so the order
# changes nothing else).
router.register("matches", views.MatchViewSet, basename="match")
router.register("players", views.PlayerViewSet, basename="player")
router.register("leagues", views.LeagueViewSet, basename="league")
router.register("events", views.EventViewSet, basename="event")
router.register("stages", views.StageViewSet, basename="stage")

urlpatterns = [
    path("auth/token/", views.TokenLoginView.as_view(), name="token"),
    path("advice/", views.AdviceView.as_view(), name="advice"),
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    # Its start-up script is a request of its own (`?script`): the CSP refuses inline scripts.
    path("docs/", SpectacularSwaggerSplitView.as_view(url_name="api:schema"), name="docs"),
    # Redoc cannot run under the CSP (styles injected before it takes a nonce, a blob: worker, a
    # logo from its CDN): its old address leads to the Swagger UI page.
    path("redoc/", RedirectView.as_view(pattern_name="api:docs"), name="redoc"),
    # Sign-up and check-in (api/registration.py).
    re_path(rf"^events/(?P<event_id>{ID})/sign-up/$", registration.SignUpView.as_view()),
    re_path(
        rf"^events/(?P<event_id>{ID})/registrations/$",
        registration.EventRegistrationsView.as_view(),
    ),
    path(
        "registrations/mine/",
        registration.OwnRegistrationView.as_view(http_method_names=["get", "options"]),
    ),
    *(
        path(
            f"registrations/mine/{step}/",
            registration.OwnRegistrationView.as_view(step=step, http_method_names=["post"]),
        )
        for step in ("check-in", "withdraw")
    ),
    *(
        re_path(
            rf"^registrations/(?P<registration_id>{ID})/{step}/$",
            registration.RegistrationActionView.as_view(step=step),
        )
        for step in ("approve", "refuse", "withdraw", "check-in")
    ),
    # Scheduling (api/schedule.py).
    re_path(
        rf"^stages/(?P<stage_id>{ID})/rounds/(?P<number>[0-9]{{1,4}})/schedule/$",
        schedule.RoundScheduleView.as_view(),
        name="round-schedule",
    ),
    re_path(
        rf"^matches/(?P<match_id>{ID})/schedule/$",
        schedule.MatchScheduleView.as_view(),
        name="match-schedule",
    ),
    path("", include(webhooks.urlpatterns)),  # a league's webhooks (api/webhooks.py)
    # An event as one file and back (api/exports.py).
    path("events/<int:pk>/export/", exports.EventExportView.as_view(), name="event-export"),
    path("leagues/<slug:slug>/import/", exports.EventImportView.as_view(), name="league-import"),
    path("imports/<uuid:pk>/", exports.ImportJobView.as_view(), name="import-job"),
    path("", include(router.urls)),
    # Whatever the path holds, line breaks too (`.` stops at one).
    re_path(r"^[\s\S]*$", not_found),
]
