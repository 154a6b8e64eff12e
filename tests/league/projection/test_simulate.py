"""The stage projection's simulator (docs/analysis.md, "Chance to qualify"): its chances against
exact figures, within the stated precision."""

import math

import pytest

from league.draw import SlotResult, advance_bracket, single_elimination
from league.projection import (
    Pending,
    Qualifying,
    StageSetup,
    project_stage,
    standard_error,
)
from league.rating import DEFAULT_SETTINGS, Rating
from league.standings import DEFAULT_TIEBREAK_ORDER, MatchResult, SeatResult

RUNS = 2100
# Every check allows four standard errors: a correct simulator fails one in 16,000 times.
WITHIN = 4 * standard_error(RUNS)


def _win(a: Rating, b: Rating) -> float:
    """OpenSkill's own chance that a beats b."""
    model = DEFAULT_SETTINGS.model()
    return model.predict_win(
        [[model.rating(mu=a.mu, sigma=a.sigma)], [model.rating(mu=b.mu, sigma=b.sigma)]]
    )[0]


def _played(match_id, winner, loser):
    return MatchResult(match_id, (SeatResult(winner, 1, 250), SeatResult(loser, 2, 200)), round=1)


def _round_robin(players, **options):
    return StageSetup(
        format="round_robin",
        game="yardzee",
        players=tuple(players),
        tiebreak=DEFAULT_TIEBREAK_ORDER,
        **options,
    )


def test_the_standard_error_of_2100_runs_is_under_1_1_points():
    assert standard_error(2100) == pytest.approx(math.sqrt(0.25 / 2100))
    assert standard_error(2100) < 0.011 < standard_error(2000)


def test_one_match_left_between_two_players_follows_openskills_prediction():
    ratings = {1: Rating(25.0, 3.0), 2: Rating(29.0, 2.0)}
    setup = _round_robin([1, 2], pending=(Pending(10, (1, 2)),), qualifying=Qualifying(top=1))
    figures = project_stage(setup, ratings, runs=RUNS, seed=1)
    expected = _win(ratings[1], ratings[2])
    assert 0.2 < expected < 0.4  # a real underdog, so the check can tell
    first, second = figures.of(1), figures.of(2)
    assert first.win == pytest.approx(expected, abs=WITHIN)
    assert first.qualify == first.win  # top 1 goes on: the winner
    assert first.places[0] + first.places[1] == pytest.approx(1.0)
    assert first.places[0] + second.places[0] == pytest.approx(1.0)
    assert figures.runs == RUNS
    assert figures.to_json()["standard_error"] == pytest.approx(0.010911, abs=1e-6)


def test_equal_players_who_cannot_tie_have_equal_chances():
    # Three matches between two players: someone wins two, no tie on points.
    pending = tuple(Pending(100 + i, (1, 2) if i % 2 else (2, 1)) for i in range(3))
    figures = project_stage(_round_robin([1, 2], pending=pending), {}, runs=RUNS, seed=2)
    assert figures.of(1).win == pytest.approx(0.5, abs=WITHIN)
    assert figures.of(1).win + figures.of(2).win == pytest.approx(1.0)


def test_every_place_is_taken_once_and_ties_on_everything_go_to_the_better_seed():
    players = [1, 2, 3, 4]
    pending = tuple(
        Pending(100 + i, pair)
        for i, pair in enumerate([(1, 2), (3, 4), (1, 3), (2, 4), (1, 4), (2, 3)])
    )
    figures = project_stage(_round_robin(players, pending=pending), {}, runs=RUNS, seed=2)
    for chances in figures.players:
        assert sum(chances.places) == pytest.approx(1.0)
        assert chances.qualify is None  # no stage takes players from this one
    for place in range(4):
        assert sum(c.places[place] for c in figures.players) == pytest.approx(1.0)
    # Equal players: a simulated match has no score, so a three-way tie on points and
    # head-to-head goes down to the seeds, as the stage's cut takes it.
    assert figures.of(1).win > 0.25 + WITHIN
    assert figures.of(1).win > figures.of(4).win


def test_the_same_seed_gives_the_same_figures_and_another_seed_others():
    pending = (Pending(1, (1, 2)), Pending(2, (2, 3)), Pending(3, (1, 3)))
    setup = _round_robin([1, 2, 3], pending=pending)
    assert project_stage(setup, {}, runs=300, seed=5) == project_stage(setup, {}, runs=300, seed=5)
    assert project_stage(setup, {}, runs=300, seed=5) != project_stage(setup, {}, runs=300, seed=6)


def test_a_clinched_qualifier_has_100_percent():
    # Player 1 won both their matches (6 points); 2 and 3 can reach 3 at most.
    setup = _round_robin(
        [1, 2, 3],
        results=(_played(1, 1, 2), _played(2, 1, 3)),
        pending=(Pending(3, (2, 3)),),
        qualifying=Qualifying(top=1),
    )
    ratings = {1: Rating(10.0, 1.0), 2: Rating(40.0, 1.0), 3: Rating(40.0, 1.0)}
    figures = project_stage(setup, ratings, runs=500)
    assert figures.of(1).qualify == 1.0
    assert figures.of(1).win == 1.0
    assert figures.of(1).places == (1.0, 0.0, 0.0)
    assert figures.of(2).qualify + figures.of(3).qualify == 0.0


