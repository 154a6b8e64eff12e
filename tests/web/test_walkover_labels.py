"""A forfeit reads as what happened, never as "void" (issue 16 item 7): the bracket and the
rounds say "walkover" where a slot was decided without play and "did not show" / "withdrew"
beside the player who forfeited; the event's list of casual matches does not list the match a
forfeit replaced; a player's results say it too; the standings count forfeits (page column,
API, CSV). A match an organizer voided for another reason still reads "Void"."""

import csv
import io
import re
import xml.etree.ElementTree as ET

import pytest
from django.test import Client
from rest_framework.test import APIClient

from games import services as game_services
from games.models import Match
from league.models import Event, ForfeitReason, Player, Stage, StageForfeit, StageMatch
from league.pages.svg import SVG_NS, SeatLine, SlotBox, bracket_svg
from league.services import stages
from tests.playing import play, start_stage

from .conftest import make_players, refresh_tables

pytestmark = pytest.mark.django_db


def _forfeit(stage: Stage, slot: str = "", *, reason: str = ForfeitReason.NO_SHOW) -> int:
    """The first-seated player of a stage match not started forfeits it; returns who."""
    stage_matches = StageMatch.objects.filter(stage=stage).order_by("round", "slot", "pk")
    stage_match = stage_matches.get(slot=slot) if slot else stage_matches.first()
    assert stage_match is not None
    assert stage_match.match is not None
    player = stage_match.match.seats.get(order=0).player_id
    stages.stage_forfeit(stage_match_id=stage_match.pk, player_id=player)
    StageForfeit.objects.filter(stage_match=stage_match, player_id=player).update(reason=reason)
    return player


def _name(player_id: int) -> str:
    return Player.objects.get(pk=player_id).display_name


def _slot(page: str, key: str) -> ET.Element:
    svg = re.search(r"<svg[^>]*class=\"bracket\".*?</svg>", page, re.S)
    assert svg, "no bracket on the page"
    root = ET.fromstring(svg.group(0))  # noqa: S314 - the page's own SVG
    return next(g for g in root.iter(f"{{{SVG_NS}}}g") if g.get("data-slot") == key)


def _texts(element: ET.Element) -> list[str]:
    return ["".join(text.itertext()) for text in element.iter(f"{{{SVG_NS}}}text")]


def _rounds(page: str, stage: Stage) -> str:
    section = page.split(f'id="stage-{stage.pk}"')[1].split("</section>\n</section>")[0]
    return section.split("<h3>Rounds</h3>")[1].split("<h3>Standings</h3>")[0]


@pytest.mark.parametrize(
    ("reason", "text"),
    [(ForfeitReason.NO_SHOW, "did not show"), (ForfeitReason.WITHDREW, "withdrew")],
)
def test_item7_a_bracket_slot_decided_by_a_forfeit_reads_walkover_and_why(
    client: Client, zee_event, reason, text
):
    stage = start_stage(zee_event, "single_elimination", make_players(4))
    gone = _forfeit(stage, "W1-1", reason=reason)
    page = client.get(f"/events/{zee_event.pk}/").content.decode()
    slot = _slot(page, "W1-1")
    assert slot.get("class") == "slot walkover"
    texts = _texts(slot)
    assert texts[0] == "W1-1 \u00b7 walkover"
    assert "void" not in " ".join(texts)
    seats = [g for g in slot.iter(f"{{{SVG_NS}}}g") if "seat" in (g.get("class") or "")]
    forfeited = [g for g in seats if "forfeited" in (g.get("class") or "")]
    assert len(forfeited) == 1
    assert _texts(forfeited[0])[-2:] == [_name(gone), text]
    assert [g.get("class") for g in seats if g is not forfeited[0]] == ["seat advances"]
    assert slot.find(f"{{{SVG_NS}}}a") is None  # no link to the void match behind it


def test_item7_a_match_an_organizer_voided_for_another_reason_still_reads_void(
    client: Client, zee_event, seat
):
    match = seat(zee_event, make_players(2))
    game_services.match_void(match_id=match.pk, voided_by=None)
    page = client.get(f"/events/{zee_event.pk}/").content.decode()
    line = page.split(f'href="/matches/{match.pk}/"')[1].split("</li>")[0]
    assert '<span class="tag">Void</span>' in line


def test_item7_a_round_robin_walkover_reads_walkover_with_who_did_not_show(
    client: Client, zee_event
):
    stage = start_stage(zee_event, "round_robin", make_players(4))
    gone = _forfeit(stage, reason=ForfeitReason.WITHDREW)
    rounds = _rounds(client.get(f"/events/{zee_event.pk}/").content.decode(), stage)
    assert "Void" not in rounds
    line = next(li for li in rounds.split("<li") if "walkover" in li)
    assert "Walkover:" in line  # no space before the colon (it was "Walkover :")
    assert f'class="seat forfeited">{_name(gone)} <span class="note">withdrew</span>' in line
    assert 'class="seat won"' in line


