"""Stages through the API: create, start, read the bracket's links, forfeit, and undo refused
while a later match fed by the result has started."""

import random

import pytest
from rest_framework.test import APIClient

import scoring
from games.models import Match
from league.models import StageMatch
from scoring import simulate
from tests.api.helpers import play, started_stage
from tests.conftest import client_for


@pytest.fixture
def bracket(as_organizer, yardzee_event, players):
    yardzee_event.league.players.add(*players)
    return started_stage(
        as_organizer, yardzee_event.pk, [p.pk for p in players[:4]], format="single_elimination"
    )


@pytest.mark.django_db
def test_a_started_bracket_shows_its_slots_links_and_seated_first_round(bracket, players):
    assert bracket["status"] == "running"
    slots = {slot["key"]: slot for slot in bracket["draw"]["bracket"]["slots"]}
    semis = [slot for slot in slots.values() if slot["round"] == 1]
    final = next(slot for slot in slots.values() if slot["round"] == 2)
    assert len(semis) == 2
    assert {exit_["slot"] for semi in semis for exit_ in semi["exits"]} == {final["key"]}
    assert all(semi["play"]["match"]["status"] == "scheduled" for semi in semis)
    assert final["play"] is None
    first = [seat["player"] for seat in semis[0]["play"]["match"]["seats"]]
    assert first == [players[0].pk, players[3].pk]  # seed 1 meets seed 4
    assert [entry["seed"] for entry in bracket["entries"]] == [1, 2, 3, 4]


@pytest.mark.django_db
def test_finishing_both_semis_seats_the_final_by_itself(bracket, as_organizer):
    for slot in bracket["draw"]["bracket"]["slots"]:
        if slot["play"]:
            play(as_organizer, slot["play"]["match"]["id"])
    stage = as_organizer.get(f"/api/v1/stages/{bracket['id']}/").json()
    final = next(s for s in stage["draw"]["bracket"]["slots"] if s["round"] == 2)
    assert final["play"]["match"]["status"] == "scheduled"
    play(as_organizer, final["play"]["match"]["id"])
    stage = as_organizer.get(f"/api/v1/stages/{bracket['id']}/").json()
    assert stage["status"] == "finished"
    assert len(stage["ranking"][0]) == 1


@pytest.mark.django_db
def test_undo_refused_while_the_match_it_fed_has_started_names_the_blocking_match(
    bracket, as_organizer, players
):
    semis = [s["play"]["match"]["id"] for s in bracket["draw"]["bracket"]["slots"] if s["play"]]
    for match_id in semis:
        play(as_organizer, match_id)
    final = StageMatch.objects.get(stage_id=bracket["id"], round=2).match
    local = scoring.new_game(final.game, 2, final.rules)
    turn = {
        "player": final.seats.get(order=0).player_id,
        **simulate.next_turn(local, random.Random(2)),
    }
    assert (
        as_organizer.post(f"/api/v1/matches/{final.pk}/turns/", turn, format="json").status_code
        == 201
    )
    response = as_organizer.post(f"/api/v1/matches/{semis[0]}/undo/")
    assert response.status_code == 409
    assert response.json()["code"] == "undo_blocked"
    assert response.json()["details"]["blocking_matches"] == [final.pk]
    assert Match.objects.get(pk=semis[0]).status == "finished"


@pytest.mark.django_db
def test_forfeit_through_the_api_advances_the_opponent(bracket, as_organizer):
    semi = next(s for s in bracket["draw"]["bracket"]["slots"] if s["play"])
    no_show = semi["play"]["match"]["seats"][1]["player"]
    response = as_organizer.post(
        f"/api/v1/stages/{bracket['id']}/forfeit/",
        {"stage_match": semi["play"]["stage_match"], "player": no_show},
        format="json",
    )
    assert response.status_code == 200, response.json()
    slots = {s["key"]: s for s in response.json()["draw"]["bracket"]["slots"]}
    assert slots[semi["key"]]["play"]["walkover"] is True
    assert slots[semi["key"]]["play"]["order"][-1] == no_show


@pytest.mark.django_db
def test_only_the_leagues_organizers_may_add_or_start_stages(
    yardzee_event, players, other_organizer, bracket
):
    other = client_for(other_organizer)
    response = other.post(
        f"/api/v1/events/{yardzee_event.pk}/stages/",
        {"name": "X", "format": "swiss", "participants": [p.pk for p in players]},
        format="json",
    )
    assert response.status_code == 403
    assert other.post(f"/api/v1/stages/{bracket['id']}/start/").status_code == 403
    assert APIClient().post(f"/api/v1/stages/{bracket['id']}/start/").status_code == 401


@pytest.mark.django_db
def test_starting_a_stage_twice_answers_409(bracket, as_organizer):
    response = as_organizer.post(f"/api/v1/stages/{bracket['id']}/start/")
    assert response.status_code == 409
    assert response.json()["code"] == "stage_started"
    assert response.json()["details"] == {"stage": bracket["id"]}  # as every stage_started


