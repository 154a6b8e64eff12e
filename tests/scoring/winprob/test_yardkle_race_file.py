"""The Yardkle race tables on disk (scoring/winprob/yardkle_race_file.py): what is read back is
what was built, array for array; a table of other rules, other code or an edited manifest is
refused, never used; once installed, a process's races answer from them without building; and
`manage.py build_strategy` builds them when missing and keeps them when intact."""

import json
from io import StringIO
from types import SimpleNamespace

import numpy as np
import pytest
from django.core.management import CommandError, call_command

from analysis import strategies
from scoring.analysis import Strategy, StrategyTableError
from scoring.analysis.table_file import StrategyTableCorrupt, StrategyTableMissing
from scoring.winprob import yardkle_race, yardkle_race_file
from scoring.winprob.yardkle_race_file import FIELDS, STYLES, YardkleRaceTables, table_name
from scoring.winprob.yardzee_greedy import GreedySpread
from scoring.winprob.yardzee_spread import Spread
from scoring.yardkle import YardkleRules

SHORT = YardkleRules(target=1000)  # a short game: its tables build in about a second


@pytest.fixture(scope="module")
def short_tables() -> YardkleRaceTables:
    return YardkleRaceTables.build(SHORT)


@pytest.fixture
def shipped():
    """SHIPPED as it was before the test (a test installs into it)."""
    before = dict(yardkle_race.SHIPPED)
    yield yardkle_race.SHIPPED
    yardkle_race.SHIPPED.clear()
    yardkle_race.SHIPPED.update(before)


def test_what_is_read_back_is_what_was_built(short_tables, tmp_path):
    path = short_tables.save(tmp_path)
    assert path.name == "yardkle-race-1000-500.npy"
    loaded = YardkleRaceTables.load(SHORT, tmp_path)
    for style in STYLES:
        built, read = short_tables.parts[style], loaded.parts[style]
        assert read[0].goal == built[0].goal == 20
        for field in FIELDS:
            ours, theirs = getattr(built[0], field), getattr(read[0], field)
            assert (theirs.dtype, theirs.shape) == (ours.dtype, ours.shape)
            assert np.array_equal(theirs, ours), (style, field)
        assert np.array_equal(read[1], built[1])


def test_tables_of_other_rules_or_an_edited_manifest_are_refused(short_tables, tmp_path):
    short_tables.save(tmp_path)
    with pytest.raises(StrategyTableMissing):
        YardkleRaceTables.load(YardkleRules(target=1500), tmp_path)
    manifest = tmp_path / f"{table_name(SHORT)}.json"
    facts = json.loads(manifest.read_text())
    facts["layout"][0][1] = [1, 2]  # the first array's shape no longer adds up
    manifest.write_text(json.dumps(facts))
    with pytest.raises(StrategyTableCorrupt, match="rebuild"):
        YardkleRaceTables.load(SHORT, tmp_path)


def test_tables_built_by_other_code_are_refused(short_tables, tmp_path, monkeypatch):
    short_tables.save(tmp_path)
    monkeypatch.setattr(yardkle_race_file, "FIELDS", (*FIELDS, "changed"))  # as new code would
    with pytest.raises(StrategyTableCorrupt, match="other rules"):
        YardkleRaceTables.load(SHORT, tmp_path)


# Before the final round, and in it (seat 0 reached the target), each player's style mixed.
POSITIONS = [([600, 450, 0], None), ([1050, 450, 0], 0)]


def _chances() -> list[list[float]]:
    return [
        yardkle_race.win_probabilities(
            scores, 1, final_round_from=final_from, rules=SHORT, weak=[0.5, 0.0, 1.0]
        )
        for scores, final_from in POSITIONS
    ]


def _forget() -> None:
    yardkle_race.race_tables.cache_clear()
    yardkle_race.final_odds.cache_clear()
    yardkle_race.final_turn_odds.cache_clear()


def test_installed_tables_answer_the_race_without_building(
    short_tables, tmp_path, shipped, monkeypatch
):
    short_tables.save(tmp_path)
    _forget()
    built = _chances()  # from tables built here
    _forget()
    YardkleRaceTables.load(SHORT, tmp_path).install()

    def refuse(*args, **kwargs):
        raise AssertionError("built a table the file holds")

    # Only the installed tables can answer now.
    monkeypatch.setattr(yardkle_race, "final_turn_odds", refuse)
    monkeypatch.setattr(yardkle_race, "turn_distribution", refuse)
    assert _chances() == built
    for found in built:
        assert sum(found) == pytest.approx(1)


def test_a_process_installs_the_saved_tables_once(short_tables, tmp_path, settings, shipped):
    settings.STRATEGY_DIR = tmp_path
    strategies.forget()
    assert strategies.yardkle_race(SHORT) is False  # none there: logged, the race builds
    strategies.forget()
    short_tables.save(tmp_path)
    assert strategies.yardkle_race(SHORT) is True
    assert shipped[(SHORT, "weak")][1] is not None
    strategies.forget()


@pytest.fixture
def race_builds(monkeypatch, short_tables):
    """The command's Yardkle race build is the short game's tables under the default rules'
    name (30 s to build for real); the Yardzee tables are "there"."""
    calls: list[str] = []

    def build(cls, rules=None):
        calls.append("race")
        return YardkleRaceTables(YardkleRules(), short_tables.parts, 1.0)

    monkeypatch.setattr(YardkleRaceTables, "build", classmethod(build))

    def intact(rules, directory):
        return SimpleNamespace(start_value=254.587729, rules=rules)

    monkeypatch.setattr(Strategy, "load", staticmethod(intact))
    monkeypatch.setattr(Spread, "load", classmethod(lambda cls, *args, **kwargs: None))
    monkeypatch.setattr(GreedySpread, "load", classmethod(lambda cls, *args, **kwargs: None))
    return calls


def run(*arguments: str) -> str:
    out = StringIO()
    call_command("build_strategy", *arguments, stdout=out)
    return out.getvalue()


def test_build_strategy_builds_missing_race_tables_then_keeps_them(race_builds, tmp_path):
    with pytest.raises(CommandError, match="yardkle-race-10000-500"):
        run("--dir", str(tmp_path), "--check")
    assert "yardkle race: built" in run("--dir", str(tmp_path))
    assert "the race tables in" in run("--dir", str(tmp_path))
    run("--dir", str(tmp_path), "--check")
    assert race_builds == ["race"]
    (tmp_path / "yardkle-race-10000-500.npy").write_bytes(b"cut short")
    with pytest.raises(CommandError, match="yardkle-race-10000-500"):
        run("--dir", str(tmp_path), "--check")
    run("--dir", str(tmp_path))
    assert race_builds == ["race", "race"]
    try:
        YardkleRaceTables.load(None, tmp_path)
    except StrategyTableError as error:  # pragma: no cover - the failure's message
        pytest.fail(str(error))
