"""The exact two-player Yardkle win probability (RULES.md, "Yardkle"; docs/analysis.md, "Win
probability: Yardkle, two players"), on a game to 1,000 (solved in seconds): the start value,
probabilities and their sums, monotone in the scores, the Bellman equation through the public
options, the final round against `TurnStrategy`'s chances, the margin, bad positions, and a
seeded game simulation. The real game to 10,000 is in `test_yardkle_duel_table.py`."""

from itertools import combinations_with_replacement

import numpy as np
import pytest

from scoring import RuleViolation
from scoring.analysis import StrategyTableCorrupt, StrategyTableMissing, TurnStrategy
from scoring.analysis.rolls import chance
from scoring.analysis.yardkle import TIE
from scoring.winprob import YardkleDuel
from scoring.winprob.duel_play import _PointsPlayer, _WinPlayer, head_to_head, play_game
from scoring.yardkle import YardkleRules, set_aside_options

SMALL = YardkleRules(target=1_000)
SMALL_MARGIN = 2_000
SMALL_START = 0.572575029324051  # the first player's chance, game to 1,000, margin 2,000


@pytest.fixture(scope="module")
def duel() -> YardkleDuel:
    return YardkleDuel.build(SMALL, margin=SMALL_MARGIN)


def test_the_first_player_of_a_game_to_1000_wins_57_2575_percent(duel):
    assert duel.start_value == pytest.approx(SMALL_START, abs=1e-12)
    assert f"{duel.start_value:.6f}" == "0.572575"
    assert duel.win_probability((0, 0)) == pytest.approx((SMALL_START, 1 - SMALL_START))
    assert duel.win_probability((0, 0), to_move=1) == pytest.approx((1 - SMALL_START, SMALL_START))


def test_every_chance_is_a_probability_and_the_two_seats_sum_to_one(duel):
    assert np.isfinite(duel.wins).all()
    assert ((duel.wins > 0) & (duel.wins < 1)).all()
    for position in [((950, 0), 0, 0, 6), ((600, 900), 1, 200, 3), ((0, 850), 0, 300, 0)]:
        chances = duel.win_probability(*position)
        assert sum(chances) == pytest.approx(1.0, abs=1e-15)
        assert all(0 <= c <= 1 for c in chances)


def test_more_points_banked_is_a_better_chance_and_the_others_points_a_worse_one(duel):
    on_board = duel.wins[10:]  # 500 and up: on the scorecard
    assert (np.diff(on_board, axis=0) > 0).all()
    assert (np.diff(duel.wins[:, 10:], axis=1) < 0).all()
    assert (duel.wins[10] > duel.wins[0]).all()  # entering the game helps


def test_a_start_value_is_the_mean_over_six_dice_of_the_best_option(duel):
    """The Bellman equation through the public API: each throw of six dice valued by its best
    set-aside and what follows, a Yardkle by the other's chance from the same scores."""
    for scores, to_move in [((0, 0), 0), ((600, 850), 1), ((950, 500), 0)]:
        other = duel.win_probability(scores, to_move=1 - to_move)[1 - to_move]
        expected = 0.0
        for thrown in combinations_with_replacement(range(1, 7), 6):
            if not set_aside_options(list(thrown)):
                expected += chance(thrown) * (1 - other)
                continue
            best = duel.options(scores, to_move, 0, list(thrown))[0]
            expected += chance(thrown) * best.value
        assert expected == pytest.approx(duel.win_probability(scores, to_move)[to_move], abs=1e-12)


def test_mid_turn_the_chance_is_the_best_of_banking_and_throwing(duel):
    options = duel.bank_or_throw((900, 950), 0, 200, 3)
    assert [o.then for o in options] == ["throw", "bank"]  # 1,100 would hand over a last turn
    assert options[0].value == pytest.approx(duel.win_probability((900, 950), 0, 200, 3)[0])
    assert options[1].value == pytest.approx(
        1 - duel.win_probability((950, 1100), 0, 0, 6, True)[0]
    )
    bank_first = duel.bank_or_throw((600, 0), 0, 400, 1)
    assert bank_first[0].then == "bank"  # 1,000 against 0: the other needs 1,050 in one turn
    assert bank_first[0].value == pytest.approx(duel.win_probability((1000, 0), 1, 0, 6, True)[0])


def test_after_hot_dice_the_only_option_is_to_throw_six(duel):
    options = duel.bank_or_throw((500, 500), 1, 300, 0)
    assert [o.then for o in options] == ["throw"]
    assert options[0].value == duel.win_probability((500, 500), 1, 300, 0)[1]


def test_a_player_off_the_board_cannot_bank_below_the_entry_minimum(duel):
    assert [o.then for o in duel.bank_or_throw((0, 600), 0, 450, 1)] == ["throw"]
    assert {o.then for o in duel.bank_or_throw((0, 600), 0, 500, 1)} == {"bank", "throw"}


