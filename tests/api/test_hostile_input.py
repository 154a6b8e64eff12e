"""Hostile input is refused quickly with a 4xx in the error shape, and changes nothing."""

import json
import time

import pytest
from django.test import Client
from rest_framework.test import APIClient

from games.models import Match, Turn
from league.models import League
from tests.conftest import client_for


@pytest.fixture
def match(players, seat_match):
    return seat_match("yardzee", players[:2])


def _post_raw(match, body: str):
    started = time.monotonic()
    response = APIClient().generic(
        "POST",
        f"/api/v1/matches/{match['id']}/turns/",
        body,
        content_type="application/json",
        HTTP_X_SCORE_KEY=match["score_key"],
    )
    return response, time.monotonic() - started


@pytest.mark.django_db
def test_deeply_nested_json_is_refused_with_400_not_a_crash(match):
    response, _ = _post_raw(match, "[" * 100_000 + "]" * 100_000)
    assert response.status_code == 400
    assert response.json()["code"] == "malformed_json"
    assert "nested too deeply" in response.json()["message"]
    assert not Turn.objects.exists()


@pytest.mark.django_db
def test_a_ten_megabyte_body_is_refused_with_413_before_it_is_read(match):
    response, seconds = _post_raw(match, '{"rolls": "' + "x" * 10_000_000 + '"}')
    assert response.status_code == 413
    body = response.json()
    assert body["code"] == "request_too_large"
    assert body["details"]["limit"] == 1024 * 1024
    assert seconds < 5
    assert not Turn.objects.exists()


@pytest.mark.django_db
def test_moderately_nested_junk_is_a_rule_violation(match):
    nested: object = 1
    for _ in range(300):
        nested = [nested]
    response = APIClient().post(
        f"/api/v1/matches/{match['id']}/turns/",
        {"player": match["seats"][0]["player"]["id"], "rolls": nested, "category": "aces"},
        format="json",
        HTTP_X_SCORE_KEY=match["score_key"],
    )
    assert response.status_code == 422
    assert not Turn.objects.exists()


@pytest.mark.django_db
def test_session_authenticated_writes_need_a_csrf_token(organizer):
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(organizer)
    refused = browser.post(
        "/api/v1/leagues/", {"name": "No token", "game": "yardzee"}, content_type="application/json"
    )
    assert refused.status_code == 403
    assert "CSRF" in refused.json()["message"]
    browser.get("/admin/login/")  # any page that sets the CSRF cookie
    token = browser.cookies["csrftoken"].value
    accepted = browser.post(
        "/api/v1/leagues/",
        {"name": "With token", "game": "yardzee"},
        content_type="application/json",
        HTTP_X_CSRFTOKEN=token,
    )
    assert accepted.status_code == 201, accepted.json()


@pytest.mark.django_db
@pytest.mark.parametrize(
    "path",
    [
        "/api/v1/matches/99999999999999999999999/",
        "/api/v1/leagues/Swiss%20rounds./ratings/",
        "/api/v1/no-such-thing/",
        # A line break (or any character `.` does not match) anywhere in the path.
        "/api/v1/leagues/a%0Ab/import/",
        "/api/v1/%0A",
        "/api/v1/matches/1/turns/%0D%0A",
    ],
)
def test_paths_no_route_matches_answer_404_in_the_error_shape(path):
    response = APIClient().get(path)
    assert response.status_code == 404
    assert response.json() == {"code": "not_found", "message": "Not found.", "details": {}}


@pytest.mark.django_db
def test_a_write_to_an_unmatched_path_with_a_session_answers_a_json_404(organizer):
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(organizer)
    response = browser.put("/api/v1/leagues/a.b/", "{}", content_type="application/json")
    assert response.status_code == 404
    assert response.json()["code"] == "not_found"


@pytest.mark.django_db
def test_a_league_whose_name_makes_no_slug_is_refused_with_a_reason(as_organizer):
    response = as_organizer.post(
        "/api/v1/leagues/", {"name": "!!!", "game": "yardzee"}, format="json"
    )
    assert response.status_code == 400
    assert response.json()["message"].startswith("slug: Give the league a slug")


@pytest.mark.django_db
def test_a_limit_or_offset_too_large_for_the_database_is_clamped_not_a_crash():
    for query in ("limit=357953010134477766656", "offset=357953010134477766656"):
        response = APIClient().get(f"/api/v1/events/?{query}")
        assert response.status_code == 200, query
        assert response.json()["results"] == []


