"""Reading a match and submitting a turn cost the same number of queries at turn 2 as at 20."""

import random

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

import scoring
from tests.conftest import next_turn_for


def _queries(call) -> int:
    with CaptureQueriesContext(connection) as captured:
        response = call()
    assert response.status_code in (200, 201), response.content
    return len(captured)


@pytest.mark.django_db
def test_get_match_and_post_turn_query_counts_do_not_grow_with_turns_played(
    players, seat_match, as_organizer
):
    match = seat_match("yardzee", players[:2])
    game = scoring.new_game("yardzee", 2, {})
    rng = random.Random(5)
    client = APIClient()
    key = match["score_key"]
    url = f"/api/v1/matches/{match['id']}/"
    post_counts, get_counts = [], []
    for played in range(20):
        turn = next_turn_for(match, game, rng)
        count = _queries(
            lambda turn=turn: client.post(f"{url}turns/", turn, format="json", HTTP_X_SCORE_KEY=key)
        )
        game.play(turn)
        match = client.get(url).json()
        if played in (1, 19):
            post_counts.append(count)
            get_counts.append(_queries(lambda: as_organizer.get(url)))
    assert post_counts[0] == post_counts[1], post_counts
    assert get_counts[0] == get_counts[1], get_counts
    assert post_counts[0] == _turn_statements(key=None)
    assert get_counts[0] <= 10


@pytest.mark.django_db
def test_match_list_query_count_does_not_grow_with_matches(players, seat_match):
    seat_match("yardzee", players[:2])
    few = _queries(lambda: APIClient().get("/api/v1/matches/"))
    for i in range(5):
        seat_match("yardkle", players[i : i + 2])
    assert _queries(lambda: APIClient().get("/api/v1/matches/")) == few


def _turn_queries(seat_match, players, *, key: str | None) -> int:
    """Queries of one turn POST (the third, as the phone page sends it) in a match of
    `players`, after two turns."""
    match = seat_match("yardzee", players)
    game = scoring.new_game("yardzee", len(players), {})
    rng = random.Random(3)
    client = APIClient()
    url = f"/api/v1/matches/{match['id']}/"
    headers = {"HTTP_X_SCORE_KEY": match["score_key"]}
    count = 0
    for number in range(1, 4):
        turn = next_turn_for(match, game, rng)
        body = {**turn, "turn_number": number}
        if key is not None:
            headers["HTTP_IDEMPOTENCY_KEY"] = f"{key}-{number}"
        count = _queries(
            lambda body=body: client.post(f"{url}turns/", body, format="json", **headers)
        )
        game.play(turn)
        match = client.get(url).json()
    return count


@pytest.mark.django_db
@pytest.mark.parametrize("key", [None, "retry-safe"])
def test_post_turn_query_count_does_not_grow_with_players(players, seat_match, key):
    """The answer shows every seat and player: they are the ones the turn was checked
    against, not fetched again one by one."""
    two = _turn_queries(seat_match, players[:2], key=key)
    five = _turn_queries(seat_match, players[:5], key=key)
    assert two == five
    assert five == _turn_statements(key=key)


def _turn_statements(*, key: str | None) -> int:
    """The one turn pipeline (games.services.turn_submit_locked, games.turn_sql): BEGIN; lock
    and read the match with its state, its event's status and its seats (for the permission
    and the rules alike); store the turn, the state and, with a key, the receipt after looking
    the key up, in one statement; COMMIT. No savepoint, no second read of the match, with or
    without a key."""
    return 4
