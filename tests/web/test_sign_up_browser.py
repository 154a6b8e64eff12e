"""Issue 21, items 1 and 2 in a real browser: players sign up on the event's public page (one
lands on the waiting list), the organizer approves one as a new player and links another to
the player they already were, refuses one (the waiting list moves up), checks players in (one
checks themselves in from their own link), and starts a stage, whose message names who was
dropped for not checking in. The email is on no public page; every page loads without a
Content-Security-Policy violation and passes axe-core at 390 and 1280 px."""

import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core import mail

from league.models import Event, League, Player, Registration
from league.services import registration as reg
from league.services import stages as stage_services
from tests.web.browser import (
    IN_A_BROWSER,
    SHOTS,
    axe_violations,
    chromium,
    sign_in,
    watched_page,
)

WIDTHS = {"phone": (390, 844), "desktop": (1280, 900)}

pytestmark = [*IN_A_BROWSER, pytest.mark.django_db(transaction=True)]


def test_players_sign_up_and_the_organizer_approves_checks_in_and_starts(
    live_server: Any, organizer: User, yardzee_league: League
) -> None:
    from playwright.sync_api import expect

    event = Event.objects.create(league=yardzee_league, name="Summer Cup", date="2026-07-04")
    reg.sign_up_set(event=event, cap=3, check_in=True)
    # Ben played before, in this league: his confirmed registration carries his email.
    before = Event.objects.create(league=yardzee_league, name="Spring Cup", date="2026-04-04")
    reg.sign_up_set(event=before)
    ben_then = reg.registration_approve(
        registration_id=reg.registration_create(
            event_id=before.pk, display_name="Ben Ode", email="ben@private.example"
        ).registration.pk
    )
    base = live_server.url
    problems: list[str] = []
    violations: list[str] = []
    with chromium() as browser:
        player_page = watched_page(browser, {"width": 390, "height": 844}, violations)
        links: dict[str, str] = {}

        # Four players sign up from the event's public page; the fourth waits in line.
        for name, email in (
            ("Ana", "ana@private.example"),
            ("Ben", "ben@private.example"),
            ("Cleo", "cleo@private.example"),
            ("Dev", "dev@private.example"),
        ):
            player_page.goto(f"{base}/events/{event.pk}/")
            player_page.click("text=Sign up for Summer Cup")
            player_page.fill("#id_display_name", name)
            player_page.fill("#id_email", email)
            player_page.click("button:has-text('Sign up')")
            # The link goes to the address (issue 37, item 4): the player opens it from there.
            expect(player_page.locator("h1")).to_contain_text("Check your email")
            mailed = str([m for m in mail.outbox if m.to == [email]][-1].body)
            found = re.search(r"https?://\S+/sign-up/\S+/", mailed)
            assert found is not None, mailed
            player_page.goto(found.group(0))
            expect(player_page.locator("h1")).to_contain_text("Your sign-up")
            links[name] = player_page.url
        expect(player_page.locator(".registration-status")).to_contain_text(
            "On the waiting list (number 1 in line)"
        )
        assert "private.example" not in player_page.content()
        player_page.goto(f"{base}/events/{event.pk}/")
        assert "private.example" not in player_page.content()

        # The organizer signs in and opens the event's sign-up page.
        page = watched_page(browser, {"width": 390, "height": 844}, violations)
        sign_in(page, base, organizer)
        page.goto(f"{base}/organize/events/{event.pk}/")
        page.click("text=Sign-up and check-in")
        expect(page.locator("h1")).to_have_text("Sign-up and check-in")
        expect(page.locator("#pending-heading + ul")).to_contain_text("ana@private.example")

        # Ben matches the player he was last time (by email): the organizer links him.
        expect(page.locator("body")).to_contain_text("Ben Ode (@ben-ode): the same email")
        page.click("text=Approve Ben")
        expect(page.locator(".messages")).to_contain_text("Ben is confirmed as Ben Ode")
        page.click("text=Approve Ana")
        expect(page.locator(".messages")).to_contain_text("Ana is confirmed as Ana")
        # Cleo is refused: Dev moves up from the waiting list, and is approved.
        page.click("text=Refuse Cleo")
        expect(page.locator(".messages")).to_contain_text("Cleo is refused")
        page.click("text=Approve Dev")
        expect(page.locator(".messages")).to_contain_text("Dev is confirmed")
        assert Registration.objects.get(event=event, display_name="Ben").player == ben_then.player
        pages = {"sign-up (organizer)": page.url}

        # Ana checks herself in from her own link; the organizer checks Ben in.
        player_page.goto(links["Ana"])
        player_page.click("button:has-text('Check in')")
        expect(player_page.locator(".check-in-state")).to_contain_text("Checked in")
        page.reload()
        page.click("text=Check in Ben Ode")
        expect(page.locator(".messages")).to_contain_text("Ben is checked in")
        page.screenshot(path=str(SHOTS / "organize-sign-up-phone.png"), full_page=True)

        # A stage of the three confirmed players: Dev never checked in and is dropped.
        confirmed = [
            r.player_id
            for r in Registration.objects.filter(event=event, status="confirmed").order_by("pk")
            if r.player_id is not None
        ]
        stage_services.stage_create(
            event_id=event.pk, name="Pool", format="round_robin", player_ids=confirmed
        )
        page.goto(f"{base}/organize/events/{event.pk}/")
        page.click("text=Start Pool")
        expect(page.locator(".messages")).to_contain_text("Pool has started")
        expect(page.locator(".messages")).to_contain_text(
            "Not checked in, so dropped from Pool: Dev."
        )
        dev = Player.objects.get(registrations__display_name="Dev")
        assert not dev.stage_entries.exists()

        for width_name, (width, height) in WIDTHS.items():
            for context_page, name, url in (
                (player_page, "sign-up form", f"{base}/events/{event.pk}/sign-up/"),
                (player_page, "registration (waiting)", links["Dev"]),
                (player_page, "registration (confirmed)", links["Ana"]),
                (page, "sign-up (organizer)", pages["sign-up (organizer)"]),
            ):
                context_page.set_viewport_size({"width": width, "height": height})
                context_page.goto(url)
                context_page.wait_for_load_state("networkidle")
                problems.extend(axe_violations(context_page, f"{name} ({width_name})"))
        player_page.goto(f"{base}/events/{event.pk}/sign-up/")
        player_page.screenshot(path=str(SHOTS / "sign-up-desktop.png"), full_page=True)
        player_page.wait_for_timeout(200)  # violation events are dispatched after the fact
        player_page.context.close()
        page.context.close()
    assert problems == [], "\n".join(problems)
    assert violations == [], "\n".join(violations)
