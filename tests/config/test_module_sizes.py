"""Modules stay small enough to read (issue 36): no Python module of the project is over
`MOST_LINES` lines, migrations, tests and benchmarks aside. A module that grows past it splits
at its sections, as `games/services/` and `league/services/stages/` did."""

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MOST_LINES = 600
ASIDE = {".venv", "tests", "benchmarks", "migrations", "node_modules", "var", "staticfiles"}


def _modules() -> list[Path]:
    return [
        path
        for path in ROOT.rglob("*.py")
        if not ASIDE.intersection(path.relative_to(ROOT).parts)
        and not any(part.startswith(".") for part in path.relative_to(ROOT).parts)
    ]


def test_the_walk_finds_the_project_modules() -> None:
    found = {str(path.relative_to(ROOT)) for path in _modules()}
    assert {"games/services/turns.py", "league/draw/seating.py", "config/settings/base.py"} <= found
    assert not any(name.startswith(("tests/", "benchmarks/")) for name in found)


def test_no_module_is_over_the_limit() -> None:
    long = {
        str(path.relative_to(ROOT)): count
        for path in _modules()
        if (count := len(path.read_text().splitlines())) > MOST_LINES
    }
    assert long == {}, f"split these modules at their sections: {long}"
