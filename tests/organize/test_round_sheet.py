"""The round sheet (issue 17, "Round sheet"): one block a table, with its number, its players in
seat order, and the QR code and short link of its scoring page; A4 or Letter; statuses that
follow play on screen; organizers only (it prints keys), in a fixed number of queries."""

import re

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from games import score_keys
from games.models import Match
from league.models import Event, League, Stage
from league.services import stages as stage_services
from tests.organize.test_events import first_turn, play_out, roster, signed_in, started

pytestmark = pytest.mark.django_db

QR = re.compile(r'<svg[^>]*class="qr-svg"')
SHORT_LINK = re.compile(r'href="http://testserver(/t/(\d+)/([0-9a-z]{5}-[0-9a-z]{5}))"')


@pytest.fixture
def as_organizer(organizer: User) -> Client:
    return signed_in(organizer)


@pytest.fixture
def pool(yardzee_event: Event) -> Stage:
    """A running round robin of six players: three pairs a round."""
    return started(yardzee_event, roster(yardzee_event.league, 6))


def round_matches(stage: Stage, number: int) -> list[Match]:
    return list(
        Match.objects.filter(stage_match__stage=stage, stage_match__round=number).order_by(
            "stage_match__group", "stage_match__slot", "stage_match__pk"
        )
    )


def test_the_sheet_has_a_block_a_table_with_its_players_qr_code_and_short_link(as_organizer, pool):
    page = as_organizer.get(f"/organize/stages/{pool.pk}/rounds/1/sheet/")
    html = page.content.decode()
    matches = round_matches(pool, 1)
    assert page.status_code == 200
    assert page["Cache-Control"].startswith("max-age=0")  # never kept: it prints keys
    assert len(matches) == 3
    assert len(QR.findall(html)) == 3
    assert html.count('class="sheet-table"') == 3
    links = SHORT_LINK.findall(html)
    assert [int(match_id) for _path, match_id, _code in links] == [m.pk for m in matches]
    for number, match in enumerate(matches, start=1):
        block = html.split(f'id="table-{match.pk}"', 1)[1].split('class="sheet-table"', 1)[0]
        assert f"Table {number}" in block
        assert f"Match #{match.pk}" in block
        names = [seat.player.display_name for seat in match.seats.order_by("order")]
        seats = block.split("</ol>", 1)[0]
        assert re.findall(r"<li>([^<]+)</li>", seats) == names  # in seat order
        code = score_keys.short_code(match.score_key)
        assert f'testserver<span class="sheet-path">/t/{match.pk}/{code}</span></a>' in block
    assert 'class="round-sheet paper-a4"' in html


def test_the_short_link_opens_the_scoring_page_for_whoever_holds_the_sheet(as_organizer, pool):
    html = as_organizer.get(f"/organize/stages/{pool.pk}/rounds/1/sheet/").content.decode()
    path, match_id, code = SHORT_LINK.findall(html)[0]
    table = Client()
    opened = table.get(path)
    assert opened.status_code == 302
    assert opened["Location"] == f"/matches/{match_id}/score/"
    assert opened["Cache-Control"] == "no-store"
    score = table.get(opened["Location"])
    assert score.status_code == 200
    assert "Keep score" in score.content.decode()
    # As typed from paper: capitals, no dash, a trailing slash.
    typed = Client().get(f"/t/{match_id}/{code.replace('-', '').upper()}/")
    assert typed.status_code == 302


def test_a_wrong_short_code_is_refused_and_counted_as_a_wrong_key(pool, settings):
    settings.SCORE_KEY_FAILURES = 3
    match = round_matches(pool, 1)[0]
    code = score_keys.short_code(match.score_key)
    wrong = ("0" if code[0] != "0" else "1") + code[1:]
    client = Client()
    for _ in range(3):
        assert client.get(f"/t/{match.pk}/{wrong}").status_code == 403
    assert client.get(f"/t/{match.pk}/{code}").status_code == 429
    assert Client().get(f"/t/{match.pk + 1000}/{code}").status_code == 404


def test_the_paper_is_a4_or_letter(as_organizer, pool):
    url = f"/organize/stages/{pool.pk}/rounds/1/sheet/"
    letter = as_organizer.get(url, {"paper": "letter"}).content.decode()
    assert 'class="round-sheet paper-letter"' in letter
    assert '<a href="?paper=a4">A4</a>' in letter
    odd = as_organizer.get(url, {"paper": "tabloid"}).content.decode()
    assert 'class="round-sheet paper-a4"' in odd


def test_statuses_follow_play_and_stop_refreshing_when_every_table_is_done(as_organizer, pool):
    matches = round_matches(pool, 1)
    html = as_organizer.get(f"/organize/stages/{pool.pk}/rounds/1/sheet/").content.decode()
    live = re.search(r'hx-get="([^"]+)" hx-trigger="every 10s"', html)
    assert live is not None
    url = live.group(1).replace("&amp;", "&")
    assert url == f"/organize/stages/{pool.pk}/sheet/live/?tables=" + ",".join(
        str(m.pk) for m in matches
    )
    first_turn(matches[0])
    play_out(matches[1])
    fragment = as_organizer.get(url, HTTP_HX_REQUEST="true").content.decode()
    assert (
        f'<span id="status-{matches[0].pk}" class="tag status-in_progress" hx-swap-oob="true">'
        in (fragment)
    )
    assert f'id="status-{matches[1].pk}" class="tag status-finished"' in fragment
    assert "1 of 3 tables done" in fragment
    assert "hx-trigger" in fragment
    play_out(matches[0])
    play_out(matches[2], seed=3)
    done = as_organizer.get(url, HTTP_HX_REQUEST="true").content.decode()
    assert "3 of 3 tables done" in done
    assert "hx-trigger" not in done
    # No key in the fragment, and a table of another stage is not answered for.
    assert not any(m.score_key in fragment for m in matches)