def test_item7_a_table_that_played_on_lists_the_player_who_left_and_no_void_match(
    client: Client, zee_event
):
    stage = start_stage(zee_event, "round_robin", make_players(6), table_size=3)
    gone = _forfeit(stage)
    stage_match = StageMatch.objects.filter(stage=stage, forfeits__isnull=False).get()
    assert stage_match.walkover is False  # the other two play on at a fresh match
    page = client.get(f"/events/{zee_event.pk}/").content.decode()
    assert "Void" not in page
    assert 'id="matches-heading"' not in page  # the replaced match is not a casual one
    line = page.split(f'href="/matches/{stage_match.match_id}/"')[1].split("</li>")[0]
    assert f'{_name(gone)} <span class="note">did not show</span>' in line
    play(Match.objects.get(pk=stage_match.match_id), seed=2)
    refresh_tables()
    assert "Void" not in client.get(f"/events/{zee_event.pk}/").content.decode()


def test_item7_a_players_results_say_did_not_show_and_walkover_not_void(client: Client, zee_event):
    stage = start_stage(zee_event, "single_elimination", make_players(4))
    gone = _forfeit(stage, "W1-1")
    void = StageMatch.objects.get(stage=stage, slot="W1-1").match
    assert void is not None
    other = void.seats.exclude(player_id=gone).get().player_id
    for player, text in ((gone, "did not show"), (other, "walkover")):
        page = client.get(f"/players/{player}/").content.decode()
        row = page.split(f'href="/matches/{void.pk}/"')[0].rsplit("<tr", 1)[1]
        assert 'class="status-walkover"' in row
        after = page.split(f'href="/matches/{void.pk}/"')[1].split("</th>")[0]
        assert f'<span class="tag">{text}</span>' in after
        assert "Void" not in after


def test_item7_standings_count_forfeits_on_the_page_in_the_api_and_in_the_csv(
    client: Client, zee_event
):
    stage = start_stage(zee_event, "single_elimination", make_players(4))
    gone = _forfeit(stage, "W1-1")
    refresh_tables()
    api = APIClient()
    rows = api.get(f"/api/v1/stages/{stage.pk}/standings/").json()["rows"]
    assert {row["player"]: row["forfeits"] for row in rows} == {
        row["player"]: int(row["player"] == gone) for row in rows
    }
    sheet = list(
        csv.DictReader(
            io.StringIO(
                api.get(f"/api/v1/stages/{stage.pk}/standings/?format=csv").content.decode()
            )
        )
    )
    assert {int(line["player"]): int(line["forfeits"]) for line in sheet} == {
        row["player"]: row["forfeits"] for row in rows
    }
    page = client.get(f"/events/{zee_event.pk}/").content.decode()
    table = page.split(f'id="standings-stage-{stage.pk}"')[1].split("</table>")[0]
    head = table.split("</thead>")[0]
    assert re.search(r"<abbr [^>]*>Forfeits</abbr></th>\s*</tr>", head)
    row = table.split(f'<tr data-player="{gone}"')[1].split("</tr>")[0]
    assert re.findall(r'<td class="num[^"]*">([^<]*)</td>', row)[-1] == "1"


def test_item7_a_table_without_forfeits_has_no_forfeits_column(client: Client, zee_event):
    start_stage(zee_event, "single_elimination", make_players(4))
    refresh_tables()
    assert "Forfeits" not in client.get(f"/events/{zee_event.pk}/").content.decode()


def test_item7_the_bracket_svg_writes_a_note_in_place_of_the_score_and_escapes_it():
    box = SlotBox(
        key="W1-1",
        section="winners",
        round=1,
        index=1,
        status="walkover",
        seats=(
            SeatLine(label="Ana", seed=1, advances=True),
            SeatLine(label="Bo", seed=4, score=120, note="<withdrew>"),
        ),
    )
    svg = bracket_svg([box], title="Cup", id_prefix="t")
    assert "W1-1 \u00b7 walkover" in svg
    assert '<g class="seat forfeited">' in svg
    assert 'class="note"' in svg
    assert "&lt;withdrew&gt;" in svg
    assert ">120<" not in svg


def test_item7_a_casual_event_match_is_still_listed(client: Client, seat, zee_event: Event):
    match = seat(zee_event, make_players(2))
    play(match, seed=1)
    page = client.get(f"/events/{zee_event.pk}/").content.decode()
    assert f'href="/matches/{match.pk}/"' in page.split('id="matches-heading"')[1]
