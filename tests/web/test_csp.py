"""Content-Security-Policy (issue 14, item 19): every response carries a strict policy
(`default-src 'self'`, nothing inline), and every page of the site loads in Chromium without a
single violation of it: the pages, the scoring page (as an organizer and through the private
link), the API's documentation and browsable pages, the admin, and the 404 page."""

import re
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.test import Client

from games.models import Match
from league.models import Event, Player
from tests.web.browser import in_a_browser, launch, watch_csp

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def demo(transactional_db: None) -> dict[str, Any]:
    """The demo leagues, and the address of every kind of page they have."""
    call_command("load_demo", force=True)
    cup = Event.objects.get(name="Summer Cup")
    finished = Match.objects.filter(status="finished").order_by("pk").first()
    playing = Match.objects.filter(status="in_progress").order_by("pk").first()
    assert finished is not None
    assert playing is not None
    player = Player.objects.order_by("pk").first()
    assert player is not None
    return {
        "organizer": User.objects.get(username="organizer"),
        "public": {
            "home": "/",
            "league": f"/leagues/{cup.league.slug}/",
            "event with a bracket and standings": f"/events/{cup.pk}/",
            "finished match": f"/matches/{finished.pk}/",
            "live match": f"/matches/{playing.pk}/",
            "player": f"/players/{player.pk}/",
            # Followed through any redirect to the clean address.
            "scoring page through the private link": (
                f"/matches/{playing.pk}/score/?key={playing.score_key}"
            ),
            "API docs (Swagger UI)": "/api/v1/docs/",
            "browsable API, a list": "/api/v1/leagues/",
            "browsable API, a match": f"/api/v1/matches/{finished.pk}/",
            "admin sign-in": "/admin/login/",
            "404 page": "/no-such-page/",
        },
        "organizer pages": {
            "scoring page as an organizer": f"/matches/{playing.pk}/score/",
            "browsable API with its forms": f"/api/v1/events/{cup.pk}/",
            "admin index": "/admin/",
            "admin changelist": "/admin/games/match/",
            "admin changelist with filters": "/admin/league/player/",
            "admin change form": f"/admin/league/event/{cup.pk}/change/",
        },
    }


# What must be on each page once its scripts have run: proof they were not refused.
RENDERED = {
    "API docs (Swagger UI)": ".swagger-ui .info .title",
}


def _visit(context: Any, base: str, pages: dict[str, str]) -> list[str]:
    """Load each page and let its scripts run; every CSP violation and CSP console message."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    found: list[str] = []
    current = {"name": ""}
    watch_csp(context, lambda text: found.append(f"{current['name']}: {text}"))
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.on(
        "console",
        lambda message: (
            found.append(f"{current['name']}: console: {message.text}")
            if "Content Security Policy" in message.text
            else None
        ),
    )
    for name, path in pages.items():
        current["name"] = name
        response = page.goto(base + path)
        assert response is not None, name
        assert response.status == (404 if name == "404 page" else 200), (name, response.status)
        page.wait_for_load_state("networkidle")
        if name in RENDERED:
            try:
                page.wait_for_selector(RENDERED[name], timeout=10_000)
            except PlaywrightTimeout:
                found.append(f"{name}: its scripts did not render {RENDERED[name]}")
        page.wait_for_timeout(200)  # violation events are dispatched after the fact
    page.close()
    return found


@in_a_browser
def test_every_page_loads_in_chromium_without_a_content_security_policy_violation(
    live_server: Any, demo: dict[str, Any]
) -> None:
    from playwright.sync_api import sync_playwright

    client = Client()
    client.force_login(demo["organizer"])
    session = {
        "name": "sessionid",
        "value": client.cookies["sessionid"].value,
        "url": live_server.url,
    }
    with sync_playwright() as playwright:
        browser = launch(playwright)
        anonymous = browser.new_context()
        violations = _visit(anonymous, live_server.url, demo["public"])
        anonymous.close()
        signed_in = browser.new_context()
        signed_in.add_cookies([session])
        violations += _visit(signed_in, live_server.url, demo["organizer pages"])
        signed_in.close()
        browser.close()
    assert violations == [], "\n".join(violations)


@in_a_browser
def test_the_violation_listener_does_catch_an_inline_style_and_script(live_server: Any) -> None:
    """The check above is only as good as its listener: an inline script and a style
    attribute added to a page under the policy are both reported."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = launch(playwright)
        context = browser.new_context()
        found: list[str] = []
        watch_csp(context, found.append)
        page = context.new_page()
        page.goto(live_server.url + "/no-such-page/")
        page.evaluate(
            """() => {
              const holder = document.createElement("template");
              holder.innerHTML = '<p style="color: red">red</p>';
              document.body.append(holder.content);
              const script = document.createElement("script");
              script.textContent = "window.ran = true";
              document.body.append(script);
            }"""
        )
        page.wait_for_timeout(300)
        ran = page.evaluate("() => window.ran === true")
        browser.close()
    assert not ran
    assert any(text.startswith("style-src-attr") for text in found), found
    assert any(text.startswith("script-src-elem") for text in found), found


