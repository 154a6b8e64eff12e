"""`scoring.pad`: what a paper pad can show (docs/rules.md, "What a pad can show"), checked
against the rules it rests on: RULES.md, Yardzee "Boxes", "Upper bonus", "Yardzee bonus",
"Joker", "Grand total"; Yardkle "Point dice and combinations", "Turn", "Entering the game",
"End"; and docs/rules.md, "How long a game can be". A pad written by a legal game is accepted
with that game's totals; a pad no legal game writes is refused, every cell named."""

import random
from itertools import combinations_with_replacement
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.limits import turn_limit
from scoring import simulate
from scoring.pad import (
    MAX_YARDZEE_BONUSES,
    PAD_CODES,
    PadError,
    PadInvalid,
    check_yardkle_pad,
    check_yardzee_pad,
    turn_total_possible,
    turn_totals,
    yardkle_pad_result,
    yardzee_bonus_room,
    yardzee_pad_result,
)
from scoring.yardkle import MAX_THROWS, YardkleGame, YardkleRules, set_aside_options
from scoring.yardzee import (
    CATEGORIES,
    JokerRule,
    YardzeeGame,
    YardzeeRules,
    placement_points,
    possible_points,
    score,
    yardzee_bonus,
)

from .strategies import GAMES, yardkle_games

FORCED = YardzeeRules()
FREE_CHOICE = YardzeeRules(joker="free_choice")
YARDKLE = YardkleRules()
LIMIT = turn_limit("yardkle", 2, YARDKLE.to_json())  # 200: what the service passes

# A column of a plain game: no box can have held a bonus Yardzee under the forced joker
# (no upper box holds 0 or five of its face, no lower box holds a joker value).
PLAIN = {
    "aces": 3,
    "twos": 6,
    "threes": 9,
    "fours": 12,
    "fives": 15,
    "sixes": 18,
    "three_of_a_kind": 17,
    "four_of_a_kind": 0,
    "full_house": 0,
    "small_straight": 0,
    "large_straight": 0,
    "yardzee": 50,
    "chance": 22,
}


def column(boxes: dict[str, int] | None = None, bonus: int = 0, **sums: Any) -> dict[str, Any]:
    """A Yardzee column: `PLAIN` with `boxes` changed, `bonus` check marks, typed sums."""
    return {"boxes": {**PLAIN, **(boxes or {})}, "yardzee_bonus_count": bonus, **sums}


Cell = tuple[str, int | None, str | int | None]


def codes(errors: list[PadError]) -> list[Cell]:
    """Each error as (code, player, cell)."""
    return [
        (error.code, error.player, error.box if error.box is not None else error.turn)
        for error in errors
    ]


def yardzee_errors(first: dict[str, Any], rules: YardzeeRules = FORCED) -> list[Cell]:
    """The errors of a two-player pad whose second column is `PLAIN`."""
    return codes(check_yardzee_pad([first, column()], rules))


def yardkle_pad(*turns: list[int]) -> list[dict[str, Any]]:
    return [{"turns": list(column_turns)} for column_turns in turns]


def yardkle_errors(
    *turns: list[int], rules: YardkleRules = YARDKLE, limit: int = LIMIT
) -> list[Cell]:
    return codes(check_yardkle_pad(yardkle_pad(*turns), rules, turn_limit=limit))


# A two-player Yardkle game to the standard target: player 1 reaches 10,000 in turn 10, and
# player 2 has one more turn.
FINISHED = ([1000] * 10, [0, 500, 1000, 0, 450, 300, 0, 0, 1500, 2000])


# --- Yardzee: pads of played games --------------------------------------------------------


def yardzee_pad_of(game: YardzeeGame) -> list[dict[str, Any]]:
    """The pad of a game: each scorecard with every sum written, as the players add them up."""
    return [game.scorecard(seat).to_json() for seat in range(game.players)]


def assert_pad_of_game_accepted(game: YardzeeGame) -> None:
    pad = yardzee_pad_of(game)
    assert check_yardzee_pad(pad, game.rules, players=game.players) == []
    result = yardzee_pad_result(pad, game.rules)
    assert result.totals == tuple(game.total(seat) for seat in range(game.players))
    assert result.scorecards == tuple(game.scorecard(seat) for seat in range(game.players))
    assert list(result.placements) == game.placements()


