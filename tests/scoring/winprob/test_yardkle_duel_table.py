"""The real game (RULES.md defaults: target 10,000, entry minimum 500), from the table shipped
beside this file (built by `YardkleDuel.build()` with the default margin, about 9 minutes of
one core here; `manage.py build_strategy --yardkle-duel` writes the same numbers). The start
value is held to 6 decimals, and the table is checked against the code: solving a turn of a
score pair from the table gives that pair's own value back (the Bellman equation), so a change
of the rules or the solver that moves a value fails here."""

import numpy as np
import pytest

from scoring.winprob import YardkleDuel
from scoring.winprob.yardkle_duel import SHIPPED_TABLE
from scoring.yardkle import YardkleRules

TABLE = SHIPPED_TABLE
START = 0.52917277777678  # the first player's chance, both playing to win (ties 1/2)


@pytest.fixture(scope="module")
def duel() -> YardkleDuel:
    return YardkleDuel(YardkleRules(), np.load(TABLE))


def test_the_first_player_wins_52_9173_percent_with_both_playing_to_win(duel):
    assert duel.start_value == pytest.approx(START, abs=1e-14)
    assert f"{duel.start_value:.6f}" == "0.529173"
    assert duel.win_probability((0, 0), to_move=1) == pytest.approx((1 - START, START))


@pytest.mark.parametrize(
    ("a", "b"), [(0, 0), (0, 199), (10, 0), (100, 120), (190, 189), (199, 199), (150, 60)]
)
def test_solving_a_turn_from_the_table_gives_the_tables_value_back(duel, a, b):
    assert duel._turn(a, b)[a * 6] == pytest.approx(duel.wins[a, b], abs=1e-12)


def test_the_table_is_a_table_of_probabilities_falling_with_the_others_score(duel):
    wins = duel.wins
    assert ((wins > 0) & (wins < 1)).all()
    assert (np.diff(wins[:, 10:], axis=1) < 0).all()
    assert (np.diff(wins[10:], axis=0) > 0).all()