@pytest.mark.parametrize(("mine", "leader"), [(600, 1_000), (0, 1_000), (850, 1_050), (0, 2_000)])
def test_the_final_round_lies_between_turn_strategy_chances_of_beating_and_tying(
    duel, mine, leader
):
    """A tie counts 1/2, so the last turn's chance lies between banking more than the gap
    and banking at least it (each maximised alone by `TurnStrategy(need=...)`)."""
    gap = leader - mine
    p = duel.win_probability((mine, leader), 0, 0, 6, final_round=True)[0]
    above = TurnStrategy(SMALL, mine > 0, need=gap + 1).start_value
    at_least = TurnStrategy(SMALL, mine > 0, need=gap).start_value
    assert above < p < at_least
    # RULES.md, "End": equal scores share the placement. The duel's last turn is the one
    # `TurnStrategy` plays with a tie worth half, as the race model's.
    assert p == pytest.approx(
        TurnStrategy(SMALL, mine > 0, need=gap + 1, tie=TIE).start_value, abs=1e-12
    )


def test_in_the_final_round_a_total_past_the_leader_banks_and_wins(duel):
    assert duel.win_probability((600, 1_000), 0, 450, 2, final_round=True) == (1.0, 0.0)
    tie = duel.bank_or_throw((600, 1_000), 0, 400, 2, final_round=True)
    assert {o.then: o.value for o in tie}["bank"] == 0.5
    best = duel.options((600, 1_000), 0, 300, [1, 5, 2, 3, 3, 4], final_round=True)[0]
    assert (best.then, best.value) == ("bank", 1.0)


def test_a_leader_far_ahead_leaves_the_last_turn_almost_no_chance(duel):
    p = duel.win_probability((0, 2_950), 0, 0, 6, final_round=True)[0]
    assert 0 < p < TurnStrategy(SMALL, False, need=2_950).start_value < 0.05


def test_raising_the_margin_moves_the_start_value_less_than_the_last_turns_chance_at_it(duel):
    """Above the target plus the margin the player banks; the error of that is at most the
    chance of the other's last turn beating that lead (docs/analysis.md)."""
    higher = YardkleDuel.build(SMALL, margin=SMALL_MARGIN + 1_000)
    bound = TurnStrategy(SMALL, need=SMALL_MARGIN).start_value
    difference = abs(higher.start_value - duel.start_value)
    assert 0 < difference < bound


@pytest.mark.parametrize(
    ("arguments", "field"),
    [
        (((0, 0, 0), 0), "scores"),
        (((75, 0), 0), "scores"),
        (((100, 0), 0), "scores"),  # below the entry minimum, yet on the board
        (((1_000, 0), 0), "scores"),  # at the target without a final round
        (((0, 500), 0, 0, 6, True), "scores"),  # a final round with no one at the target
        (((0, 0), 2), "to_move"),
        (((0, 0), 0, 100, 3), "turn_total"),  # three dice set aside score 150 or more
        (((0, 0), 0, 50, 6), "dice_left"),
        (((0, 0), 0, 0, 7), "dice_left"),
        (((900, 0), 0, 9_000, 2), "turn_total"),  # beyond the solved range
    ],
)
def test_a_position_no_game_can_reach_is_refused(duel, arguments, field):
    with pytest.raises(RuleViolation) as caught:
        duel.win_probability(*arguments)
    assert caught.value.code == "invalid_state"
    assert caught.value.details["field"] == field


def test_two_win_maximisers_win_from_the_first_seat_as_often_as_the_start_value_says(duel):
    rng = np.random.default_rng(7)
    player = _WinPlayer(duel)
    games = 3_000
    first = sum(play_game(duel, (player, player), rng) for _ in range(games))
    error = (SMALL_START * (1 - SMALL_START) / games) ** 0.5
    assert abs(first / games - SMALL_START) < 4 * error


def test_the_points_maximiser_plays_its_turn_strategy(duel):
    rng = np.random.default_rng(11)
    points = _PointsPlayer(duel)
    games = 2_000
    first = sum(play_game(duel, (points, points), rng) for _ in range(games)) / games
    assert 0.5 < first < SMALL_START + 0.05  # the first seat's edge, without playing to win


def test_head_to_head_counts_wins_by_seat_and_ties_as_halves(duel):
    result = head_to_head(duel, 400, seed=3)
    assert result.games == 400
    assert result.wins == result.wins_first + result.wins_second
    assert result.wins % 1 == (result.ties % 2) / 2
    assert 0.4 < result.share < 0.65
    assert result.standard_error == pytest.approx((result.share * (1 - result.share) / 400) ** 0.5)


def test_a_saved_table_loads_with_the_same_chances_and_is_refused_for_other_rules(duel, tmp_path):
    path = duel.save(tmp_path)
    assert path.name == "yardkle-duel-1000-500.npy"
    loaded = YardkleDuel.load(SMALL, tmp_path, margin=SMALL_MARGIN)
    assert loaded.start_value == duel.start_value
    assert loaded.win_probability((600, 850), 1, 200, 3) == duel.win_probability(
        (600, 850), 1, 200, 3
    )
    with pytest.raises(StrategyTableCorrupt):
        YardkleDuel.load(SMALL, tmp_path, margin=SMALL_MARGIN + 1_000)
    with pytest.raises(StrategyTableMissing):
        YardkleDuel.load(YardkleRules(target=1_000, entry_minimum=300), tmp_path)


def test_all_turn_programs_at_once_are_each_pairs_own_and_play_the_same_games(duel):
    programs = duel.turn_programs()
    for a, b in [(0, 0), (12, 19), (19, 0)]:
        np.testing.assert_allclose(programs[a, b], duel._turn(a, b), rtol=1e-6, atol=1e-7)
    alone = head_to_head(duel, 200, seed=5)
    assert head_to_head(duel, 200, seed=5, programs=programs) == alone
