"""Leagues, events and players (`league.services.organization`): a league's settings are
checked before they are stored."""

import pytest
from rest_framework.test import APIClient

from games import services as game_services
from games.models import Match
from league.models import Event, League
from league.services import event_create, event_update, league_create, match_create
from scoring import RuleViolation


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("tiebreak", "code"),
    [
        (["points", "luck"], "unknown_metric"),
        (["points", "points"], "duplicate_metric"),
        (["yardzees"], "metric_not_for_game"),
    ],
)
def test_an_impossible_tiebreak_order_is_refused_with_its_code(
    league_event, organizer, tiebreak, code
):
    client = APIClient()
    client.force_authenticate(organizer)
    response = client.patch(
        f"/api/v1/leagues/{league_event.league.slug}/", {"tiebreak": tiebreak}, format="json"
    )
    assert response.status_code == 400
    assert response.json()["code"] == code
    league_event.league.refresh_from_db()
    assert "luck" not in league_event.league.tiebreak


@pytest.mark.django_db
def test_an_unknown_metric_of_a_yardkle_league_lists_no_yardzee_metric(
    yardkle_league, as_organizer
):
    response = as_organizer.patch(
        f"/api/v1/leagues/{yardkle_league.slug}/", {"tiebreak": ["luck"]}, format="json"
    )
    assert (response.status_code, response.json()["code"]) == (400, "unknown_metric")
    said = response.json()["message"]
    assert "yardkles" in said
    assert "yardzees" not in said
    assert "upper_bonuses" not in said


NOT_OBJECTS = [[], 0, False, "", "forced", [{"target": 5000}]]


def _not_an_object(error: pytest.ExceptionInfo[RuleViolation]) -> None:
    assert (error.value.code, error.value.rule) == ("wrong_type", "Ruleset options")
    assert error.value.details == {"field": "rules", "expected": "object"}


@pytest.mark.django_db
@pytest.mark.parametrize("rules", NOT_OBJECTS)
def test_a_league_is_not_created_with_rules_that_are_not_an_object_even_empty_ones(
    organizer, rules
):
    """Only None means "the game's defaults": `[]`, `0` or `""` are not taken for it."""
    with pytest.raises(RuleViolation) as error:
        league_create(name="R", slug="r", game="yardkle", rules=rules, created_by=organizer)
    _not_an_object(error)
    assert not League.objects.filter(slug="r").exists()


@pytest.mark.django_db
def test_a_league_created_without_rules_or_with_none_has_the_games_defaults(organizer):
    default = league_create(name="A", slug="a", game="yardkle", created_by=organizer)
    given = league_create(name="B", slug="b", game="yardkle", rules=None, created_by=organizer)
    assert default.rules == given.rules == {"target": 10_000, "entry_minimum": 500}


@pytest.mark.django_db
@pytest.mark.parametrize("rules", NOT_OBJECTS)
def test_an_event_with_rules_that_are_not_an_object_is_refused_before_they_meet_the_leagues(
    league_event, rules
):
    with pytest.raises(RuleViolation) as error:
        event_create(league=league_event.league, name="R", date="2026-12-20", rules=rules)
    _not_an_object(error)
    with pytest.raises(RuleViolation) as error:
        event_update(event=league_event, name="Renamed", rules=rules)
    _not_an_object(error)
    league_event.refresh_from_db()
    assert (league_event.name, league_event.rules) == ("Night 1", {})
    assert Event.objects.count() == 1


@pytest.mark.django_db
def test_an_events_override_is_checked_on_top_of_the_leagues_rules(league_event):
    league = league_event.league
    league.rules = {"target": 20_000, "entry_minimum": 500}
    league.save()
    event = event_create(
        league=league, name="R", date="2026-12-20", rules={"entry_minimum": 15_000}
    )
    assert event.rules == {"entry_minimum": 15_000}
    with pytest.raises(RuleViolation) as error:
        event_update(event=event, rules={"entry_minimum": 25_000})
    assert (error.value.code, error.value.rule) == ("invalid_rule_option", "Ruleset options")


@pytest.mark.django_db
@pytest.mark.parametrize("rules", NOT_OBJECTS)
def test_a_match_with_rules_that_are_not_an_object_is_refused_even_empty_ones(
    league_event, field, rules
):
    with pytest.raises(RuleViolation) as error:
        match_create(game="yardkle", player_ids=field[:2], rules=rules, event=league_event)
    _not_an_object(error)
    with pytest.raises(RuleViolation) as error:
        game_services.match_create(game="yardkle", player_ids=field[:2], rules=rules)
    _not_an_object(error)
    assert not Match.objects.exists()
