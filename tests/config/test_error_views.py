"""Errors Django answers itself, outside DRF's exception handler: under /api/ in the API's error
shape, never HTML; the pages keep their HTML error pages (config/errors.py)."""

import json

import pytest
from django.core.exceptions import PermissionDenied, SuspiciousOperation
from django.http import Http404
from django.test import Client

from api.views import MatchViewSet
from config import errors
from games.models import Turn


def _client() -> Client:
    return Client(raise_request_exception=False)


def _assert_api_error(response, status: int, code: str) -> None:
    assert response.status_code == status
    assert response["Content-Type"] == "application/json"
    body = json.loads(response.content)  # also for a view called directly
    assert body["code"] == code
    assert body["message"].endswith(".")
    assert body["details"] == {}


@pytest.mark.django_db
def test_a_host_not_allowed_gets_400_in_the_error_shape_on_the_api():
    response = _client().get("/api/v1/matches/", HTTP_HOST="elsewhere.example")
    _assert_api_error(response, 400, "disallowed_host")


@pytest.mark.django_db
def test_a_host_not_allowed_gets_the_error_shape_on_the_api_under_debug_too(settings):
    settings.DEBUG = True  # as `make run` serves: Django's technical page, settings and all
    response = _client().get("/api/v1/matches/", HTTP_HOST="elsewhere.example")
    _assert_api_error(response, 400, "disallowed_host")
    assert b"ALLOWED_HOSTS" not in response.content


@pytest.mark.django_db
def test_a_host_not_allowed_gets_the_html_400_page_elsewhere():
    response = _client().get("/", HTTP_HOST="elsewhere.example")
    assert response.status_code == 400
    assert response["Content-Type"].startswith("text/html")


@pytest.mark.django_db
def test_too_many_query_fields_get_400_in_the_error_shape():
    query = "&".join(f"f{n}=1" for n in range(1_001))  # DATA_UPLOAD_MAX_NUMBER_FIELDS is 1,000
    _assert_api_error(_client().get(f"/api/v1/matches/?{query}"), 400, "too_many_fields")


@pytest.mark.django_db
def test_too_many_query_fields_get_400_in_the_error_shape_under_debug_too(settings):
    # Django's technical page for it read the query again and failed: a 500 after 37 s.
    settings.DEBUG = True
    query = "&".join(f"f{n}=1" for n in range(1_001))
    _assert_api_error(_client().get(f"/api/v1/matches/?{query}"), 400, "too_many_fields")


@pytest.mark.django_db
@pytest.mark.parametrize("debug", [False, True])
def test_too_many_form_fields_in_a_turn_get_400_and_store_nothing(
    players, seat_match, settings, debug
):
    settings.DEBUG = debug
    match = seat_match("yardzee", players[:2])
    body = "&".join(f"f{n}=1" for n in range(1_001))
    response = _client().post(
        f"/api/v1/matches/{match['id']}/turns/",
        body,
        content_type="application/x-www-form-urlencoded",
        HTTP_X_SCORE_KEY=match["score_key"],
    )
    _assert_api_error(response, 400, "too_many_fields")
    assert not Turn.objects.exists()


@pytest.mark.django_db
def test_an_uncaught_error_in_an_api_view_gets_500_in_the_error_shape(monkeypatch, caplog):
    def broken(*args, **kwargs):
        raise RuntimeError("a defect")

    monkeypatch.setattr(MatchViewSet, "list", broken)
    response = _client().get("/api/v1/matches/")
    _assert_api_error(response, 500, "server_error")
    assert "a defect" not in response.content.decode()  # nothing of the error leaks out
    assert any("a defect" in (record.exc_text or "") for record in caplog.records)


@pytest.mark.django_db
def test_a_404_outside_the_api_keeps_the_html_page():
    response = _client().get("/no-such-page/")
    assert response.status_code == 404
    assert response["Content-Type"].startswith("text/html")


@pytest.mark.parametrize(
    ("handler", "exception", "status", "code"),
    [
        (errors.bad_request, SuspiciousOperation("a forged header"), 400, "bad_request"),
        (errors.permission_denied, PermissionDenied(), 403, "permission_denied"),
        (errors.page_not_found, Http404(), 404, "not_found"),
    ],
)
def test_each_error_view_answers_the_error_shape_under_the_api_and_html_elsewhere(
    rf, handler, exception, status, code
):
    """The views Django calls itself for what is raised outside a view (config/urls.py);
    called directly, as no route of the project raises these outside DRF."""
    _assert_api_error(handler(rf.get("/api/v1/matches/"), exception), status, code)
    page = handler(rf.get("/leagues/"), exception)
    assert page.status_code == status
    assert page["Content-Type"].startswith("text/html")
