"""Issue 37, items 1 and 5: one import cannot take the site down. A match takes at most as many
turns as its game can (docs/rules.md, "How long a game can be"; `games.limits`: a Yardkle
game that long is not a game), in every way a turn is written; an import's file is refused
before its replay when a match has more, when its turns are not numbered 1, 2, 3, ... or when
it lists players it never seats; and an import's replay costs the same statements for a match
of many turns as for one of few."""

import copy
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import services as game_services
from games.errors import TurnLimit
from games.limits import turn_limit, yardkle_rounds
from games.models import Match, Turn
from league.models import Event, League, Player
from league.services import exports
from league.services.organization import event_create
from tests.conftest import client_for

pytestmark = pytest.mark.django_db

# A Yardkle turn that scores nothing: one throw, no point dice, the turn ends in a Yardkle.
NOTHING = {"throws": [{"dice": [2, 2, 3, 3, 4, 6], "set_aside": []}], "end": "yardkle"}


def _league(slug: str, organizer: User) -> League:
    league = League.objects.create(name=slug.title(), slug=slug, game="yardkle")
    league.organizers.add(organizer)
    return league


def _nothing_match(league: League, turns: int) -> tuple[Event, Match]:
    """A Yardkle match of two at an event of `league`, with `turns` turns that score nothing."""
    players = [
        Player.objects.create(display_name=f"{league.slug} {n}", handle=f"{league.slug}-{n}")
        for n in range(2)
    ]
    league.players.add(*players)
    event = event_create(league=league, name="Night", date="2026-08-01", venue="", rules={})
    match = game_services.match_create(
        game="yardkle",
        player_ids=[p.pk for p in players],
        event_id=event.pk,
        league_id=league.pk,
    )
    if turns:
        game_services.turns_submit(
            match_id=match.pk,
            turns=[{**NOTHING, "player": players[n % 2].pk} for n in range(turns)],
        )
    return event, match


def test_the_limit_is_13_rounds_of_yardzee_and_100_rounds_of_yardkle_more_for_a_higher_target():
    assert turn_limit("yardzee", 4, {}) == 52
    assert turn_limit("yardkle", 2, {"target": 10_000}) == 200
    assert turn_limit("yardkle", 3, {"target": 3_000}) == 300
    assert yardkle_rounds(50_000) == 500


def test_a_yardkle_match_takes_no_turn_past_its_limit_in_any_way_a_turn_is_written(organizer):
    league = _league("long-night", organizer)
    _, match = _nothing_match(league, turns=200)
    seats = list(match.seats.order_by("order").values_list("player_id", flat=True))
    turn = {**NOTHING, "player": seats[0]}
    with pytest.raises(TurnLimit) as refused:
        game_services.turn_submit(match_id=match.pk, turn=turn)
    assert refused.value.details == {"turns_played": 200, "limit": 200}
    with pytest.raises(TurnLimit):
        game_services.turns_submit(match_id=match.pk, turns=[turn])
    answer = client_for(organizer).post(f"/api/v1/matches/{match.pk}/turns/", turn, format="json")
    assert answer.status_code == 422
    assert answer.json()["code"] == "turn_limit"
    assert Turn.objects.filter(match=match).count() == 200
    assert Match.objects.get(pk=match.pk).turns_played == 200


def _export(organizer: User, slug: str, turns: int) -> dict[str, Any]:
    event, _ = _nothing_match(_league(slug, organizer), turns)
    return exports.event_export(event=Event.objects.get(pk=event.pk))


def _refused(organizer: User, data: dict[str, Any]) -> dict[str, Any]:
    target = _league("into-here", organizer)
    before = (Turn.objects.count(), Match.objects.count(), Player.objects.count())
    answer = client_for(organizer).post("/api/v1/leagues/into-here/import/", data, format="json")
    assert answer.status_code == 400, answer.content
    assert (Turn.objects.count(), Match.objects.count(), Player.objects.count()) == before
    assert not target.events.exists()
    body: dict[str, Any] = answer.json()
    assert body["code"] == "invalid_export"
    return body


def test_an_import_with_a_match_longer_than_its_game_is_refused_before_its_replay(organizer):
    data = _export(organizer, "from-here", turns=10)
    match = data["matches"][0]
    first = match["turns"][0]
    match["turns"] = [{**first, "sequence": n} for n in range(1, 202)]  # one past the limit
    body = _refused(organizer, data)
    assert body["details"] == {"path": "/matches/0/turns", "limit": 200}
    assert "takes at most 200" in body["message"]


@pytest.mark.parametrize("sequences", [[1, 10**12], [2, 3], [1, 1]], ids=["huge", "gap", "twice"])
def test_an_import_whose_turns_are_not_numbered_one_two_three_is_refused(organizer, sequences):
    """Issue 37, item 9: a sequence of 10^12 was refused as `not_your_turn` in the replay."""
    data = _export(organizer, "from-here", turns=2)
    for turn, sequence in zip(data["matches"][0]["turns"], sequences, strict=True):
        turn["sequence"] = sequence
    body = _refused(organizer, data)
    assert body["details"] == {"path": "/matches/0/turns"}
    assert "numbered 1, 2, 3" in body["message"]


def test_an_import_that_lists_players_it_never_seats_is_refused(organizer):
    """Item 5: 3,000 extra players were accepted (and put on the roster)."""
    data = _export(organizer, "from-here", turns=2)
    data["players"] += [
        {"id": 10_000 + n, "display_name": f"Extra {n}", "handle": f"extra-{n}"}
        for n in range(3_000)
    ]
    body = _refused(organizer, data)
    assert body["details"]["path"] == "/players"
    assert body["details"]["players"][0] == 10_000
    assert "3000 players of the file" in body["message"]


def _statements_of_import(organizer: User, data: dict[str, Any], slug: str) -> int:
    target = _league(slug, organizer)
    with CaptureQueriesContext(connection) as captured:
        exports.event_import(league=target, data=copy.deepcopy(data))
    return len(captured)


def test_an_imports_statements_do_not_grow_with_the_turns_of_a_match(organizer):
    """The replay stored a match's turns one at a time, each in a savepoint (and PostgreSQL
    slows down past 64 of them in a transaction): 4,000 turns took 23.8 s. Now a match's
    turns are played under one lock and stored in one statement."""
    few = _statements_of_import(organizer, _export(organizer, "few", turns=20), "few-back")
    many = _statements_of_import(organizer, _export(organizer, "many", turns=180), "many-back")
    assert many == few
