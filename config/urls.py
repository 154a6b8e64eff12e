"""Top-level URLs: pages, the API under /api/v1/, sign-in under /accounts/, organizer pages
under /organize/, the admin and the health check."""

from django.contrib import admin
from django.templatetags.static import static
from django.urls import include, path
from django.views.generic import RedirectView

from config.health import healthz


class Favicon(RedirectView):
    """/favicon.ico, which a browser asks for by itself where a page names no icon (the API's
    pages, a file opened alone): the site's icon, `static/favicon.svg`, which the pages link."""

    permanent = True

    def get_redirect_url(self, *args: object, **kwargs: object) -> str:
        return static("favicon.svg")


# Under /api/ every error Django answers itself is in the API's error shape (config/errors.py).
handler400 = "config.errors.bad_request"
handler403 = "config.errors.permission_denied"
handler404 = "config.errors.page_not_found"
handler500 = "config.errors.server_error"

urlpatterns = [
    # The API first: no page's URL starts with api/v1/, and a turn's URL is then found without
    # trying every page's pattern first (docs/benchmarks.md).
    path("api/v1/", include("api.urls")),
    path("", include("league.urls")),
    path("", include("games.urls")),
    path("", include("analysis.urls")),
    path("", include("notifications.urls")),
    path("accounts/", include("django.contrib.auth.urls")),
    path("organize/", include("organize.urls")),
    path("admin/", admin.site.urls),
    path("healthz", healthz, name="healthz"),
    path("favicon.ico", Favicon.as_view(), name="favicon"),
]
