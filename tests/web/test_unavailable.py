"""A page whose database cannot be reached answers 503 "briefly unavailable" with Retry-After,
not a 500 (the system harness restarts a real PostgreSQL under load for the API's side)."""

from typing import Any

import pytest
from django.db import OperationalError
from django.test import Client

from league.pages import views


def _league_page_failing_with(monkeypatch: pytest.MonkeyPatch, error: Exception) -> Any:
    """A league page whose read of the league raises `error`."""

    def failing(slug: str) -> None:
        raise error

    monkeypatch.setattr(views, "league_context", failing)
    return Client(raise_request_exception=False).get("/leagues/anything/")


@pytest.mark.django_db
def test_a_page_answers_503_with_retry_after_when_the_database_is_unreachable(monkeypatch):
    response = _league_page_failing_with(
        monkeypatch, OperationalError("connection to server at 127.0.0.1, port 5432 failed")
    )
    assert response.status_code == 503
    assert response["Retry-After"] == "5"
    assert "Briefly unavailable" in response.content.decode()


@pytest.mark.django_db
def test_other_errors_of_a_page_are_not_reported_as_unavailable(monkeypatch):
    response = _league_page_failing_with(monkeypatch, ValueError("a bug"))
    assert response.status_code == 500
