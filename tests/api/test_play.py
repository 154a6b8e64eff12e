"""Whole games played through the HTTP API with the simulator: the server's totals and
placements equal those the rulebook computes."""

import random
from typing import Any

import pytest
from rest_framework.test import APIClient

import scoring
from games.models import Match, Turn
from scoring import simulate
from tests.conftest import next_turn_for

GAMES = [
    ("yardzee", 2),
    ("yardzee", 3),
    ("yardzee", 5),
    ("yardkle", 2),
    ("yardkle", 3),
    ("yardkle", 5),
]


def _play_through_api(
    client: APIClient, match: dict[str, Any], seed: int
) -> tuple[dict[str, Any], scoring.Game]:
    rng = random.Random(seed)
    score_key = match["score_key"]
    local = scoring.new_game(match["game"], len(match["seats"]), match["rules"])
    turn_number = 0
    while not local.is_over:
        turn = next_turn_for(match, local, rng)
        turn_number += 1
        response = client.post(
            f"/api/v1/matches/{match['id']}/turns/",
            {**turn, "turn_number": turn_number},
            format="json",
            HTTP_X_SCORE_KEY=score_key,
        )
        assert response.status_code == 201, response.json()
        result = local.play(turn)
        body = response.json()
        assert body["turn"]["points"] == result.points
        assert body["turn"]["sequence"] == turn_number
        assert body["turn"]["payload"] == turn
        # The answer says whose turn is next; the whole board is the match's own answer.
        after = body["match"]
        assert after["turns_played"] == turn_number
        assert after["version"] == turn_number
        assert after["next_seat"] == local.current_player
        next_player = None
        if local.current_player is not None:
            next_player = match["seats"][local.current_player]["player"]["id"]
        assert after["next_player"] == next_player
        assert after["status"] == ("finished" if local.is_over else "in_progress")
        match = {**match, "board": {"current_player": after["next_player"]}}
    return match, local


@pytest.mark.django_db
@pytest.mark.parametrize(("game", "seats"), GAMES)
def test_full_game_through_the_api_matches_the_rulebook(
    game, seats, players, seat_match, as_organizer
):
    match = seat_match(game, players[:seats])
    _, local = _play_through_api(APIClient(), match, seed=seats)

    final = as_organizer.get(f"/api/v1/matches/{match['id']}/").json()
    assert final["status"] == "finished"
    assert final["board"]["is_over"] is True
    assert final["board"]["current_player"] is None
    totals = [seat["total"] for seat in final["seats"]]
    assert totals == [local.total(seat) for seat in range(seats)]
    assert [seat["placement"] for seat in final["seats"]] == local.placements()
    assert [p["placement"] for p in final["placements"]] == local.placements()
    assert (
        len(final["turns"])
        == final["turns_played"]
        == Turn.objects.filter(match_id=match["id"]).count()
    )
    if game == "yardzee":
        assert [card["total"] for card in final["board"]["scorecards"]] == totals
    else:
        assert [score["total"] for score in final["board"]["scores"]] == totals


@pytest.mark.django_db
def test_match_shows_every_yardzee_scorecard_and_whose_turn_it_is(players, seat_match):
    match = seat_match("yardzee", players[:3])
    board = match["board"]
    assert board["round"] == 1
    assert board["current_player"] == players[0].pk
    assert [card["player"] for card in board["scorecards"]] == [p.pk for p in players[:3]]
    card = board["scorecards"][0]
    assert set(card["boxes"]) == set(scoring.yardzee.CATEGORIES)
    assert card["upper_total"] == card["upper_bonus"] == card["yardzee_bonus_count"] == 0
    assert match["placements"] is None


@pytest.mark.django_db
def test_match_shows_yardkle_totals_and_who_is_on_the_board(players, seat_match):
    match = seat_match("yardkle", players[:2])
    turn = {
        "player": players[0].pk,
        "throws": [{"dice": [1, 1, 1, 5, 2, 3], "set_aside": [1, 1, 1, 5]}],
        "end": "bank",
    }
    response = APIClient().post(
        f"/api/v1/matches/{match['id']}/turns/",
        turn,
        format="json",
        HTTP_X_SCORE_KEY=match["score_key"],
    )
    assert response.status_code == 201, response.json()
    board = APIClient().get(f"/api/v1/matches/{match['id']}/").json()["board"]
    assert board["scores"][0] == {
        "seat": 0,
        "player": players[0].pk,
        "total": 1050,
        "on_board": True,
    }
    assert board["scores"][1]["on_board"] is False
    assert board["current_player"] == players[1].pk
    assert board["final_round"] is False


@pytest.mark.django_db
def test_whole_result_at_once_finishes_the_match(players, seat_match, as_organizer):
    match = seat_match("yardzee", players[:2])
    game = scoring.new_game("yardzee", 2, {})
    turns = simulate.play_game(game, seed=7)
    response = as_organizer.post(
        f"/api/v1/matches/{match['id']}/result/", {"turns": turns}, format="json"
    )
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["status"] == "finished"
    assert [s["total"] for s in body["seats"]] == [game.total(0), game.total(1)]
    assert body["turns_played"] == 26


@pytest.mark.django_db
def test_whole_result_with_a_bad_turn_names_its_index_and_stores_nothing(
    players, seat_match, as_organizer
):
    match = seat_match("yardzee", players[:2])
    turns = simulate.play_game(scoring.new_game("yardzee", 2, {}), seed=3)
    turns[5] = {**turns[5], "category": turns[3]["category"]}  # seat 1 refills its own box
    response = as_organizer.post(
        f"/api/v1/matches/{match['id']}/result/", {"turns": turns}, format="json"
    )
    assert response.status_code == 422
    body = response.json()
    assert body["code"] == "box_filled"
    assert body["details"]["turn_index"] == 5
    assert "index 5" in body["message"]
    stored = Match.objects.get(pk=match["id"])
    assert stored.turns_played == 0
    assert stored.status == "scheduled"
    assert not Turn.objects.filter(match=stored).exists()


