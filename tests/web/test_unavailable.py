"""A page whose database cannot be reached answers 503 "briefly unavailable" with Retry-After,
not a 500 (the system harness restarts a real PostgreSQL under load for the API's side)."""

import pytest
from django.db import OperationalError
from django.test import Client

from league.pages import views


@pytest.mark.django_db
def test_a_page_answers_503_with_retry_after_when_the_database_is_unreachable(monkeypatch):
    def unreachable(slug: str) -> None:
        raise OperationalError("connection to server at 127.0.0.1, port 5432 failed")

    monkeypatch.setattr(views, "league_context", unreachable)
    response = Client(raise_request_exception=False).get("/leagues/anything/")
    assert response.status_code == 503
    assert response["Retry-After"] == "5"
    assert "Briefly unavailable" in response.content.decode()


@pytest.mark.django_db
def test_other_errors_of_a_page_are_not_reported_as_unavailable(monkeypatch):
    def broken(slug: str) -> None:
        raise ValueError("a bug")

    monkeypatch.setattr(views, "league_context", broken)
    response = Client(raise_request_exception=False).get("/leagues/anything/")
    assert response.status_code == 500