@GAMES
@given(
    seed=st.integers(0, 2**32),
    players=st.integers(2, 5),
    joker=st.sampled_from(["forced", "free_choice"]),
)
def test_the_pad_of_a_simulated_yardzee_game_is_accepted_with_the_games_totals(
    seed, players, joker
):
    game = YardzeeGame(players=players, rules=YardzeeRules(joker=joker))
    simulate.play_game(game, seed)
    assert_pad_of_game_accepted(game)


def play_yardzee_with_many_yardzees(game: YardzeeGame, seed: int) -> None:
    """Play `game` to its end with one-roll turns, five of a kind in about one turn of two,
    each in a box picked at random among those the rules allow (jokers included); a first
    five of a kind mostly in the Yardzee box, so that bonuses follow."""
    rng = random.Random(seed)
    while not game.is_over:
        face = rng.randint(1, 6)
        dice = [face] * 5 if rng.random() < 0.5 else [rng.randint(1, 6) for _ in range(5)]
        options = game.box_options(dice)
        allowed = sorted(box for box, points in options.items() if points is not None)
        box = rng.choice(allowed)
        if options.get("yardzee") == 50 and rng.random() < 0.8:
            box = "yardzee"
        game.play({"rolls": [{"dice": dice}], "category": box})


@GAMES
@given(
    seed=st.integers(0, 2**32),
    players=st.integers(2, 5),
    joker=st.sampled_from(["forced", "free_choice"]),
)
def test_the_pad_of_a_yardzee_game_full_of_jokers_is_accepted_with_the_games_totals(
    seed, players, joker
):
    game = YardzeeGame(players=players, rules=YardzeeRules(joker=joker))
    play_yardzee_with_many_yardzees(game, seed)
    assert_pad_of_game_accepted(game)


def test_random_joker_games_do_reach_many_yardzee_bonuses():
    """The game above is a real test of the joker check: its columns hold many bonuses."""
    most = 0
    for seed in range(5):
        game = YardzeeGame(players=2)
        play_yardzee_with_many_yardzees(game, seed)
        most = max(most, *(game.scorecard(seat).yardzee_bonus_count for seat in range(2)))
    assert most >= 3


# --- Yardzee: the joker reading against a search over every order of turns ---------------

_NOT_FIVE_OF_A_KIND = [
    list(dice) for dice in combinations_with_replacement(range(1, 7), 5) if len(set(dice)) > 1
]
_PLAIN_POINTS = {name: {score(name, dice) for dice in _NOT_FIVE_OF_A_KIND} for name in CATEGORIES}


def bonus_counts_by_search(boxes: dict[str, int], joker: JokerRule) -> set[int]:
    """Every count of Yardzee bonuses with which some legal game fills this column: a search
    over the boxes filled so far (every order of the 13 turns), each turn either dice that are
    not five of a kind (their plain points) or five of a face, placed and scored by
    `scoring.yardzee` itself (the joker and the bonus included)."""
    values = [boxes[name] for name in CATEGORIES]
    full = (1 << len(CATEGORIES)) - 1
    reached: dict[int, set[int]] = {0: {0}}
    for mask in sorted(range(full + 1), key=lambda mask: mask.bit_count()):
        counts = reached.get(mask)
        if not counts:
            continue
        filled = [values[box] if mask >> box & 1 else None for box in range(len(CATEGORIES))]
        moves = {
            (box, 0)
            for box, name in enumerate(CATEGORIES)
            if filled[box] is None and values[box] in _PLAIN_POINTS[name]
        }
        for face in range(1, 7):
            dice = [face] * 5
            bonus = yardzee_bonus(filled, dice) // 100
            moves |= {
                (box, bonus)
                for box, points in placement_points(filled, dice, joker).items()
                if points == values[box]
            }
        for box, bonus in moves:
            reached.setdefault(mask | 1 << box, set()).update(count + bonus for count in counts)
    return reached.get(full, set())


def accepted_bonus_counts(boxes: dict[str, int], rules: YardzeeRules) -> set[int]:
    return {
        count
        for count in range(MAX_YARDZEE_BONUSES + 2)
        if not check_yardzee_pad([column(boxes, count)] * 2, rules)
    }