@pytest.mark.django_db
def test_a_head_request_reads_and_never_writes(
    as_organizer, organizer, players, yardzee_event, seat_match
):
    """HEAD is GET without the body: on the actions that read with GET and write with POST
    (a match's turns, a league's roster, an event's stages) it stores nothing, even with the
    body a POST would take."""
    match = seat_match("yardzee", players[:2], event=yardzee_event)
    league = yardzee_event.league
    newcomer = players[3]  # on another roster of the same organizer: theirs to add here
    other = League.objects.create(name="Elsewhere", slug="elsewhere", game="yardzee")
    other.organizers.add(organizer)
    other.players.add(newcomer)
    writes = [
        (
            f"/api/v1/matches/{match['id']}/turns/",
            {"player": players[0].pk, "rolls": [{"dice": [1, 2, 3, 4, 5]}], "category": "chance"},
        ),
        (f"/api/v1/leagues/{league.slug}/players/", {"player": newcomer.pk}),
        (
            f"/api/v1/events/{yardzee_event.pk}/stages/",
            {"name": "Cup", "format": "round_robin", "participants": [p.pk for p in players[:2]]},
        ),
    ]
    for path, body in writes:
        head = as_organizer.generic("HEAD", path, json.dumps(body), content_type="application/json")
        get = as_organizer.get(path)
        assert head.status_code == get.status_code == 200, path
        assert head.content == b"", path
    assert not Turn.objects.exists()
    assert not league.players.filter(pk=newcomer.pk).exists()
    assert not yardzee_event.stages.exists()


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("path", "formats"),
    [
        ("/api/v1/leagues/?format=xml", "json, api"),
        ("/api/v1/matches/?format=csv", "json, api"),  # CSV is for the tables only
        ("/api/v1/leagues/?format=%00", "json, api"),
        ("/api/v1/leagues/yardzee/standings/?format=xlsx", "json, api, csv"),
    ],
)
def test_a_format_the_answer_does_not_come_in_is_406_not_a_404(yardzee_league, path, formats):
    """The resource is there: `?format=` naming no format of it is 406 `not_acceptable`, as an
    Accept header nothing satisfies is, and says which formats there are."""
    response = APIClient().get(path)
    assert response.status_code == 406, response.content
    body = response.json()
    assert body["code"] == "not_acceptable"
    assert body["message"].endswith(f"this answer comes as: {formats}.")
    assert APIClient().get(path.partition("?")[0]).status_code == 200


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("get", "/api/v1/leagues/yardzee/standings.json"),
        ("get", "/api/v1/leagues/yardzee/standings.csv"),
        ("get", "/api/v1/matches/{match}/turns.json"),
        ("get", "/api/v1/matches.json"),
        ("post", "/api/v1/matches/{match}/turns.json"),
        ("post", "/api/v1/matches/{match}/undo.json"),
    ],
)
def test_a_format_suffix_is_no_path_of_the_api(as_organizer, yardzee_league, match, method, path):
    """The router also routed `.json` suffixes, which reached every action with a `format`
    argument none of them takes: 500. A format is asked for with `?format=` or `Accept`; a
    suffix is a path no route has, 404, and changes nothing."""
    as_organizer.post(
        f"/api/v1/matches/{match['id']}/turns/",
        {
            "player": match["seats"][0]["player"]["id"],
            "rolls": [{"dice": [1, 2, 3, 4, 5]}],
            "category": "chance",
        },
        format="json",
    )
    response = getattr(as_organizer, method)(path.format(match=match["id"]), {}, format="json")
    assert response.status_code == 404, response.content
    assert response.json()["code"] == "not_found"
    assert Turn.objects.count() == 1


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("path", "accept", "status", "content_type"),
    [
        # q=0 is "not acceptable" (RFC 9110, 12.5.1): DRF read it as acceptable.
        ("/api/v1/leagues/", "application/json;q=0", 406, "application/json"),
        ("/api/v1/leagues/", "*/*;q=0", 406, "application/json"),
        ("/api/v1/leagues/yardzee/standings/", "text/csv;q=0", 406, "application/json"),
        ("/api/v1/leagues/", "text/html;q=0, */*", 200, "application/json"),
        # The format weighed highest is served, not the first of the view's renderers.
        (
            "/api/v1/leagues/yardzee/standings/",
            "application/json;q=0.5, text/csv",
            200,
            "text/csv; charset=utf-8",
        ),
        (
            "/api/v1/leagues/yardzee/standings/",
            "text/csv;q=0.5, application/json",
            200,
            "application/json",
        ),
        ("/api/v1/leagues/yardzee/standings/", "text/csv", 200, "text/csv; charset=utf-8"),
        # A browser's header still gets the browsable page.
        (
            "/api/v1/leagues/",
            "text/html,application/xhtml+xml,*/*;q=0.8",
            200,
            "text/html; charset=utf-8",
        ),
        ("/api/v1/leagues/", "application/json; indent=2", 200, "application/json"),
        # ?format= names the format: the Accept header does not undo it.
        (
            "/api/v1/leagues/yardzee/standings/?format=csv",
            "application/json",
            200,
            "text/csv; charset=utf-8",
        ),
    ],
)
def test_the_accept_header_is_read_with_its_quality_values(
    yardzee_league, path, accept, status, content_type
):
    """docs/api.md, "Errors": 406 for an Accept header no format of the answer satisfies, with
    a message naming the formats there are."""
    response = APIClient().get(path, HTTP_ACCEPT=accept)
    assert response.status_code == status, response.content
    assert response["Content-Type"] == content_type
    if status == 406:
        body = response.json()
        assert body["code"] == "not_acceptable"
        assert "this answer comes as: json, api" in body["message"]


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("field", "value", "why"),
    [
        ("display_name", 123, "Must be text (a JSON string), not 123."),
        ("display_name", True, "Must be text (a JSON string), not true."),
        ("handle", ["ana"], 'Must be text (a JSON string), not ["ana"].'),
    ],
)
def test_a_json_value_of_another_type_than_its_field_is_refused_not_converted(
    as_organizer, players, yardzee_event, field, value, why
):
    """docs/api.md, "Errors": DRF reads a JSON body as leniently as a form, so 123 was stored as
    the name "123"; in JSON a value of the wrong type is 400 `invalid` naming the field, and
    nothing changes."""
    yardzee_event.league.players.add(players[0])
    before = (players[0].display_name, players[0].handle)
    response = as_organizer.patch(
        f"/api/v1/players/{players[0].pk}/", {field: value}, format="json"
    )
    assert response.status_code == 400, response.json()
    assert response.json()["code"] == "invalid"
    assert response.json()["details"]["fields"] == {field: [why]}
    players[0].refresh_from_db()
    assert (players[0].display_name, players[0].handle) == before


