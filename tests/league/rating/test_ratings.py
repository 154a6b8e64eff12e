"""Ratings: OpenSkill Plackett-Luce, matches in finished order, replay from a match
(docs/standings.md, "Ratings")."""

import math
from dataclasses import astuple
from datetime import datetime, timedelta

import pytest
from openskill.models import PlackettLuce

from league.rating import (
    LeaderboardEntry,
    Rating,
    RatingSettings,
    leaderboard,
    rate_match,
    ratings_before,
    replay,
)
from league.standings import MatchResult, StandingsError
from tests.league.standings.results import A, B, C, D, E, at, result, seat, table


def openskill_rate(ratings: list[Rating], ranks: list[float]) -> list[Rating]:
    """OpenSkill's own answer, straight from its `rate()`."""
    model = PlackettLuce()
    teams = model.rate([[model.rating(mu=r.mu, sigma=r.sigma)] for r in ratings], ranks=ranks)
    return [Rating(team[0].mu, team[0].sigma) for team in teams]


def after(match: MatchResult, ratings: dict[int, Rating]) -> dict[int, Rating]:
    return {row.player: row.rating for row in rate_match(match, ratings)}


def test_a_won_pair_moves_ratings_as_the_plackett_luce_update_says():
    # Weng and Lin, algorithm 4, worked by hand for two players with OpenSkill's defaults:
    # sigma^2 gains tau^2 first; c^2 = sum(sigma^2 + beta^2); p = e^(mu/c) / sum of e^(mu/c).
    winner, loser = Rating(30.0, 6.0), Rating(22.0, 7.0)
    beta, tau = 25 / 6, 25 / 300
    var_w, var_l = winner.sigma**2 + tau**2, loser.sigma**2 + tau**2
    c = math.sqrt(var_w + var_l + 2 * beta**2)
    p_w = math.exp(winner.mu / c) / (math.exp(winner.mu / c) + math.exp(loser.mu / c))
    p_l = 1 - p_w
    mu_w = winner.mu + var_w / c * (1 - p_w)
    mu_l = loser.mu - var_l / c * p_l
    sigma_w = math.sqrt(var_w * (1 - math.sqrt(var_w) / c * var_w / c**2 * p_w * (1 - p_w)))
    sigma_l = math.sqrt(var_l * (1 - math.sqrt(var_l) / c * var_l / c**2 * p_l * (1 - p_l)))

    rated = after(table(1, A, B), {A: winner, B: loser})

    assert rated[A].mu == pytest.approx(mu_w, rel=1e-12)
    assert rated[B].mu == pytest.approx(mu_l, rel=1e-12)
    assert rated[A].sigma == pytest.approx(sigma_w, rel=1e-12)
    assert rated[B].sigma == pytest.approx(sigma_l, rel=1e-12)
    assert rated[A].mu > winner.mu
    assert rated[B].mu < loser.mu


def test_a_table_with_a_shared_place_is_rated_exactly_as_openskills_rate():
    before = {
        A: Rating(27.0, 5.0),
        B: Rating(25.0, 8.333),
        C: Rating(31.5, 3.2),
        D: Rating(19.0, 6.6),
    }
    match = result(1, seat(A, 2), seat(B, 1), seat(C, 2), seat(D, 4))
    expected = openskill_rate([before[p] for p in (A, B, C, D)], [2.0, 1.0, 2.0, 4.0])
    assert [after(match, before)[p] for p in (A, B, C, D)] == expected


def test_new_players_start_at_openskills_default_rating():
    rated = after(table(1, C, A, B), {})
    assert [rated[p] for p in (C, A, B)] == openskill_rate([Rating(25.0, 25 / 3)] * 3, [1, 2, 3])


def test_a_forfeited_player_is_rated_as_last_and_the_others_move_up():
    before = {A: Rating(30.0, 4.0), B: Rating(25.0, 5.0), C: Rating(20.0, 6.0)}
    match = result(1, seat(A, 1, forfeited=True), seat(B, 2), seat(C, 3))
    rows = rate_match(match, before)
    assert [row.placement for row in rows] == [3, 1, 2]
    expected = openskill_rate([before[A], before[B], before[C]], [3.0, 1.0, 2.0])
    assert [row.rating for row in rows] == expected


def test_a_match_everyone_forfeited_is_not_rated():
    match = result(1, seat(A, 1, forfeited=True), seat(B, 2, forfeited=True))
    assert rate_match(match, {}) == ()
    assert tuple(replay([match]).history) == ()


def test_history_has_one_row_per_player_per_match_with_openskills_ordinal():
    matches = [table(1, A, B, C), table(2, B, C), table(3, C, A)]
    history = replay(matches).history
    assert [(row.match_id, row.player) for row in history] == [
        (1, A),
        (1, B),
        (1, C),
        (2, B),
        (2, C),
        (3, C),
        (3, A),
    ]
    model = PlackettLuce()
    for row in history:
        assert row.ordinal == model.rating(mu=row.mu, sigma=row.sigma).ordinal()
        assert row.ordinal == row.rating.ordinal == row.mu - 3 * row.sigma
        assert row.finished_at == at(row.match_id)


