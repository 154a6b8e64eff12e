"""A request's query parameters are held to what it takes, as a list's are (api.middleware;
issue 37, item 9: writes ignored unknown ones while lists refused them): an unknown one is 400
`invalid`, named, and changes nothing; what each takes is what the OpenAPI schema documents."""

import re
from typing import Any

import pytest
from django.urls import resolve
from drf_spectacular.generators import SchemaGenerator
from rest_framework.test import APIClient

from api.middleware import ALWAYS, PARAMETERS, takes
from games.models import Match, MatchStatus, Turn
from tests.games.conftest import SCRIPTED_YARDZEE


@pytest.mark.django_db
def test_a_write_with_an_unknown_query_parameter_is_refused_and_changes_nothing(
    seat_match, players, as_organizer: APIClient
):
    match = seat_match("yardzee", players[:2])
    player = match["seats"][0]["player"]["id"]
    turn = {**SCRIPTED_YARDZEE[0], "player": player}
    url = f"/api/v1/matches/{match['id']}/turns/"
    refused = as_organizer.post(f"{url}?nonsense=1&key=x", turn, format="json")
    assert refused.status_code == 400
    body = refused.json()
    assert body["code"] == "invalid"
    assert list(body["details"]["fields"]) == ["nonsense"]
    assert body["message"] == "nonsense: No such query parameter; this request takes format, key."
    assert not Turn.objects.exists()
    void = as_organizer.post(f"/api/v1/matches/{match['id']}/void/?reseed_later_stage=1")
    assert void.status_code == 400
    assert Match.objects.get(pk=match["id"]).status != MatchStatus.VOID
    # what a write takes is still taken
    assert as_organizer.post(f"{url}?format=json", turn, format="json").status_code == 201


@pytest.mark.django_db
def test_a_read_with_an_unknown_query_parameter_is_refused_as_a_list_is(
    yardzee_league, seat_match, players
):
    client = APIClient()
    refused = client.get("/api/v1/leagues/yardzee/standings/?format=csv&nonsense=1")
    assert refused.status_code == 400
    assert refused["Content-Type"] == "application/json"  # an error is JSON, CSV asked or not
    assert refused.json()["details"]["fields"] == {
        "nonsense": ["No such query parameter; this request takes format, key."]
    }
    assert client.get("/api/v1/leagues/yardzee/standings/?format=csv").status_code == 200
    match = seat_match("yardzee", players[:2])
    assert client.get(f"/api/v1/matches/{match['id']}/turns/?limit=5").status_code == 200
    assert client.get(f"/api/v1/matches/{match['id']}/turns/?page=2").status_code == 400
    listed = client.get("/api/v1/leagues/?nonsense=1")  # a list: its filter backend answers
    assert listed.status_code == 400
    assert "this list takes" in listed.json()["message"]


def test_every_request_takes_key_and_format_and_a_few_more():
    assert takes("POST", None) == ALWAYS
    assert takes("HEAD", "stage-stage-standings") == ALWAYS | {"group"}
    assert takes("POST", "match-turn-correct") == ALWAYS | {"reseed_later_stages"}


def _route(path: str) -> str | None:
    return resolve(re.sub(r"\{[^}]+\}", "1", path)).url_name


def test_what_each_request_takes_is_what_the_schema_documents():
    schema: dict[str, Any] = SchemaGenerator().get_schema(request=None, public=True)
    documented: dict[tuple[str, str], set[str]] = {}
    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            route = _route(path)
            if method == "get" and str(route).endswith("-list"):
                continue  # the lists: api.filters
            query = {p["name"] for p in operation.get("parameters", []) if p.get("in") == "query"}
            assert query <= takes(method.upper(), route), (method, path, query)
            if query - ALWAYS:
                documented[(method.upper(), str(route))] = query - ALWAYS
    assert documented == {route: set(names) for route, names in PARAMETERS.items()}


@pytest.mark.django_db
def test_the_schema_pages_and_unnamed_routes_are_held_too(yardzee_event):
    client = APIClient()
    assert client.get("/api/v1/docs/?script").status_code == 200  # the Swagger UI's script
    assert client.get("/api/v1/schema/?format=json").status_code == 200
    assert client.get("/api/v1/schema/?nonsense=1").status_code == 400
    assert client.get(f"/api/v1/events/{yardzee_event.pk}/sign-up/?x=1").status_code == 400
    assert client.get("/api/v1/no/such/path/?x=1").status_code == 404
