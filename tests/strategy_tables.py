"""The Yardzee strategy tables for the tests that analyse games: built once per test session into
a temporary STRATEGY_DIR (seconds), as `manage.py build_strategy` builds it for a deployment.
A plugin of the test suite (tests/conftest.py lists it), so every test directory can use it."""

from collections.abc import Iterator
from pathlib import Path

import pytest

from analysis import strategies
from scoring.analysis import Strategy
from scoring.yardzee import YardzeeRules


@pytest.fixture(scope="session")
def strategy_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    directory = tmp_path_factory.mktemp("strategy")
    for joker in ("forced", "free_choice"):  # both tables, as a deployment has them
        Strategy.build(YardzeeRules(joker=joker)).save(directory)
    return directory


@pytest.fixture
def tables(settings, strategy_dir: Path) -> Iterator[Path]:
    settings.STRATEGY_DIR = strategy_dir
    strategies.forget()
    yield strategy_dir
    strategies.forget()
