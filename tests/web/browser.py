"""What the browser tests share: Debian's Chromium launched through Playwright's sync API,
where their screenshots go, and the marks every browser test carries.

Playwright's sync API runs an event loop in the test's thread; the live server's ORM calls are
in another thread, and the fixtures' own ORM calls are plain synchronous ones, so a browser
test runs with DJANGO_ALLOW_ASYNC_UNSAFE set (`orm_beside_playwright`, tests/web/conftest.py),
and only a browser test: the variable must not leak into others (check --deploy refuses it)."""

from collections.abc import Callable
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


def axe_violations(page: Any, name: str) -> list[str]:
    """Each axe-core violation on the page as it stands, one line each, named `name`."""
    from axe_playwright_python.sync_playwright import Axe

    return [
        f"{name}: {v['id']} {v['help']} x{len(v['nodes'])}: {v['nodes'][0]['target']}"
        for v in Axe().run(page).response["violations"]
    ]


def in_a_browser(test: T) -> T:
    """A browser test in a module of other tests: `IN_A_BROWSER`'s marks on it alone."""
    marked: Any = test
    for mark in IN_A_BROWSER:
        marked = mark(marked)
    return cast(T, marked)
