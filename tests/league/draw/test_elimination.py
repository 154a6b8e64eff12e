"""`league.draw.elimination`: brackets drawn in full, seeds placed, byes to the top seeds,
every slot knowing where its places go."""

import random
from collections import Counter

import pytest

from league.draw import (
    Bracket,
    DrawError,
    SlotResult,
    Source,
    advance_bracket,
    double_elimination,
    first_round,
    single_elimination,
)
from league.draw.elimination import drop_masks
from league.draw.rematches import (
    BRACKETS_MANAGER_ALSO,
    BRACKETS_MANAGER_MASKS,
    alternate_masks,
    best_masks,
    best_masks_with_byes,
    byes_of,
    expected_rematches,
    measure,
)

from .playing import play_bracket


def round_one(bracket: Bracket) -> list[list[int]]:
    return [[s.seed or 0 for s in slot.sources] for slot in bracket.rounds()[0]]


def test_four_pairs_seed_one_against_four_and_two_against_three():
    bracket = single_elimination([11, 22, 33, 44])
    assert round_one(bracket) == [[1, 4], [2, 3]]
    final = bracket.slot("W2-1")
    assert final.sources == (Source.winner("W1-1"), Source.winner("W1-2"))
    assert [e.slot for e in bracket.slot("W1-2").exits] == ["W2-1"]


def test_five_players_in_pairs_give_byes_to_seeds_one_to_three():
    bracket = single_elimination(list(range(1, 6)))
    assert round_one(bracket) == [[1], [4, 5], [2], [3]]
    assert [slot.byes for slot in bracket.rounds()[0]] == [1, 0, 1, 1]


@pytest.mark.parametrize(
    ("players", "expected"),
    [
        (8, [[1, 8], [4, 5], [2, 7], [3, 6]]),
        (6, [[1], [4, 5], [2], [3, 6]]),
        (13, [[1], [8, 9], [4, 13], [5, 12], [2], [7, 10], [3], [6, 11]]),
    ],
)
def test_pairs_follow_the_classic_bracket(players, expected):
    assert round_one(single_elimination(list(range(players)))) == expected


@pytest.mark.parametrize(
    ("players", "table_size", "advance", "expected"),
    [
        # 16 at tables of 4, top 2 advance: four full tables, seeds dealt by the snake.
        (16, 4, 2, [[1, 8, 9, 16], [4, 5, 12, 13], [2, 7, 10, 15], [3, 6, 11, 14]]),
        # 13: every table still plays (3 > 2 advance); the short tables go to the top seeds.
        (13, 4, 2, [[1, 8, 9], [4, 5, 12, 13], [2, 7, 10], [3, 6, 11]]),
        # 5: one table must be a bye of 2; it goes to seed 1 (with the seed the snake deals it).
        (5, 4, 2, [[1, 4], [2, 3, 5]]),
        # Top 1 of 4: four tables of 4 feed one final table.
        (13, 4, 1, [[1, 8, 9], [2, 7, 10], [3, 6, 11], [4, 5, 12, 13]]),
        (4, 4, 2, [[1, 2, 3, 4]]),
    ],
)
def test_tables_seat_seeds_by_the_snake_with_as_few_byes_as_possible(
    players, table_size, advance, expected
):
    assert [list(t) for t in first_round(players, table_size, advance)] == expected


@pytest.mark.parametrize(("table_size", "advance"), [(2, 1), (3, 1), (4, 1), (4, 2), (5, 2)])
@pytest.mark.parametrize("players", range(2, 40))
def test_round_one_has_byes_only_where_the_count_forces_them(players, table_size, advance):
    tables = first_round(players, table_size, advance)
    seeds = sorted(seed for table in tables for seed in table)
    assert seeds == list(range(1, players + 1))
    byes = [table for table in tables if len(table) <= advance]
    if len(tables) > 1:
        # A bye table seats exactly `advance`; fewer would leave a later seat empty.
        assert all(len(table) == advance for table in byes)
        assert len(byes) == max(0, len(tables) * (advance + 1) - players)
        assert all(len(table) <= table_size for table in tables)
        assert sorted(table[0] for table in byes) == list(range(1, len(byes) + 1))


