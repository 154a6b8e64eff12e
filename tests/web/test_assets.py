"""Every page loads its assets from the project: no script, stylesheet, image or frame from
another site, and the refresh script is served by the project like the stylesheet."""

import urllib.request
from html.parser import HTMLParser

import pytest
from django.test import Client

from tests.playing import play, play_stage, start_stage

from .conftest import make_players, refresh_tables

ASSET_ATTRIBUTES = {
    "script": "src",
    "link": "href",
    "img": "src",
    "iframe": "src",
    "source": "src",
    "video": "src",
    "audio": "src",
    "embed": "src",
    "object": "data",
    "image": "href",
    "use": "href",
}


class AssetCollector(HTMLParser):
    """The URLs a browser would load by itself for a page (not the links a reader follows)."""

    def __init__(self) -> None:
        super().__init__()
        self.urls: list[str] = []
        self.inline_styles: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        name = ASSET_ATTRIBUTES.get(tag)
        if name and values.get(name):
            self.urls.append(str(values[name]))
        if tag == "meta" and (values.get("http-equiv") or "").lower() == "refresh":
            self.urls.append(str(values.get("content")))
        if values.get("style"):
            self.inline_styles.append(str(values["style"]))


VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "wbr"}


class NestingChecker(HTMLParser):
    """Every element closed, in order (SVG's self-closed elements included)."""

    def __init__(self) -> None:
        super().__init__()
        self.open: list[str] = []
        self.errors: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag not in VOID:
            self.open.append(tag)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        pass

    def handle_endtag(self, tag: str) -> None:
        if not self.open or self.open[-1] != tag:
            self.errors.append(f"</{tag}> closes <{self.open[-1] if self.open else None}>")
            return
        self.open.pop()


def _external(url: str) -> bool:
    return url.lower().startswith(("http://", "https://", "//")) or "url=" in url.lower()


@pytest.fixture
def pages(zee_event, yardkle_event, seat) -> list[str]:
    players = make_players(6)
    finished = seat(zee_event, players[:3])
    play(finished, seed=1)
    playing = seat(yardkle_event, players[:2])
    play(playing, seed=2, turns=6)
    stage = start_stage(yardkle_event, "double_elimination", players)
    play_stage(stage, seed=3, limit=3)
    refresh_tables()
    return [
        "/",
        f"/leagues/{zee_event.league.slug}/",
        f"/leagues/{yardkle_event.league.slug}/live/",
        f"/events/{zee_event.pk}/",
        f"/events/{yardkle_event.pk}/",
        f"/events/{yardkle_event.pk}/live/",
        f"/matches/{finished.pk}/",
        f"/matches/{playing.pk}/",
        f"/matches/{playing.pk}/live/",
        f"/players/{players[0].pk}/",
        "/players/999999/",  # the 404 page too
    ]


@pytest.mark.django_db
def test_no_page_loads_anything_from_another_site(client: Client, pages: list[str]):
    for url in pages:
        response = client.get(url)
        assert response.status_code in (200, 404), url
        collector = AssetCollector()
        collector.feed(response.content.decode())
        external = [u for u in collector.urls if _external(u)]
        assert external == [], f"{url} loads {external}"
        assert not [s for s in collector.inline_styles if "url(" in s], url


@pytest.mark.django_db
def test_full_pages_have_a_viewport_a_title_and_the_refresh_script(
    client: Client, pages: list[str]
):
    for url in pages:
        if "/live/" in url:
            continue
        page = client.get(url).content.decode()
        assert 'name="viewport"' in page, url
        assert "<title>" in page, url
        assert '<html lang="en">' in page, url
        assert "/static/js/live.js" in page, url


def test_the_refresh_script_is_served_from_the_project(live_server):
    with urllib.request.urlopen(f"{live_server.url}/static/js/live.js") as response:  # noqa: S310
        assert response.status == 200
        body = response.read()
    assert b"data-live-url" in body
    assert b"http" not in body.lower().replace(b"html", b"")


@pytest.mark.django_db
def test_every_page_closes_its_elements_in_order(client: Client, pages: list[str]):
    for url in pages:
        checker = NestingChecker()
        checker.feed(client.get(url).content.decode())
        assert checker.errors == [], url
        assert checker.open == [], url


@pytest.mark.django_db
def test_every_page_names_the_sites_icon_and_favicon_ico_leads_to_it(
    client: Client, pages: list[str]
):
    """Without an icon named, a browser asks /favicon.ico by itself: it was a 404 on every
    page, an error in every page's console."""
    for url in [
        *(u for u in pages if "/live/" not in u),
        f"/embed/events/{_event(pages)}/standings/",
    ]:
        page = client.get(url).content.decode()
        assert '<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">' in page, url
    asked = client.get("/favicon.ico")
    assert asked.status_code == 301
    assert asked["Location"] == "/static/favicon.svg"


def _event(pages: list[str]) -> str:
    return next(u for u in pages if u.startswith("/events/")).split("/")[2]


def test_the_sites_icon_is_served_from_the_project(live_server):
    with urllib.request.urlopen(f"{live_server.url}/favicon.ico") as response:  # noqa: S310
        assert response.status == 200
        assert response.url.endswith("/static/favicon.svg")
        body = response.read()
    assert body.startswith(b"<svg")
    assert b"http" not in body.replace(b"http://www.w3.org/2000/svg", b"")
