"""Issue 21, item 5, embeds: a stage's bracket and every standings table (league, event, stage,
a stage's groups) as pages another site may frame (`frame-ancestors *`, no X-Frame-Options)
while every other page still refuses a frame; no site header, no cookie, no script; the strict
policy otherwise. And a stage's bracket as a standalone SVG file to download. Framing is
checked in Chromium from another origin."""

import base64
import hashlib
import re
import threading
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
from django.test import Client

from config.middleware import CONTENT_SECURITY_POLICY, EMBEDDABLE_POLICY
from league.models import Event, Stage
from league.pages.svg import SVG_NS
from tests.playing import play_stage, start_stage
from tests.web.browser import in_a_browser, launch

from .conftest import make_players, refresh_tables


def _embeds(event: Event, bracket: Stage, groups: Stage) -> dict[str, str]:
    return {
        "league table": f"/leagues/{event.league.slug}/standings/",
        "event table": f"/events/{event.pk}/standings/",
        "stage table": f"/stages/{bracket.pk}/standings/",
        "group tables": f"/stages/{groups.pk}/standings/",
        "bracket": f"/stages/{bracket.pk}/bracket/",
    }


@pytest.fixture
def played(zee_event: Event) -> dict[str, Any]:
    """An event with a finished knockout of six and a round robin in two groups, half played."""
    groups = start_stage(zee_event, "round_robin", make_players(6, "Group"), name="Pools", groups=2)
    play_stage(groups, seed=7, limit=3)
    knockout = start_stage(
        zee_event, "single_elimination", make_players(6, "Knock"), name="Knockout"
    )
    play_stage(knockout, seed=3)
    refresh_tables()
    knockout.refresh_from_db()
    groups.refresh_from_db()
    return {"event": zee_event, "bracket": knockout, "groups": groups}


@pytest.mark.django_db
def test_embeds_may_be_framed_by_any_site_and_carry_no_header_cookie_or_script(
    client: Client, played: dict[str, Any]
) -> None:
    for name, path in _embeds(**played).items():
        response = client.get("/embed" + path)
        assert response.status_code == 200, name
        assert response["Content-Security-Policy"] == EMBEDDABLE_POLICY, name
        assert "frame-ancestors *" in response["Content-Security-Policy"]
        assert "script-src 'self'" in response["Content-Security-Policy"]
        assert "X-Frame-Options" not in response, name
        assert not response.cookies, name
        assert "Cookie" not in response.get("Vary", ""), name
        page = response.content.decode()
        assert "site-header" not in page, name
        assert "<script" not in page, name
        assert "csrfmiddlewaretoken" not in page, name
        assert "style=" not in page, name
        assert '<base target="_blank">' in page, name
    # The tables are the pages' own tables.
    groups = client.get(f"/embed/stages/{played['groups'].pk}/standings/").content.decode()
    assert groups.count('class="standings-table"') == 2
    assert "Pools: group 1" in groups
    assert "Pools: group 2" in groups
    league = client.get(f"/embed/leagues/{played['event'].league.slug}/standings/")
    assert "Backyard Yardzee: league table" in league.content.decode()


@pytest.mark.django_db
def test_every_other_page_still_refuses_a_frame(client: Client, played: dict[str, Any]) -> None:
    event = played["event"]
    for path in (
        "/",
        f"/events/{event.pk}/",
        f"/leagues/{event.league.slug}/",
        f"/api/v1/events/{event.pk}/",
        "/embed/no-such-thing/",
    ):
        response = client.get(path)
        assert response["X-Frame-Options"] == "DENY", path
        assert response["Content-Security-Policy"] == CONTENT_SECURITY_POLICY, path


@pytest.mark.django_db
def test_an_embed_of_what_does_not_exist_or_has_no_bracket_is_not_found(
    client: Client, played: dict[str, Any]
) -> None:
    assert client.get(f"/embed/stages/{played['groups'].pk}/bracket/").status_code == 404
    assert client.get(f"/stages/{played['groups'].pk}/bracket.svg").status_code == 404
    assert client.get("/embed/stages/999999/standings/").status_code == 404
    assert client.get("/embed/events/999999/standings/").status_code == 404
    assert client.get("/embed/leagues/no-such-league/standings/").status_code == 404
    assert client.post(f"/embed/stages/{played['bracket'].pk}/bracket/").status_code == 405