def test_every_slot_after_round_one_is_fed_by_earlier_slots_and_exits_match():
    bracket = double_elimination(list(range(13)))
    seen: set[str] = set()
    for slot in bracket.slots:
        for source in slot.sources:
            assert source.kind == "seed" or source.slot in seen
        seen.add(slot.key)
    for slot in bracket.slots:
        for exit_ in slot.exits:
            target = bracket.slot(exit_.slot)
            assert any(s.slot == slot.key and s.rank == exit_.rank for s in target.sources)


def test_third_place_match_is_between_the_losing_semi_finalists():
    bracket = single_elimination(list(range(8)), third_place=True)
    third = bracket.slot("3P-1")
    assert third.sources == (Source.loser("W2-1"), Source.loser("W2-2"))
    assert third.bracket == "third_place"


def test_eight_players_double_elimination_has_fourteen_matches_and_a_reset():
    bracket = double_elimination(list(range(8)))
    assert len(bracket.slots) == 15
    assert bracket.slot("GF-2").reset_of == "GF-1"
    assert len(double_elimination(list(range(8)), grand_final_reset=False).slots) == 14
    assert [len(r) for r in bracket.rounds("losers")] == [2, 2, 1, 1]


def test_losers_drop_crossed_over_against_early_rematches():
    bracket = double_elimination(list(range(8)))
    assert bracket.slot("L2-1").sources[1] == Source.loser("W2-2")
    assert bracket.slot("L2-2").sources[1] == Source.loser("W2-1")
    assert bracket.slot("L4-1").sources[1] == Source.loser("W3-1")


@pytest.mark.parametrize("players", [5, 8, 13, 16])
@pytest.mark.parametrize("reset", [True, False])
def test_double_elimination_knocks_out_everyone_but_the_champion_after_two_losses(players, reset):
    bracket = double_elimination(list(range(1, players + 1)), grand_final_reset=reset)
    results, states = play_bracket(bracket, random.Random(players))
    state = states[-1]
    losses: Counter[int] = Counter()
    for key in results:
        losses.update(state.slots[key].order[1:])
    assert state.champion is not None
    assert losses[state.champion] <= 1
    others = Counter(losses[p] for p in bracket.participants if p != state.champion)
    if reset:
        assert set(others) == {2}
    else:
        # Without a reset the winners-bracket player may go out after losing the final only.
        assert set(others) <= {1, 2}
        assert others[1] <= 1
    reset_played = state.slots["GF-2"].status == "played" if reset else False
    assert len(results) == 2 * players - 2 + reset_played


def test_a_grand_final_reset_is_skipped_when_the_winners_bracket_player_wins():
    bracket = double_elimination([1, 2])
    state = advance_bracket(
        bracket,
        {"W1-1": SlotResult({1: 1, 2: 2}), "GF-1": SlotResult({1: 1, 2: 2})},
    )
    assert state.slots["GF-2"].status == "skipped"
    assert state.finished
    assert state.ranking == ((1,), (2,))
    played = advance_bracket(
        bracket,
        {"W1-1": SlotResult({1: 1, 2: 2}), "GF-1": SlotResult({1: 2, 2: 1})},
    )
    assert played.ready == ("GF-2",)


@pytest.mark.parametrize(
    ("options", "code", "says"),
    [
        (
            {"table_size": 4, "advance": 3},
            "advance",
            "At tables of 4, 1 to 2 players can advance (at most half a table), not 3.",
        ),
        ({"table_size": 2, "advance": 0}, "advance", "At tables of 2, only the winner advances"),
        ({"table_size": 3, "advance": 2}, "advance", "At tables of 3, only the winner advances"),
        ({"table_size": 4, "advance": 2, "third_place": True}, "format_option", "third-place"),
        ({"table_size": 6}, "table_size", ""),
    ],
)
def test_options_that_do_not_fit_are_refused(options, code, says):
    with pytest.raises(DrawError) as error:
        single_elimination(list(range(8)), **options)
    assert error.value.code == code
    assert says in error.value.message


@pytest.mark.parametrize("rounds", [3, 4, 5])
def test_drop_orders_have_the_fewest_expected_rematches_of_any_masks(rounds):
    # Exact expectation with every match a coin toss, over every combination of drop masks.
    best, _ = best_masks(rounds)
    assert expected_rematches(rounds, drop_masks(rounds))[0] == pytest.approx(best)


