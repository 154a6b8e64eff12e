"""A whole league day run from the pages (issue 17, "Done means"), in Debian's Chromium through
Playwright against a live server, as an organizer who is not staff: sign in, create a Yardzee
league, paste its roster as a CSV, create an event, add a round robin in two groups and a
knockout fed by its top two of each group, start the groups, print the first round's sheet (one
QR code a table), keep score of one of its tables on a 390 px phone opened through the sheet's
link (a confirmed box, then the scorekeeper's own "Undo my last turn"), and close the event:
refused while that match is being played, so it is voided through the match control first.
axe-core finds nothing on any page, each at the width it was visited (1280 px for the
organizer, 390 px for the scorekeeper), and no page reports a Content-Security-Policy
violation. Screenshots go to artifacts/screenshots/league-day-*.png."""

from typing import Any

import pytest
from django.contrib.auth.models import User

from games.models import Match, MatchStatus, Seat, TurnUndo
from league.models import Event, League, Stage
from tests.web.browser import (
    IN_A_BROWSER,
    SHOTS,
    axe_violations,
    chromium,
    expect_a_round_sheet_on_paper,
    watched_page,
)

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
ROSTER = [
    ("Ana Lima", "ana"),
    ("Ben Okafor", ""),
    ("Cleo Park", "cleo"),
    ("Dev Rao", ""),
    ("Eli Stone", ""),
    ("Fay Wong", "fay"),
    ("Gus Berg", ""),
    ("Hal Moss", ""),
]

pytestmark = [*IN_A_BROWSER, pytest.mark.django_db(transaction=True)]


def _shot(page: Any, name: str) -> None:
    page.screenshot(path=str(SHOTS / f"league-day-{name}.png"), full_page=True)


def _check(page: Any, name: str, problems: list[str], width: str, shot: str = "") -> None:
    """axe-core on the page as it is now, at the width it is shown; then its screenshot `shot`
    if named."""
    page.wait_for_load_state("networkidle")
    problems.extend(axe_violations(page, f"{name} ({width})"))
    if shot:
        _shot(page, shot)


def _turns_played(match_id: int) -> int:
    return Match.objects.get(pk=match_id).turns_played


