"""Webhooks on the organizer pages in Debian's Chromium (issue 21 item 4): an organizer adds an
endpoint pointing at a real local receiver, copies its secret from the one page that shows
it, sends a test event that the receiver refuses with a 500, and reads the failure in the
delivery log; axe-core finds no violation on the pages."""

from typing import Any

import pytest
from playwright.sync_api import expect, sync_playwright

from tests.web.browser import IN_A_BROWSER, SHOTS, axe_violations, launch
from tests.webhooks.receiver import running_receiver
from webhooks.models import Endpoint

pytestmark = [*IN_A_BROWSER, pytest.mark.django_db(transaction=True)]


def _axe_clean(page: Any, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"webhooks-{name}.png"), full_page=True)
    assert axe_violations(page, name) == []


def test_item4_an_organizer_adds_an_endpoint_and_reads_a_failed_delivery_in_its_log(
    live_server, yardkle_league
):
    with running_receiver() as receiver, sync_playwright() as playwright:
        receiver.statuses.extend([500])
        browser = launch(playwright)
        page = browser.new_page()
        page.goto(f"{live_server.url}/accounts/login/")
        page.get_by_label("Username").fill("orga")
        page.get_by_label("Password").fill("pw-orga")
        page.get_by_role("button", name="Sign in").click()
        page.goto(f"{live_server.url}/organize/leagues/yardkle/")
        page.get_by_role("link", name="Webhooks").click()
        expect(page.get_by_text("No endpoint yet.")).to_be_visible()
        _axe_clean(page, "list")
        page.get_by_label("Address").fill(receiver.url)
        page.get_by_label("Standings changed").uncheck()
        page.get_by_role("button", name="Add it").click()
        expect(page.get_by_text("shown only this once")).to_be_visible()
        secret = page.get_by_label("Secret").input_value()
        endpoint = Endpoint.objects.get()
        assert secret == endpoint.secret
        assert "standings.changed" not in endpoint.events
        _axe_clean(page, "secret")
        page.get_by_role("link", name="To the endpoint and its delivery log").click()
        page.get_by_role("button", name="Send a test event").click()
        expect(page.get_by_text("A test event was sent")).to_be_visible()
        log = page.get_by_role("table")
        expect(log).to_contain_text("ping")
        expect(log).to_contain_text("HTTP 500")
        expect(log).to_contain_text("Retrying")
        assert secret not in page.content()
        _axe_clean(page, "log")
        browser.close()
    assert len(receiver.requests) == 1
