"""The Yardzee strategy tables (tests/strategy_tables.py builds them once for the code as it is;
`test_yardzee_strategy.py` holds their start values to the published ones)."""

from pathlib import Path

import pytest

from scoring.analysis import Strategy


@pytest.fixture(scope="session")
def forced(forced_strategy: Strategy) -> Strategy:
    """The optimal strategy under the forced joker rule (the default ruleset)."""
    return forced_strategy


@pytest.fixture(scope="session")
def free_choice(free_choice_strategy: Strategy) -> Strategy:
    """The optimal strategy under the free-choice joker rule."""
    return free_choice_strategy


@pytest.fixture(scope="session")
def saved_forced(forced: Strategy, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A directory holding the forced-joker table as `manage.py build_strategy` writes it."""
    directory = tmp_path_factory.mktemp("strategy")
    forced.save(directory)
    return directory