@pytest.mark.django_db
def test_an_unknown_tiebreak_metric_lists_only_the_metrics_of_the_leagues_game(
    as_organizer, yardzee_event, players
):
    body = {
        "name": "X",
        "format": "round_robin",
        "participants": [p.pk for p in players],
        "tiebreak": ["luck"],
    }
    response = as_organizer.post(f"/api/v1/events/{yardzee_event.pk}/stages/", body, format="json")
    assert response.status_code == 400, response.json()
    refusal = response.json()
    assert refusal["code"] == "unknown_metric"
    assert "yardzees" in refusal["message"]
    assert "yardkles" not in refusal["message"]  # a Yardkle metric: no use in this league
    assert "yardkles" not in refusal["details"]["metrics"]
    assert not yardzee_event.stages.exists()


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("options", "code"),
    [
        ({"format": "double_elimination", "table_size": 4}, "invalid_option"),
        ({"format": "single_elimination", "table_size": 4, "advance": 3}, "advance"),
        ({"format": "swiss", "participants": [1]}, "invalid_option"),
        ({"format": "knockout"}, "invalid"),
    ],
)
def test_impossible_stage_options_are_refused_with_a_code(
    as_organizer, yardzee_event, players, options, code
):
    body = {"name": "X", "participants": [p.pk for p in players], **options}
    response = as_organizer.post(f"/api/v1/events/{yardzee_event.pk}/stages/", body, format="json")
    assert response.status_code == 400, response.json()
    assert response.json()["code"] == code
    assert not yardzee_event.stages.exists()


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("options", "field"),
    [
        ({"format": "round_robin", "rounds": 3}, "rounds"),
        ({"format": "single_elimination", "rounds": 3}, "rounds"),
        ({"format": "swiss", "third_place": True}, "third_place"),
        ({"format": "round_robin", "third_place": True}, "third_place"),
        ({"format": "single_elimination", "grand_final_reset": False}, "grand_final_reset"),
        ({"format": "swiss", "table_size": 3, "advance": 2}, "advance"),
        ({"format": "round_robin", "table_size": 3, "advance": 2}, "advance"),
        ({"format": "double_elimination", "advance": 2}, "advance"),
    ],
)
def test_an_option_the_format_does_not_play_is_refused_not_stored_and_ignored(
    as_organizer, yardzee_event, players, options, field
):
    """`rounds` of a round robin, `third_place` of a Swiss stage, `grand_final_reset` of a
    single elimination, `advance` of a round robin: each was stored and never used, the
    organizer none the wiser. Refused as `groups` outside a round robin is (400
    `invalid_option`, `details.field`); the option's default (what the pages send for an
    option they do not show) is taken."""
    yardzee_event.league.players.add(*players)
    url = f"/api/v1/events/{yardzee_event.pk}/stages/"
    body = {"name": "X", "participants": [p.pk for p in players], **options}
    response = as_organizer.post(url, body, format="json")
    assert response.status_code == 400, response.json()
    assert response.json()["code"] == "invalid_option"
    assert response.json()["details"]["field"] == field
    assert not yardzee_event.stages.exists()
    defaults = {"rounds": None, "third_place": False, "grand_final_reset": True, "advance": 1}
    made = as_organizer.post(url, {**body, field: defaults[field]}, format="json")
    assert made.status_code == 201, made.json()
    changed = as_organizer.patch(
        f"/api/v1/stages/{made.json()['id']}/", {field: options[field]}, format="json"
    )
    assert (changed.status_code, changed.json()["code"]) == (400, "invalid_option")
    assert yardzee_event.stages.get().format == options["format"]
    assert getattr(yardzee_event.stages.get(), field) == defaults[field]


@pytest.mark.django_db
def test_a_format_changed_with_its_options_left_over_names_the_one_to_take_off(
    as_organizer, yardzee_event, players
):
    """A Swiss draft with 3 rounds changed to a round robin: `rounds` no longer applies, and
    the change is refused until it is taken off too (`"rounds": null`)."""
    yardzee_event.league.players.add(*players)
    url = f"/api/v1/events/{yardzee_event.pk}/stages/"
    body = {"name": "X", "format": "swiss", "rounds": 3, "participants": [p.pk for p in players]}
    stage = as_organizer.post(url, body, format="json").json()["id"]
    refused = as_organizer.patch(
        f"/api/v1/stages/{stage}/", {"format": "round_robin"}, format="json"
    )
    assert refused.status_code == 400, refused.json()
    assert refused.json()["details"]["field"] == "rounds"
    assert "swiss" in refused.json()["message"].lower()
    done = as_organizer.patch(
        f"/api/v1/stages/{stage}/", {"format": "round_robin", "rounds": None}, format="json"
    )
    assert done.status_code == 200, done.json()
    assert (done.json()["format"], done.json()["rounds"]) == ("round_robin", None)
