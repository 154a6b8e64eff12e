"""The event page of a stage played in groups (issue 16, item 3): one standings table per
group, headed "Group 1", "Group 2", ..., each listing its own players ranked among themselves;
and one ranking, computed once, shown everywhere (item 5): after the league's points change,
a finished stage's "Final ranking" and its standings table still list the same order."""

import re

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from league.models import Event, League, Stage
from league.services import league_update
from tests.playing import play_stage, start_stage

from .conftest import make_players, refresh_tables

pytestmark = pytest.mark.django_db


def _table(page: str, table_id: str) -> list[tuple[int, int]]:
    """(player, rank) of every row of the table with this id, top to bottom."""
    table = page.split(f'id="{table_id}"')[1].split("</table>")[0]
    return [
        (int(player), int(rank))
        for player, rank in re.findall(
            r'<tr data-player="(\d+)">\s*<td class="num">(\d+)</td>', table
        )
    ]


def _final_ranking(page: str, stage: Stage) -> list[int]:
    section = page.split(f'id="stage-{stage.pk}"')[1].split('<ol class="ranking">')[1]
    return [int(p) for p in re.findall(r'href="/players/(\d+)/"', section.split("</ol>")[0])]


def _tiers(stage: Stage) -> list[int]:
    return [player for tier in stage.ranking for player in tier]


def test_item3_a_stage_in_groups_shows_one_table_per_group(client: Client, zee_event: Event):
    stage = start_stage(zee_event, "round_robin", make_players(12), table_size=4, groups=3)
    play_stage(stage, seed=3)
    refresh_tables()
    stage.refresh_from_db()
    page = client.get(f"/events/{zee_event.pk}/").content.decode()
    assert f'id="standings-stage-{stage.pk}"' not in page  # no table of the three groups as one
    groups = dict(stage.entries.values_list("player_id", "group"))
    for number in (1, 2, 3):
        assert f"<h4>Group {number}</h4>" in page
        rows = _table(page, f"standings-stage-{stage.pk}-group-{number}")
        assert {player for player, _ in rows} == {p for p, g in groups.items() if g == number}
        assert rows[0][1] == 1  # each group's places start at 1
        ranked = [player for tier in stage.group_ranking[str(number)] for player in tier]
        assert [player for player, _ in rows] == ranked
    assert _final_ranking(page, stage) == _tiers(stage)
    assert "Group winners first" in page


def test_item5_new_league_points_leave_the_final_ranking_and_the_table_in_agreement(
    client: Client, organizer
):
    league = League.objects.create(name="Backyard Yardzee", slug="byz", game="yardzee")
    event = Event.objects.create(league=league, name="Night", date="2026-06-06")
    stage = start_stage(
        event, "round_robin", make_players(8), table_size=4, tiebreak=["points", "total_score"]
    )
    play_stage(stage, seed=7)
    refresh_tables()
    stage.refresh_from_db()
    league_update(league=league, points={"placement": {"4": [10, 0, 0, 0]}})
    refresh_tables()
    page = client.get(f"/events/{event.pk}/").content.decode()
    table = [player for player, _ in _table(page, f"standings-stage-{stage.pk}")]
    assert _final_ranking(page, stage) == _tiers(stage) == table


def test_item3_the_event_page_costs_the_same_queries_for_two_groups_or_four(
    client: Client, organizer
):
    def queries(groups: int) -> int:
        league = League.objects.create(name=f"G{groups}", slug=f"g{groups}", game="yardzee")
        event = Event.objects.create(league=league, name="Cup", date="2026-07-01")
        players = make_players(groups * 4, f"G{groups}")
        stage = start_stage(event, "round_robin", players, table_size=4, groups=groups)
        play_stage(stage, seed=groups, limit=groups * 2)
        refresh_tables()
        url = f"/events/{event.pk}/"
        assert client.get(url).status_code == 200  # renders and keeps every group's table
        with CaptureQueriesContext(connection) as captured:
            assert client.get(url).status_code == 200
        return len(captured)

    assert queries(2) == queries(4)
