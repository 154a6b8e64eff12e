"""A ruleset (`rules`) wherever the API takes one: leagues, events and matches (docs/api.md,
"Rulesets"). It is a JSON object of rule options, and no `rules` is the default ruleset (no
overrides for an event). Anything else is refused and changes nothing: a league's, an event's
or a match's with the rulebook's 422 `wrong_type` under the rule "Ruleset options", and `null`
anywhere as an invalid field, 400 `invalid`."""

import json
from urllib.parse import urlencode

import pytest

from games.models import Match
from league.models import Event, League

NOT_OBJECTS = [[], 0, "x", "forced", [{"joker": "forced"}], 1.5, True, False]
NEW_EVENT = {"league": "yardzee", "name": "R", "date": "2026-12-20"}


def _refused_as_not_an_object(response) -> None:
    assert response.status_code == 422, response.content
    assert response["Content-Type"] == "application/json"
    body = response.json()
    assert body["code"] == "wrong_type"
    assert body["rule"] == "Ruleset options"
    assert body["details"] == {"field": "rules", "expected": "object"}
    assert body["message"] == "rules must be a JSON object."


@pytest.mark.django_db
@pytest.mark.parametrize("rules", NOT_OBJECTS)
def test_a_new_league_with_rules_that_are_not_an_object_is_refused(as_organizer, rules):
    response = as_organizer.post(
        "/api/v1/leagues/", {"name": "R", "game": "yardzee", "rules": rules}, format="json"
    )
    _refused_as_not_an_object(response)
    assert not League.objects.filter(slug="r").exists()


@pytest.mark.django_db
@pytest.mark.parametrize("body", [{}, {"rules": {}}])
def test_a_new_league_without_rules_takes_the_games_defaults(as_organizer, body):
    response = as_organizer.post(
        "/api/v1/leagues/", {"name": "R", "game": "yardkle", **body}, format="json"
    )
    assert response.status_code == 201, response.json()
    assert response.json()["rules"] == {"target": 10000, "entry_minimum": 500}


@pytest.mark.django_db
def test_null_rules_are_an_invalid_field_of_a_league_or_an_event(as_organizer, yardzee_event):
    for method, path, body in [
        ("post", "/api/v1/leagues/", {"name": "R", "game": "yardzee"}),
        ("patch", "/api/v1/leagues/yardzee/", {}),
        ("post", "/api/v1/events/", NEW_EVENT),
        ("patch", f"/api/v1/events/{yardzee_event.pk}/", {}),
    ]:
        response = getattr(as_organizer, method)(path, {**body, "rules": None}, format="json")
        assert response.status_code == 400, (path, response.content)
        assert response.json()["code"] == "invalid"
        assert list(response.json()["details"]["fields"]) == ["rules"]
    assert (League.objects.count(), Event.objects.count()) == (1, 1)


@pytest.mark.django_db
@pytest.mark.parametrize("rules", NOT_OBJECTS)
def test_changing_a_leagues_rules_to_something_not_an_object_is_refused(
    as_organizer, yardzee_league, rules
):
    response = as_organizer.patch("/api/v1/leagues/yardzee/", {"rules": rules}, format="json")
    _refused_as_not_an_object(response)
    yardzee_league.refresh_from_db()
    assert yardzee_league.rules == {}


@pytest.mark.django_db
@pytest.mark.parametrize("rules", NOT_OBJECTS)
def test_a_new_event_with_rules_that_are_not_an_object_is_refused(
    as_organizer, yardzee_league, rules
):
    response = as_organizer.post("/api/v1/events/", {**NEW_EVENT, "rules": rules}, format="json")
    _refused_as_not_an_object(response)
    assert not Event.objects.exists()


@pytest.mark.django_db
@pytest.mark.parametrize("rules", NOT_OBJECTS)
def test_changing_an_events_rules_to_something_not_an_object_is_refused(
    as_organizer, yardzee_event, rules
):
    yardzee_event.rules = {"joker": "free_choice"}
    yardzee_event.save()
    response = as_organizer.patch(
        f"/api/v1/events/{yardzee_event.pk}/", {"rules": rules, "name": "Renamed"}, format="json"
    )
    _refused_as_not_an_object(response)
    yardzee_event.refresh_from_db()
    assert (yardzee_event.name, yardzee_event.rules) == ("Week 1", {"joker": "free_choice"})


