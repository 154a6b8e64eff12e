"""A service's sentences in the words of the organizer pages. The services speak the API's
language: a sentence about a field begins with its name as the API spells it
(`display_name must not be blank.`), which reads as jargon on a page that shows that field
labelled, or in a table that says which row. The API keeps its sentences; the pages put them
this way."""

import dataclasses
import re
from collections.abc import Mapping
from typing import Any

from django import forms

from games.scorecard import BOX_LABELS
from league.pages.words import about_field
from league.standings import METRICS
from organize.selectors import Names, names_of
from scoring.errors import DomainError


def refuse_on_field(form: forms.BaseForm, error: DomainError, field: object) -> None:
    """Show a service's refusal on `field` when the form has it (without the field's API name
    that begins the sentence), else above the form; in the page's words (`page_words`), the
    API's other field names as the form labels them."""
    labels = {name: str(form[name].label) for name in form.fields}
    if isinstance(field, str) and field in form.fields:
        # The field's name that begins the sentence goes first (the rest may name others).
        on_field = DomainError(error.code, about_field(error.message, field), details=error.details)
        form.add_error(field, page_words(on_field, labels))
    else:
        form.add_error(None, page_words(error, labels))


_STAGE_THEN_NAME = re.compile(r"\b[Ss]tage (\d+) \(([^()]*)\)")
_NAME_THEN_STAGE = re.compile(r" \(stage (\d+)\)")
_BY_ID = re.compile(r"\b(Player|player|Stage|stage|Event|event) (\d+)\b")
# The API's field for re-seeding later stages (the match-control pages offer re-seeding as a
# confirmation of its own when it is possible).
_RESEED = re.compile(r"Send reseed_later_stages: true to put those stages back to draft and seat")
# An API field name in brackets after the words that say what it is: "(source_top)",
# "(`forfeits`)". A word in brackets is left alone ("(a walkover)", "setting(s)") unless it is
# a field of the form the sentence is shown on.
_FIELD_IN_BRACKETS = re.compile(r" ?\((?P<tick>`?)(?P<field>[a-z][a-z_]*)(?P=tick)\)")
_TURN_PATH = re.compile(r"\b(rolls|throws)\[(\d+)\](?:\.(dice|keep|set_aside))?(?:\[(\d+)\])?")
# What the correction form calls the dice of a roll or a throw (its labels: "Roll 2: dice
# kept", "Throw 1: dice thrown").
ROW_WORDS: Mapping[str, tuple[str, Mapping[str, str]]] = {
    "rolls": ("Roll", {"dice": "dice showing", "keep": "dice kept"}),
    "throws": ("Throw", {"dice": "dice thrown", "set_aside": "set aside"}),
}


def _turn_path(found: re.Match[str]) -> str:
    """`rolls[1].keep` as the correction form calls it: "roll 2's dice kept"; a die in it:
    "die 3 of roll 2's dice kept"."""
    row, fields = ROW_WORDS[found[1]]
    words = f"{row.lower()} {int(found[2]) + 1}"
    if found[3]:
        words = f"{words}'s {fields.get(found[3], found[3].replace('_', ' '))}"
    if found[4]:
        words = f"die {int(found[4]) + 1} of {words}"
    return words[0].upper() + words[1:] if found.start() == 0 else words