@pytest.mark.django_db
def test_numbers_flags_and_ids_of_the_wrong_json_type_are_refused(as_organizer, yardzee_event):
    """A whole number as "8" or 8.0, a flag as "yes" or 1, an id in a list as "9": each is
    400 `invalid` naming the field (a list's item by its place); the same values sent as a
    form (text, as forms send everything) are read as before."""
    url = f"/api/v1/events/{yardzee_event.pk}/sign-up/"
    for body, field, why in (
        ({"cap": "8"}, "cap", 'Must be a whole number, not "8".'),
        ({"cap": 8.0}, "cap", "Must be a whole number, not 8.0."),
        ({"check_in": "yes"}, "check_in", 'Must be true or false, not "yes".'),
        ({"check_in": 1}, "check_in", "Must be true or false, not 1."),
    ):
        response = as_organizer.put(url, body, format="json")
        assert response.status_code == 400, (body, response.json())
        assert response.json()["details"]["fields"] == {field: [why]}, body
    assert as_organizer.get(url).status_code == 404  # no sign-up was made
    assert as_organizer.put(url, {"cap": "8", "check_in": "true"}).status_code == 200  # a form
    listed = as_organizer.post(
        f"/api/v1/events/{yardzee_event.pk}/stages/",
        {"name": "Cup", "format": "round_robin", "participants": ["9", 10]},
        format="json",
    )
    assert listed.status_code == 400
    assert listed.json()["details"]["fields"] == {
        "participants": ['Item 0: Must be a whole number, not "9".']
    }
    assert not yardzee_event.stages.exists()
    seated = as_organizer.post(
        "/api/v1/matches/",
        {"event": str(yardzee_event.pk), "game": "yardzee", "players": [1, 2]},
        format="json",
    )
    assert seated.status_code == 400
    assert seated.json()["details"]["fields"] == {
        "event": [f'Must be an id (a whole number), not "{yardzee_event.pk}".']
    }
    assert not yardzee_event.matches.exists()