# Values that make the joker interesting: zeros, five of a face, joker values, and others.
_COLUMN_VALUES = {
    **{name: [0, 5 * face, 2 * face] for face, name in enumerate(CATEGORIES[:6], 1)},
    "three_of_a_kind": [0, 5, 17, 25, 30],
    "four_of_a_kind": [0, 10, 13, 30],
    "full_house": [0, 25],
    "small_straight": [0, 30],
    "large_straight": [0, 40],
    "yardzee": [50, 50, 0],
    "chance": [5, 22, 25, 30],
}
yardzee_columns = st.fixed_dictionaries(
    {name: st.sampled_from(values) for name, values in _COLUMN_VALUES.items()}
)


@settings(max_examples=12, deadline=None)
@given(boxes=yardzee_columns, joker=st.sampled_from(["forced", "free_choice"]))
def test_joker_consistency_accepts_exactly_the_bonus_counts_some_order_of_turns_gives(boxes, joker):
    rules = YardzeeRules(joker=joker)
    assert accepted_bonus_counts(boxes, rules) == bonus_counts_by_search(boxes, joker)


@pytest.mark.parametrize(
    ("boxes", "forced", "free_choice"),
    [
        # Step 3 writes the 0 in sixes after every lower box, so not before the chance of 30
        # a step-2 joker of six 6s needs: one of the two held a bonus, not both.
        ({"sixes": 0, "chance": 30}, 1, 5),
        # Six upper zeros: the first step-3 zero needs another upper box filled before it.
        (dict.fromkeys(CATEGORIES[:6], 0), 5, 9),
        # A step-2 joker of four 4s, after the fours box (12 here); free choice also counts
        # the zero full house and straights of PLAIN: a joker there while its face is open.
        ({"four_of_a_kind": 20}, 1, 4),
        # Five of a face in its upper box, and the joker values of the lower boxes.
        ({"fours": 20, "full_house": 25, "large_straight": 40, "four_of_a_kind": 0}, 3, 4),
        # Every box a joker box.
        (
            {
                **{name: 5 * face for face, name in enumerate(CATEGORIES[:6], 1)},
                "three_of_a_kind": 10,
                "four_of_a_kind": 30,
                "full_house": 25,
                "small_straight": 30,
                "large_straight": 40,
                "chance": 5,
            },
            12,
            12,
        ),
    ],
)
def test_joker_inconsistent_counts_the_boxes_bonus_yardzees_can_have_filled_together(
    boxes, forced, free_choice
):
    filled = {**PLAIN, **boxes}
    assert yardzee_bonus_room(filled, "forced") == forced
    assert yardzee_bonus_room(filled, "free_choice") == free_choice
    assert bonus_counts_by_search(filled, "forced") == set(range(forced + 1))
    more = "joker_inconsistent"
    if forced == MAX_YARDZEE_BONUSES:
        more = "yardzee_bonus_count_impossible"
    assert yardzee_errors(column(boxes, forced + 1)) == [(more, 0, "yardzee_bonus_count")]
    assert yardzee_errors(column(boxes, forced)) == []


def test_joker_inconsistent_a_bonus_with_no_box_a_yardzee_could_fill():
    assert yardzee_errors(column(bonus=1)) == [("joker_inconsistent", 0, "yardzee_bonus_count")]
    assert yardzee_errors(column({"full_house": 0}, 1), FREE_CHOICE) == []


# --- Yardzee: boxes -------------------------------------------------------------------------


def test_box_values_are_what_five_dice_can_score_there():
    assert possible_points("threes") == {0, 3, 6, 9, 12, 15}
    assert possible_points("full_house") == {0, 25}
    assert possible_points("small_straight") == {0, 30}
    assert possible_points("large_straight") == {0, 40}
    assert possible_points("yardzee") == {0, 50}
    assert possible_points("chance") == set(range(5, 31))
    assert possible_points("three_of_a_kind") == {0, *range(5, 31)}
    assert possible_points("four_of_a_kind") == {0, *range(5, 31)}


