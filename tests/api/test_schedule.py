"""Issue 21, item 3 (Schedule) through the API: a round's tables numbered and its starts
staggered in one request, one match moved, and every bad request a 4xx with a code that
changes nothing."""

from datetime import UTC, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from games.models import Match
from league.models import Event, Player, Stage
from league.services import stages as stage_services
from tests.conftest import client_for

pytestmark = pytest.mark.django_db

# The schedule service's names for what the API calls `table_label` and `planned_at`.
SERVICE_NAMES = ("label ", "label:", "table ", "start ")


def _round_robin(event: Event, players: list[Player], **options: Any) -> Stage:
    event.league.players.add(*players)
    stage = stage_services.stage_create(
        event_id=event.pk,
        name="Groups",
        format="round_robin",
        player_ids=[p.pk for p in players],
        **options,
    )
    return stage_services.stage_start(stage_id=stage.pk)


def _round(stage: Stage, number: int) -> list[Match]:
    return [
        sm.match
        for sm in stage.stage_matches.filter(round=number)
        .select_related("match")
        .order_by("group", "slot", "pk")
    ]


def _tomorrow_at(hour: int, zone: str) -> datetime:
    day = (timezone.now() + timedelta(days=1)).astimezone(ZoneInfo(zone)).date()
    return datetime(day.year, day.month, day.day, hour, 0, tzinfo=ZoneInfo(zone))


def _schedule(client: APIClient, stage: Stage, number: int, **body: Any) -> Any:
    return client.post(f"/api/v1/stages/{stage.pk}/rounds/{number}/schedule/", body, format="json")


def test_schedule_a_round_numbers_its_tables_and_staggers_starts_in_the_events_zone(
    as_organizer, yardzee_event, players
):
    stage = _round_robin(yardzee_event, players)  # 6 players in pairs: 3 tables a round
    start = _tomorrow_at(18, "Europe/Berlin")
    response = _schedule(
        as_organizer,
        stage,
        1,
        first_start=start.replace(tzinfo=None).isoformat(),  # wall-clock time in the zone
        interval_minutes=20,
        table_label="Yard {n}",
        time_zone="Europe/Berlin",
    )
    assert response.status_code == 200, response.json()
    body = response.json()
    matches = _round(stage, 1)
    assert [m["id"] for m in body["matches"]] == [m.pk for m in matches]
    assert [m["table_label"] for m in body["matches"]] == ["Yard 1", "Yard 2", "Yard 3"]
    for index, match in enumerate(matches):
        match.refresh_from_db()
        assert match.table_label == f"Yard {index + 1}"
        assert match.planned_at == start + timedelta(minutes=20 * index)
        assert match.planned_zone == "Europe/Berlin"
        assert match.schedule_sequence == 1
    assert body["matches"][0]["planned_local"].startswith(start.isoformat()[:16])
    assert body["skipped"] == []
    # The match itself says where and when, in UTC and with its zone.
    shown = as_organizer.get(f"/api/v1/matches/{matches[1].pk}/").json()
    assert shown["table_label"] == "Yard 2"
    assert shown["time_zone"] == "Europe/Berlin"
    assert datetime.fromisoformat(shown["planned_at"]) == start + timedelta(minutes=20)
    # Other rounds are untouched.
    assert all(m.planned_at is None for m in _round(stage, 2))


def test_schedule_with_fewer_tables_than_matches_plays_in_waves(
    as_organizer, yardzee_event, players
):
    stage = _round_robin(yardzee_event, players)
    start = _tomorrow_at(10, "UTC")
    response = _schedule(
        as_organizer, stage, 2, first_start=start.isoformat(), interval_minutes=45, tables=2
    )
    assert response.status_code == 200, response.json()
    got = [(m["table_label"], m["planned_at"]) for m in response.json()["matches"]]
    wave_two = (start + timedelta(minutes=45)).isoformat().replace("+00:00", "Z")
    assert [label for label, _ in got] == ["Table 1", "Table 2", "Table 1"]
    assert got[2][1] == wave_two
    assert got[0][1] == got[1][1] != wave_two


def test_schedule_leaves_a_started_match_of_the_round_as_it_was(
    as_organizer, yardzee_event, players
):
    from tests.playing import play

    stage = _round_robin(yardzee_event, players)
    first = _round(stage, 1)[0]
    play(first, turns=1)
    response = _schedule(as_organizer, stage, 1, first_start=_tomorrow_at(9, "UTC").isoformat())
    assert response.status_code == 200, response.json()
    assert response.json()["skipped"] == [first.pk]
    assert [m["table_label"] for m in response.json()["matches"]] == ["Table 1", "Table 2"]
    first.refresh_from_db()
    assert first.planned_at is None
    assert first.table_label == ""