def in_page_words(message: str, names: Names, labels: Mapping[str, str] | None = None) -> str:
    """A service's sentence as an organizer page says it: the players, stages and events it
    names by id by their names (those `names` holds: the ids the refusal's details name, so
    that a name that reads "Player 1" is left alone), the Yardzee boxes `names` holds by their
    labels ("3 of a kind", not "three_of_a_kind"), the standings metric `names` holds, named by
    its quoted key ("Metric 'points'"), by its label as the tiebreak selects show it
    ("“Points”"), and the JSON paths of a turn ("rolls[0].dice") in the words of the
    correction form ("roll 1's dice showing"). An API field name in brackets after the words
    that say what it is ("(source_top)", "(`forfeits`)") is left out, and one the sentence
    uses as a word ("it goes with source_per_group") is put as the form's label for it
    (`labels`: the form's fields, API name -> label)."""
    kinds = {"player": names.players, "stage": names.stages, "event": names.events}
    labels = labels or {}

    def by_id(found: re.Match[str]) -> str:
        return kinds[found[1].lower()].get(int(found[2]), found[0])

    def in_brackets(found: re.Match[str]) -> str:
        named = found["field"]
        return "" if found["tick"] or "_" in named or named in labels else found[0]

    message = _STAGE_THEN_NAME.sub(lambda found: names.stages.get(int(found[1]), found[2]), message)
    # Before the names go in: a name put in brackets ("turn 4 (ana_b)") is no field name.
    message = _FIELD_IN_BRACKETS.sub(in_brackets, message)
    # A one-word field ("name", "groups") is a word of the sentence, not put as its label.
    as_words = {field: f"“{label}”" for field, label in labels.items() if "_" in field}
    if as_words:
        keys = "|".join(re.escape(field) for field in as_words)
        message = re.sub(rf"\b({keys})\b", lambda found: as_words[found[1]], message)
    message = _NAME_THEN_STAGE.sub(
        lambda found: "" if int(found[1]) in names.stages else found[0], message
    )
    message = _BY_ID.sub(by_id, message)
    if names.boxes:
        keys = "|".join(re.escape(key) for key in names.boxes)
        message = re.sub(rf"\b({keys})\b", lambda found: names.boxes[found[1]], message)
    if names.metrics:
        keys = "|".join(re.escape(key) for key in names.metrics)
        message = re.sub(
            rf"\bMetric '({keys})'", lambda found: f"“{names.metrics[found[1]]}”", message
        )
    message = _RESEED.sub("Re-seeding them would put those stages back to draft and seat", message)
    return _TURN_PATH.sub(_turn_path, message)


# The keys of a refusal's details that hold the ids its sentence names, and what they are.
_ID_KEYS: Mapping[str, str] = {
    "player": "player",
    "players": "player",
    "expected_player": "player",
    "stage": "stage",
    "stages": "stage",
    "source_stage": "stage",
    "event": "event",
    "events": "event",
}


def ids_named(details: Mapping[str, Any]) -> dict[str, set[int]]:
    """The ids of players, stages and events a refusal's `details` hold (`player`,
    `stages`, ..., also inside a nested refusal such as a later turn's `violation`)."""
    named: dict[str, set[int]] = {"player": set(), "stage": set(), "event": set()}

    def walk(value: Mapping[str, Any]) -> None:
        for key, item in value.items():
            if key in _ID_KEYS:
                items = item if isinstance(item, list) else [item]
                named[_ID_KEYS[key]].update(i for i in items if type(i) is int)
            elif isinstance(item, Mapping):
                walk(item)

    walk(details)
    return named


def boxes_named(details: Mapping[str, Any]) -> dict[str, str]:
    """The Yardzee boxes a refusal's `details` name (`box`, `allowed`, also inside a nested
    refusal), each by its label ("three_of_a_kind": "3 of a kind")."""
    found: dict[str, str] = {}

    def walk(value: Mapping[str, Any]) -> None:
        for key, item in value.items():
            if key in ("box", "allowed"):
                for box in item if isinstance(item, list) else [item]:
                    if isinstance(box, str) and box in BOX_LABELS:
                        found[box] = BOX_LABELS[box]
            elif isinstance(item, Mapping):
                walk(item)

    walk(details)
    return found


def metrics_named(details: Mapping[str, Any]) -> dict[str, str]:
    """The standings metric a tiebreak refusal's `details` name (`metric`), by its label
    ("points": "Points"); a key no metric has is left as it is."""
    key = details.get("metric")
    return {key: METRICS[key].label} if isinstance(key, str) and key in METRICS else {}


def with_boxes(names: Names, details: Mapping[str, Any]) -> Names:
    """`names` and the boxes `details` name (`boxes_named`)."""
    return dataclasses.replace(names, boxes=boxes_named(details))


def page_words(error: DomainError, labels: Mapping[str, str] | None = None) -> str:
    """A service's sentence as an organizer page says it (`in_page_words`), the players,
    stages and events its details name looked up (a query for each kind named), the boxes and
    the metric it names by their labels, and the API's field names as the form's `labels` call
    them."""
    names = dataclasses.replace(
        names_of(ids_named(error.details)),
        boxes=boxes_named(error.details),
        metrics=metrics_named(error.details),
    )
    return in_page_words(error.message, names, labels)


def worded(error: DomainError) -> DomainError:
    """`error` with its sentence in the page's words (`page_words`); its code and details
    kept."""
    return DomainError(error.code, page_words(error), details=error.details)