@pytest.mark.parametrize(
    ("box", "points"),
    [
        ("aces", 6),
        ("threes", 4),
        ("threes", 18),
        ("sixes", -6),
        ("full_house", 20),
        ("small_straight", 25),
        ("large_straight", 30),
        ("yardzee", 25),
        ("chance", 4),
        ("chance", 31),
        ("three_of_a_kind", 3),
        ("four_of_a_kind", 35),
        ("threes", "9"),
        ("threes", 9.0),
        ("chance", True),
    ],
)
def test_box_value_impossible_is_refused_naming_the_box(box, points):
    assert yardzee_errors(column({box: points})) == [("box_value_impossible", 0, box)]


def test_missing_box_names_every_empty_box():
    first = column()
    del first["boxes"]["chance"]
    first["boxes"]["aces"] = None
    assert yardzee_errors(first) == [("missing_box", 0, "aces"), ("missing_box", 0, "chance")]


def test_unknown_box_and_unknown_key_and_wrong_type_name_what_was_typed():
    assert yardzee_errors(column({"pair": 8})) == [("unknown_box", 0, "pair")]
    assert yardzee_errors({**column(), "notes": "rain"}) == [("unknown_key", 0, "notes")]
    assert codes(check_yardzee_pad([column(), [3, 6]], FORCED)) == [("wrong_type", 1, None)]
    assert codes(check_yardzee_pad({"0": column()}, FORCED)) == [("wrong_type", None, None)]
    assert yardzee_errors({"boxes": [1, 2]})[0] == ("wrong_type", 0, "boxes")


def test_player_count_is_the_games_and_the_matchs():
    assert codes(check_yardzee_pad([column()], FORCED)) == [("player_count", None, None)]
    assert codes(check_yardzee_pad([column()] * 6, FORCED)) == [("player_count", None, None)]
    assert codes(check_yardzee_pad([column()] * 3, FORCED, players=2)) == [
        ("player_count", None, None)
    ]


# --- Yardzee: bonuses and sums ------------------------------------------------------------


def test_yardzee_bonus_without_yardzee_needs_fifty_in_the_yardzee_box():
    assert yardzee_errors(column({"yardzee": 0, "sixes": 30}, 1)) == [
        ("yardzee_bonus_without_yardzee", 0, "yardzee_bonus_count")
    ]
    assert yardzee_errors(column({"yardzee": 50, "sixes": 30}, 1)) == []


@pytest.mark.parametrize("count", [-1, MAX_YARDZEE_BONUSES + 1, "2", 1.0, True])
def test_yardzee_bonus_count_impossible_is_zero_to_twelve_check_marks(count):
    assert yardzee_errors(column(bonus=count)) == [
        ("yardzee_bonus_count_impossible", 0, "yardzee_bonus_count")
    ]


def test_upper_bonus_mismatch_a_bonus_without_the_upper_total():
    # The upper boxes of PLAIN total 63; one ace less is 62, and no bonus.
    short = {"aces": 2}
    assert yardzee_errors(column(short, upper_bonus=35)) == [
        ("upper_bonus_mismatch", 0, "upper_bonus")
    ]
    assert yardzee_errors(column(short, upper_bonus=0)) == []
    assert yardzee_errors(column(upper_bonus=0)) == [("upper_bonus_mismatch", 0, "upper_bonus")]
    assert yardzee_errors(column(upper_bonus=35)) == []


def test_total_mismatch_totals_are_computed_not_typed():
    card = yardzee_pad_result([column({"sixes": 30}, 1), column()], FORCED).scorecards[0]
    assert (card.upper_total, card.upper_bonus, card.lower_total) == (75, 35, 89)
    assert (card.yardzee_bonus, card.total) == (100, 299)
    assert yardzee_errors(card.to_json()) == []
    assert yardzee_errors(column({"sixes": 30}, 1, total=199, lower_total="89")) == [
        ("total_mismatch", 0, "lower_total"),
        ("total_mismatch", 0, "total"),
    ]


def test_every_error_of_a_pad_is_returned_not_just_the_first():
    first = column({"threes": 4, "chance": 40}, 13)
    second = column({"yardzee": 0}, 2)
    assert codes(check_yardzee_pad([first, second], FORCED)) == [
        ("box_value_impossible", 0, "threes"),
        ("box_value_impossible", 0, "chance"),
        ("yardzee_bonus_count_impossible", 0, "yardzee_bonus_count"),
        ("yardzee_bonus_without_yardzee", 1, "yardzee_bonus_count"),
    ]