def test_a_stage_sheet_is_its_first_open_round_or_for_a_bracket_the_tables_ready_now(
    as_organizer, pool, yardzee_event
):
    for match in round_matches(pool, 1):
        play_out(match)
    now = as_organizer.get(f"/organize/stages/{pool.pk}/sheet/")
    assert now.status_code == 302
    assert now["Location"] == f"/organize/stages/{pool.pk}/rounds/2/sheet/"
    league = yardzee_event.league
    cup = Event.objects.create(league=league, name="Cup", date="2026-06-02")
    bracket = started(cup, roster(league, 4, prefix="Cup"), format="single_elimination")
    ready = as_organizer.get(f"/organize/stages/{bracket.pk}/sheet/")
    html = ready.content.decode()
    assert ready.status_code == 200
    assert len(QR.findall(html)) == 2  # the two semi-finals; the final waits
    assert "Table 1 · W1-1" in html
    assert "Table 2 · W1-2" in html
    assert as_organizer.get(f"/organize/stages/{bracket.pk}/rounds/9/sheet/").status_code == 404


def test_a_matchs_sheet_is_its_rounds_and_a_casual_match_has_a_sheet_of_its_own(
    as_organizer, pool, yardzee_event
):
    match = round_matches(pool, 2)[1]
    found = as_organizer.get(f"/organize/matches/{match.pk}/sheet/")
    assert found["Location"] == f"/organize/stages/{pool.pk}/rounds/2/sheet/#table-{match.pk}"
    players = list(yardzee_event.league.players.order_by("pk")[:3])
    from league.services import match_create

    casual = match_create(game="yardzee", player_ids=[p.pk for p in players], event=yardzee_event)
    page = as_organizer.get(f"/organize/matches/{casual.pk}/sheet/").content.decode()
    assert len(QR.findall(page)) == 1
    assert f"/t/{casual.pk}/{score_keys.short_code(casual.score_key)}" in page
    live = as_organizer.get(f"/organize/matches/{casual.pk}/sheet/live/").content.decode()
    assert "0 of 1 table done" in live


def test_no_one_but_the_leagues_organizers_sees_a_sheet_or_a_key(
    other_organizer, player_account, pool
):
    matches = round_matches(pool, 1)
    for user in (other_organizer, player_account):
        client = signed_in(user)
        for url in (
            f"/organize/stages/{pool.pk}/rounds/1/sheet/",
            f"/organize/stages/{pool.pk}/sheet/",
            f"/organize/matches/{matches[0].pk}/sheet/",
            f"/organize/stages/{pool.pk}/sheet/live/?tables={matches[0].pk}",
        ):
            response = client.get(url)
            assert response.status_code == 403, url
            assert matches[0].score_key not in response.content.decode()
    anonymous = Client().get(f"/organize/stages/{pool.pk}/rounds/1/sheet/")
    assert anonymous["Location"].startswith("/accounts/login/")
    for url in (f"/events/{pool.event_id}/", f"/matches/{matches[0].pk}/"):
        public = Client().get(url).content.decode()
        assert score_keys.short_code(matches[0].score_key) not in public
        assert matches[0].score_key not in public


def _queries(client: Client, url: str) -> int:
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url)
    assert response.status_code == 200, (url, response.status_code)
    return len(captured)


def test_the_sheet_costs_the_same_queries_for_4_players_as_for_16(
    as_organizer, yardzee_league: League, django_assert_max_num_queries
):
    def sheet_of(size: int, name: str) -> tuple[str, str]:
        event = Event.objects.create(league=yardzee_league, name=name, date="2026-06-01")
        stage = started(event, roster(yardzee_league, size, prefix=name))
        matches = round_matches(stage, 1)
        stage_services.stage_withdraw(
            stage_id=stage.pk, player_id=matches[0].seats.first().player_id
        )
        ids = ",".join(str(m.pk) for m in matches)
        return (
            f"/organize/stages/{stage.pk}/rounds/1/sheet/",
            f"/organize/stages/{stage.pk}/sheet/live/?tables={ids}",
        )

    small, large = sheet_of(4, "Small"), sheet_of(16, "Large")
    # The session and its user; the stage with its event and league; whether the user
    # organizes it; the round's stage matches with their matches; their seats and players;
    # the keys of its matches; who forfeited (the withdrawn player's walkover).
    assert _queries(as_organizer, small[0]) == 8
    with django_assert_max_num_queries(8):
        large_sheet = as_organizer.get(large[0]).content.decode()
    # Eight tables, one of them a walkover since its player withdrew: no one plays there.
    assert len(QR.findall(large_sheet)) == 7
    assert "Decided without play" in large_sheet
    # The session and its user; the stage; the organizer check; the statuses.
    assert _queries(as_organizer, small[1]) == 5
    with django_assert_max_num_queries(5):
        as_organizer.get(large[1])
