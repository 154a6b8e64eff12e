"""RULES.md, Yardkle "Game" and "End": seat order, the target, the final round, placements."""

import json
import random
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring import RuleViolation, simulate
from scoring.yardkle import YardkleGame, YardkleRules, has_points, set_aside_options

from .positions import throw, yardkle_at
from .strategies import GAMES, dice, yardkle_games

YARDKLE = {"throws": [throw([2, 2, 3, 4, 6, 6], [])], "end": "yardkle"}
BANK_1000 = {"throws": [throw([1, 1, 1, 2, 3, 4], [1, 1, 1])], "end": "bank"}
BANK_50 = {"throws": [throw([5, 2, 2, 3, 4, 6], [5])], "end": "bank"}


@pytest.mark.parametrize("players", [2, 3, 10])
def test_yardkle_is_played_by_two_to_ten_players(players):
    game = YardkleGame(players=players)
    assert game.players == players
    assert game.placements() == [1] * players


@pytest.mark.parametrize("players", [0, 1, 11, True, 3.0, "2", None])
def test_a_yardkle_game_with_another_player_count_is_rejected(players):
    with pytest.raises(RuleViolation) as error:
        YardkleGame(players=players)
    assert error.value.code == "player_count"


def test_reaching_the_target_starts_the_final_round_and_everyone_else_gets_exactly_one_turn():
    game = yardkle_at([9500, 9000, 9900], turns_played=4)  # seat 1 to play
    seats = [game.current_player]
    result = game.play(BANK_1000)
    assert result.final_round
    assert (game.final_round, game.final_round_by, game.is_over) == (True, 1, False)
    seats.append(game.current_player)
    game.play(YARDKLE)
    seats.append(game.current_player)
    game.play(YARDKLE)
    seats.append(game.current_player)
    assert seats == [1, 2, 0, None]
    assert game.is_over
    assert game.total(1) == 10_000


def test_another_player_passing_the_target_in_the_final_round_does_not_extend_it():
    game = yardkle_at([9500, 9000, 9900], turns_played=4)
    game.play(BANK_1000)  # seat 1 reaches 10,000
    result = game.play(BANK_1000)  # seat 2 reaches 10,900
    assert not result.final_round
    assert game.final_round_by == 1
    game.play(YARDKLE)  # seat 0, the last turn
    assert game.is_over
    assert game.placements() == [3, 2, 1]


def test_the_player_who_reached_the_target_does_not_play_again():
    game = yardkle_at([0, 9950], turns_played=1)
    game.play(BANK_50)
    game.play(YARDKLE)
    assert game.is_over
    with pytest.raises(RuleViolation) as error:
        game.play(BANK_50)
    assert error.value.code == "game_over"


def test_the_highest_score_wins_and_equal_scores_share_the_placement():
    game = yardkle_at([9500, 9000, 10_000], turns_played=3, final_round_by=2)
    game.play(BANK_1000)  # seat 0 to 10,500
    game.play(
        {"throws": [throw([5, 5, 5, 2, 3, 4], [5, 5, 5]), throw([1, 2, 3], [1])], "end": "bank"}
    )  # seat 1 to 9,600
    assert game.is_over
    assert game.placements() == [1, 3, 2]
    tied = yardkle_at([10_000, 10_000, 500], turns_played=5, final_round_by=0)
    tied.play(YARDKLE)
    assert tied.is_over
    assert tied.placements() == [1, 1, 3]


def test_the_target_is_a_ruleset_option():
    game = YardkleGame(players=2, rules=YardkleRules(target=1000))
    assert game.play(BANK_1000).final_round
    game.play(YARDKLE)
    assert game.is_over
    assert game.round == 1


def test_a_bank_below_the_target_does_not_start_the_final_round():
    game = yardkle_at([8950, 0], turns_played=2)
    assert not game.play(BANK_1000).final_round
    assert not game.final_round


def test_round_counts_full_turns_of_every_seat():
    game = yardkle_at([0, 0, 0], turns_played=7)
    assert (game.round, game.current_player, game.turns_played) == (3, 1, 7)


@GAMES
@given(data=st.data(), game=yardkle_games(st.integers(2, 4), [1000, 2000, 3000], [0, 300, 500]))
def test_random_legal_yardkle_games_end_by_the_final_round_rule(data, game):
    players, target = game.players, game.rules.target
    played: list[int] = []
    trigger_turn = None
    while not game.is_over:
        if len(played) < 40:
            turn = data.draw(legal_turns(game))
        else:  # Hypothesis may draw dull dice for ever; a seeded player finishes the game.
            turn = simulate.next_turn(game, random.Random(len(played)))
        others_before = [game.total(seat) for seat in range(players)]
        result = game.play(turn)
        played.append(result.seat)
        if result.final_round:
            assert trigger_turn is None
            assert all(score < target for score in others_before)
            trigger_turn = len(played) - 1
        state = game.to_json()
        assert json.loads(json.dumps(state)) == state
        assert YardkleGame.from_json(state).to_json() == state
    assert trigger_turn is not None
    trigger = played[trigger_turn]
    assert game.total(trigger) >= target
    after = played[trigger_turn + 1 :]
    assert after == [(trigger + step) % players for step in range(1, players)]


@st.composite
def legal_turns(draw, game: YardkleGame):
    """A turn built throw by throw, banking (when allowed) as Hypothesis chooses."""
    throws: list[dict[str, Any]] = []
    while True:
        state = game.turn_state(throws)
        if state.can_bank and (len(throws) > 12 or draw(st.booleans())):
            return {"throws": throws, "end": "bank", "points": state.turn_total}
        count = state.dice_to_throw
        thrown = draw(st.lists(dice, min_size=count, max_size=count))
        if len(throws) > 12:  # end a long turn with a throw that has no point dice
            thrown = [2, 3, 4, 6, 2, 4][:count]
        if not has_points(thrown):
            throws.append(throw(thrown, []))
            return {"throws": throws, "end": "yardkle", "points": 0}
        options = sorted(set_aside_options(thrown))
        throws.append(throw(thrown, list(draw(st.sampled_from(options)))))
