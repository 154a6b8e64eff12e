"""`manage.py build_strategy` (games/management; docs/analysis.md, "The table file"): it
writes the tables into STRATEGY_DIR or `--dir`, keeps an intact table, rebuilds a corrupt one,
and `--check` fails on a missing one. No database. (It lives here, beside the engine's other
tests, rather than in tests/games.)"""

import json
from io import StringIO

import numpy as np
import pytest
from django.core.management import CommandError, call_command

from games.management.commands import build_strategy
from scoring.analysis import Strategy
from scoring.analysis import yardzee_table as solver
from scoring.winprob.yardkle_race import RaceTables
from scoring.winprob.yardkle_race_file import STYLES, YardkleRaceTables
from scoring.winprob.yardzee_greedy import GREEDY_ORDERS, GreedySpread
from scoring.winprob.yardzee_spread import ORDERS, Spread
from scoring.yardkle import YardkleRules


@pytest.fixture
def builds(monkeypatch, forced):
    """`Strategy.build` answers with the session's forced-joker table, counting the calls."""
    calls: list[str] = []

    def build(rules=None):
        calls.append(rules.joker)
        return forced

    monkeypatch.setattr(Strategy, "build", staticmethod(build))
    # The moments table (a minute to build) is stood in for by zeros, counted the same way.
    monkeypatch.setattr(Spread, "build", classmethod(spread_build(calls)))
    # So is the greedy player's table (seconds).
    monkeypatch.setattr(GreedySpread, "build", classmethod(greedy_build(calls)))
    # The Yardkle race tables are "there", and `--force` "builds" a tiny stand-in (their part
    # of the command is tested beside them, tests/scoring/winprob/test_yardkle_race_file.py).
    monkeypatch.setattr(YardkleRaceTables, "load", classmethod(lambda cls, *args: None))
    monkeypatch.setattr(YardkleRaceTables, "build", classmethod(lambda cls: tiny_race_tables()))
    return calls


def tiny_race_tables() -> YardkleRaceTables:
    tables = RaceTables(1, *(np.zeros((1, 1, 1)[:dims]) for dims in (2, 3, 3, 3, 2, 2)))
    return YardkleRaceTables(YardkleRules(), {style: (tables, np.zeros(1)) for style in STYLES})


def spread_build(calls):
    def build(cls, strategy):
        calls.append(f"moments {strategy.rules.joker}")
        return cls(strategy, np.zeros((len(ORDERS), solver.STATES)))

    return build


def greedy_build(calls):
    def build(cls, rules):
        calls.append(f"greedy {rules.joker}")
        return cls(rules, np.zeros((len(GREEDY_ORDERS), solver.STATES)))

    return build


def run(*arguments: str) -> str:
    out = StringIO()
    call_command("build_strategy", *arguments, stdout=out)
    return out.getvalue()


def test_the_command_builds_a_missing_table_then_keeps_it(builds, tmp_path):
    output = run("--dir", str(tmp_path), "--joker", "forced")
    assert "built" in output
    assert "254.587729" in output
    assert (tmp_path / "yardzee-forced.npy").is_file()
    assert (tmp_path / "yardzee-forced-moments.npy").is_file()
    assert (tmp_path / "yardzee-forced-greedy.npy").is_file()
    again = run("--dir", str(tmp_path), "--joker", "forced")
    assert "the moments table in" in again
    assert "the greedy table in" in again
    assert builds == ["forced", "moments forced", "greedy forced"]
    run("--dir", str(tmp_path), "--joker", "forced", "--force")
    assert builds == ["forced", "moments forced", "greedy forced"] * 2


def test_a_missing_greedy_table_is_built_beside_intact_ones(builds, tmp_path):
    run("--dir", str(tmp_path), "--joker", "forced")
    (tmp_path / "yardzee-forced-greedy.npy").unlink()
    with pytest.raises(CommandError, match="yardzee-forced-greedy"):
        run("--dir", str(tmp_path), "--joker", "forced", "--check")
    run("--dir", str(tmp_path), "--joker", "forced")
    assert builds == ["forced", "moments forced", "greedy forced", "greedy forced"]
    assert GreedySpread.load(None, tmp_path).table.shape == (2, solver.STATES)


def test_a_missing_moments_table_is_built_beside_an_intact_strategy_table(builds, tmp_path):
    run("--dir", str(tmp_path), "--joker", "forced")
    (tmp_path / "yardzee-forced-moments.npy").unlink()
    with pytest.raises(CommandError, match="yardzee-forced-moments"):
        run("--dir", str(tmp_path), "--joker", "forced", "--check")
    output = run("--dir", str(tmp_path), "--joker", "forced")
    assert "the table in" in output
    assert "intact" in output
    assert builds == ["forced", "moments forced", "greedy forced", "moments forced"]
    spread = Spread.load(None, tmp_path)
    assert spread.strategy.start_value == pytest.approx(254.587729, abs=1e-6)


def test_the_command_rebuilds_a_corrupt_table(builds, tmp_path):
    run("--dir", str(tmp_path), "--joker", "forced")
    manifest = tmp_path / "yardzee-forced.json"
    manifest.write_text(json.dumps({**json.loads(manifest.read_text()), "sha256": "0" * 64}))
    output = run("--dir", str(tmp_path), "--joker", "forced")
    assert "checksum" in output
    # The moments depend on the rules only (the same strategy comes out again): kept.
    assert builds == ["forced", "moments forced", "greedy forced", "forced"]
    assert Strategy.load(None, tmp_path).start_value == pytest.approx(254.587729, abs=1e-6)


def test_check_fails_on_a_missing_table_and_builds_nothing(builds, tmp_path):
    with pytest.raises(CommandError, match="build_strategy"):
        run("--dir", str(tmp_path), "--check")
    assert builds == []


def test_the_directory_defaults_to_strategy_dir_then_var_strategy(settings, tmp_path):
    settings.STRATEGY_DIR = tmp_path / "tables"
    assert build_strategy.strategy_dir() == tmp_path / "tables"
    del settings.STRATEGY_DIR
    assert build_strategy.strategy_dir() == settings.BASE_DIR / "var" / "strategy"


def test_check_with_force_is_refused_not_a_silent_success(builds, tmp_path):
    # --force skipped the load, --check the build: nothing was checked, and it exited 0.
    with pytest.raises(CommandError, match=r"--check .* --force"):
        run("--dir", str(tmp_path), "--check", "--force")
    assert builds == []


def test_a_directory_that_cannot_be_written_is_refused_before_building(builds, tmp_path):
    (tmp_path / "file").write_text("")
    with pytest.raises(CommandError, match=r"Cannot write the strategy tables to .*file/tables"):
        run("--dir", str(tmp_path / "file" / "tables"))
    assert builds == []
