"""`manage.py build_strategy --yardkle-duel` (docs/analysis.md, "Win probability: Yardkle, two
players"): writes the two-player table beside the Yardzee ones, keeps it when intact, and
`--check` fails without it. The build is the shipped table (minutes to solve for real)."""

from io import StringIO
from types import SimpleNamespace

import numpy as np
import pytest
from django.core.management import CommandError, call_command

from scoring.analysis import Strategy
from scoring.winprob import YardkleDuel
from scoring.winprob.yardkle_race_file import YardkleRaceTables
from scoring.winprob.yardzee_greedy import GreedySpread
from scoring.winprob.yardzee_spread import Spread
from scoring.yardkle import YardkleRules

from .test_yardkle_duel_table import START, TABLE


@pytest.fixture
def builds(monkeypatch):
    calls: list[str] = []

    def build_duel(rules=None):
        calls.append("duel")
        return YardkleDuel(YardkleRules(), np.load(TABLE))

    def build_strategy(rules=None):
        raise AssertionError("only the Yardkle table is asked for")

    # The Yardzee tables, their moments, the greedy player's and the race tables are "there"
    # (their command is tested in tests/scoring/analysis and beside the race tables).
    def intact(rules, directory):
        return SimpleNamespace(start_value=254.587729, rules=rules)

    monkeypatch.setattr(YardkleDuel, "build", staticmethod(build_duel))
    monkeypatch.setattr(Strategy, "load", staticmethod(intact))
    monkeypatch.setattr(Spread, "load", classmethod(lambda cls, *args, **kwargs: None))
    monkeypatch.setattr(GreedySpread, "load", classmethod(lambda cls, *args, **kwargs: None))
    monkeypatch.setattr(YardkleRaceTables, "load", classmethod(lambda cls, *args: None))
    monkeypatch.setattr(Strategy, "build", staticmethod(build_strategy))
    return calls


def run(*arguments: str) -> str:
    out = StringIO()
    call_command("build_strategy", *arguments, stdout=out)
    return out.getvalue()


def test_the_flag_builds_the_two_player_table_then_keeps_it(builds, tmp_path):
    output = run("--dir", str(tmp_path), "--yardkle-duel")
    assert f"the first player wins {START:.6f}" in output
    assert (tmp_path / "yardkle-duel-10000-500.npy").is_file()
    assert YardkleDuel.load(None, tmp_path).start_value == START
    assert "intact" in run("--dir", str(tmp_path), "--yardkle-duel")
    assert builds == ["duel"]
    run("--dir", str(tmp_path), "--yardkle-duel", "--check")


def test_check_fails_without_the_two_player_table_only_when_asked_for(builds, tmp_path):
    run("--dir", str(tmp_path), "--check")
    with pytest.raises(CommandError, match="yardkle-duel-10000-500"):
        run("--dir", str(tmp_path), "--check", "--yardkle-duel")
    assert builds == []
