"""The home page renders and its assets are served by the project, not a CDN."""

import pytest
from django.test import Client


@pytest.mark.django_db
def test_home_page_lists_leagues(client: Client):
    response = client.get("/")
    assert response.status_code == 200
    page = response.content.decode()
    assert "<h1>Leagues</h1>" in page
    assert 'name="viewport"' in page
    head = page.split("<body>")[0]
    assert "http://" not in head
    assert "https://" not in head


def test_stylesheet_is_served_from_the_project(live_server):
    import urllib.request

    with urllib.request.urlopen(f"{live_server.url}/static/css/site.css") as response:  # noqa: S310
        assert response.status == 200
        assert b"--grass" in response.read()


@pytest.mark.django_db
def test_home_page_lists_each_league_and_its_events(yardzee_event, client: Client):
    page = client.get("/").content.decode()
    assert "Backyard Yardzee" in page
    assert "Week 1" in page
    assert "No leagues yet" not in page