POLICY = (
    "default-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "frame-ancestors 'none'",
    "form-action 'self'",
    "img-src 'self' data:",
)


@pytest.mark.django_db
def test_every_kind_of_response_carries_the_strict_policy(
    client: Client, staff: User, yardzee_event: Event
) -> None:
    answers = {
        "page": client.get("/"),
        "event page": client.get(f"/events/{yardzee_event.pk}/"),
        "404 page": client.get("/no-such-page/"),
        "API JSON": client.get("/api/v1/leagues/", HTTP_ACCEPT="application/json"),
        "API 404": client.get("/api/v1/nothing/"),
        "API docs": client.get("/api/v1/docs/"),
        "API docs script": client.get("/api/v1/docs/?script="),
        "schema": client.get("/api/v1/schema/"),
        "admin sign-in": client.get("/admin/login/"),
        "health": client.get("/healthz"),
        "refused as too large": client.post(
            "/api/v1/auth/token/", b"x", content_type="application/json", CONTENT_LENGTH="9999999"
        ),
        "static file": client.get("/static/css/site.css"),
    }
    # Swagger UI's start-up script, once inline, is a request of its own.
    assert answers["API docs script"]["Content-Type"].startswith("application/javascript")
    assert b"SwaggerUIBundle(" in answers["API docs script"].content
    assert b"<script>" not in answers["API docs"].content
    client.force_login(staff)
    answers["admin changelist"] = client.get("/admin/league/player/")
    for name, answer in answers.items():
        policy = answer.get("Content-Security-Policy", "")
        directives = [d.strip() for d in policy.split(";")]
        missing = [d for d in POLICY if d not in directives]
        assert not missing, (name, answer.status_code, policy)
        assert "unsafe-inline" not in policy, (name, policy)
        assert "unsafe-eval" not in policy, (name, policy)
        assert "script-src 'self'" in directives, (name, policy)
        assert "style-src 'self'" in directives, (name, policy)


def test_the_redoc_page_that_cannot_run_under_the_policy_leads_to_the_swagger_ui_page(
    client: Client,
) -> None:
    """Redoc injects styles before it can be given a nonce, starts its search in a blob: worker
    and loads its logo from its CDN: the one documentation page is Swagger UI's."""
    answer = client.get("/api/v1/redoc/")
    assert answer.status_code == 302
    assert answer["Location"] == "/api/v1/docs/"


# What the policy refuses, as it would be written in a template or in markup built in Python.
INLINE = re.compile(
    r"<script(?![^>]*\bsrc=)(?![^>]*type=\"application/json\")[^>]*>"  # a script with no src
    r"|<style\b|\sstyle=|\son[a-z]+=|javascript:",
    re.IGNORECASE,
)


# Markup served under a policy of its own, not the site's: the bracket downloaded as an SVG file
# carries its styles in one style element, which its policy allows by hash (test_embeds.py).
OWN_POLICY = ("<style>{BRACKET_STYLE}</style>",)


def test_no_template_or_markup_builder_has_inline_script_style_or_handlers() -> None:
    """The quick form of the browser check: the site's own templates, and the Python that
    builds SVG and other markup, write no inline script, style, event handler or javascript:
    link. (templates/rest_framework and templates/drf_spectacular adapt other projects' pages to
    the policy; the browser test covers them.)"""
    own = ROOT / "templates"
    sources = [
        *(
            path
            for path in own.rglob("*.html")
            if path.parent.name in {"templates", "league", "games"}
        ),
        *(
            ROOT / name
            for name in (
                "league/pages/svg.py",
                "league/pages/views.py",
                "league/pages/embeds.py",
                "games/views.py",
            )
        ),
    ]
    found = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
        for path in sources
        for number, line in enumerate(path.read_text().splitlines(), start=1)
        if INLINE.search(line) and not any(allowed in line for allowed in OWN_POLICY)
    ]
    assert len(sources) > 20
    assert found == [], "\n".join(found)
