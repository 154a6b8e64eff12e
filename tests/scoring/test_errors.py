"""`scoring.RuleViolation`: one error family, stable codes, each tied to a RULES.md section."""

import ast
import json
import re
from pathlib import Path

import pytest

import scoring
from scoring import CODES, RuleViolation

ROOT = Path(__file__).resolve().parents[2]
SECTIONS = {
    "Game",
    "Turn",
    "Boxes",
    "Joker",
    "Point dice and combinations",
    "Entering the game",
    "Ruleset options",
    "What a submitted turn must carry",
}


def codes_raised_in_scoring() -> set[str]:
    """Every string literal passed as the code of a RuleViolation in scoring/."""
    codes = set()
    for path in Path(scoring.__file__).parent.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if (
                isinstance(node, ast.Call)
                and getattr(node.func, "id", None) == "RuleViolation"
                and node.args
                and isinstance(node.args[0], ast.Constant)
                and isinstance(node.args[0].value, str)
            ):
                codes.add(node.args[0].value)
    return codes


def test_rule_violation_carries_code_message_rule_and_json_details():
    error = RuleViolation("points_mismatch", "15, not 20.", details={"expected": 15, "got": 20})
    assert isinstance(error, Exception)
    assert (error.code, error.message, str(error)) == (
        "points_mismatch",
        "15, not 20.",
        "15, not 20.",
    )
    assert error.rule == "What a submitted turn must carry"
    assert error.details == {"expected": 15, "got": 20}
    assert json.loads(json.dumps(error.to_json())) == {
        "code": "points_mismatch",
        "message": "15, not 20.",
        "rule": "What a submitted turn must carry",
        "details": {"expected": 15, "got": 20},
    }


def test_an_explicit_rule_section_overrides_the_code_default():
    assert RuleViolation("not_your_turn", "Wait.", rule="Turn").rule == "Turn"
    assert RuleViolation("not_your_turn", "Wait.").details == {}


def test_every_code_is_stable_snake_case_and_names_a_rules_md_section():
    for code, section in CODES.items():
        assert re.fullmatch(r"[a-z]+(_[a-z]+)*", code), code
        assert section in SECTIONS, (code, section)


def test_every_code_raised_in_scoring_is_registered():
    raised = codes_raised_in_scoring()
    assert raised, "the scan found no RuleViolation calls"
    assert raised <= set(CODES), raised - set(CODES)


def test_every_registered_code_except_the_games_layer_one_is_raised_in_scoring():
    assert set(CODES) - codes_raised_in_scoring() == {"not_your_turn"}


def test_every_code_is_documented_in_docs_scoring_md():
    docs = (ROOT / "docs" / "scoring.md").read_text()
    missing = [code for code in CODES if f"`{code}`" not in docs]
    assert not missing


@pytest.mark.parametrize("section", sorted(SECTIONS))
def test_each_rule_section_a_code_names_is_a_section_of_the_rules(section):
    rules = (ROOT / "docs" / "rules.md").read_text()
    assert f"**{section}" in rules or f"## {section}" in rules