@pytest.mark.django_db
def test_a_key_that_is_no_field_is_refused_not_ignored(
    as_organizer, organizer, players, yardzee_event
):
    """A body's key that no field takes (a typo, or a read-only field) is 400 `invalid` naming
    it in `details.fields`, and nothing changes: `rule` for `rules` would otherwise seat a
    match under the league's rules, answered 201; `organizers` on a league, 200 and no one
    added."""
    league = yardzee_event.league
    league.players.add(*players[:2])
    ids = [p.pk for p in players[:2]]
    writes = [
        (
            "post",
            "/api/v1/matches/",
            {
                "event": yardzee_event.pk,
                "game": "yardzee",
                "players": ids,
                "rule": {"joker": "free_choice"},
            },
            "rule",
        ),
        ("patch", f"/api/v1/leagues/{league.slug}/", {"organizers": ["someone"]}, "organizers"),
        ("patch", f"/api/v1/leagues/{league.slug}/", {"name": "New", "nmae": "x"}, "nmae"),
        ("patch", f"/api/v1/events/{yardzee_event.pk}/", {"id": 99, "venue": "Yard"}, "id"),
        (
            "post",
            f"/api/v1/events/{yardzee_event.pk}/stages/",
            {"name": "Cup", "format": "round_robin", "participants": ids, "table": 3},
            "table",
        ),
        ("post", f"/api/v1/events/{yardzee_event.pk}/close/", {"state": "cancelled"}, "state"),
    ]
    for method, path, body, key in writes:
        response = getattr(as_organizer, method)(path, body, format="json")
        assert response.status_code == 400, (path, response.json())
        answer = response.json()
        assert answer["code"] == "invalid"
        assert list(answer["details"]["fields"]) == [key], path
    league.refresh_from_db()
    yardzee_event.refresh_from_db()
    assert (league.name, yardzee_event.venue, yardzee_event.status) == (
        "Backyard Yardzee",
        "",
        "upcoming",
    )
    assert not yardzee_event.matches.exists()
    assert not yardzee_event.stages.exists()
    assert list(league.organizers.all()) == [organizer]


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("query", "field"),
    [
        ("limit=abc", "limit"),
        ("limit=0", "limit"),
        ("limit=-1", "limit"),
        ("limit=1.5", "limit"),
        ("limit=%2B5", "limit"),  # "+5": int() would take it
        ("limit=%00", "limit"),
        ("offset=-5", "offset"),
        ("offset=1e3", "offset"),
        ("offset=abc", "offset"),
    ],
)
def test_a_limit_or_offset_that_is_no_number_of_its_range_is_400_not_the_default(
    yardzee_event, query, field
):
    """DRF pages by its default when `limit` or `offset` is not a number it takes: a client
    asking for `limit=0` got 50 rows. Each list says what is wrong instead."""
    for path in ("/api/v1/events/", f"/api/v1/leagues/{yardzee_event.league.slug}/players/"):
        response = APIClient().get(f"{path}?{query}")
        assert response.status_code == 400, (path, response.content)
        assert response.json()["code"] == "invalid"
        assert list(response.json()["details"]["fields"]) == [field]
    assert APIClient().get("/api/v1/events/?limit=1&offset=0").json()["count"] == 1
    assert APIClient().get("/api/v1/events/?limit=&offset=").status_code == 200  # empty: none


@pytest.mark.django_db
def test_a_method_the_path_does_not_take_is_405_with_or_without_credentials(
    yardzee_event, other_organizer
):
    """DRF checks credentials before it looks for the method's handler: DELETE on a league was
    401 for anyone signed out (and 403 for another league's organizer), as if credentials
    would let it through, where the league's organizer got 405. Every caller gets 405, with
    `Allow`; a method the path takes is still 401 without credentials."""
    league = yardzee_event.league.slug
    asks = [
        ("delete", f"/api/v1/leagues/{league}/"),
        ("delete", f"/api/v1/events/{yardzee_event.pk}/"),
        ("get", f"/api/v1/leagues/{league}/import/"),
        ("get", f"/api/v1/matches/{yardzee_event.pk}/schedule/"),
        ("put", f"/api/v1/events/{yardzee_event.pk}/close/"),
    ]
    for client in (APIClient(), client_for(other_organizer)):
        for method, path in asks:
            response = getattr(client, method)(path, {}, format="json")
            assert response.status_code == 405, (method, path, response.json())
            assert response.json()["code"] == "method_not_allowed"
            assert method.upper() not in response["Allow"]
    assert APIClient().post(f"/api/v1/leagues/{league}/import/", {}).status_code == 401


