"""RULES.md, Yardzee "Game", "Upper bonus", "Grand total": the whole game and its scorecards."""

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring import RuleViolation
from scoring.yardzee import CATEGORIES, JOKER_RULES, YardzeeGame, YardzeeRules

from .positions import one_roll, yardzee_at
from .strategies import GAMES, dice


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_yardzee_is_played_by_two_to_five_players(players):
    assert YardzeeGame(players=players).players == players


@pytest.mark.parametrize("players", [0, 1, 6, 10, -2, True, 2.0, "3", None])
def test_a_yardzee_game_with_another_player_count_is_rejected(players):
    with pytest.raises(RuleViolation) as error:
        YardzeeGame(players=players)
    assert error.value.code == "player_count"
    assert error.value.rule == "Game"


def test_the_game_ends_when_every_player_has_filled_all_13_boxes():
    game = YardzeeGame(players=2)
    for box in CATEGORIES:
        for _ in range(2):
            assert not game.is_over
            game.play(one_roll([1, 2, 3, 4, 6], box))
    assert game.is_over
    assert game.current_player is None
    assert game.round == 13
    assert game.turns_played == 26


@pytest.mark.parametrize(
    ("aces", "upper_total", "upper_bonus", "total"),
    [(3, 63, 35, 98), (2, 62, 0, 62)],
    ids=["bonus-of-35-when-the-upper-boxes-total-63", "no-bonus-when-they-total-62"],
)
def test_upper_bonus_of_35_from_an_upper_total_of_63(aces, upper_total, upper_bonus, total):
    game = yardzee_at({"aces": aces, "twos": 6, "threes": 9, "fours": 12, "fives": 15})
    game.play(one_roll([6, 6, 6, 1, 2], "sixes"))
    card = game.scorecard(0)
    assert (card.upper_total, card.upper_bonus) == (upper_total, upper_bonus)
    assert card.total == total


def test_grand_total_is_upper_total_upper_bonus_lower_total_and_100_per_yardzee_bonus():
    filled = {
        "aces": 3,
        "twos": 6,
        "threes": 9,
        "fours": 12,
        "fives": 15,
        "sixes": 18,
        "three_of_a_kind": 20,
        "full_house": 25,
        "yardzee": 50,
    }
    game = yardzee_at(filled, bonus_count=2)
    card = game.scorecard(0)
    assert (card.upper_total, card.upper_bonus, card.lower_total) == (63, 35, 95)
    assert (card.yardzee_bonus_count, card.yardzee_bonus) == (2, 200)
    assert card.total == game.total(0) == 63 + 35 + 95 + 200
    assert card.boxes["chance"] is None
    assert card.to_json()["total"] == card.total


def test_placements_share_the_better_place_on_equal_totals():
    game = yardzee_at({}, players=3)
    game.play(one_roll([6, 6, 6, 6, 5], "chance"))  # 29
    game.play(one_roll([6, 6, 6, 6, 5], "chance"))  # 29
    game.play(one_roll([1, 1, 1, 2, 2], "chance"))  # 7
    assert game.placements() == [1, 1, 3]


def test_scorecard_of_an_unknown_seat_is_rejected():
    with pytest.raises(RuleViolation) as error:
        YardzeeGame(players=2).scorecard(2)
    assert error.value.code == "unknown_seat"


def test_the_ruleset_is_stored_with_the_game_state():
    game = YardzeeGame(players=2, rules=YardzeeRules(joker="free_choice"))
    restored = YardzeeGame.from_json(json.loads(json.dumps(game.to_json())))
    assert restored.rules == YardzeeRules(joker="free_choice")


@st.composite
def rolls_ending_in(draw, final_five_of_a_kind: bool):
    """One to three legal rolls; sometimes forced to end in five of a kind (for the joker)."""
    count = draw(st.integers(1, 3))
    showing = draw(st.lists(dice, min_size=5, max_size=5))
    rolls = [{"dice": showing}]
    for _ in range(count - 1):
        mask = draw(st.lists(st.booleans(), min_size=5, max_size=5))
        keep = [die for die, kept in zip(showing, mask, strict=True) if kept][:4]
        showing = keep + draw(st.lists(dice, min_size=5 - len(keep), max_size=5 - len(keep)))
        rolls.append({"keep": keep, "dice": showing})
    if final_five_of_a_kind:
        face = draw(dice)
        rolls = [{"dice": [face] * 5}]
    return rolls


@GAMES
@given(data=st.data(), players=st.integers(2, 5), joker=st.sampled_from(JOKER_RULES))
def test_random_legal_yardzee_games_end_after_13_turns_per_player_and_totals_add_up(
    data, players, joker
):
    game = YardzeeGame(players=players, rules=YardzeeRules(joker=joker))
    bonuses = [0] * players
    turns = 0
    while not game.is_over:
        seat = game.current_player
        assert seat is not None
        rolls = data.draw(rolls_ending_in(data.draw(st.booleans())))
        final = rolls[-1]["dice"]
        options = game.box_options(final)
        box = data.draw(st.sampled_from(sorted(n for n, p in options.items() if p is not None)))
        yardzee_held_50 = game.scorecard(seat).boxes["yardzee"] == 50
        result = game.play({"rolls": rolls, "category": box, "points": options[box]})
        bonuses[seat] += 100 if yardzee_held_50 and len(set(final)) == 1 else 0
        assert result.bonus == (100 if yardzee_held_50 and len(set(final)) == 1 else 0)
        turns += 1
        state = game.to_json()
        assert json.loads(json.dumps(state)) == state
        assert YardzeeGame.from_json(state).to_json() == state
    assert turns == 13 * players
    for seat in range(players):
        boxes = game.scorecard(seat).boxes
        assert None not in boxes.values()
        upper = sum(boxes[name] or 0 for name in CATEGORIES[:6])
        lower = sum(boxes[name] or 0 for name in CATEGORIES[6:])
        expected = upper + (35 if upper >= 63 else 0) + lower + bonuses[seat]
        assert game.total(seat) == game.scorecard(seat).total == expected
