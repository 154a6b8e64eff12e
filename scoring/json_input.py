"""Strict reading of turn and ruleset JSON: objects, arrays and keys, or a `RuleViolation`.

Input comes from clients, so nothing is trusted: anything that is not the expected shape is a
rule error with a code (RULES.md, "What a submitted turn must carry"; for a ruleset, "Ruleset
options"), never a `TypeError`.
"""

from collections.abc import Set
from typing import Any

from scoring.errors import RULESET, RuleViolation


def brief(value: object) -> str:
    """A value for a message, cut short: fuzzed input can be any size."""
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def wrong_type(
    field: str, expected: str, must_be: str, *, rule: str | None = None
) -> RuleViolation:
    """The error for a value of the wrong JSON type: `expected` names the type ("array"),
    `must_be` says it ("a JSON array"); `rule` the RULES.md section when it is not the
    code's (a turn's, "What a submitted turn must carry")."""
    return RuleViolation(
        "wrong_type",
        f"{field} must be {must_be}.",
        rule=rule,
        details={"field": field, "expected": expected},
    )


def key_name(key: object) -> str:
    """A key as text for messages, cut short like any value (`brief`): JSON keys are strings,
    Python callers may send anything, and a fuzzed key can be any size (a turn's unknown key of
    100,000 characters was echoed whole, twice, in the 422)."""
    if not isinstance(key, str):
        return brief(key)
    return key if len(key) <= 40 else key[:37] + "..."


def read_object(
    value: object,
    *,
    field: str,
    required: Set[str],
    allowed: Set[str],
) -> dict[str, Any]:
    """`value` as a JSON object holding every `required` key and nothing outside `allowed`
    (which includes `required`; pass module-level frozensets, this runs for every roll)."""
    if type(value) is not dict:
        raise wrong_type(field, "object", "a JSON object")
    keys = value.keys()
    if not keys <= allowed:
        unknown = sorted(key_name(key) for key in keys - allowed)
        raise RuleViolation(
            "unknown_key",
            f"{field} has unknown key {unknown[0]!r}; allowed: {', '.join(sorted(allowed))}.",
            details={"field": field, "key": unknown[0]},
        )
    if not required <= keys:
        missing = sorted(required - keys)[0]
        raise RuleViolation(
            "missing_key",
            f"{field} must have {missing!r}.",
            details={"field": field, "key": missing},
        )
    return value


def read_list(value: object, *, field: str) -> list[Any] | tuple[Any, ...]:
    """`value` as a JSON array (a Python list or tuple)."""
    if type(value) is not list and type(value) is not tuple:
        raise wrong_type(field, "array", "a JSON array")
    return value


def read_int(value: object, *, field: str) -> int:
    """`value` as a JSON integer; `True` and `1.0` are not integers here."""
    if type(value) is not int:
        raise wrong_type(field, "integer", "an integer")
    return value


def read_str(value: object, *, field: str) -> str:
    """`value` as a JSON string."""
    if type(value) is not str:
        raise wrong_type(field, "string", "a string")
    return value


def check_points(claimed: object, computed: int) -> None:
    """The turn's optional `points` must equal what the rules compute (RULES.md, "What a
    submitted turn must carry"): a mismatch names both numbers."""
    got = read_int(claimed, field="points")
    if got != computed:
        raise RuleViolation(
            "points_mismatch",
            f"The turn claims {got} points, but the rules give {computed}.",
            details={"expected": computed, "got": got},
        )


def read_rules_object(value: object) -> dict[str, Any]:
    """A ruleset's JSON as a JSON object, whatever its options: anything else (an array, a
    string, a number, `null`) is `wrong_type` under RULES.md "Ruleset options", since it is no
    turn. For callers that combine rulesets (a league's, then an event's) before reading them."""
    if type(value) is not dict:
        raise wrong_type("rules", "object", "a JSON object", rule=RULESET)
    return value


def read_options(value: object, *, allowed: Set[str]) -> dict[str, Any]:
    """A ruleset's JSON: an object whose keys are known options (RULES.md, "Ruleset options");
    absent options take their defaults."""
    options = read_rules_object(value)
    for key in options:
        if key not in allowed:
            raise RuleViolation(
                "unknown_rule_option",
                f"Unknown rule option {key_name(key)!r}; options: {', '.join(sorted(allowed))}.",
                details={"option": key_name(key)},
            )
    return options


def invalid_option(option: str, value: object, expected: str) -> RuleViolation:
    """The error for a rule option with a value the rules do not offer."""
    return RuleViolation(
        "invalid_rule_option",
        f"Rule option {option!r} must be {expected}, not {brief(value)}.",
        details={"option": option, "expected": expected},
    )
