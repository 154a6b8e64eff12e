"""The event page (/events/<id>/): every stage with its standings (tiebreak columns in their
order, when computed, whether results are pending), elimination brackets drawn as SVG on the
server (one group per slot, byes, losers bracket and grand final, winners highlighted), and
the rounds of round-robin and Swiss stages."""

import re
import xml.etree.ElementTree as ET

import pytest
from django.test import Client

from league.models import Stage, StandingsTable
from league.pages.svg import SVG_NS
from league.services import stages
from tests.playing import play, play_stage, start_stage

from .conftest import make_players, refresh_tables

pytestmark = pytest.mark.django_db


def _svg(page: str) -> str:
    found = re.search(r"<svg[^>]*class=\"bracket\".*?</svg>", page, re.S)
    assert found, "no bracket on the page"
    return found.group(0)


def _slots(svg: str) -> dict[str, ET.Element]:
    root = ET.fromstring(svg)  # noqa: S314 - the page's own SVG
    return {g.get("data-slot"): g for g in root.iter(f"{{{SVG_NS}}}g") if g.get("data-slot")}


def _advancing(slot: ET.Element) -> list[str]:
    """The names highlighted as going on from a slot."""
    return [
        "".join(g.find("svg:text[@class='name']", {"svg": SVG_NS}).itertext())
        for g in slot.iter(f"{{{SVG_NS}}}g")
        if g.get("class") == "seat advances"
    ]


def test_a_single_elimination_bracket_has_one_group_per_slot_and_marks_the_byes(
    client: Client, zee_event
):
    stage = start_stage(zee_event, "single_elimination", make_players(5))
    page = client.get(f"/events/{zee_event.pk}/").content.decode()
    svg = _svg(page)
    keys = re.findall(r'data-slot="([^"]+)"', svg)
    assert keys == [slot["key"] for slot in stage.bracket["slots"]]
    byes = sum(slot["size"] - len(slot["sources"]) for slot in stage.bracket["slots"])
    assert byes == 3  # seeds 1 to 3 sit out round 1
    assert svg.count('class="seat bye"') == byes
    assert svg.count('class="slot bye"') == byes
    assert "Winner of W1-" in svg  # seats still to fill say where they come from


def test_the_bracket_highlights_winners_and_the_champion_once_played_out(client: Client, zee_event):
    players = make_players(6)
    stage = start_stage(zee_event, "single_elimination", players)
    play_stage(stage, seed=10)
    refresh_tables()
    stage.refresh_from_db()
    assert stage.status == "finished"
    champion = next(p for p in players if p.pk == stage.ranking[0][0])
    page = client.get(f"/events/{zee_event.pk}/").content.decode()
    final_key = stage.bracket["slots"][-1]["key"]
    slots = _slots(_svg(page))
    assert _advancing(slots[final_key]) == [f"\u25b6 {champion.display_name}"]
    for slot in stage.bracket["slots"]:  # every decided slot shows who went on
        assert len(_advancing(slots[slot["key"]])) == 1
    assert "Final ranking" in page
    assert re.search(rf'<span class="place">1st</span> <a href="/players/{champion.pk}/">', page)


def test_double_elimination_draws_the_losers_bracket_and_grand_final(client: Client, zee_event):
    stage = start_stage(zee_event, "double_elimination", make_players(8))
    drawn = _svg(client.get(f"/events/{zee_event.pk}/").content.decode())
    assert "Loser of W1-1" in drawn  # drop-downs to come say where they come from
    play_stage(stage, seed=3, limit=9)
    page = client.get(f"/events/{zee_event.pk}/").content.decode()
    svg = _svg(page)
    assert "Winners bracket" in svg
    assert "Losers bracket" in svg
    assert "Grand final" in svg
    sections = re.findall(r'data-section="([a-z_]+)"', svg)
    assert sections.count("losers") == 6
    assert sections.count("grand_final") == 2
    assert 'data-slot="GF-1"' in svg
    assert svg.count('<g class="slot played"') == 9


def test_each_bracket_slot_links_to_its_match(client: Client, zee_event):
    stage = start_stage(zee_event, "single_elimination", make_players(4))
    page = client.get(f"/events/{zee_event.pk}/").content.decode()
    match_ids = stage.stage_matches.values_list("match_id", flat=True)
    for match_id in match_ids:
        assert f'<a href="/matches/{match_id}/">' in _svg(page)


def test_standings_columns_follow_the_stage_tiebreak_order(client: Client, zee_event):
    order = ["wins", "total_score", "yardzees", "points"]
    start_stage(zee_event, "round_robin", make_players(4), tiebreak=order)
    page = client.get(f"/events/{zee_event.pk}/").content.decode()
    assert re.findall(r'data-metric="([a-z_]+)"', page) == order
    assert "Ranked by Wins, then Total score, then Yardzees, then Points." in page