@pytest.mark.django_db
def test_a_whole_results_turns_may_leave_out_their_player_but_one_named_is_checked(
    players, seat_match, as_organizer
):
    """The simulator's turns name no player (the order of play says whose each is); a turn
    that names one names the player whose turn it is, or the result is refused."""
    match = seat_match("yardzee", players[:2])
    turns = simulate.play_game(scoring.new_game("yardzee", 2, {}), seed=7)
    assert "player" not in turns[0]
    turns[0] = {**turns[0], "player": players[0].pk}
    turns[1] = {**turns[1], "player": players[0].pk}  # seat 1's turn
    response = as_organizer.post(
        f"/api/v1/matches/{match['id']}/result/", {"turns": turns}, format="json"
    )
    assert response.status_code == 422
    assert (response.json()["code"], response.json()["details"]["turn_index"]) == (
        "not_your_turn",
        1,
    )
    assert Match.objects.get(pk=match["id"]).turns_played == 0


@pytest.mark.django_db
def test_whole_result_that_does_not_finish_the_game_is_refused(players, seat_match, as_organizer):
    match = seat_match("yardzee", players[:2])
    turns = simulate.play_game(scoring.new_game("yardzee", 2, {}), seed=3)[:-1]
    response = as_organizer.post(
        f"/api/v1/matches/{match['id']}/result/", {"turns": turns}, format="json"
    )
    assert response.status_code == 422
    assert response.json()["code"] == "game_not_finished"
    assert not Turn.objects.filter(match_id=match["id"]).exists()


@pytest.mark.django_db
def test_event_match_takes_the_leagues_then_events_ruleset(players, yardkle_event, seat_match):
    yardkle_event.league.rules = {"target": 5000, "entry_minimum": 300}
    yardkle_event.league.save()
    yardkle_event.rules = {"entry_minimum": 0}
    yardkle_event.save()
    match = seat_match("yardkle", players[:2], event=yardkle_event)
    assert match["rules"] == {"target": 5000, "entry_minimum": 0}
    assert match["event"] == yardkle_event.pk


@pytest.mark.django_db
@pytest.mark.parametrize("bad", [None, 1, [], "chance"])
def test_a_whole_result_holding_a_turn_that_is_no_object_names_its_index(
    players, seat_match, as_organizer, bad
):
    """null is no turn, as 1 or [] is not: 422 wrong_type with `details.turn_index` (null was
    a 400 from the serializer, without the index)."""
    match = seat_match("yardzee", players[:2])
    turns = simulate.play_game(scoring.new_game("yardzee", 2, {}), seed=3)
    turns[2] = bad
    response = as_organizer.post(
        f"/api/v1/matches/{match['id']}/result/", {"turns": turns}, format="json"
    )
    assert response.status_code == 422, response.json()
    assert (response.json()["code"], response.json()["details"]["turn_index"]) == ("wrong_type", 2)
    assert not Turn.objects.filter(match_id=match["id"]).exists()


def _bank(player: int, dice: list[int], set_aside: list[int]) -> dict[str, Any]:
    return {"player": player, "throws": [{"dice": dice, "set_aside": set_aside}], "end": "bank"}


@pytest.mark.django_db
def test_a_later_change_of_league_settings_never_changes_the_score_of_a_finished_game(
    players, yardkle_event, seat_match, as_organizer
):
    """RULES.md, "Ruleset options": "A ruleset is stored with every match, so a later change of
    league settings never changes the score of a finished game". Neither the match as shown
    nor its replays (an undo, a correction) read the league's rules of today."""
    league = yardkle_event.league
    league.rules = {"target": 1000, "entry_minimum": 500}
    league.save()
    match = seat_match("yardkle", players[:2], event=yardkle_event)
    first, second = (seat["player"]["id"] for seat in match["seats"])
    url = f"/api/v1/matches/{match['id']}"
    played = [
        _bank(first, [1, 1, 1, 2, 3, 4], [1, 1, 1]),
        _bank(second, [5, 5, 5, 2, 3, 4], [5, 5, 5]),
    ]
    for turn in played:
        response = APIClient().post(
            f"{url}/turns/", turn, format="json", HTTP_X_SCORE_KEY=match["score_key"]
        )
        assert response.status_code == 201, response.json()

    def result() -> tuple[Any, ...]:
        shown = as_organizer.get(f"{url}/").json()
        return (
            shown["status"],
            shown["rules"],
            [(s["total"], s["placement"]) for s in shown["seats"]],
        )

    finished = ("finished", {"target": 1000, "entry_minimum": 500}, [(1000, 1), (500, 2)])
    assert result() == finished
    # Under these, the second bank (500) is below the entry minimum and 1,000 does not end it.
    response = as_organizer.patch(
        f"/api/v1/leagues/{league.slug}/",
        {"rules": {"target": 5000, "entry_minimum": 1000}},
        format="json",
    )
    assert response.status_code == 200, response.json()
    assert result() == finished
    response = as_organizer.post(
        f"{url}/turns/1/correct/", _bank(first, [1, 1, 1, 5, 3, 4], [1, 1, 1]), format="json"
    )
    assert response.status_code == 200, response.json()
    assert result() == finished
    assert as_organizer.post(f"{url}/undo/", {}, format="json").status_code == 200
    response = as_organizer.post(f"{url}/turns/", played[1], format="json")
    assert response.status_code == 201, response.json()
    assert result() == finished
