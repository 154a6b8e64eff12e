"""A co-organizer invitation in a real browser (issue 38): the organizer invites an address
from the league's organizers page; the mailed link, opened in another browser, leaves the
token for the clean `/invitations/` (whose forms pass the CSRF check: their Origin is sent),
where a new account is made and joins. Every page loads without a Content-Security-Policy
violation and passes axe-core."""

import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core import mail

from league.models import League
from tests.web.browser import IN_A_BROWSER, axe_violations, chromium, sign_in, watched_page

pytestmark = [*IN_A_BROWSER, pytest.mark.django_db(transaction=True)]


def test_an_invited_person_joins_the_league_from_the_mailed_link(
    live_server: Any, organizer: User, yardzee_league: League
) -> None:
    from playwright.sync_api import expect

    base = live_server.url
    violations: list[str] = []
    problems: list[str] = []
    with chromium() as browser:
        page = watched_page(browser, {"width": 390, "height": 844}, violations, "organizer")
        sign_in(page, base, organizer)
        page.goto(f"{base}/organize/leagues/{yardzee_league.slug}/")
        page.fill("#id_email", "ana@example.org")
        page.click("text=Send the invitation")
        expect(page.locator(".messages")).to_contain_text("is mailed to ana@example.org")
        expect(page.locator(".invitations")).to_contain_text("ana@example.org")
        problems += axe_violations(page, "organizers page")

        found = re.search(r"https?://\S+/invitations/[A-Za-z0-9_-]+/", str(mail.outbox[-1].body))
        assert found is not None, mail.outbox[-1].body
        guest = watched_page(browser, {"width": 390, "height": 844}, violations, "guest")
        guest.goto(found.group(0))
        expect(guest).to_have_url(f"{base}/invitations/")  # the token left the address bar
        expect(guest.locator("h1")).to_have_text(f"Organize {yardzee_league.name}")
        problems += axe_violations(guest, "invitation page")
        guest.fill("#id_username", "ana")
        guest.fill("#id_password1", "dice-in-the-grass-7")
        guest.fill("#id_password2", "dice-in-the-grass-7")
        guest.click(f"text=Make my account and join {yardzee_league.name}")
        expect(guest).to_have_url(f"{base}/organize/leagues/{yardzee_league.slug}/")
        expect(guest.locator(".messages")).to_contain_text("you now organize")
    assert set(yardzee_league.organizers.values_list("username", flat=True)) == {"orga", "ana"}
    assert not violations, violations
    assert not problems, problems