def test_reschedule_one_match_moves_it_and_counts_the_change(as_organizer, yardzee_event, players):
    stage = _round_robin(yardzee_event, players)
    _schedule(as_organizer, stage, 1, first_start=_tomorrow_at(18, "UTC").isoformat())
    match = _round(stage, 1)[0]
    later = _tomorrow_at(21, "America/Chicago")
    response = as_organizer.post(
        f"/api/v1/matches/{match.pk}/schedule/",
        {
            "table_label": "  Lawn   by the oak ",
            "planned_at": later.replace(tzinfo=None).isoformat(),
            "time_zone": "America/Chicago",
        },
        format="json",
    )
    assert response.status_code == 200, response.json()
    match.refresh_from_db()
    assert match.table_label == "Lawn by the oak"
    assert match.planned_at == later
    assert match.schedule_sequence == 2
    # Taking the table off keeps the time.
    response = as_organizer.post(
        f"/api/v1/matches/{match.pk}/schedule/", {"table_label": None}, format="json"
    )
    assert response.status_code == 200
    match.refresh_from_db()
    assert (match.table_label, match.planned_at) == ("", later)


@pytest.mark.parametrize(
    ("number", "body", "status", "code"),
    [
        (9, {}, 404, "no_such_round"),
        (1, {"first_start": "tomorrow at six"}, 400, "invalid"),
        (1, {"first_start": "2020-01-01T10:00:00Z"}, 400, "start_in_past"),
        (1, {"first_start": "2099-01-01T10:00:00Z"}, 400, "start_too_far"),
        (1, {"first_start": "2026-02-30T10:00"}, 400, "invalid"),
        (1, {"first_start": "2026-07-04T10:00+25:00"}, 400, "invalid"),
        (1, {"first_start": "9999-12-31T23:59:59-23:59"}, 400, "start_too_far"),
        (1, {"first_start": "0001-01-01T00:00:00+01:00"}, 400, "start_in_past"),
        (1, {"time_zone": "Europe/Berlin\u0000"}, 400, "invalid_text"),  # the parser's NUL rule
        (1, {"time_zone": "Mars/Olympus_Mons"}, 400, "invalid_time_zone"),
        # Names the machine's zoneinfo has that are no place: the server's own zone, a placeholder.
        (1, {"time_zone": "localtime"}, 400, "invalid_time_zone"),
        (1, {"time_zone": "Factory"}, 400, "invalid_time_zone"),
        (1, {"time_zone": "posixrules"}, 400, "invalid_time_zone"),
        (1, {"table_label": "Table"}, 400, "invalid_label"),
        (1, {"table_label": "Table {n} of {m}"}, 400, "invalid_label"),
        (1, {"table_label": "Table\u200b{n}"}, 400, "invalid_label"),
        (1, {"table_label": "   "}, 400, "invalid_label"),
        (1, {"table_label": "The long, long yard behind the barn, no. {n}"}, 400, "label_too_long"),
        (1, {"table_label": "x" * 60 + "{n}"}, 400, "invalid"),
        (1, {"interval_minutes": -5}, 400, "invalid"),
        (1, {"tables": 0}, 400, "invalid"),
        # A date without a time of day was taken as its midnight (here: start_in_past).
        (1, {"first_start": "2020-01-01"}, 400, "invalid"),
        (1, {"first_start": "20200101"}, 400, "invalid"),
    ],
)
def test_schedule_refuses_bad_input_with_a_code_and_changes_nothing(
    as_organizer, yardzee_event, players, number, body, status, code
):
    stage = _round_robin(yardzee_event, players)
    full = {"first_start": _tomorrow_at(18, "UTC").isoformat(), **body}
    response = _schedule(as_organizer, stage, number, **full)
    assert response.status_code == status, response.json()
    assert response.json()["code"] == code
    assert response.json()["message"]
    # A field named is one of the request's (`table_label`, not the service's `label`).
    if (field := response.json()["details"].get("field")) is not None:
        assert field in full, (field, full)
        assert not response.json()["message"].startswith(SERVICE_NAMES), response.json()
    assert not Match.objects.exclude(planned_at=None).exists()
    assert not Match.objects.exclude(table_label="").exists()


@pytest.mark.parametrize(
    ("body", "code", "field"),
    [
        ({"table_label": "   "}, "invalid_label", "table_label"),
        ({"table_label": "x" * 41}, "label_too_long", "table_label"),
        ({"planned_at": "2020-01-01T10:00Z"}, "start_in_past", "planned_at"),
        ({"planned_at": "2099-01-01T10:00Z"}, "start_too_far", "planned_at"),
        ({"time_zone": "Mars/Base"}, "invalid_time_zone", "time_zone"),
    ],
)
def test_moving_a_match_names_the_requests_field_that_is_wrong(
    as_organizer, yardzee_event, players, body, code, field
):
    """The service's own names (`table`, `start`) were in `details.field` and the message, where
    the request's fields are `table_label` and `planned_at`."""
    match = _round(_round_robin(yardzee_event, players), 1)[0]
    response = as_organizer.post(f"/api/v1/matches/{match.pk}/schedule/", body, format="json")
    assert response.status_code == 400, response.json()
    assert (response.json()["code"], response.json()["details"]["field"]) == (code, field)
    assert not response.json()["message"].startswith(SERVICE_NAMES), response.json()
    match.refresh_from_db()
    assert (match.table_label, match.planned_at, match.schedule_sequence) == ("", None, 0)