def test_an_organizer_runs_a_league_day_from_the_pages(live_server: Any, organizer: User) -> None:
    from playwright.sync_api import expect

    assert not organizer.is_staff
    assert not organizer.is_superuser
    base = live_server.url
    problems: list[str] = []
    violations: list[str] = []
    with chromium() as browser:
        page = watched_page(browser, DESKTOP, violations, "organizer")

        # Sign in: the organizer's own pages, "My leagues".
        page.goto(f"{base}/accounts/login/")
        _check(page, "sign in", problems, "1280")
        page.get_by_label("Username").fill(organizer.username)
        page.get_by_label("Password").fill("pw-" + organizer.username)
        page.get_by_role("button", name="Sign in").click()
        expect(page.get_by_role("heading", name="My leagues")).to_be_visible()
        _check(page, "my leagues", problems, "1280")

        # A Yardzee league, created from the page.
        page.get_by_role("link", name="Create a league").click()
        _check(page, "new league", problems, "1280")
        page.get_by_label("Name").fill("Yard Day")
        page.get_by_label("Game").select_option("yardzee")
        page.get_by_role("button", name="Create the league").click()
        expect(page.get_by_text("Yard Day is created, and you organize it.")).to_be_visible()
        _check(page, "league settings", problems, "1280")
        league = League.objects.get(name="Yard Day")
        assert league.game == "yardzee"
        assert list(league.organizers.all()) == [organizer]

        # Its roster: eight players pasted as a CSV (handles made from names when absent).
        page.get_by_role("link", name="Players").first.click()
        page.get_by_role("link", name="Import a CSV").click()
        _check(page, "players import", problems, "1280")
        csv = "name,handle\n" + "".join(f"{name},{handle}\n" for name, handle in ROSTER)
        page.get_by_label("Paste").fill(csv)
        page.get_by_role("button", name="Import").click()
        expect(page.get_by_text("8 players are added to the roster.")).to_be_visible()
        expect(page.get_by_role("table").locator("tbody tr")).to_have_count(8)
        _check(page, "roster", problems, "1280", shot="roster-desktop")
        players = list(league.players.order_by("display_name"))
        assert [p.display_name for p in players] == [name for name, _handle in ROSTER]

        # An event of the league.
        page.get_by_role("link", name="My leagues").first.click()
        page.get_by_role("link", name="Events of Yard Day").click()
        _check(page, "league events", problems, "1280")
        page.fill("#id_name", "Summer Day")
        page.fill("#id_date", "2026-07-04")
        page.fill("#id_venue", "Back lawn")
        page.get_by_role("button", name="Create the event").click()
        expect(page.locator("h1")).to_have_text("Summer Day")
        event = Event.objects.get(league=league, name="Summer Day")
        event_url = page.url

        # A round robin in two groups of four, everyone playing.
        page.get_by_role("link", name="Add a stage").click()
        _check(page, "new stage", problems, "1280")
        page.fill("#id_name", "Groups")
        page.fill("#id_groups", "2")
        for player in players:
            page.check(f"#plays-{player.pk}")
        page.get_by_role("button", name="Add the stage").click()
        expect(page.locator(".messages")).to_contain_text("Groups is added")

        # A single-elimination knockout fed by the top two of each group (htmx shows the fields).
        page.get_by_role("link", name="Add a stage").click()
        page.fill("#id_name", "Knockout")
        page.select_option("#id_format", "single_elimination")
        expect(page.locator("#id_groups")).to_have_count(0)
        page.select_option("#id_source_stage", label="From Groups")
        expect(page.locator("#id_source_per_group")).to_be_visible()
        expect(page.locator("input[name=participants]")).to_have_count(0)
        _check(page, "knockout stage form", problems, "1280")
        page.fill("#id_source_per_group", "2")
        page.get_by_role("button", name="Add the stage").click()
        expect(page.locator(".messages")).to_contain_text("Knockout is added")
        expect(page.locator(".stage-list")).to_contain_text(
            "takes the top 2 of each group of Groups"
        )
        groups = Stage.objects.get(event=event, name="Groups")
        knockout = Stage.objects.get(event=event, name="Knockout")
        assert knockout.format == "single_elimination"
        assert knockout.source_stage_id == groups.pk

        # Start the groups: round 1 is seated, two tables a group.
        page.get_by_role("button", name="Start Groups").click()
        expect(page.locator(".messages")).to_contain_text("Groups has started")
        tables = groups.stage_matches.filter(round=1).count()
        assert tables == 4
        round_one = page.locator(".event-tables .round").first
        expect(round_one).to_contain_text("Round 1")
        expect(round_one.get_by_role("link", name="Keep score")).to_have_count(tables)
        _check(page, "event", problems, "1280", shot="event-desktop")

        # The round sheet, on paper: one QR code a table, the site's header and tools hidden.
        page.get_by_role("link", name="Round sheet of Groups").click()
        expect(page.locator("h1")).to_contain_text("Groups, round 1")
        _check(page, "round sheet", problems, "1280")
        expect_a_round_sheet_on_paper(page, tables)
        _shot(page, "round-sheet-print")
        page.emulate_media(media="screen")
        first = page.locator(".sheet-table").first
        match_id = int((first.get_attribute("id") or "").removeprefix("table-"))
        link = first.locator(".sheet-link a").get_attribute("href")
        assert link is not None
        assert link.startswith(base + "/t/")
        names = list(
            Seat.objects.filter(match_id=match_id)
            .order_by("order")
            .values_list("player__display_name", flat=True)
        )
        assert len(names) == 2

        # A scorekeeper's phone (no account) opens the table's printed link.
        score = watched_page(browser, PHONE, violations, "scorekeeper")
        score.goto(link)
        expect(score.locator("#scorer")).to_have_attribute("data-turn-number", "1")
        assert score.url == f"{base}/matches/{match_id}/score/"  # the key left the address
        expect(score.locator("#last-saved")).to_have_text("No turn saved yet.")
        assert score.locator("#match-control").count() == 0  # no organizer control here
        _check(score, "score", problems, "390")
        assert _turns_played(match_id) == 0

        # Turn 1: a Full house, saved once the box is confirmed.
        for value in (2, 2, 3, 3, 3):
            score.click(f'.face[data-face="{value}"]')
        score.click('button.box[data-box="full_house"]')
        expect(score.locator("#confirm-turn")).to_be_visible()
        expect(score.locator("#confirm-text")).to_have_text(
            f"Save turn 1: {names[0]}, Full house, 25?"
        )
        _check(score, "score, confirming a box", problems, "390", shot="score-confirm-phone")
        score.click("#confirm-save")
        expect(score.locator("#scorer")).to_have_attribute("data-turn-number", "2")
        expect(score.locator("#last-saved")).to_have_text(
            f"Last saved: Turn 1: {names[0]}, Full house, 25"
        )
        assert _turns_played(match_id) == 1

        # Turn 2: a Chance, saved, then taken back by the scorekeeper who sent it.
        for value in (6, 6, 5, 4, 1):
            score.click(f'.face[data-face="{value}"]')
        score.click('button.box[data-box="chance"]')
        expect(score.locator("#confirm-text")).to_have_text(f"Save turn 2: {names[1]}, Chance, 22?")
        score.click("#confirm-save")
        expect(score.locator("#scorer")).to_have_attribute("data-turn-number", "3")
        assert _turns_played(match_id) == 2
        expect(score.locator("#take-back")).to_be_visible()
        _check(score, "score, a turn to take back", problems, "390", shot="score-take-back-phone")
        score.click("#take-back")
        expect(score.locator("#scorer")).to_have_attribute("data-turn-number", "2")
        expect(score.locator("#score-message")).to_contain_text(
            f"You took back Turn 2: {names[1]}, Chance, 22."
        )
        expect(score.locator("#player-name")).to_have_text(names[1])
        assert _turns_played(match_id) == 1
        undo = TurnUndo.objects.get(match_id=match_id)
        assert undo.taken_back is True
        _check(score, "score, after taking back", problems, "390")
        score.context.close()

        # Close the event: refused while the match is being played, and the page names it.
        page.goto(event_url)
        expect(page.locator("#event-tables")).to_contain_text(f"Match #{match_id}")
        page.get_by_role("link", name="Close the event").click()
        page.get_by_label("Finished: its play is over").check()
        page.get_by_role("button", name="Close the event").click()
        refusal = page.locator(".refusal")
        expect(refusal).to_contain_text("Still being played")
        expect(refusal.get_by_role("link", name=f"Match #{match_id}", exact=True)).to_be_visible()
        _check(page, "close, refused", problems, "1280", shot="close-refused-desktop")
        assert Event.objects.get(pk=event.pk).status not in ("finished", "cancelled")

        # Void it through the match control (replayed later at a fresh table, if ever).
        refusal.get_by_role("link", name=f"Match #{match_id}", exact=True).click()
        expect(page.locator("#match-control")).to_be_visible()
        page.click("#control-void")
        panel = page.locator("#match-control-panel")
        expect(panel).to_contain_text(f"Void match #{match_id}")
        expect(panel.locator("#confirm-void")).to_be_visible()
        _check(page, "match, void", problems, "1280", shot="void-desktop")
        page.click("#confirm-void")
        expect(page.locator("#control-unvoid")).to_be_visible()
        assert Match.objects.get(pk=match_id).status == MatchStatus.VOID
        _check(page, "match, voided", problems, "1280")

        # Closed as finished this time.
        page.goto(event_url)
        page.get_by_role("link", name="Close the event").click()
        _check(page, "close", problems, "1280")
        page.get_by_label("Finished: its play is over").check()
        page.get_by_role("button", name="Close the event").click()
        expect(page.locator(".messages")).to_contain_text("Summer Day is closed.")
        expect(page.get_by_role("button", name="Reopen the event")).to_be_visible()
        assert Event.objects.get(pk=event.pk).status == "finished"
        _check(page, "event, closed", problems, "1280", shot="event-closed-desktop")
        page.wait_for_timeout(200)  # violation events are dispatched after the fact
        page.context.close()
    assert problems == [], "\n".join(problems)
    assert violations == [], "\n".join(violations)