def test_the_result_of_an_invalid_pad_is_refused_with_every_error():
    with pytest.raises(PadInvalid) as refused:
        yardzee_pad_result([column({"threes": 4}), column({"yardzee": 0}, 1)], FORCED)
    assert [error.code for error in refused.value.errors] == [
        "box_value_impossible",
        "yardzee_bonus_without_yardzee",
    ]
    body = refused.value.to_json()
    assert body["code"] == "pad_invalid"
    assert body["details"]["errors"][0] == {
        "code": "box_value_impossible",
        "message": refused.value.errors[0].message,
        "rule": "Boxes",
        "player": 0,
        "box": "threes",
        "turn": None,
    }


def test_every_pad_code_names_a_section_of_docs_rules_md():
    from pathlib import Path

    rules = (Path(__file__).resolve().parents[2] / "docs" / "rules.md").read_text()
    for section in set(PAD_CODES.values()):
        assert f"**{section}" in rules or f"## {section}" in rules, section


# --- Yardkle: turn totals -------------------------------------------------------------------


def selections_of(dice: int) -> set[tuple[int, ...]]:
    """Every selection a throw of `dice` dice can set aside (`set_aside_options`)."""
    return {
        selection
        for throw in combinations_with_replacement(range(1, 7), dice)
        for selection in set_aside_options(list(throw))
    }


def bankable_by_search(most: int, throws: int) -> dict[int, int]:
    """The totals up to `most` a turn banks within `throws` throws, with the fewest throws:
    a search over turns played by `YardkleGame.turn_state` itself, each throw setting aside
    one of the selections a throw allows (the other dice thrown are 2s, 3s, 4s and 6s)."""
    game = YardkleGame(players=2, rules=YardkleRules(entry_minimum=0))
    selections = {dice: selections_of(dice) for dice in range(1, 7)}
    fewest: dict[int, int] = {}
    seen: set[tuple[int, int]] = set()
    layer: list[list[dict[str, list[int]]]] = [[]]
    for count in range(1, throws + 1):
        following = []
        for turn in layer:
            dice = game.turn_state(turn).dice_to_throw
            for selection in selections[dice]:
                filler = [2, 3, 4, 6, 2, 3][: dice - len(selection)]
                longer = [*turn, {"dice": [*selection, *filler], "set_aside": list(selection)}]
                after = game.turn_state(longer)
                key = (after.dice_to_throw, after.turn_total)
                if after.turn_total > most or key in seen:
                    continue
                seen.add(key)
                following.append(longer)
                if after.can_bank:
                    fewest.setdefault(after.turn_total, count)
        layer = following
    return fewest


