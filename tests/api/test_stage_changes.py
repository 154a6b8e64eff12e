"""Stages through the API (issue 16, items 3 and 4): a fed stage's options refused at creation
with the draw's code, PATCH and DELETE of a stage not started (and 409 once it has, or while
another stage takes its players from it), and a stage played in groups: each group's own
table at `stages/{id}/standings/?group=N`, the top N of each group plus the best of the rest
taken by the next stage."""

import random
from typing import Any

import pytest
from rest_framework.test import APIClient

from games.models import Match
from league.models import Event, Player, Stage
from tests.api.helpers import post_result
from tests.conftest import client_for
from tests.playing import simulated_turns


@pytest.fixture
def field(yardzee_event: Event) -> list[int]:
    """Twelve players on the league's roster."""
    made = [Player.objects.create(display_name=f"Ana {i}", handle=f"ana-{i}") for i in range(1, 13)]
    yardzee_event.league.players.add(*made)
    return [player.pk for player in made]


def _create(client: APIClient, event: Event, **body: object) -> dict[str, Any]:
    response = client.post(f"/api/v1/events/{event.pk}/stages/", body, format="json")
    assert response.status_code == 201, response.json()
    answer: dict[str, Any] = response.json()
    return answer


def _groups(client: APIClient, event: Event, field: list[int]) -> dict[str, Any]:
    return _create(
        client,
        event,
        name="Groups",
        format="round_robin",
        participants=field,
        table_size=4,
        groups=3,
    )


def _playoff(
    client: APIClient, event: Event, source: dict[str, Any], **options: object
) -> dict[str, Any]:
    """A single-elimination "Playoff" fed by the stage `source` (as the API answered it)."""
    return _create(
        client,
        event,
        name="Playoff",
        format="single_elimination",
        source_stage=source["id"],
        **options,
    )


def _play_out(client: APIClient, stage_id: int, seed: int) -> None:
    rng = random.Random(seed)
    while waiting := list(Match.objects.filter(stage_match__stage_id=stage_id, status="scheduled")):
        match = rng.choice(waiting)
        post_result(client, match.pk, simulated_turns(match, seed=rng.randrange(10**6)))


@pytest.mark.django_db
def test_item4_a_fed_playoff_with_advance_3_at_tables_of_4_is_refused_at_creation(
    as_organizer, yardzee_event, field
):
    groups = _groups(as_organizer, yardzee_event, field)
    response = as_organizer.post(
        f"/api/v1/events/{yardzee_event.pk}/stages/",
        {
            "name": "Playoff",
            "format": "single_elimination",
            "source_stage": groups["id"],
            "source_top": 8,
            "table_size": 4,
            "advance": 3,
        },
        format="json",
    )
    assert response.status_code == 400
    assert response.json()["code"] == "advance"
    assert Stage.objects.filter(event=yardzee_event).count() == 1


@pytest.mark.django_db
def test_item4_a_draft_stage_is_changed_with_patch(as_organizer, yardzee_event, field):
    groups = _groups(as_organizer, yardzee_event, field)
    playoff = _playoff(as_organizer, yardzee_event, groups, source_top=8, table_size=4, advance=2)
    url = f"/api/v1/stages/{playoff['id']}/"
    refused = as_organizer.patch(url, {"advance": 3}, format="json")
    assert (refused.status_code, refused.json()["code"]) == (400, "advance")
    changed = as_organizer.patch(
        url,
        {"name": "Knockout", "table_size": 2, "advance": 1, "source_per_group": 2},
        format="json",
    )
    assert changed.status_code == 200, changed.json()
    answer = changed.json()
    assert (answer["name"], answer["table_size"], answer["source_top"]) == ("Knockout", 2, None)
    assert (answer["source_per_group"], answer["source_best_rest"]) == (2, 0)
    contradictory = as_organizer.patch(url, {"source_top": 4, "source_per_group": 2}, format="json")
    assert (contradictory.status_code, contradictory.json()["code"]) == (400, "invalid_option")
    reseeded = as_organizer.patch(
        f"/api/v1/stages/{groups['id']}/", {"participants": field[::-1]}, format="json"
    )
    assert [e["player"]["id"] for e in reseeded.json()["entries"]] == field[::-1]


@pytest.mark.django_db
def test_a_new_format_on_a_draft_is_told_to_send_the_default_of_an_old_option(
    as_organizer, yardzee_event, field
):
    # A PATCH keeps what it leaves out: the refusal said "leave it out (or send null)", and
    # leaving it out was refused again.
    swiss = _create(
        as_organizer, yardzee_event, name="Swiss", format="swiss", participants=field, rounds=3
    )
    url = f"/api/v1/stages/{swiss['id']}/"
    refused = as_organizer.patch(url, {"format": "round_robin"}, format="json")
    assert (refused.status_code, refused.json()["code"]) == (400, "invalid_option")
    assert refused.json()["details"]["field"] == "rounds"
    assert "leave it out" not in refused.json()["message"]
    assert "send null" in refused.json()["message"]
    changed = as_organizer.patch(url, {"format": "round_robin", "rounds": None}, format="json")
    assert changed.status_code == 200, changed.json()
    assert (changed.json()["format"], changed.json()["rounds"]) == ("round_robin", None)


