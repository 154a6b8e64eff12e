"""RULES.md, "Ruleset options": strict rulesets, stored as JSON with every match."""

import pytest

import scoring
from scoring import RuleViolation
from scoring.yardkle import YardkleGame, YardkleRules
from scoring.yardzee import YardzeeGame, YardzeeRules


def test_an_empty_ruleset_gives_the_defaults_forced_joker_target_10000_entry_500():
    assert YardzeeRules.from_json({}) == YardzeeRules(joker="forced")
    assert YardkleRules.from_json({}) == YardkleRules(target=10_000, entry_minimum=500)


@pytest.mark.parametrize(
    "rules",
    [YardzeeRules(), YardzeeRules(joker="free_choice"), YardkleRules(), YardkleRules(2000, 0)],
)
def test_a_ruleset_round_trips_through_json(rules):
    assert type(rules).from_json(rules.to_json()) == rules


@pytest.mark.parametrize("rules_class", [YardzeeRules, YardkleRules])
@pytest.mark.parametrize("value", [{"jokers": "forced"}, {"target ": 1}, {1: 2}, {"": None}])
def test_an_unknown_rule_option_is_rejected(rules_class, value):
    with pytest.raises(RuleViolation) as error:
        rules_class.from_json(value)
    assert error.value.code == "unknown_rule_option"
    assert error.value.rule == "Ruleset options"


@pytest.mark.parametrize("value", [[], None, "forced", 1, 0, "", False])
def test_a_ruleset_that_is_not_a_json_object_is_rejected_under_ruleset_options(value):
    """A ruleset is no turn: its `wrong_type` names "Ruleset options", not the section on what
    a submitted turn must carry."""
    for rules_class in (YardzeeRules, YardkleRules):
        with pytest.raises(RuleViolation) as error:
            rules_class.from_json(value)
        assert error.value.code == "wrong_type"
        assert error.value.rule == "Ruleset options"
        assert error.value.details == {"field": "rules", "expected": "object"}
    with pytest.raises(RuleViolation) as error:
        scoring.new_game("yardzee", 2, value)
    assert (error.value.code, error.value.rule) == ("wrong_type", "Ruleset options")


@pytest.mark.parametrize(
    ("rules_class", "value"),
    [
        (YardzeeRules, {"joker": "free"}),
        (YardzeeRules, {"joker": None}),
        (YardzeeRules, {"joker": 1}),
        (YardkleRules, {"target": 0}),
        (YardkleRules, {"target": -10_000}),
        (YardkleRules, {"target": True}),
        (YardkleRules, {"target": 10_000.0}),
        (YardkleRules, {"target": "10000"}),
        (YardkleRules, {"target": 10**9}),
        (YardkleRules, {"entry_minimum": -1}),
        (YardkleRules, {"entry_minimum": None}),
        (YardkleRules, {"target": 1000, "entry_minimum": 1500}),
    ],
)
def test_a_rule_option_with_a_value_the_rules_do_not_offer_is_rejected(rules_class, value):
    with pytest.raises(RuleViolation) as error:
        rules_class.from_json(value)
    assert error.value.code == "invalid_rule_option"


def test_a_ruleset_built_in_python_is_checked_too():
    with pytest.raises(RuleViolation) as error:
        YardzeeRules(joker="sometimes")  # type: ignore[arg-type]
    assert error.value.code == "invalid_rule_option"


def test_create_builds_a_game_from_a_player_count_and_ruleset_json():
    game = YardkleGame.create(4, {"target": 5000})
    assert (game.players, game.rules) == (4, YardkleRules(target=5000))
    assert YardzeeGame.create(2, {"joker": "free_choice"}).rules.joker == "free_choice"
    with pytest.raises(RuleViolation) as error:
        YardzeeGame.create(6, {})
    assert error.value.code == "player_count"