def test_a_two_round_swiss_qualifies_exactly_the_cut_each_run():
    setup = StageSetup(
        format="swiss",
        game="yardzee",
        players=(1, 2, 3, 4, 5),
        tiebreak=DEFAULT_TIEBREAK_ORDER,
        rounds=3,
        qualifying=Qualifying(top=2),
    )
    figures = project_stage(setup, {}, runs=600, seed=3)
    assert sum(c.qualify for c in figures.players) == pytest.approx(2.0)
    assert sum(c.win for c in figures.players) == pytest.approx(1.0)
    for chances in figures.players:  # five equal players, three rounds, a bye each round
        assert chances.win == pytest.approx(0.2, abs=4 * standard_error(600))


def test_an_override_decides_the_match_being_played():
    ratings = {1: Rating(40.0, 1.0), 2: Rating(10.0, 1.0)}
    setup = _round_robin([1, 2], pending=(Pending(7, (1, 2)),))
    assert project_stage(setup, ratings, runs=200).of(1).win == 1.0
    overridden = project_stage(setup, ratings, runs=200, overrides={7: [0.0, 1.0]})
    assert overridden.of(2).win == 1.0
    half = project_stage(setup, ratings, runs=RUNS, overrides={7: [0.5, 0.5]})
    assert half.of(1).win == pytest.approx(0.5, abs=WITHIN)
    with pytest.raises(ValueError, match="chance of 0 or more"):
        project_stage(setup, ratings, runs=10, overrides={7: [1.0]})


def test_a_bracket_of_four_gives_the_top_seed_its_exact_chance_to_win():
    ratings = {p: Rating(mu, 2.0) for p, mu in [(1, 32.0), (2, 28.0), (3, 26.0), (4, 22.0)]}
    bracket = single_elimination([1, 2, 3, 4])
    setup = StageSetup(
        format="single_elimination",
        game="yardzee",
        players=(1, 2, 3, 4),
        tiebreak=DEFAULT_TIEBREAK_ORDER,
        bracket=bracket,
        qualifying=Qualifying(top=2),
    )
    figures = project_stage(setup, ratings, runs=RUNS, seed=4)
    p = {(a, b): _win(ratings[a], ratings[b]) for a in ratings for b in ratings if a != b}
    # Seed 1 meets seed 4, then the winner of 2 against 3.
    exact = p[1, 4] * (p[2, 3] * p[1, 2] + p[3, 2] * p[1, 3])
    assert figures.of(1).win == pytest.approx(exact, abs=WITHIN)
    assert figures.of(1).places[0] == figures.of(1).win
    # The top 2 of the bracket go on: the two finalists.
    finalist = p[1, 4] * 1.0
    assert figures.of(1).qualify == pytest.approx(finalist, abs=WITHIN)
    assert sum(c.qualify for c in figures.players) == pytest.approx(2.0)


def test_a_decided_bracket_slot_stands():
    bracket = single_elimination([1, 2, 3, 4])
    first_round = [slot.key for slot in bracket.slots if slot.round == 1]
    state = advance_bracket(bracket, {})
    decided = {}
    for key in first_round:
        players = state.slots[key].players
        loser = 1 if 1 in players else max(players)  # the top seed is out
        winner = next(p for p in players if p != loser)
        decided[key] = SlotResult(placements={winner: 1, loser: 2})
    setup = StageSetup(
        format="single_elimination",
        game="yardzee",
        players=(1, 2, 3, 4),
        tiebreak=DEFAULT_TIEBREAK_ORDER,
        bracket=bracket,
        slot_results=decided,
    )
    figures = project_stage(setup, {}, runs=400)
    assert figures.of(1).win == 0.0
    assert figures.of(1).places[0] + figures.of(1).places[1] == 0.0


def test_groups_send_on_their_winners_and_a_withdrawn_player_never_goes_on():
    groups = {1: 1, 2: 1, 3: 2, 4: 2}
    setup = _round_robin(
        [1, 2, 3, 4],
        groups=groups,
        withdrawn=frozenset({4}),
        pending=(Pending(1, (1, 2)), Pending(2, (3, 4))),
        qualifying=Qualifying(per_group=1),
    )
    figures = project_stage(setup, {}, runs=400, seed=8)
    assert figures.of(3).qualify == 1.0  # their opponent withdrew: a walkover
    assert figures.of(4).qualify == 0.0
    assert figures.of(1).qualify + figures.of(2).qualify == pytest.approx(1.0)
    assert len(figures.of(1).places) == 2  # places within the group
    assert sum(c.win for c in figures.players) == pytest.approx(1.0)
