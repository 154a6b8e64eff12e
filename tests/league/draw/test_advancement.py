"""`league.draw.advancement`: who sits where given the results so far; the same answer
whatever order the results come in; ties, forfeits, undo and the slots a result feeds."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from league.draw import (
    DrawError,
    SlotResult,
    advance_bracket,
    dependent_slots,
    double_elimination,
    single_elimination,
)

from .playing import play_bracket, tiebreak


def test_five_players_start_with_byes_decided_and_the_byes_next_match_ready():
    bracket = single_elimination([10, 20, 30, 40, 50])
    state = advance_bracket(bracket, {})
    assert state.byes == ("W1-1", "W1-3", "W1-4")
    assert state.ready == ("W1-2", "W2-2")
    assert state.slots["W2-2"].seats == (20, 30)
    assert state.slots["W2-1"].seats == (10, None)
    assert state.slots["W2-1"].status == "waiting"


def test_a_winner_fills_the_next_seat_and_the_final_becomes_ready():
    bracket = single_elimination([1, 2, 3, 4])
    state = advance_bracket(bracket, {"W1-1": SlotResult({1: 2, 4: 1})})
    assert state.slots["W2-1"].seats == (4, None)
    state = advance_bracket(
        bracket, {"W1-1": SlotResult({1: 2, 4: 1}), "W1-2": SlotResult({2: 1, 3: 2})}
    )
    assert state.ready == ("W2-1",)
    assert state.slots["W2-1"].seats == (4, 2)


def test_the_finished_bracket_names_the_champion_and_ranks_everyone():
    bracket = single_elimination([1, 2, 3, 4, 5, 6, 7, 8], third_place=True)
    results = {
        "W1-1": SlotResult({1: 1, 8: 2}),
        "W1-2": SlotResult({4: 2, 5: 1}),
        "W1-3": SlotResult({2: 1, 7: 2}),
        "W1-4": SlotResult({3: 1, 6: 2}),
        "W2-1": SlotResult({1: 1, 5: 2}),
        "W2-2": SlotResult({2: 2, 3: 1}),
        "W3-1": SlotResult({1: 2, 3: 1}),
        "3P-1": SlotResult({5: 1, 2: 2}),
    }
    state = advance_bracket(bracket, results)
    assert state.finished
    assert state.champion == 3
    assert state.ranking == ((3,), (1,), (5,), (2,), (4, 6, 7, 8))


def test_a_tie_at_the_cut_goes_by_the_tiebreak_then_by_seed():
    bracket = single_elimination(list(range(1, 9)), table_size=4, advance=2)
    assert [s.seed for s in bracket.slot("W1-1").sources] == [1, 4, 5, 8]
    tied = {"W1-1": SlotResult({1: 1, 4: 2, 5: 2, 8: 4})}
    by_seed = advance_bracket(bracket, tied)
    assert by_seed.slots["W1-1"].order == (1, 4, 5, 8)
    by_standing = advance_bracket(bracket, tied, tiebreak=lambda p: (-p,))
    assert by_standing.slots["W1-1"].order == (1, 5, 4, 8)
    assert by_standing.slots["W2-1"].seats[:2] == (1, 5)
    all_tied = advance_bracket(bracket, {"W1-1": SlotResult({1: 1, 4: 1, 5: 1, 8: 1})})
    assert all_tied.slots["W1-1"].order == (1, 4, 5, 8)


def test_a_forfeit_in_a_pair_lets_the_other_player_advance_without_playing():
    bracket = single_elimination([1, 2, 3, 4])
    state = advance_bracket(bracket, {"W1-1": SlotResult(forfeited=frozenset({1}))})
    assert state.slots["W1-1"].status == "played"
    assert state.slots["W1-1"].order == (4, 1)
    assert state.slots["W2-1"].seats == (4, None)


def test_a_forfeit_at_a_table_leaves_the_others_to_play_and_ranks_last():
    bracket = single_elimination(list(range(1, 9)), table_size=4, advance=2)
    forfeit = SlotResult(forfeited=frozenset({1}))
    state = advance_bracket(bracket, {"W1-1": forfeit})
    assert state.slots["W1-1"].status == "ready"
    played = SlotResult({4: 1, 5: 2, 8: 3}, forfeited=frozenset({1}))
    state = advance_bracket(bracket, {"W1-1": played})
    assert state.slots["W1-1"].order == (4, 5, 8, 1)
    two_out = SlotResult(forfeited=frozenset({1, 8}))
    assert advance_bracket(bracket, {"W1-1": two_out}).slots["W1-1"].order == (4, 5, 1, 8)


def test_a_result_for_a_slot_still_waiting_is_kept_until_its_seats_are_known():
    bracket = single_elimination([1, 2, 3, 4])
    early = {"W2-1": SlotResult({4: 1, 2: 2})}
    assert advance_bracket(bracket, early).slots["W2-1"].status == "waiting"
    early |= {"W1-1": SlotResult({1: 2, 4: 1}), "W1-2": SlotResult({2: 1, 3: 2})}
    assert advance_bracket(bracket, early).champion == 4


@pytest.mark.parametrize(
    ("results", "code"),
    [
        ({"W1-2": SlotResult({4: 1, 6: 2})}, "result_players"),
        ({"W1-2": SlotResult({4: 1})}, "result_players"),
        ({"W1-2": SlotResult({4: 1, 5: 2}, forfeited=frozenset({5}))}, "result_players"),
        ({"W1-1": SlotResult({1: 1})}, "result_for_bye"),
        ({"W9-1": SlotResult({1: 1})}, "unknown_slot"),
    ],
)
def test_results_that_do_not_fit_the_bracket_are_refused(results, code):
    bracket = single_elimination([1, 2, 3, 4, 5])
    with pytest.raises(DrawError) as error:
        advance_bracket(bracket, results)
    assert error.value.code == code


def test_dependent_slots_are_every_slot_a_result_feeds():
    bracket = single_elimination(list(range(8)), third_place=True)
    assert dependent_slots(bracket, "W1-1") == ("W2-1", "W3-1", "3P-1")
    assert dependent_slots(bracket, "W3-1") == ()
    double = double_elimination(list(range(4)))
    assert dependent_slots(double, "W1-1") == ("W2-1", "L1-1", "L2-1", "GF-1", "GF-2")
    with pytest.raises(DrawError):
        dependent_slots(bracket, "X1-1")


def test_undoing_a_result_empties_the_seats_it_filled():
    bracket = single_elimination([1, 2, 3, 4])
    results = {"W1-1": SlotResult({1: 1, 4: 2}), "W1-2": SlotResult({2: 1, 3: 2})}
    assert advance_bracket(bracket, results).ready == ("W2-1",)
    del results["W1-1"]
    state = advance_bracket(bracket, results)
    assert state.slots["W2-1"].seats == (None, 2)
    assert state.ready == ("W1-1",)


BRACKETS = st.one_of(
    st.builds(
        lambda n, shape, third: single_elimination(
            list(range(1, n + 1)),
            table_size=shape[0],
            advance=shape[1],
            third_place=third and shape[0] == 2,
        ),
        st.integers(2, 16),
        st.sampled_from([(2, 1), (3, 1), (4, 1), (4, 2), (5, 2)]),
        st.booleans(),
    ),
    st.builds(
        lambda n, reset: double_elimination(list(range(1, n + 1)), grand_final_reset=reset),
        st.integers(2, 16),
        st.booleans(),
    ),
)


@settings(max_examples=40, deadline=None)
@given(bracket=BRACKETS, seed=st.integers(0, 2**16), data=st.data())
def test_advancement_is_the_same_in_order_out_of_order_or_twice(bracket, seed, data):
    results, states = play_bracket(bracket, random.Random(seed))
    arrivals = data.draw(st.permutations(list(results.items())))
    repeats = data.draw(st.lists(st.sampled_from(list(results.items())), max_size=5))
    arrivals = arrivals + repeats
    received = {}
    seen: dict[str, tuple[int | None, ...]] = {}
    for key, result in arrivals:
        received[key] = result
        state = advance_bracket(bracket, received, tiebreak=tiebreak)
        for slot_key, slot in state.slots.items():
            if slot.status != "waiting":
                # A seat once known never changes while results only arrive.
                assert seen.setdefault(slot_key, slot.seats) == slot.seats
    assert state == states[-1]
    assert state.finished
    assert sorted(p for tier in state.ranking for p in tier) == sorted(bracket.participants)