def test_standings_rows_match_the_stored_table(client: Client, zee_event):
    players = make_players(4)
    stage = start_stage(zee_event, "round_robin", players)
    play_stage(stage, seed=2)
    refresh_tables()
    page = client.get(f"/events/{zee_event.pk}/").content.decode()
    table = page.split(f'id="standings-stage-{stage.pk}"')[1].split("</table>")[0]
    stored = StandingsTable.objects.get(scope="stage", scope_id=stage.pk)
    shown = re.findall(r'<tr data-player="(\d+)">\s*<td class="num">(\d+)</td>', table)
    assert [(int(p), int(r)) for p, r in shown] == [
        (row["player"], row["rank"]) for row in stored.rows
    ]
    points = re.findall(
        r'<tr data-player="\d+">.*?</th>\s*<td class="num">([^<]+)</td>', table, re.S
    )
    assert points == [f"{row['metrics']['points']:g}" for row in stored.rows]


def test_the_page_says_when_standings_were_computed_and_when_results_are_pending(
    client: Client, zee_event
):
    stage = start_stage(zee_event, "round_robin", make_players(4))
    play_stage(stage, seed=1, limit=1)
    refresh_tables()
    page = client.get(f"/events/{zee_event.pk}/").content.decode()
    assert "Computed <time" in page
    assert "still being counted" not in page
    play_stage(stage, seed=2, limit=1)  # the refresh job runs only after commit: not yet
    page = client.get(f"/events/{zee_event.pk}/").content.decode()
    assert "Newer results are still being counted." in page
    assert f'data-live-url="/events/{zee_event.pk}/live/"' in page


def test_round_robin_and_swiss_rounds_list_their_matches_and_byes(client: Client, zee_event):
    players = make_players(5)
    round_robin = start_stage(zee_event, "round_robin", players, name="Groups")
    swiss = start_stage(zee_event, "swiss", players, name="Swiss")
    play_stage(swiss, seed=4, limit=2)
    page = client.get(f"/events/{zee_event.pk}/").content.decode()
    assert "<svg" not in page.split("<main")[1]  # no bracket for these formats
    rr = page.split(f'id="stage-{round_robin.pk}"')[1].split('<section class="stage"')[0]
    assert rr.count('<section class="round"') == 5  # 5 players in pairs: 5 rounds
    assert rr.count('<li class="bye">') == 5  # one bye each round
    assert rr.count('<li class="match-line') == 10
    sw = page.split(f'id="stage-{swiss.pk}"')[1]
    assert 'aria-label="Round 1"' in sw
    assert sw.count("seat won") >= 2


def test_matches_outside_stages_are_listed_with_the_event_standings(
    client: Client, zee_event, seat
):
    players = make_players(3)
    finished = seat(zee_event, players)
    play(finished, seed=1)
    playing = seat(zee_event, players[:2])
    play(playing, seed=2, turns=3)
    page = client.get(f"/events/{zee_event.pk}/").content.decode()
    assert f'href="/matches/{finished.pk}/"' in page
    assert f'href="/matches/{playing.pk}/"' in page
    assert "Event standings" in page
    assert f'data-live-url="/events/{zee_event.pk}/live/"' in page


def test_the_live_part_of_the_event_page_renders_alone(client: Client, zee_event):
    start_stage(zee_event, "single_elimination", make_players(4))
    response = client.get(f"/events/{zee_event.pk}/live/")
    assert response.status_code == 200
    fragment = response.content.decode()
    assert fragment.startswith('<div id="event-live"')
    assert "<html" not in fragment
    assert 'class="bracket"' in fragment


def test_an_event_with_nothing_drawn_says_so(client: Client, zee_event):
    page = client.get(f"/events/{zee_event.pk}/").content.decode()
    assert "Nothing has been drawn or played" in page


def test_a_draft_stage_shows_its_entries_in_the_standings(client: Client, zee_event):
    players = make_players(3)
    zee_event.league.players.add(*players)
    stages.stage_create(
        event_id=zee_event.pk, name="Later", format="swiss", player_ids=[p.pk for p in players]
    )
    page = client.get(f"/events/{zee_event.pk}/").content.decode()
    assert "Draft" in page
    for player in players:
        assert player.display_name in page
    assert Stage.objects.get().status == "draft"


def test_unknown_events_are_not_found(client: Client):
    assert client.get("/events/999999/").status_code == 404
    assert client.get("/events/999999/live/").status_code == 404
