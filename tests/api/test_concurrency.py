"""Many scorekeepers submitting the same next turn at the same moment: exactly one is stored."""

import random
import threading
from typing import Any

import pytest
from django.db import connection
from django.test import Client

import scoring
from games.models import Match, Turn
from league.models import Player
from scoring import simulate

THREADS = 16


def _submit_all_at_once(url: str, bodies: list[dict[str, Any]], key: str) -> list[int]:
    barrier = threading.Barrier(len(bodies))
    statuses: list[int] = [0] * len(bodies)

    def submit(index: int) -> None:
        try:
            barrier.wait()
            response = Client().post(
                url, bodies[index], content_type="application/json", HTTP_X_SCORE_KEY=key
            )
            statuses[index] = response.status_code
        finally:
            connection.close()

    threads = [threading.Thread(target=submit, args=(i,)) for i in range(len(bodies))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return statuses


@pytest.fixture
def race_match(transactional_db) -> tuple[Match, list[Player]]:
    from games.services import match_create

    seated = [Player.objects.create(display_name=f"P{i}", handle=f"p{i}") for i in range(3)]
    return match_create(game="yardzee", player_ids=[p.pk for p in seated]), seated


def test_same_next_turn_sent_by_many_clients_at_once_is_stored_exactly_once(race_match):
    match, seated = race_match
    game = scoring.new_game("yardzee", 3, {})
    turn = {"player": seated[0].pk, **simulate.next_turn(game, random.Random(1))}
    statuses = _submit_all_at_once(
        f"/api/v1/matches/{match.pk}/turns/", [turn] * THREADS, match.score_key
    )
    assert statuses.count(201) == 1, statuses
    assert set(statuses) <= {201, 409, 422}, statuses
    assert Turn.objects.filter(match=match).count() == 1
    match.refresh_from_db()
    assert match.turns_played == 1


def test_numbered_turns_racing_leave_no_gap_or_duplicate_in_the_sequence(race_match):
    match, seated = race_match
    game = scoring.new_game("yardzee", 3, {})
    rng = random.Random(2)
    for _ in range(6):
        seat = game.current_player
        assert seat is not None
        turn = {
            "player": seated[seat].pk,
            "turn_number": game_turns(match) + 1,
            **simulate.next_turn(game, rng),
        }
        statuses = _submit_all_at_once(
            f"/api/v1/matches/{match.pk}/turns/", [turn] * 8, match.score_key
        )
        assert statuses.count(201) == 1, statuses
        assert statuses.count(409) == 7, statuses
        payload = {k: v for k, v in turn.items() if k not in ("player", "turn_number")}
        game.play(payload)
    sequences = list(Turn.objects.filter(match=match).values_list("sequence", flat=True))
    assert sequences == [1, 2, 3, 4, 5, 6]


def test_same_idempotency_key_racing_applies_the_turn_once(race_match):
    match, seated = race_match
    game = scoring.new_game("yardzee", 3, {})
    turn = {"player": seated[0].pk, **simulate.next_turn(game, random.Random(3))}
    barrier = threading.Barrier(8)
    answers: list[tuple[int, Any]] = []

    def submit() -> None:
        try:
            barrier.wait()
            response = Client().post(
                f"/api/v1/matches/{match.pk}/turns/",
                turn,
                content_type="application/json",
                HTTP_X_SCORE_KEY=match.score_key,
                HTTP_IDEMPOTENCY_KEY="same-key",
            )
            answers.append((response.status_code, response.json()))
        finally:
            connection.close()

    threads = [threading.Thread(target=submit) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert [status for status, _ in answers] == [201] * 8
    assert all(body == answers[0][1] for _, body in answers)
    assert Turn.objects.filter(match=match).count() == 1


def game_turns(match: Match) -> int:
    match.refresh_from_db()
    return match.turns_played
