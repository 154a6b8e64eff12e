"""Strategy tables on disk: a `.npy` file memory-mapped by every process that reads it, and a
JSON manifest beside it that says what the table is and how to tell it is intact.

This is the one place `scoring` reads or writes files: a table is too slow to build on every
start (docs/analysis.md, "The table file"). A missing, truncated, edited or stale file is an
error with a name, never a table of wrong numbers: the manifest must name this format and the
rules the table was built from (a fingerprint of `scoring.yardzee`'s scoring), the array must
have the recorded dtype and shape, and the SHA-256 of its data must match.
"""

import hashlib
import json
import os
import tempfile
from pathlib import Path
from typing import Any, Final

import numpy as np

from scoring.analysis.rolls import FloatArray
from scoring.game import JsonObject

FORMAT: Final = 1
"""The table file format; a change of layout or method bumps it, so old files are refused."""


class StrategyTableError(Exception):
    """A strategy table that cannot be used; `path` is the file concerned."""

    def __init__(self, message: str, *, path: Path) -> None:
        super().__init__(message)
        self.path = path


class StrategyTableMissing(StrategyTableError):
    """The table (or its manifest) is not there: build it (`manage.py build_strategy`)."""


class StrategyTableCorrupt(StrategyTableError):
    """The table is there but is not the table asked for: truncated, edited, of another format
    or built from other rules. Rebuild it."""


def table_paths(directory: str | os.PathLike[str], name: str) -> tuple[Path, Path]:
    """The table's `.npy` file and its manifest, for a table `name` such as "yardzee-forced"."""
    folder = Path(directory)
    return folder / f"{name}.npy", folder / f"{name}.json"


def _digest(table: FloatArray) -> str:
    return hashlib.sha256(np.ascontiguousarray(table).data).hexdigest()


def _replace_atomically(path: Path, write: Any) -> None:
    """Write through a temporary file in the same folder, then rename it over `path`, so a
    reader sees the old file or the new one, never half of one."""
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        with os.fdopen(handle, "wb") as stream:
            write(stream)
            stream.flush()
            os.fsync(stream.fileno())
        os.chmod(temporary, 0o644)  # mkstemp makes it private; every worker reads it
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def save_table(
    directory: str | os.PathLike[str],
    name: str,
    table: FloatArray,
    *,
    fingerprint: str,
    facts: JsonObject,
) -> Path:
    """Write `table` and its manifest (with `facts`, e.g. the rules and the start value) into
    `directory`, creating it; returns the `.npy` path. The manifest goes last: until it is
    there, or while it names another checksum, readers get an error, not this table."""
    table_path, manifest_path = table_paths(directory, name)
    table_path.parent.mkdir(parents=True, exist_ok=True)
    manifest = {
        **facts,
        "format": FORMAT,
        "fingerprint": fingerprint,
        "dtype": table.dtype.str,
        "shape": list(table.shape),
        "sha256": _digest(table),
    }
    _replace_atomically(table_path, lambda stream: np.save(stream, table, allow_pickle=False))
    text = json.dumps(manifest, indent=2, sort_keys=True).encode()
    _replace_atomically(manifest_path, lambda stream: stream.write(text))
    return table_path


def load_table(
    directory: str | os.PathLike[str],
    name: str,
    *,
    fingerprint: str,
    shape: tuple[int, ...] | None,
    verify: bool = True,
) -> tuple[FloatArray, JsonObject]:
    """The table `name` memory-mapped read-only, and its manifest. Raises
    `StrategyTableMissing` or `StrategyTableCorrupt` (see the module docstring); `verify=False`
    skips only the checksum (reading every page), not the other checks. `shape` None takes the
    manifest's (a table whose layout its manifest describes, checked by its reader)."""
    table_path, manifest_path = table_paths(directory, name)
    for path in (manifest_path, table_path):
        if not path.is_file():
            raise StrategyTableMissing(
                f"No strategy table at {path}: build it with `manage.py build_strategy`.",
                path=path,
            )
    manifest = _read_manifest(manifest_path)
    if manifest.get("format") != FORMAT:
        raise StrategyTableCorrupt(
            f"{manifest_path} is of table format {manifest.get('format')!r}, not {FORMAT}: "
            "rebuild it.",
            path=manifest_path,
        )
    if manifest.get("fingerprint") != fingerprint:
        raise StrategyTableCorrupt(
            f"{table_path} was built from other rules than these: rebuild it.", path=table_path
        )
    try:
        table = np.load(table_path, mmap_mode="r", allow_pickle=False)
    except (OSError, ValueError, EOFError) as error:
        raise StrategyTableCorrupt(
            f"{table_path} is not a readable table: {error}", path=table_path
        ) from error
    if shape is None:
        shape = tuple(table.shape)
    if table.dtype != np.float64 or table.shape != shape or manifest.get("shape") != list(shape):
        raise StrategyTableCorrupt(
            f"{table_path} holds {table.dtype} {table.shape}, not float64 {shape}: rebuild it.",
            path=table_path,
        )
    if verify and _digest(table) != manifest.get("sha256"):
        raise StrategyTableCorrupt(
            f"{table_path} does not match its checksum: the file was changed or cut short; "
            "rebuild it.",
            path=table_path,
        )
    return table, manifest


def _read_manifest(path: Path) -> JsonObject:
    try:
        manifest = json.loads(path.read_bytes())
    except (OSError, ValueError) as error:
        raise StrategyTableCorrupt(
            f"{path} is not a readable manifest: {error}", path=path
        ) from error
    if not isinstance(manifest, dict):
        raise StrategyTableCorrupt(f"{path} is not a manifest (a JSON object).", path=path)
    return manifest