@pytest.mark.django_db
def test_the_bracket_embed_draws_every_slot_with_who_went_on(
    client: Client, played: dict[str, Any]
) -> None:
    stage = played["bracket"]
    page = client.get(f"/embed/stages/{stage.pk}/bracket/").content.decode()
    keys = re.findall(r'data-slot="([^"]+)"', page)
    assert keys == [slot["key"] for slot in stage.bracket["slots"]]
    assert page.count("seat advances") == len(stage.bracket["slots"])
    assert '<a href="/matches/' not in page  # a match page would refuse the frame
    assert f'href="/events/{stage.event_id}/#stage-{stage.pk}"' in page


@pytest.mark.django_db
def test_the_bracket_downloads_as_a_standalone_svg_file(
    client: Client, played: dict[str, Any]
) -> None:
    stage = played["bracket"]
    response = client.get(f"/stages/{stage.pk}/bracket.svg")
    assert response.status_code == 200
    assert response["Content-Type"] == "image/svg+xml; charset=utf-8"
    assert response["Content-Disposition"] == (
        f'attachment; filename="backyard-stage-{stage.pk}-bracket.svg"'
    )
    text = response.content.decode()
    assert text.startswith('<?xml version="1.0" encoding="UTF-8"?>')
    root = ET.fromstring(response.content)  # noqa: S314 - our own file
    assert root.tag == f"{{{SVG_NS}}}svg"
    assert all(root.get(size) for size in ("width", "height", "viewBox"))
    style = root.find(f"{{{SVG_NS}}}style")
    assert style is not None
    assert ".advances text" in (style.text or "")
    assert "var(" not in (style.text or "")  # no page variables: the colours are written out
    # Nothing outside the file: no link, no image, no font, no stylesheet, no script.
    assert not re.search(r"href=|url\(|@import|<script|<image", text)
    slots = [g for g in root.iter(f"{{{SVG_NS}}}g") if g.get("data-slot")]
    assert [g.get("data-slot") for g in slots] == [s["key"] for s in stage.bracket["slots"]]
    names = "".join(root.itertext())
    assert all(f"Knock {i}" in names for i in range(1, 7))
    # Its own policy lets exactly that style element apply, and nothing else load.
    digest = base64.b64encode(hashlib.sha256((style.text or "").encode()).digest()).decode()
    assert response["Content-Security-Policy"] == (
        f"default-src 'none'; style-src 'sha256-{digest}'; frame-ancestors 'none'"
    )


# --- In Chromium, from another origin -----------------------------------------------------------


@contextmanager
def _other_site(page: str) -> Iterator[str]:
    """Another site's page that frames ours: its own server on this machine (another port, so
    another origin; a local one, which Chromium lets frame a local address)."""

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            body = page.encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/club/"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


@in_a_browser
@pytest.mark.django_db(transaction=True)
def test_another_site_frames_the_embeds_in_chromium_but_not_the_other_pages(
    live_server: Any, played: dict[str, Any]
) -> None:
    """A page of another origin (its own server) frames each embed, the event page and the
    league page: the embeds show their table or bracket without one CSP violation,
    the others are refused (blank frames)."""
    from playwright.sync_api import sync_playwright

    embeds = _embeds(**played)
    event = played["event"]
    refused = {
        "event page": f"/events/{event.pk}/",
        "league page": f"/leagues/{event.league.slug}/",
    }
    frames = {**{k: "/embed" + v for k, v in embeds.items()}, **refused}
    html = "".join(
        f'<iframe name="{name}" src="{live_server.url}{path}" width="900" height="600"></iframe>'
        for name, path in frames.items()
    )
    with sync_playwright() as playwright:
        browser = launch(playwright)
        page = browser.new_page()
        violations: list[str] = []
        page.on(
            "console",
            lambda message: (
                violations.append(message.text)
                if "Content Security Policy" in message.text or "frame-ancestors" in message.text
                else None
            ),
        )
        with _other_site(f"<!doctype html><title>Club</title><p>Our league</p>{html}") as url:
            page.goto(url)
            page.wait_for_load_state("networkidle")
            page.wait_for_timeout(300)
        shown = {}
        for name in frames:
            frame = page.frame(name=name)
            assert frame is not None, name
            shown[name] = frame.evaluate(
                "() => document.querySelector('table.standings-table, svg.bracket') !== null"
            )
        browser.close()
    assert shown == {**dict.fromkeys(embeds, True), **dict.fromkeys(refused, False)}
    # Only the two refusals are reported; the embeds load with no violation.
    assert len(violations) == len(refused), violations
    assert all("frame-ancestors" in text for text in violations), violations
