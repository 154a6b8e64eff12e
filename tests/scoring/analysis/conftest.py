"""The Yardzee strategy tables, built once per test session (about 5 to 15 s each here)."""

from pathlib import Path

import pytest

from scoring.analysis import Strategy
from scoring.yardzee import YardzeeRules


@pytest.fixture(scope="session")
def forced() -> Strategy:
    """The optimal strategy under the forced joker rule (the default ruleset)."""
    return Strategy.build(YardzeeRules(joker="forced"))


@pytest.fixture(scope="session")
def free_choice() -> Strategy:
    """The optimal strategy under the free-choice joker rule."""
    return Strategy.build(YardzeeRules(joker="free_choice"))


@pytest.fixture(scope="session")
def saved_forced(forced: Strategy, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A directory holding the forced-joker table as `manage.py build_strategy` writes it."""
    directory = tmp_path_factory.mktemp("strategy")
    forced.save(directory)
    return directory
