"""The project's URLs plus the floor endpoint (config.settings.bench only)."""

from django.urls import path

from benchmarks.floor.views import FloorInsert, floor_page
from config.urls import urlpatterns as project_urlpatterns

urlpatterns = [
    path("bench/floor/", FloorInsert.as_view()),
    path("bench/floor/page/<path:path>", floor_page),
    *project_urlpatterns,
]
