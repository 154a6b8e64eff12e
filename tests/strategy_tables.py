"""The Yardzee strategy tables for the tests that analyse games, as `manage.py build_strategy`
builds them for a deployment. A plugin of the test suite (tests/conftest.py lists it), so every
test directory can use it.

Both tables (forced and free-choice joker) are built once for the code that builds them and kept
in `var/test-strategy/<key>/`, the key a hash of every module of `scoring`: the processes of one
run (pytest-xdist) and later runs (CI's second leg) load them instead of solving the game again
(8 to 15 s of a core a process). A change to `scoring` makes a new key, so a table is never older
than the code; each session works on its own copy (`strategy_dir`)."""

import fcntl
import hashlib
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Literal

import pytest

from analysis import strategies
from scoring.analysis import Strategy
from scoring.yardzee import YardzeeRules

ROOT = Path(__file__).resolve().parents[1]
CACHE = ROOT / "var" / "test-strategy"
JOKERS: tuple[Literal["forced", "free_choice"], ...] = ("forced", "free_choice")  # as deployed
DONE = "complete"


def code_key() -> str:
    """A hash of every module of `scoring` (paths and contents)."""
    digest = hashlib.sha256()
    for path in sorted((ROOT / "scoring").rglob("*.py")):
        digest.update(path.relative_to(ROOT).as_posix().encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def built_tables(cache: Path = CACHE) -> Path:
    """The directory of both tables for the code as it is, built by the first process that asks
    (the others wait for it on a lock)."""
    cache.mkdir(parents=True, exist_ok=True)
    directory = cache / code_key()
    with (cache / f"{directory.name}.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (directory / DONE).exists():
            shutil.rmtree(directory, ignore_errors=True)
            directory.mkdir()
            for joker in JOKERS:
                Strategy.build(YardzeeRules(joker=joker)).save(directory)
            (directory / DONE).touch()
    return directory


@pytest.fixture(scope="session")
def strategy_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    directory = tmp_path_factory.mktemp("strategy") / "tables"
    shutil.copytree(built_tables(), directory, ignore=shutil.ignore_patterns(DONE))
    return directory


@pytest.fixture(scope="session")
def forced_strategy(strategy_dir: Path) -> Strategy:
    """The optimal strategy under the forced joker rule (the default ruleset)."""
    return Strategy.load(YardzeeRules(joker="forced"), strategy_dir)


@pytest.fixture(scope="session")
def free_choice_strategy(strategy_dir: Path) -> Strategy:
    """The optimal strategy under the free-choice joker rule."""
    return Strategy.load(YardzeeRules(joker="free_choice"), strategy_dir)


@pytest.fixture
def tables(settings, strategy_dir: Path) -> Iterator[Path]:
    settings.STRATEGY_DIR = strategy_dir
    strategies.forget()
    yield strategy_dir
    strategies.forget()