def test_the_history_columns_read_as_rows_of_python_values():
    matches = [table(1, A, B, C), table(2, B, C), table(3, C, A)]
    history = replay(matches).history
    rows = list(history)
    assert len(history) == len(rows) == 7
    assert history[0] == rows[0]
    assert history[-1] == rows[-1] == rate_match(matches[2], ratings_before(rows, matches[2]))[1]
    assert tuple(history[2:5]) == tuple(rows[2:5])
    assert history[2:5] == history[2:5] != history[2:4]
    for row in rows:
        assert [type(value) for value in astuple(row)] == [
            int,
            datetime,
            int,
            int,
            float,
            float,
            float,
        ]
    with pytest.raises(IndexError):
        history[7]
    moved = replay([table(1, A, B, C), table(2, B, C), table(3, A, C)]).history
    assert moved != history  # the same rows but the last two
    assert tuple(moved[:5]) == tuple(history[:5])


def test_matches_are_applied_in_finished_order_whatever_order_they_come_in():
    matches = [table(1, A, B), table(2, B, C), table(3, C, A), table(4, A, B, C)]
    assert replay(reversed(matches)) == replay(matches)
    step: dict[int, Rating] = {}
    for match in matches:
        step.update(after(match, step))
    assert replay(matches).ratings == step


def test_the_order_matches_finished_in_changes_the_ratings():
    first = result(1, seat(A, 1), seat(B, 2))
    second = result(2, seat(B, 1), seat(A, 2))
    swapped = MatchResult(match_id=2, seats=second.seats, finished_at=at(1) - timedelta(hours=1))
    in_order = replay([first, second]).ratings
    reordered = replay([first, swapped]).ratings
    assert in_order != reordered
    assert [row.match_id for row in replay([first, swapped]).history] == [2, 2, 1, 1]


def test_matches_finishing_at_the_same_time_are_applied_by_match_id():
    same_time = [
        MatchResult(match_id=9, seats=table(9, A, B).seats, finished_at=at(5)),
        MatchResult(match_id=3, seats=table(3, B, A).seats, finished_at=at(5)),
    ]
    assert [row.match_id for row in replay(same_time).history] == [3, 3, 9, 9]


def test_replaying_from_a_match_in_the_middle_equals_rating_from_scratch():
    matches = [
        table(m, *order)
        for m, order in enumerate(
            [(A, B, C), (B, D), (C, A, D, E), (E, B), (D, C, B), (A, E)], start=1
        )
    ]
    full = replay(matches)
    start = ratings_before(full.history, matches[3])
    assert set(start) == {A, B, C, D, E}  # E played match 3, before match 4
    tail = replay(matches[3:], start=start)
    assert tail.ratings == full.ratings
    assert tail.history == full.history[-len(tail.history) :]


def test_a_match_finishing_out_of_order_is_taken_in_by_replaying_from_it():
    on_time = [table(1, A, B), table(2, B, C), table(4, C, A)]
    stored = replay(on_time).history
    late = table(3, A, C)  # finished before match 4, reported after it was rated
    start = ratings_before(stored, late)
    redone = replay([late, on_time[2]], start=start)
    assert redone.ratings == replay([*on_time, late]).ratings


def test_undoing_a_result_is_a_replay_without_it():
    matches = [table(1, A, B), table(2, B, C), table(3, C, A), table(4, A, B)]
    stored = replay(matches).history
    start = ratings_before(stored, matches[1])
    without = replay([matches[2], matches[3]], start=start)
    assert without.ratings == replay([matches[0], matches[2], matches[3]]).ratings


def test_a_match_given_twice_is_rated_once():
    matches = [table(1, A, B), table(2, B, A)]
    assert replay(matches + matches[:1]) == replay(matches)


def test_players_of_the_start_who_did_not_play_keep_their_rating():
    done = replay([table(5, A, B)], start={C: Rating(40.0, 2.0)})
    assert done.ratings[C] == Rating(40.0, 2.0)


def test_a_malformed_match_fails_the_replay_before_any_rating():
    with pytest.raises(StandingsError):
        replay([table(1, A, B), MatchResult(match_id=2, seats=(seat(A, 1),))])


def test_the_leaderboard_ranks_by_ordinal_and_equal_ordinals_share_the_rank():
    ratings = {
        A: Rating(30.0, 5.0),  # 15
        B: Rating(27.0, 4.0),  # 15
        C: Rating(40.0, 7.0),  # 19
        D: Rating(25.0, 8.0),  # 1
    }
    assert leaderboard(ratings) == (
        LeaderboardEntry(1, C, 40.0, 7.0, 19.0),
        LeaderboardEntry(2, A, 30.0, 5.0, 15.0),
        LeaderboardEntry(2, B, 27.0, 4.0, 15.0),
        LeaderboardEntry(4, D, 25.0, 8.0, 1.0),
    )


def test_rating_settings_change_the_model_and_a_new_players_rating():
    settings = RatingSettings(mu=1500.0, sigma=500.0, beta=250.0, tau=5.0)
    rows = rate_match(table(1, A, B), {}, settings=settings)
    model = PlackettLuce(mu=1500.0, sigma=500.0, beta=250.0, tau=5.0)
    teams = model.rate([[model.rating()], [model.rating()]], ranks=[1.0, 2.0])
    assert [row.rating for row in rows] == [Rating(t[0].mu, t[0].sigma) for t in teams]
    assert settings.initial == Rating(1500.0, 500.0)