def test_a_round_not_drawn_names_its_number_as_a_number(as_organizer, yardzee_event, players):
    """The round comes from the path as text; the answer's details carry it as the number it
    is, as they carry the stage."""
    stage = _round_robin(yardzee_event, players)
    response = _schedule(as_organizer, stage, 9, first_start=_tomorrow_at(18, "UTC").isoformat())
    assert response.status_code == 404
    assert response.json()["details"] == {"stage": stage.pk, "round": 9}


def test_a_start_within_the_hour_before_now_is_accepted(as_organizer, yardzee_event, players):
    stage = _round_robin(yardzee_event, players)
    just_now = (timezone.now() - timedelta(minutes=30)).astimezone(UTC)
    response = _schedule(as_organizer, stage, 1, first_start=just_now.isoformat())
    assert response.status_code == 200, response.json()


def test_schedule_refuses_a_played_round_a_closed_event_and_a_finished_match(
    as_organizer, yardzee_event, players
):
    from tests.playing import play

    stage = _round_robin(yardzee_event, players[:4])  # three rounds of two tables
    for match in _round(stage, 1):
        play(match)
    only = _round(stage, 1)[0]
    start = _tomorrow_at(18, "UTC").isoformat()
    response = _schedule(as_organizer, stage, 1, first_start=start)
    assert (response.status_code, response.json()["code"]) == (409, "round_played")
    response = as_organizer.post(
        f"/api/v1/matches/{only.pk}/schedule/", {"table_label": "Yard 2"}, format="json"
    )
    assert (response.status_code, response.json()["code"]) == (409, "match_closed")

    other = Event.objects.create(league=yardzee_event.league, name="Closed", date="2026-06-02")
    stage = _round_robin(other, players[2:4])
    other.status = "cancelled"
    other.save()
    response = _schedule(as_organizer, stage, 1, first_start=start)
    assert (response.status_code, response.json()["code"]) == (409, "event_closed")
    # Every event_closed names the event and its status (docs/api.md).
    assert response.json()["details"] == {"event": other.pk, "status": "cancelled"}
    response = as_organizer.post(
        f"/api/v1/matches/{_round(stage, 1)[0].pk}/schedule/", {"table_label": "B"}, format="json"
    )
    assert (response.status_code, response.json()["code"]) == (409, "event_closed")
    assert response.json()["details"] == {"event": other.pk, "status": "cancelled"}


def test_a_match_being_played_may_change_table_but_not_start(as_organizer, yardzee_event, players):
    from tests.playing import play

    stage = _round_robin(yardzee_event, players[:2])
    match = _round(stage, 1)[0]
    play(match, turns=1)
    url = f"/api/v1/matches/{match.pk}/schedule/"
    response = as_organizer.post(url, {"table_label": "Yard 4"}, format="json")
    assert response.status_code == 200
    response = as_organizer.post(
        url, {"planned_at": _tomorrow_at(9, "UTC").isoformat()}, format="json"
    )
    assert (response.status_code, response.json()["code"]) == (409, "match_already_started")
    match.refresh_from_db()
    assert match.table_label == "Yard 4"
    assert match.planned_at is None


def test_only_the_leagues_organizers_schedule(
    api, other_organizer, player_account, yardzee_event, players
):
    stage = _round_robin(yardzee_event, players)
    match = _round(stage, 1)[0]
    start = _tomorrow_at(18, "UTC").isoformat()
    assert _schedule(api, stage, 1, first_start=start).status_code == 401
    for user in (other_organizer, player_account):
        client = client_for(user)
        response = _schedule(client, stage, 1, first_start=start)
        assert response.status_code == 403, user
        response = client.post(
            f"/api/v1/matches/{match.pk}/schedule/", {"table_label": "X"}, format="json"
        )
        assert response.status_code == 403
    assert not Match.objects.exclude(table_label="").exists()
    assert api.post("/api/v1/stages/999999/rounds/1/schedule/", {}).status_code in (401, 404)


def test_a_time_that_is_not_iso_8601_is_an_invalid_field_like_any_other(
    as_organizer, yardzee_event, players
):
    """`details.fields.<field>`: a list of sentences, the message naming the field once."""
    stage = _round_robin(yardzee_event, players[:4])
    match = _round(stage, 1)[0]
    answers = {
        "first_start": _schedule(as_organizer, stage, 1, first_start="not a date"),
        "planned_at": as_organizer.post(
            f"/api/v1/matches/{match.pk}/schedule/", {"planned_at": "not a date"}, format="json"
        ),
    }
    for field, response in answers.items():
        assert response.status_code == 400, field
        body = response.json()
        assert body["code"] == "invalid"
        assert body["message"].startswith(f"{field}: Give a date and time as ISO 8601"), field
        assert f"{field}: {field}" not in body["message"]
        assert body["details"]["fields"] == {field: [body["message"].split(": ", 1)[1]]}, field
    match.refresh_from_db()
    assert (match.table_label, match.planned_at) == ("", None)
