"""What the browser tests share: Debian's Chromium launched through Playwright's sync API,
where their screenshots go, and the marks every browser test carries.

Playwright's sync API runs an event loop in the test's thread; the live server's ORM calls are
in another thread, and the fixtures' own ORM calls are plain synchronous ones, so a browser
test runs with DJANGO_ALLOW_ASYNC_UNSAFE set (`orm_beside_playwright`, tests/web/conftest.py),
and only a browser test: the variable must not leak into others (check --deploy refuses it)."""

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar, cast

import pytest

CHROMIUM = Path("/usr/bin/chromium")
T = TypeVar("T")

SHOTS = Path(__file__).resolve().parents[2] / "artifacts" / "screenshots"

NEEDS_CHROMIUM = pytest.mark.skipif(
    not CHROMIUM.exists(), reason="needs Debian's chromium (apt-get install chromium)"
)
# Every browser test: skipped without Chromium, and the ORM allowed beside Playwright's loop.
IN_A_BROWSER = [NEEDS_CHROMIUM, pytest.mark.usefixtures("orm_beside_playwright")]


def launch(playwright: Any) -> Any:
    """Headless Chromium, without what would reach outside (updates, sync, first-run pages)."""
    return playwright.chromium.launch(
        executable_path=str(CHROMIUM),
        args=[
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
        ],
    )


@contextmanager
def chromium() -> Iterator[Any]:
    """Headless Chromium (`launch`) for one test's `with` block, closed after it; the
    screenshots' folder made."""
    from playwright.sync_api import sync_playwright

    SHOTS.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as playwright:
        browser = launch(playwright)
        try:
            yield browser
        finally:
            browser.close()


# Reports each CSP violation to the test, from every document the context opens.
LISTEN = """
document.addEventListener("securitypolicyviolation", (event) => {
  window.reportCspViolation(
    `${event.effectiveDirective} refused ${event.blockedURI || "inline"} ` +
    `(${event.sourceFile || document.location.pathname}:${event.lineNumber}) ` +
    (event.sample ? `"${event.sample}"` : "")
  );
}, true);
"""


def watch_csp(context: Any, report: Callable[[str], object]) -> Any:
    """The browser context, reporting each Content-Security-Policy violation of its pages to
    `report` (e.g. a list's append)."""
    context.expose_binding("reportCspViolation", lambda _source, text: report(text))
    context.add_init_script(LISTEN)
    return context


def watched_page(
    browser: Any, viewport: dict[str, int], violations: list[str], who: str = ""
) -> Any:
    """A page in a new context of the browser at `viewport`, waiting up to 15 s for what it
    is told to; each Content-Security-Policy violation of the context's pages is added to
    `violations` (after "`who`: " when `who` is given). Close it with `page.context.close()`."""
    context = browser.new_context(viewport=viewport)
    watch_csp(context, lambda text: violations.append(f"{who}: {text}" if who else text))
    page = context.new_page()
    page.set_default_timeout(15_000)
    return page


def axe_violations(page: Any, name: str) -> list[str]:
    """Each axe-core violation on the page as it stands, one line each, named `name`."""
    from axe_playwright_python.sync_playwright import Axe

    return [
        f"{name}: {v['id']} {v['help']} x{len(v['nodes'])}: {v['nodes'][0]['target']}"
        for v in Axe().run(page).response["violations"]
    ]


def sign_in(page: Any, base: str, user: Any) -> None:
    """Sign `user` in through the sign-in form at the live server `base` (tests/conftest.py
    gives every user the password "pw-" + username)."""
    page.goto(f"{base}/accounts/login/")
    page.fill("#id_username", user.username)
    page.fill("#id_password", "pw-" + user.username)
    page.click("button[type=submit]")


def expect_a_round_sheet_on_paper(page: Any, tables: int) -> None:
    """The round sheet on the page, printed: `tables` blocks of one QR code each (its only
    SVG, visible), the site's header and the sheet's tools hidden. Leaves print media on."""
    from playwright.sync_api import expect

    page.emulate_media(media="print")
    blocks = page.locator(".sheet-table")
    expect(blocks).to_have_count(tables)
    for index in range(tables):
        expect(blocks.nth(index).locator("svg")).to_have_count(1)
        expect(blocks.nth(index).locator("svg.qr-svg")).to_be_visible()
    expect(page.locator(".site-header")).to_be_hidden()
    expect(page.locator(".sheet-tools")).to_be_hidden()


def in_a_browser(test: T) -> T:
    """A browser test in a module of other tests: `IN_A_BROWSER`'s marks on it alone."""
    marked: Any = test
    for mark in IN_A_BROWSER:
        marked = mark(marked)
    return cast(T, marked)
