"""Refreshing a league's ratings (`league.services.ratings`): a withdrawn result rated in the
middle of the history is replayed from there, and the leaderboard equals a replay from scratch
(two ratings jobs at once: test_job_concurrency.py)."""

from datetime import datetime, timedelta

import numpy as np
import pytest
from django.db.models import F

import scoring
from games import services as game_services
from games.models import Match
from league import rating
from league.management import seeding
from league.models import RatingChange, StandingsScope
from league.results import load_results
from league.services import ratings
from scoring import simulate
from tests.league.services.league_night import assert_converged, finish, new_players, seat


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


def _flipping_chance(players: int, rules: dict[str, object]) -> tuple[int, int, dict[str, object]]:
    """A simulator seed for a Yardzee game of two, a turn number and the Chance turn that
    replaces it to turn the result around (the winner's Chance to 6, or the loser's to 29):
    Chance scores any dice, so no later turn is touched."""
    for seed in range(200):
        game = scoring.new_game("yardzee", players, rules)
        turns = simulate.play_game(game, seed=seed)
        totals = [game.total(s) for s in range(players)]
        if totals[0] == totals[1]:
            continue
        winner = totals.index(max(totals))
        margin = abs(totals[0] - totals[1])
        for number, turn in enumerate(turns, start=1):
            if turn["category"] != "chance":
                continue
            seat = (number - 1) % players
            points = sum(turn["rolls"][-1]["dice"])
            if seat == winner and points - 6 > margin:
                return seed, number, {"rolls": [{"dice": [1, 1, 1, 1, 2]}], "category": "chance"}
            if seat != winner and 29 - points > margin:
                return seed, number, {"rolls": [{"dice": [6, 6, 6, 6, 5]}], "category": "chance"}
    raise AssertionError("no seed gives a Chance that turns the result around")


@pytest.mark.django_db(transaction=True)
def test_a_corrected_turn_that_turns_a_rated_result_around_is_rated_again(event, organizer):
    """A correction keeps the time the match finished (docs/api.md, "Corrections"), so the
    ratings job cannot tell the new result from the one it rated by the finish times alone."""
    players = new_players("Z", 4)
    corrected = seat(event, players[:2])
    seed, number, chance = _flipping_chance(2, Match.objects.get(pk=corrected).rules)
    finish(corrected, seed)
    finish(seat(event, players[2:]), 1)  # rated after it
    match = Match.objects.get(pk=corrected)
    places = sorted(match.seats.values_list("player_id", "placement"))
    player = match.seats.get(order=(number - 1) % 2).player_id
    game_services.turn_correct(
        match_id=corrected,
        sequence=number,
        turn={"player": player, **chance},
        corrected_by=organizer,
    )
    flipped = sorted(match.seats.values_list("player_id", "placement"))
    assert [p for _, p in flipped] == [p for _, p in reversed(places)]
    assert Match.objects.get(pk=corrected).finished_at == match.finished_at
    assert_converged(event)


def _stored_history(league_id: int) -> list[tuple[int, int, datetime, str, str, str]]:
    """The league's stored history rows in the order they went in, floats by their bits."""
    return [
        (player, match, when, mu.hex(), sigma.hex(), ordinal.hex())
        for player, match, when, mu, sigma, ordinal in RatingChange.objects.filter(
            league_id=league_id
        )
        .order_by("pk")
        .values_list("player_id", "match_id", "finished_at", "mu", "sigma", "ordinal")
    ]


@pytest.mark.django_db
def test_the_history_a_ratings_job_copies_is_the_rows_the_orm_stored_before(event):
    """The job writes the replay's columns with one binary COPY (`core.copy`): the stored rows
    are the ones `bulk_create` of the replay's rows stored, floats and times to the bit."""
    players = np.array(new_players("H", 9), dtype=np.int64)
    seeding.finished_matches(event, players, 40, seed=3)
    seeded = list(Match.objects.filter(event=event).order_by("pk").values_list("pk", flat=True))
    for k, match_id in enumerate(seeded[::3]):  # times to the microsecond, some out of order
        Match.objects.filter(pk=match_id).update(
            finished_at=F("finished_at") + timedelta(microseconds=7919 * k - 4_000_000)
        )
    ratings.ratings_replay(league_id=event.league_id)
    copied = _stored_history(event.league_id)
    assert len(copied) == 40 * seeding.TABLE
    assert any(when.microsecond for _, _, when, *_ in copied)

    results, _ = load_results((StandingsScope.LEAGUE, event.league_id))
    replayed = rating.replay([r for r in results if r.match_id > 0])
    RatingChange.objects.filter(league_id=event.league_id).delete()
    RatingChange.objects.bulk_create(  # what the job did before the COPY
        RatingChange(
            league_id=event.league_id,
            player_id=change.player,
            match_id=change.match_id,
            finished_at=change.finished_at,
            mu=change.mu,
            sigma=change.sigma,
            ordinal=change.ordinal,
        )
        for change in replayed.history
    )
    assert _stored_history(event.league_id) == copied
    assert [(p, m) for p, m, *_ in copied] == [
        (row.player, row.match_id) for row in replayed.history
    ]