@pytest.mark.django_db
def test_an_event_without_rules_has_no_overrides_and_keeps_them_when_renamed(
    as_organizer, yardzee_league
):
    created = as_organizer.post("/api/v1/events/", NEW_EVENT, format="json")
    assert created.status_code == 201, created.json()
    assert created.json()["rules"] == {}
    url = f"/api/v1/events/{created.json()['id']}/"
    overridden = as_organizer.patch(url, {"rules": {"joker": "free_choice"}}, format="json")
    assert overridden.json()["rules"] == {"joker": "free_choice"}
    renamed = as_organizer.patch(url, {"name": "Renamed"}, format="json")
    assert renamed.status_code == 200, renamed.json()
    assert renamed.json()["rules"] == {"joker": "free_choice"}


@pytest.mark.django_db
@pytest.mark.parametrize("form", ["multipart", "urlencoded"])
@pytest.mark.parametrize("text", ["[]", "0", '"x"'])
def test_an_events_rules_sent_in_a_form_body_as_json_that_is_not_an_object_are_refused(
    as_organizer, yardzee_league, form, text
):
    """A form body's `rules` is read as JSON text: an array, a number or a string in it is
    refused as it is in a JSON body, not a 500."""
    body = {**NEW_EVENT, "rules": text}
    if form == "multipart":
        response = as_organizer.post("/api/v1/events/", body)
    else:
        response = as_organizer.generic(
            "POST",
            "/api/v1/events/",
            urlencode(body),
            content_type="application/x-www-form-urlencoded",
        )
    _refused_as_not_an_object(response)
    assert not Event.objects.exists()


def _new_match(client, players, event, rules):
    event.league.players.add(*players[:2])
    return client.post(
        "/api/v1/matches/",
        {"event": event.pk, "game": "yardzee", "players": [p.pk for p in players[:2]]}
        | {"rules": rules},
        format="json",
    )


@pytest.mark.django_db
@pytest.mark.parametrize("rules", NOT_OBJECTS)
def test_a_new_match_with_rules_that_are_not_an_object_is_refused(
    as_organizer, players, yardzee_event, rules
):
    """As a league's and an event's: the rulebook's 422 `wrong_type`, the same sentence."""
    _refused_as_not_an_object(_new_match(as_organizer, players, yardzee_event, rules))
    assert not Match.objects.exists()


@pytest.mark.django_db
def test_a_new_match_with_null_rules_is_an_invalid_field(as_organizer, players, yardzee_event):
    response = _new_match(as_organizer, players, yardzee_event, None)
    assert response.status_code == 400, response.content
    assert response.json()["code"] == "invalid"
    assert list(response.json()["details"]["fields"]) == ["rules"]
    assert not Match.objects.exists()


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("path", "body", "code"),
    [
        (
            "/api/v1/leagues/",
            {"name": "R", "game": "yardzee", "rules": {"jokers": "forced"}},
            "unknown_rule_option",
        ),
        ("/api/v1/events/", {**NEW_EVENT, "rules": {"joker": "sometimes"}}, "invalid_rule_option"),
    ],
)
def test_a_bad_rule_option_names_the_ruleset_options_rule(
    as_organizer, yardzee_league, path, body, code
):
    response = as_organizer.post(path, body, format="json")
    assert response.status_code == 422, response.content
    assert response.json()["code"] == code
    assert response.json()["rule"] == "Ruleset options"


@pytest.mark.django_db
def test_a_bad_rule_option_of_a_new_match_names_the_ruleset_options_rule(
    as_organizer, players, yardzee_event
):
    yardzee_event.league.players.add(*players[:2])
    response = as_organizer.post(
        "/api/v1/matches/",
        json.dumps(
            {
                "event": yardzee_event.pk,
                "game": "yardzee",
                "players": [p.pk for p in players[:2]],
                "rules": {"joker": 7},
            }
        ),
        content_type="application/json",
    )
    assert response.status_code == 422, response.content
    assert (response.json()["code"], response.json()["rule"]) == (
        "invalid_rule_option",
        "Ruleset options",
    )