@pytest.mark.django_db
def test_a_body_sent_to_an_action_that_takes_none_is_refused_not_ignored(
    as_organizer, players, yardzee_event, seat_match
):
    """start/, reopen/, unvoid/, a registration's refuse/ and withdraw/ (the organizer's and
    the holder's) take no fields: `{"seeding": "random"}` to start/ drew the stage as it was,
    answered 200. Each key sent is now 400 `invalid` naming it, and nothing changes; with no
    body (or `{}`) each does what it did."""
    from league.models import Registration, Stage
    from league.services import registration as reg

    league = yardzee_event.league
    league.players.add(*players[:4])
    ids = [p.pk for p in players[:4]]
    stage = as_organizer.post(
        f"/api/v1/events/{yardzee_event.pk}/stages/",
        {"name": "Cup", "format": "round_robin", "participants": ids},
        format="json",
    ).json()["id"]
    casual = seat_match("yardzee", players[4:6])
    as_organizer.post(f"/api/v1/matches/{casual['id']}/void/", {}, format="json")
    reg.sign_up_set(event=yardzee_event)
    signed = [
        {"id": done.registration.pk, "key": done.key}
        for done in (
            reg.registration_create(
                event_id=yardzee_event.pk, display_name=name, email=f"{name.lower()}@example.org"
            )
            for name in ("Ann", "Ben")
        )
    ]
    writes = [
        (as_organizer, f"/api/v1/stages/{stage}/start/", {"seeding": "random"}, "seeding"),
        (as_organizer, f"/api/v1/matches/{casual['id']}/unvoid/", {"outcome": "replay"}, "outcome"),
        (as_organizer, f"/api/v1/registrations/{signed[0]['id']}/refuse/", {"why": "x"}, "why"),
        (as_organizer, f"/api/v1/registrations/{signed[0]['id']}/withdraw/", {"a": 1}, "a"),
    ]
    holder = APIClient(HTTP_X_REGISTRATION_KEY=signed[1]["key"])
    writes.append((holder, "/api/v1/registrations/mine/withdraw/", {"reason": "ill"}, "reason"))
    for client, path, body, key in writes:
        response = client.post(path, body, format="json")
        assert response.status_code == 400, (path, response.json())
        assert response.json()["code"] == "invalid"
        assert list(response.json()["details"]["fields"]) == [key], path
        assert "takes no fields" in response.json()["message"]
    assert Stage.objects.get(pk=stage).status == "draft"
    assert Match.objects.get(pk=casual["id"]).status == "void"
    assert set(Registration.objects.values_list("status", flat=True)) == {"pending"}
    as_organizer.post(f"/api/v1/events/{yardzee_event.pk}/close/", {"status": "cancelled"})
    reopened = as_organizer.post(
        f"/api/v1/events/{yardzee_event.pk}/reopen/", {"status": "upcoming"}, format="json"
    )
    assert (reopened.status_code, reopened.json()["details"]["fields"]) == (
        400,
        {"status": ["No such field; this request takes no fields (send {} or no body)."]},
    )
    yardzee_event.refresh_from_db()
    assert yardzee_event.status == "cancelled"
    for path in (
        f"/api/v1/events/{yardzee_event.pk}/reopen/",
        f"/api/v1/stages/{stage}/start/",
        f"/api/v1/matches/{casual['id']}/unvoid/",
        f"/api/v1/registrations/{signed[0]['id']}/refuse/",
    ):
        assert as_organizer.post(path, {}, format="json").status_code == 200, path
    assert holder.post("/api/v1/registrations/mine/withdraw/").status_code == 200


