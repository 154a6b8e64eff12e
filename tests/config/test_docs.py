"""The docs a newcomer reads hold together: every environment variable the settings read is in
docs/configuration.md, and every link between the docs (a file, a `#anchor`, or a section named
in quotes: docs/api.md, "Webhooks") leads somewhere."""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
FENCE = re.compile(r"^```.*?^```", re.M | re.S)


def _prose(path: Path) -> str:
    """The file without its fenced code blocks (a shell example is not a link)."""
    return FENCE.sub("", path.read_text())


def _slug(heading: str) -> str:
    """GitHub's anchor of a heading: lower case, punctuation but hyphens and underscores
    dropped, spaces as hyphens."""
    text = heading.strip().lower().replace("`", "")
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def _headings(path: Path) -> list[str]:
    return re.findall(r"^#+\s+(.+?)\s*$", _prose(path), re.M)


def _anchors(path: Path) -> set[str]:
    seen: dict[str, int] = {}
    anchors = set()
    for heading in _headings(path):
        slug = _slug(heading)
        count = seen.get(slug, 0)
        seen[slug] = count + 1
        anchors.add(slug if count == 0 else f"{slug}-{count}")
    return anchors


def test_every_environment_variable_the_settings_read_is_in_configuration_md():
    read = set()
    for module in (ROOT / "config" / "settings").glob("*.py"):
        read |= set(re.findall(r"\benv(?:\.\w+)?\(\s*\"([A-Z][A-Z0-9_]+)\"", module.read_text()))
    assert "DATABASE_URL" in read  # the pattern finds what it should
    documented = (ROOT / "docs" / "configuration.md").read_text()
    missing = sorted(name for name in read if f"`{name}`" not in documented)
    assert not missing, f"read by config/settings but not in docs/configuration.md: {missing}"


def test_every_job_beat_sends_is_in_the_beat_table_of_operations_md(settings):
    # The on-call reads there what runs by itself; analysis.sweep was missing from it.
    text = (ROOT / "docs" / "operations.md").read_text()
    table = text[text.index("Beat sends:") : text.index("## Back up and restore")]
    listed = set(re.findall(r"^\| `([a-z_]+\.[a-z_]+)` \|", table, re.M))
    sent = {entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()}
    assert listed == sent


def _links() -> list[tuple[str, str]]:
    found = []
    for path in DOCS:
        text = re.sub(r"`[^`\n]*`", "", _prose(path))  # inline code is not a link either
        for target in re.findall(r"\]\(([^)\s]+)\)|<img [^>]*src=\"([^\"]+)\"", text):
            link = target[0] or target[1]
            if not link.startswith(("http://", "https://", "mailto:")):
                found.append((path.relative_to(ROOT).as_posix(), link))
    return found


@pytest.mark.parametrize(("source", "link"), _links())
def test_every_relative_link_and_anchor_in_the_docs_leads_somewhere(source, link):
    file, _, anchor = link.partition("#")
    here = (ROOT / source).parent
    target = (here / file).resolve() if file else ROOT / source
    assert target.exists(), f"{source} links to {link}: no such file"
    if anchor and target.suffix == ".md":
        assert anchor in _anchors(target), f"{source} links to {link}: no such section"


def _quoted_sections() -> list[tuple[str, str, str]]:
    found = []
    for path in DOCS:
        for file, title in re.findall(r"(\w+\.md)\)?, \"([^\"]+)\"", _prose(path)):
            title = " ".join(title.split())  # a title may wrap across lines
            found.append((path.relative_to(ROOT).as_posix(), file, title))
    return found


@pytest.mark.parametrize(("source", "file", "title"), _quoted_sections())
def test_every_section_named_in_quotes_is_a_heading_of_its_file(source, file, title):
    target = ROOT / "docs" / file if file != "README.md" else ROOT / file
    assert target.exists(), f"{source} names {file}: no such file"
    assert title in _headings(target), f'{source} names {file}, "{title}": no such heading'