@pytest.mark.parametrize(
    ("rounds", "before", "now"),
    [(5, 1.121, 0.734), (6, 1.877, 0.703), (7, 3.400, 0.709), (8, 6.448, 0.705)],
)
def test_drop_orders_cut_expected_rematches_against_reversing_every_other_round(
    rounds, before, now
):
    assert expected_rematches(rounds, alternate_masks(rounds))[0] == pytest.approx(before, abs=1e-3)
    assert expected_rematches(rounds, drop_masks(rounds))[0] == pytest.approx(now, abs=1e-3)


def test_rematches_counted_over_seeded_random_events_match_the_exact_expectation():
    # 16 entrants, 250 events played through advance_bracket: the mean is within about two
    # standard errors of the exact 0.75.
    total, drop_in = measure(16, events=250, seed=20)
    assert total == pytest.approx(expected_rematches(4, drop_masks(4))[0], abs=0.12)
    assert drop_in <= total


def test_at_24_entrants_with_byes_the_drop_orders_cut_losers_bracket_rematches_by_a_third():
    before, _ = measure(24, events=100, seed=24, masks=alternate_masks(5))
    now, _ = measure(24, events=100, seed=24)
    assert now < 0.67 * before


def test_at_12_entrants_the_drop_orders_have_fewer_rematches_than_brackets_manager():
    # 12 entrants: 4 byes in winners round 1 (seeds 1 to 4), so losers round 1 is four
    # walkovers. Exact expectation, every match a coin toss, over all 8 combinations of masks
    # (every XOR order: brackets-manager's natural, reverse, half_shift, reverse_half_shift
    # and pair_flip among them): the draw's masks have the fewest rematches in all, 0.75 a
    # bracket, against 1.03 for brackets-manager's order (0.94 reading its reverse_half_shift
    # as a whole reversal). In the drop-in rounds alone brackets-manager's has fewer (0.34
    # against 0.59): its orders pay for that in the halving rounds.
    byes = byes_of(12)
    assert byes == (True, False) * 4
    masks = drop_masks(4, 12)
    best, best_order = best_masks_with_byes(12)
    assert masks == best_order == (3, 0, 0)
    ours = expected_rematches(4, masks, byes)
    assert ours == pytest.approx((0.75, 0.59375))
    manager = expected_rematches(4, BRACKETS_MANAGER_MASKS[4], byes)
    also = expected_rematches(4, BRACKETS_MANAGER_ALSO[4], byes)
    assert manager[0] == pytest.approx(1.03125)
    assert also[0] == pytest.approx(0.9375)
    assert ours[0] == pytest.approx(best)
    assert ours[0] < min(manager[0], also[0])
    assert manager[1] < ours[1]
    # The double elimination of 12 drops winners round 2's losers in reverse (mask 3).
    bracket = double_elimination(list(range(1, 13)))
    assert [bracket.slot(f"L2-{i}").sources[1].slot for i in range(1, 5)] == [
        "W2-4",
        "W2-3",
        "W2-2",
        "W2-1",
    ]


def test_the_exact_expectation_with_byes_matches_seeded_random_events():
    # 12 entrants, brackets-manager's order (where it differs most from the draw's), 300
    # events played through advance_bracket: within about two and a half standard errors.
    total, drop_in = measure(12, events=300, seed=12, masks=BRACKETS_MANAGER_MASKS[4])
    assert (total, drop_in) == pytest.approx(
        expected_rematches(4, BRACKETS_MANAGER_MASKS[4], byes_of(12)), abs=0.12
    )


@pytest.mark.parametrize("players", [10, 12, 17, 20, 22, 23])
def test_with_byes_the_drop_orders_are_the_fewest_of_any_masks(players):
    # Sizes with byes where other masks than the full bracket's are better (10, 17 to 22), and
    # where they are not (12, 23): the draw's are the best of every combination, and never
    # more than brackets-manager's.
    rounds = (players - 1).bit_length()
    byes = byes_of(players)
    best, _ = best_masks_with_byes(players)
    ours = expected_rematches(rounds, drop_masks(rounds, players), byes)[0]
    assert ours == pytest.approx(best)
    assert ours < expected_rematches(rounds, BRACKETS_MANAGER_MASKS[rounds], byes)[0]
    if drop_masks(rounds, players) != drop_masks(rounds):
        assert ours < expected_rematches(rounds, drop_masks(rounds), byes)[0] - 1e-9
