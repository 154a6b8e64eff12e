"""docs/rules.md: "Every rule here must be enforced by `scoring/` and covered by a test that
names the rule." Tests name a rule by its section: a test module's docstring cites RULES.md and
quotes the section's heading, with its game when the section is one game's (`RULES.md, Yardkle
"Turn", "Entering the game" ...`), and the tests in it state the rules of that section."""

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
GAMES = ("Yardzee", "Yardkle")


def rule_sections() -> list[tuple[str, str]]:
    """Every section of docs/rules.md as (game, heading): the bold heading that opens a
    paragraph under a game's part ("**Joker (forced joker, the default).**" is "Joker"), and
    the part on submitted turns (game "")."""
    sections: list[tuple[str, str]] = []
    game = ""
    for line in (ROOT / "docs" / "rules.md").read_text().splitlines():
        if line.startswith("## "):
            title = line[3:]
            game = next((name for name in GAMES if title.startswith(name)), "")
            if not game:
                sections.append(("", title.split(",")[0]))
            continue
        heading = re.match(r"\*\*([^*]+)\*\*", line)
        if heading and game:
            sections.append((game, re.sub(r" \(.*\)|[.:]$", "", heading.group(1)).strip(" .:")))
    return sections


def rule_docstrings() -> list[str]:
    """The module docstrings of the tests that cite RULES.md."""
    found = []
    for path in sorted((ROOT / "tests").rglob("test_*.py")):
        docstring = ast.get_docstring(ast.parse(path.read_text())) or ""
        if "RULES.md" in docstring or "rules.md" in docstring:
            found.append(" ".join(docstring.split()))
    return found


def test_the_sections_are_read_from_docs_rules_md():
    sections = rule_sections()
    assert ("Yardzee", "Joker") in sections
    assert ("Yardzee", "Grand total") in sections
    assert ("Yardkle", "Entering the game") in sections
    assert ("Yardkle", "Ruleset options") in sections
    assert ("", "What a submitted turn must carry") in sections


@pytest.mark.parametrize(("game", "section"), rule_sections())
def test_every_section_of_the_rules_is_named_by_a_test(game, section):
    """Named with its game (`Yardzee "Boxes"`), or by a module of rules both games share,
    which names neither game (`RULES.md, "Ruleset options"`)."""

    def names(docstring: str) -> bool:
        if f'"{section}"' not in docstring:
            return False
        named = [name for name in GAMES if f'{name} "' in docstring]
        return not game or not named or game in named

    assert any(names(docstring) for docstring in rule_docstrings()), (game, section)