def test_turn_totals_are_computed_from_the_set_aside_table_and_match_a_search_of_turns():
    totals = turn_totals()
    assert totals.step == 50
    found = bankable_by_search(1500, 4)
    assert found  # the search reaches totals
    for total in range(50, 1501, 50):
        fewest = totals.fewest_throws[total // 50]
        assert found.get(total) == (fewest if fewest <= 4 else None), total


def test_every_multiple_of_fifty_is_a_turn_total_up_to_what_a_hundred_throws_bank():
    totals = turn_totals()
    possible = [total for total in range(0, totals.most + 1, 50) if turn_total_possible(total)]
    # Hot dice carry the total on: every multiple of 50 (a single 5 is the least point die),
    # except three totals just under the most that need a 101st throw.
    assert totals.most == (MAX_THROWS - 1) * 3000 + 1200
    missing = sorted(set(range(0, totals.most + 1, 50)) - set(possible))
    assert missing == [297_850, 297_900, 297_950]


def test_the_most_a_turn_total_can_be_is_banked_by_a_real_turn():
    """99 throws of six 6s (hot dice each time), then five 1s and a 2: 298,200."""
    game = YardkleGame(players=2)
    throws = [{"dice": [6] * 6, "set_aside": [6] * 6}] * (MAX_THROWS - 1)
    throws.append({"dice": [1, 1, 1, 1, 1, 2], "set_aside": [1, 1, 1, 1, 1]})
    assert game.play({"throws": throws, "end": "bank"}).points == turn_totals().most


@pytest.mark.parametrize(
    ("total", "possible"),
    [
        (0, True),
        (50, True),
        (350, True),
        (9_950, True),
        (298_200, True),
        (25, False),
        (75, False),
        (-50, False),
        (297_900, False),
        (298_250, False),
        ("500", False),
        (500.0, False),
        (True, False),
    ],
)
def test_turn_total_impossible_table(total, possible):
    assert turn_total_possible(total) is possible
    errors = yardkle_errors([1000, total, *[1000] * 9], [0] * 11)
    assert (("turn_total_impossible", 0, 1) in errors) is not possible


def test_a_yardkle_total_no_throw_gives_is_refused_naming_the_turn():
    errors = yardkle_errors([1000, 75, *[1000] * 9], [0] * 11)
    assert errors == [("turn_total_impossible", 0, 1)]


# --- Yardkle: pads of played games -------------------------------------------------------


def yardkle_pad_of(game: YardkleGame, turns: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The pad of a played game: each seat's banked points (0 for a Yardkle) in order."""
    return [
        {"turns": [turn["points"] for turn in turns[seat :: game.players]]}
        for seat in range(game.players)
    ]


@GAMES
@given(
    seed=st.integers(0, 2**32),
    game=yardkle_games(st.integers(2, 10), [1000, 3000, 10_000], [0, 500, 1000]),
)
def test_the_pad_of_a_simulated_yardkle_game_is_accepted_with_the_games_totals(seed, game):
    turns = simulate.play_game(game, seed)
    pad = yardkle_pad_of(game, turns)
    limit = turn_limit("yardkle", game.players, game.rules.to_json())
    assert check_yardkle_pad(pad, game.rules, turn_limit=limit, players=game.players) == []
    result = yardkle_pad_result(pad, game.rules, turn_limit=limit)
    assert result.totals == tuple(game.total(seat) for seat in range(game.players))
    assert list(result.placements) == game.placements()
    assert (result.turns_played, result.final_round_by) == (len(turns), game.final_round_by)


def test_a_finished_pad_is_accepted_with_its_totals():
    result = yardkle_pad_result(yardkle_pad(*FINISHED), YARDKLE, turn_limit=LIMIT)
    assert result.totals == (10_000, 5_750)
    assert result.placements == (1, 2)
    assert (result.turns_played, result.final_round_by) == (20, 0)


# --- Yardkle: entering, the end, turn order, the limit -------------------------------------


def test_below_entry_minimum_the_first_bank_needs_the_entry_minimum():
    first, second = FINISHED
    assert yardkle_errors(first, [0, 450, *second[2:]]) == [("below_entry_minimum", 1, 1)]
    # After a player is on the scorecard, any total; with no entry minimum, any first bank.
    assert yardkle_errors(first, [0, 500, 50, *second[3:]]) == []
    rules = YardkleRules(entry_minimum=0)
    assert yardkle_errors(first, [0, 50, *second[2:]], rules=rules) == []


def test_final_round_every_other_player_has_exactly_one_more_turn():
    first, second = FINISHED
    # Player 2 missing their last turn (the final round's), or player 1 playing on.
    assert yardkle_errors(first, second[:-1]) == [("final_round", 1, 9)]
    assert yardkle_errors([*first, 500], second) == [("final_round", 0, 10)]
    assert yardkle_errors([*first, 500], [*second, 50]) == [
        ("final_round", 0, 10),
        ("final_round", 1, 10),
    ]


def test_final_round_the_game_ends_when_the_first_player_reaches_the_target():
    # Player 2 reaches 10,000 in their turn 5; player 1 then has their turn 6, and no more.
    first, second = [1000] * 6, [2000] * 5
    result = yardkle_pad_result(yardkle_pad(first, second), YARDKLE, turn_limit=LIMIT)
    assert (result.totals, result.turns_played, result.final_round_by) == ((6000, 10_000), 11, 1)
    assert yardkle_errors([1000] * 10, second) == [
        ("final_round", 0, turn) for turn in range(6, 10)
    ]
    assert yardkle_errors(first[:5], second) == [("final_round", 0, 5)]


def test_game_not_over_when_no_player_reaches_the_target():
    assert yardkle_errors([1000] * 3, [500] * 3) == [("game_not_over", 0, 3)]


def test_turn_order_a_player_cannot_have_turns_after_a_missing_one():
    first, second = FINISHED
    # Player 1's turn 4 is missing, so player 2's turns from 4 on come out of seat order.
    errors = yardkle_errors(first[:3], second)
    assert errors[0] == ("game_not_over", 0, 3)
    assert errors[1:] == [("turn_order", 1, turn) for turn in range(3, 10)]


def test_too_many_turns_past_the_match_limit_refuses_the_pad_alone():
    many = [0] * 101
    assert yardkle_errors(many, many[:100]) == [("too_many_turns", 0, 100)]
    assert yardkle_errors([0] * 3, [0] * 3, limit=4) == [
        ("too_many_turns", 0, 2),
        ("too_many_turns", 1, 2),
    ]


def test_total_mismatch_a_typed_yardkle_score_must_be_the_sum_of_the_turns():
    pad = yardkle_pad(*FINISHED)
    pad[0]["total"] = 10_000
    pad[1]["total"] = 5_700
    assert codes(check_yardkle_pad(pad, YARDKLE, turn_limit=LIMIT)) == [
        ("total_mismatch", 1, "total")
    ]


def test_yardkle_pad_shape_and_player_count():
    assert codes(check_yardkle_pad([FINISHED[0]], YARDKLE, turn_limit=LIMIT))[0] == (
        "player_count",
        None,
        None,
    )
    assert codes(check_yardkle_pad(yardkle_pad(*FINISHED), YARDKLE, turn_limit=LIMIT, players=3))[
        0
    ] == ("player_count", None, None)
    pad: list[Any] = [*yardkle_pad(*FINISHED)]
    pad[1] = {**pad[1], "notes": "windy"}
    assert codes(check_yardkle_pad(pad, YARDKLE, turn_limit=LIMIT)) == [("unknown_key", 1, None)]
    pad[1] = FINISHED[1]
    assert codes(check_yardkle_pad(pad, YARDKLE, turn_limit=LIMIT))[0] == ("wrong_type", 1, None)
    with pytest.raises(PadInvalid):
        yardkle_pad_result(pad, YARDKLE, turn_limit=LIMIT)


# --- Hostile pads: a played game's pad with one cell changed --------------------------------


@GAMES
@given(data=st.data(), seed=st.integers(0, 2**32), players=st.integers(2, 5))
def test_a_played_yardzee_pad_with_an_impossible_box_is_refused_naming_that_box(
    data, seed, players
):
    game = YardzeeGame(players=players)
    simulate.play_game(game, seed)
    pad = [
        {"boxes": card["boxes"], "yardzee_bonus_count": card["yardzee_bonus_count"]}
        for card in yardzee_pad_of(game)
    ]
    seat = data.draw(st.integers(0, players - 1))
    box = data.draw(st.sampled_from(CATEGORIES))
    points = data.draw(
        st.integers(-10, 60).filter(lambda points: points not in possible_points(box))
    )
    pad[seat] = {**pad[seat], "boxes": {**pad[seat]["boxes"], box: points}}
    assert ("box_value_impossible", seat, box) in codes(check_yardzee_pad(pad, game.rules))


@GAMES
@given(data=st.data(), seed=st.integers(0, 2**32))
def test_a_played_yardkle_pad_with_a_total_no_turn_banks_is_refused_naming_that_turn(data, seed):
    game = YardkleGame(players=3)
    pad = yardkle_pad_of(game, simulate.play_game(game, seed))
    seat = data.draw(st.integers(0, 2))
    turn = data.draw(st.integers(0, len(pad[seat]["turns"]) - 1))
    points = data.draw(st.integers(-1000, 20_000).filter(lambda points: points % 50 != 0))
    pad[seat]["turns"][turn] = points
    errors = codes(check_yardkle_pad(pad, game.rules, turn_limit=300))
    assert ("turn_total_impossible", seat, turn) in errors
