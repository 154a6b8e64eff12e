"""The scoring page's script (static/js/score/, ES modules, no build step) takes every URL from
the page, which renders them by name with {% url %}: no API path is written in the template or
the script (issue 15, "Front end")."""

import re
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from league.models import Event
from tests.playing import play

from .conftest import make_players

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "static" / "js" / "score"
TEMPLATE = ROOT / "templates" / "games" / "score.html"
IMPORT = re.compile(r'^import\s[^;]*?\sfrom\s"(\./[\w-]+\.js)";', re.M)


def _attr(page: str, element_id: str, name: str) -> str:
    found = re.search(rf'id="{element_id}"[^>]*\s{name}="([^"]*)"', page, re.S)
    assert found, f"no {name} on #{element_id}"
    return found.group(1)


@pytest.mark.django_db
def test_the_page_gives_the_script_each_api_url_by_name(
    client: Client, organizer: User, zee_event: Event, seat: Any
) -> None:
    match = seat(zee_event, make_players(2))
    play(match, seed=3, turns=1)  # something to take back
    client.force_login(organizer)
    page = client.get(f"/matches/{match.pk}/score/").content.decode()
    assert _attr(page, "scorer", "data-turns-url") == reverse("api:match-turns", args=[match.pk])
    assert _attr(page, "scorer", "data-preview-url") == reverse(
        "api:match-preview", args=[match.pk]
    )
    assert _attr(page, "scorer", "data-take-back-url") == reverse(
        "api:match-turn-take-back", args=[match.pk]
    )
    assert _attr(page, "score-page", "data-match-url") == reverse(
        "api:match-detail", args=[match.pk]
    )
    assert '<script type="module" src="/static/js/score/main.js"></script>' in page


def test_no_address_is_written_by_hand_in_the_template_or_the_script() -> None:
    files = [TEMPLATE, *sorted(SCRIPT.glob("*.js"))]
    written = {f.name: re.findall(r"/api/|/matches/", f.read_text()) for f in files}
    assert written == {f.name: [] for f in files}


def test_the_modules_import_each_other_by_relative_paths_that_exist() -> None:
    """Served as they are (no build step): main.js reaches every module, and none keeps state
    at module level (each part gets what it shares as an argument)."""
    modules = {path.name: path.read_text() for path in SCRIPT.glob("*.js")}
    reached, todo = {"main.js"}, ["main.js"]
    while todo:
        for name in IMPORT.findall(modules[todo.pop()]):
            assert name[2:] in modules, f"{name} is not in {SCRIPT}"
            if name[2:] not in reached:
                reached.add(name[2:])
                todo.append(name[2:])
    assert reached == set(modules)
    stateful = {name for name, text in modules.items() if re.search(r"^(let|var)\s", text, re.M)}
    assert stateful == set()
