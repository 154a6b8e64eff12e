"""A spread for the win-probability tests: the forced-joker strategy table (built once per
test session by tests/strategy_tables.py) and moments tabulated for the last turns only
(states with 10 boxes or more filled, seconds), so that tests check them without building
the whole moments table (about a minute, `manage.py build_strategy`)."""

import numpy as np
import pytest

from scoring.analysis import Strategy
from scoring.winprob.yardzee_greedy import GreedySpread, build_greedy
from scoring.winprob.yardzee_spread import Spread, build_moments
from scoring.yardzee import YardzeeRules

LAST_LEVELS = 10
"""Boxes filled from which the test spread has its moments."""


@pytest.fixture(scope="session")
def forced(forced_strategy: Strategy) -> Strategy:
    return forced_strategy


@pytest.fixture(scope="session")
def late_spread(forced: Strategy) -> Spread:
    """Moments for the states with at least `LAST_LEVELS` boxes filled; NaN before."""
    moments = build_moments(np.asarray(forced.table), "forced", down_to=LAST_LEVELS)
    return Spread(forced, moments)


@pytest.fixture(scope="session")
def late_greedy() -> GreedySpread:
    """The greedy player's moments for the states with at least `LAST_LEVELS` boxes filled."""
    return GreedySpread(YardzeeRules(), build_greedy("forced", down_to=LAST_LEVELS))
