"""The layers of docs/architecture.md hold: import-linter keeps them, and would catch a breach."""

import shutil
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")


def _contracts() -> dict[str, dict[str, Any]]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
    return {c["id"]: c for c in config["contracts"]}


def test_contracts_forbid_django_and_the_project_in_scoring_and_layer_the_apps():
    contracts = _contracts()
    assert set(contracts["scoring-pure"]["forbidden_modules"]) >= {
        "django",
        "rest_framework",
        "celery",
        "config",
        "api",
        "league",
        "games",
        "core",
    }
    assert contracts["layers"]["layers"] == [
        "config",
        "api | organize",
        "webhooks | notifications",
        "league",
        "analysis",
        "games",
        "core | scoring",
    ]
    assert set(contracts["league-pure"]["source_modules"]) == {
        "league.draw",
        "league.standings",
        "league.rating",
        "league.projection",
    }
    assert "django" in contracts["league-pure"]["forbidden_modules"]


def test_the_project_keeps_its_import_contracts():
    result = subprocess.run(
        [str(LINT_IMPORTS), "--no-cache"], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "4 kept, 0 broken" in result.stdout


LEAGUE_LAYERS = (
    "urls",
    "pages",
    "receivers",
    "tasks",
    "admin",
    "management",
    "selectors",
    "results",
    "stage_options",
    "models",
    "errors",
    "signals",
)


def test_contracts_catch_scoring_or_the_draw_importing_django_and_games_importing_league(
    tmp_path,
):
    # A miniature project that breaks every contract, checked with the project's own config:
    # inside league, a service importing a page breaks the league's own layers; league importing
    # webhooks (which sits above it) breaks the apps' layers too, as does the bottom package
    # importing the wiring.
    for package, source in {
        "config": "",
        "core": "import config\n",
        "scoring": "import django\n",
        "games": "import league\n",
        "league": "import games\nimport webhooks\n",
        "league/draw": "import django\n",
        "league/standings": "",
        "league/rating": "",
        "league/projection": "",
        **{f"league/{layer}": "" for layer in LEAGUE_LAYERS},
        "league/services": "import league.pages\n",
        "api": "import league\n",
        "organize": "import league\n",
        "analysis": "",
        "webhooks": "",
        "notifications": "",
    }.items():
        (tmp_path / package).mkdir()
        (tmp_path / package / "__init__.py").write_text(source)
    (tmp_path / "django").mkdir()
    (tmp_path / "django" / "__init__.py").write_text("")
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    result = subprocess.run(
        [str(LINT_IMPORTS), "--no-cache"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
        env={"PYTHONPATH": str(tmp_path), "PATH": str(LINT_IMPORTS.parent)},
    )
    assert result.returncode == 1, result.stdout + result.stderr
    assert "0 kept, 4 broken" in result.stdout
    assert "league.services -> league.pages" in result.stdout
    assert "league.draw -> django" in result.stdout
    assert "scoring -> django" in result.stdout
    assert "games -> league" in result.stdout
    assert "league -> webhooks" in result.stdout
    assert "core -> config" in result.stdout