@pytest.mark.django_db
def test_a_slug_choice_or_date_of_the_wrong_json_type_is_refused(as_organizer, organizer):
    """`"league": 5` was read as the slug "5" (an event made in the league of that address),
    as "9" was once read as an id; a choice or a date sent as a number is refused the same way,
    naming what the field takes."""
    five = League.objects.create(name="Five", slug="5", game="yardzee")
    five.organizers.add(organizer)
    for body, field, why in (
        ({"league": 5, "name": "Night", "date": "2026-12-01"}, "league", "Must be a slug"),
        ({"league": "5", "name": "Night", "date": 20261201}, "date", "Must be a date"),
    ):
        response = as_organizer.post("/api/v1/events/", body, format="json")
        assert response.status_code == 400, (body, response.json())
        assert list(response.json()["details"]["fields"]) == [field]
        assert response.json()["details"]["fields"][field][0].startswith(why)
    assert not five.events.exists()
    made = as_organizer.post("/api/v1/leagues/", {"name": "Six", "game": 1}, format="json")
    assert made.status_code == 400
    assert made.json()["details"]["fields"] == {
        "game": ["Must be one of its choices, as a JSON string, not 1."]
    }
    assert not League.objects.filter(name="Six").exists()


@pytest.mark.django_db
def test_a_huge_key_or_value_is_named_cut_short_in_a_validation_error(as_organizer):
    """DRF's messages repeat what was sent ('"..." is not a valid choice.'), and an unknown
    key is named in `details.fields`: a fuzzed value or key of 100,000 characters came back
    whole. Every key and sentence of the error is cut short; nothing is stored."""
    huge = "x" * 100_000
    for body, field in (
        ({"name": "Huge", "game": huge}, "game"),
        ({"name": "Huge", huge: 1}, None),
    ):
        answer = as_organizer.post("/api/v1/leagues/", body, format="json")
        assert answer.status_code == 400
        assert answer.json()["code"] == "invalid"
        assert len(answer.content) < 2_000
        fields = answer.json()["details"]["fields"]
        named = fields[field][0] if field else next(iter(fields))
        assert named.startswith(('"xxx', "xxx"))
        assert "..." in named
        assert len(named) <= 500
    assert not League.objects.filter(name="Huge").exists()


@pytest.mark.django_db
def test_a_huge_key_given_twice_is_named_cut_short(match):
    huge = "k" * 100_000
    answer, _ = _post_raw(match, f'{{"{huge}": 1, "{huge}": 2}}')
    assert answer.status_code == 400
    assert answer.json()["code"] == "duplicate_key"
    assert len(answer.content) < 1_000


@pytest.mark.django_db
def test_a_query_parameter_a_list_does_not_take_is_refused_not_ignored(yardzee_event):
    """`?league=` is no filter of the events (`?league__slug=` is): it listed every event,
    as if filtered. A list takes its filters, its page and `format`."""
    client = APIClient()
    refused = client.get("/api/v1/events/", {"league": "elsewhere"})
    assert refused.status_code == 400
    assert refused.json()["code"] == "invalid"
    assert list(refused.json()["details"]["fields"]) == ["league"]
    assert "league__slug" in refused.json()["message"]
    slug = yardzee_event.league.slug
    filtered = client.get("/api/v1/events/", {"league__slug": slug, "limit": 5, "format": "json"})
    assert filtered.status_code == 200
    assert [e["id"] for e in filtered.json()["results"]] == [yardzee_event.pk]
    assert client.get("/api/v1/events/", {"league__slug": "elsewhere"}).json()["count"] == 0
    # A detail takes no filter (its id says which), and is refused one as a list is (issue 37).
    detail = client.get(f"/api/v1/events/{yardzee_event.pk}/", {"league": "x"})
    assert detail.status_code == 400
    assert list(detail.json()["details"]["fields"]) == ["league"]


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("path", "accept", "status", "code"),
    [
        ("/api/v1/leagues/nowhere/standings/?format=csv", "", 404, "not_found"),
        ("/api/v1/leagues/nowhere/standings/", "text/csv", 404, "not_found"),
        ("/api/v1/players/999999/ratings/?format=csv", "", 404, "not_found"),
    ],
)
def test_an_error_asked_for_as_csv_is_answered_as_json(yardzee_league, path, accept, status, code):
    """Issue 37, item 9: an error of a `?format=csv` request came back as a CSV line; errors
    are always JSON, in the one error shape."""
    response = APIClient().get(path, HTTP_ACCEPT=accept) if accept else APIClient().get(path)
    assert response.status_code == status, response.content
    assert response["Content-Type"] == "application/json"
    assert "Content-Disposition" not in response
    assert response.json()["code"] == code
