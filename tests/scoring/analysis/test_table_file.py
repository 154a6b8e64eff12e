"""Strategy table files (docs/analysis.md, "The table file"): saved with a manifest, loaded
memory-mapped, and a missing, corrupt or stale file is a named error, never a wrong answer."""

import json
import shutil

import numpy as np
import pytest

from scoring.analysis import (
    Strategy,
    StrategyTableCorrupt,
    StrategyTableError,
    StrategyTableMissing,
    YardzeeState,
)
from scoring.analysis import yardzee_table as solver
from scoring.yardzee import YardzeeRules

FORCED = YardzeeRules()


@pytest.fixture
def table_dir(saved_forced, tmp_path):
    """A copy of the saved forced-joker table that a test may damage."""
    return shutil.copytree(saved_forced, tmp_path / "strategy")


def test_a_saved_table_loads_memory_mapped_with_the_same_values(forced, saved_forced):
    loaded = Strategy.load(FORCED, saved_forced)
    assert isinstance(loaded._table, np.memmap)
    assert not loaded._table.flags.writeable
    assert loaded.start_value == forced.start_value
    assert np.array_equal(loaded._table, forced._table, equal_nan=True)
    state = YardzeeState.of_boxes({"yardzee": 50, "sixes": 24})
    assert loaded.state_value(state) == forced.state_value(state)


def test_the_table_file_is_8_mb_and_its_manifest_names_rules_checksum_and_start_value(
    saved_forced,
):
    table = saved_forced / "yardzee-forced.npy"
    assert table.stat().st_size == 8 * 1024 * 1024 + 128  # float64 per state, a 128-byte header
    manifest = json.loads((saved_forced / "yardzee-forced.json").read_text())
    assert manifest["rules"] == {"joker": "forced"}
    assert manifest["shape"] == [solver.STATES]
    assert manifest["start_value"] == pytest.approx(254.587729, abs=1e-6)
    assert len(manifest["sha256"]) == 64


def test_no_table_in_the_directory_is_strategy_table_missing(tmp_path):
    with pytest.raises(StrategyTableMissing, match="build_strategy") as error:
        Strategy.load(FORCED, tmp_path / "nowhere")
    assert isinstance(error.value, StrategyTableError)


def test_a_table_without_its_manifest_is_missing(table_dir):
    (table_dir / "yardzee-forced.json").unlink()
    with pytest.raises(StrategyTableMissing):
        Strategy.load(FORCED, table_dir)


def test_the_other_joker_rules_table_is_missing_not_borrowed(table_dir):
    with pytest.raises(StrategyTableMissing):
        Strategy.load(YardzeeRules(joker="free_choice"), table_dir)


def test_a_table_with_one_changed_value_fails_its_checksum(table_dir):
    path = table_dir / "yardzee-forced.npy"
    data = bytearray(path.read_bytes())
    data[4_000_000] ^= 0x01
    path.write_bytes(bytes(data))
    with pytest.raises(StrategyTableCorrupt, match="checksum"):
        Strategy.load(FORCED, table_dir)


def test_a_truncated_table_is_corrupt(table_dir):
    path = table_dir / "yardzee-forced.npy"
    path.write_bytes(path.read_bytes()[:1_000_000])
    with pytest.raises(StrategyTableCorrupt):
        Strategy.load(FORCED, table_dir, verify=False)


def test_a_table_of_another_shape_is_corrupt(table_dir):
    np.save(table_dir / "yardzee-forced.npy", np.zeros(1000))
    with pytest.raises(StrategyTableCorrupt, match="float64"):
        Strategy.load(FORCED, table_dir)


@pytest.mark.parametrize(
    ("change", "match"),
    [
        ({"format": 0}, "format"),
        ({"fingerprint": "0" * 64}, "other rules"),
    ],
    ids=["older-format", "built-from-other-rules"],
)
def test_a_manifest_of_another_format_or_other_rules_is_refused(table_dir, change, match):
    path = table_dir / "yardzee-forced.json"
    path.write_text(json.dumps({**json.loads(path.read_text()), **change}))
    with pytest.raises(StrategyTableCorrupt, match=match):
        Strategy.load(FORCED, table_dir)


def test_an_unreadable_manifest_is_corrupt(table_dir):
    (table_dir / "yardzee-forced.json").write_text("{not json")
    with pytest.raises(StrategyTableCorrupt):
        Strategy.load(FORCED, table_dir)


def test_saving_again_replaces_the_files_whole(forced, table_dir):
    forced.save(table_dir)
    assert sorted(path.name for path in table_dir.iterdir()) == [
        "yardzee-forced.json",
        "yardzee-forced.npy",
    ]
    assert Strategy.load(FORCED, table_dir).start_value == forced.start_value