@pytest.mark.django_db
def test_item4_put_is_not_offered_and_only_organizers_change_a_stage(
    as_organizer, player_account, yardzee_event, field
):
    groups = _groups(as_organizer, yardzee_event, field)
    url = f"/api/v1/stages/{groups['id']}/"
    assert as_organizer.put(url, {"name": "X"}, format="json").status_code == 405
    outsider = client_for(player_account)
    assert outsider.patch(url, {"name": "X"}, format="json").status_code == 403
    assert outsider.delete(url).status_code == 403
    assert APIClient().delete(url).status_code == 401


@pytest.mark.django_db
def test_item4_delete_answers_the_codes_an_organizer_reads(as_organizer, yardzee_event, field):
    groups = _groups(as_organizer, yardzee_event, field)
    playoff = _playoff(as_organizer, yardzee_event, groups, source_top=4)
    in_use = as_organizer.delete(f"/api/v1/stages/{groups['id']}/")
    assert in_use.status_code == 409
    assert in_use.json()["code"] == "stage_is_source"
    assert in_use.json()["details"]["stages"] == [playoff["id"]]
    started = as_organizer.post(f"/api/v1/stages/{groups['id']}/start/")
    assert started.status_code == 200
    for response in (
        as_organizer.patch(f"/api/v1/stages/{groups['id']}/", {"name": "X"}, format="json"),
        as_organizer.delete(f"/api/v1/stages/{groups['id']}/"),
    ):
        assert (response.status_code, response.json()["code"]) == (409, "stage_started")
    assert as_organizer.delete(f"/api/v1/stages/{playoff['id']}/").status_code == 204
    assert not Stage.objects.filter(pk=playoff["id"]).exists()


@pytest.mark.django_db
def test_item3_each_group_has_its_own_table_and_the_next_stage_takes_from_each(
    as_organizer, yardzee_event, field
):
    groups = _groups(as_organizer, yardzee_event, field)
    knockout = _create(
        as_organizer,
        yardzee_event,
        name="Knockout",
        format="single_elimination",
        source_stage=groups["id"],
        source_per_group=2,
        source_best_rest=2,
    )
    as_organizer.post(f"/api/v1/stages/{groups['id']}/start/")
    early = as_organizer.post(f"/api/v1/stages/{knockout['id']}/start/")
    assert (early.status_code, early.json()["code"]) == (409, "source_not_finished")
    assert early.json()["details"] == {"source_stage": groups["id"]}  # the pages name it
    _play_out(as_organizer, groups["id"], seed=1)
    stage = as_organizer.get(f"/api/v1/stages/{groups['id']}/").json()
    assert stage["status"] == "finished"
    assert sorted(stage["group_ranking"]) == ["1", "2", "3"]
    url = f"/api/v1/stages/{groups['id']}/standings/"
    whole = as_organizer.get(url).json()
    assert [row["group"] for row in whole["rows"]] == [1] * 4 + [2] * 4 + [3] * 4
    for number in (1, 2, 3):
        table = as_organizer.get(url, {"group": number}).json()
        assert table["group"] == number
        rows = table["rows"]
        assert {row["player"] for row in rows} == {
            entry["player"]["id"] for entry in stage["entries"] if entry["group"] == number
        }
        assert rows[0]["rank"] == 1
        tiers: dict[int, list[int]] = {}
        for row in rows:
            tiers.setdefault(row["rank"], []).append(row["player"])
        assert [tiers[rank] for rank in sorted(tiers)] == stage["group_ranking"][str(number)]
    csv = as_organizer.get(url, {"group": 2, "format": "csv"}).content.decode()
    assert csv.splitlines()[0].startswith("rank,player,name,group,")
    assert len(csv.splitlines()) == 5
    bad = as_organizer.get(url, {"group": 4})
    assert (bad.status_code, bad.json()["code"]) == (400, "invalid")
    started = as_organizer.post(f"/api/v1/stages/{knockout['id']}/start/")
    assert started.status_code == 200, started.json()
    assert len(started.json()["entries"]) == 8


@pytest.mark.django_db
def test_item3_a_table_not_in_groups_has_no_group_column_and_refuses_a_group(
    as_organizer, yardzee_event, field
):
    stage = _create(
        as_organizer, yardzee_event, name="RR", format="round_robin", participants=field[:4]
    )
    url = f"/api/v1/stages/{stage['id']}/standings/"
    assert (
        as_organizer.get(url, {"format": "csv"})
        .content.decode()
        .startswith("rank,player,name,matches")
    )
    assert as_organizer.get(url, {"group": 1}).status_code == 400
