"""The event page's standings of a running stage show each player's chance to qualify and to
win once its projection exists (docs/analysis.md, "Chance to qualify"), without a query more
per stage."""

import re

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from league.models import Event, StageProjection
from league.pages.tables import chance_text
from league.services import projections
from tests.playing import fed_stage, play_stage, start_stage

from .conftest import make_players, refresh_tables

pytestmark = pytest.mark.django_db


def _chances(page: str, table_id: str) -> dict[int, list[str]]:
    """The chance cells of every row of the table with this id, by player."""
    table = page.split(f'id="{table_id}"')[1].split("</table>")[0]
    return {
        int(player): re.findall(r'<td class="num chance(?: more)?">([^<]*)</td>', row)
        for player, row in re.findall(r'<tr data-player="(\d+)"[^>]*>(.*?)</tr>', table, re.S)
    }


def _queries(client: Client, url: str) -> int:
    with CaptureQueriesContext(connection) as queries:
        assert client.get(url).status_code == 200
    return len(queries)


def test_a_running_stage_shows_the_chance_to_qualify_and_to_win(client: Client, zee_event: Event):
    stage = start_stage(zee_event, "round_robin", make_players(4))
    fed_stage(stage, source_top=2)
    play_stage(stage, seed=1, limit=2)
    refresh_tables()
    url = f"/events/{zee_event.pk}/"
    page = client.get(url).content.decode()
    assert "Chance to qualify" not in page  # no projection yet
    before = _queries(client, url)

    projected = projections.stage_project(stage_id=stage.pk)
    page = client.get(url).content.decode()  # a new projection is a new page version
    assert "Chance to qualify" in page
    assert "Chance to win" in page
    shown = _chances(page, f"standings-stage-{stage.pk}")
    figures = projected.chances()
    assert set(shown) == set(figures)
    for player, cells in shown.items():
        assert cells == [
            chance_text(figures[player]["qualify"]),
            chance_text(figures[player]["win"]),
        ]
    assert sum(figures[p]["qualify"] for p in figures) == pytest.approx(2.0)
    # The projections are read with the stage's tables: the page costs no query more for them.
    StageProjection.objects.filter(stage=stage).update(seed=1)  # not a new version: cached
    assert _queries(client, url) <= before


def test_chances_read_as_whole_percentages_never_rounded_to_certainty():
    assert [chance_text(c) for c in (0.0, 0.004, 0.5, 0.126, 0.996, 1.0)] == [
        "0%",
        "<1%",
        "50%",
        "13%",
        ">99%",
        "100%",
    ]
