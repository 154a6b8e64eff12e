"""Refreshing a league's ratings (`league.services.ratings`): a withdrawn result rated in the
middle of the history is replayed from there, and the leaderboard equals a replay from scratch
(two ratings jobs at once: test_job_concurrency.py)."""

import pytest

from games import services as game_services
from games.models import Match
from scoring import simulate
from tests.league.services.league_night import assert_converged, finish, seat


@pytest.mark.django_db(transaction=True)
def test_standings_and_ratings_converge_after_undo_and_void_in_between(
    league_event, field, organizer
):
    ids = [seat(league_event, field[i : i + 3]) for i in range(4)]
    for seed, match_id in enumerate(ids):
        finish(match_id, seed)
    game_services.turn_undo(match_id=ids[1], undone_by=organizer)  # rated mid-history
    assert_converged(league_event)
    game_services.match_void(match_id=ids[2], voided_by=organizer)
    assert_converged(league_event)
    reopened = Match.objects.get(pk=ids[1])
    for turn in simulate.play_game(reopened.scoring_game(), seed=40):
        game_services.turn_submit(match_id=reopened.pk, turn=turn)
    assert_converged(league_event)
