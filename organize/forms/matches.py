"""Forms of match control (organize/views/matches.py): what to do with a voided match, and a
corrected turn typed as dice. They parse what was typed into what the services take (the void's
`then`, the turn JSON); the rulebook and the services check it."""

import re
from collections.abc import Mapping, Sequence
from typing import Any

from django import forms

from games.scorecard import BOX_LABELS
from league.models import ForfeitReason, VoidOutcome
from organize.forms.words import ROW_WORDS, in_page_words, with_boxes
from organize.selectors import Names
from scoring.errors import DomainError, RuleViolation

OUTCOME_LABELS = {
    VoidOutcome.REPLAY: "Replay: the same players in the same seats at a fresh match "
    "(with a new scoring link)",
    VoidOutcome.WALKOVER: "Walkover: the players ticked below forfeit and take last place; "
    "the others go on (or play on at a fresh match when more remain than go on)",
    VoidOutcome.NO_RESULT: "No result: the game counts for no one, and the stage can finish "
    "without it",
}
REASON_LABELS = {
    ForfeitReason.NO_SHOW: "Did not show",
    ForfeitReason.AWARDED: "Forfeited (walkover awarded)",
}

_PATH = re.compile(r"^(?:rolls|throws)\[(\d+)\]\.(dice|keep|set_aside)$")
# The corrected turn's own refusals by the rulebook that name no field, and the field they
# are about: a box, or how a Yardkle turn ended.
_CODE_FIELDS = {
    "unknown_box": "category",
    "box_filled": "category",
    "joker_forbids_box": "category",
    "invalid_end": "end",
    "end_contradicts_throws": "end",
    "bank_after_hot_dice": "end",
    "bank_below_entry_minimum": "end",
    "throw_after_yardkle": "dice",
}
_DICE_TEXT = re.compile(r"^[\s,;/-]*([1-6][\s,;/-]*)*$")


def parse_dice(text: str, *, field: str) -> list[int]:
    """Dice as typed: "3 3 5 2 6", "3,3,5,2,6" or "33526"."""
    if not _DICE_TEXT.match(text):
        raise forms.ValidationError(
            f"{field}: type each die as a digit from 1 to 6 (e.g. 3 3 5 2 6).", code="dice"
        )
    return [int(c) for c in text if c.isdigit()]


def dice_text(dice: object) -> str:
    return " ".join(str(d) for d in dice) if isinstance(dice, list) else ""


def _label(rows: str, number: int, name: str) -> str:
    """A dice field's label ("Roll 2: dice kept"), in the words a refusal names it with."""
    row, fields = ROW_WORDS[rows]
    return f"{row} {number}: {fields[name]}"


def _rows(stored: Mapping[str, Any], key: str) -> list[Any]:
    rows = stored.get(key)
    return rows if isinstance(rows, list) else []


class VoidForm(forms.Form):
    """A void, and for a stage match what decides its slot instead (docs/api.md,
    "Corrections": replay, walkover against the players ticked, or no result)."""

    outcome = forms.ChoiceField(required=False, widget=forms.RadioSelect)
    forfeits = forms.TypedMultipleChoiceField(
        required=False, coerce=int, widget=forms.CheckboxSelectMultiple, label="Who forfeits"
    )
    reason = forms.ChoiceField(
        required=False,
        choices=list(REASON_LABELS.items()),
        initial=ForfeitReason.AWARDED,
        widget=forms.RadioSelect,
        label="Why",
    )

    def __init__(
        self,
        *args: Any,
        players: Sequence[tuple[int, str]],
        outcomes: Sequence[str],
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.in_stage = bool(outcomes)
        outcome = self.fields["outcome"]
        assert isinstance(outcome, forms.ChoiceField)  # noqa: S101 - declared above
        outcome.choices = [(value, OUTCOME_LABELS[VoidOutcome(value)]) for value in outcomes]
        forfeits = self.fields["forfeits"]
        assert isinstance(forfeits, forms.ChoiceField)  # noqa: S101 - declared above
        forfeits.choices = list(players)

    def then(self) -> dict[str, Any]:
        """The `then` of `match_void`: empty for a match of no stage (a plain void)."""
        data = self.cleaned_data
        if not self.in_stage:
            return {}
        outcome = data.get("outcome") or VoidOutcome.REPLAY
        then: dict[str, Any] = {"outcome": outcome}
        if outcome == VoidOutcome.WALKOVER:
            then["forfeits"] = list(data.get("forfeits") or [])
            then["reason"] = data.get("reason") or ForfeitReason.AWARDED
        return then


class CorrectionForm(forms.Form):
    """A turn as it should have been, typed as dice: Yardzee's rolls (the dice showing after
    each, and the dice kept for the next) and the box; Yardkle's throws (the dice thrown and
    those set aside) and how the turn ended. Rows left empty at the end are not rolls."""

    def __init__(
        self, *args: Any, game: str, stored: Mapping[str, Any], rows: int, **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self.game = game
        self.rows = rows
        helper = "Dice as digits, e.g. 3 3 5 2 6"
        if game == "yardzee":
            rolls = _rows(stored, "rolls")
            for i in range(1, rows + 1):
                roll = rolls[i - 1] if i <= len(rolls) and isinstance(rolls[i - 1], dict) else {}
                if i > 1:
                    self.fields[f"keep_{i}"] = forms.CharField(
                        required=False,
                        label=_label("rolls", i, "keep"),
                        initial=dice_text(roll.get("keep")),
                    )
                self.fields[f"dice_{i}"] = forms.CharField(
                    required=i == 1,
                    label=_label("rolls", i, "dice"),
                    initial=dice_text(roll.get("dice")),
                    help_text=helper if i == 1 else "",
                )
            self.fields["category"] = forms.ChoiceField(
                choices=list(BOX_LABELS.items()), label="Box", initial=stored.get("category")
            )
        else:
            throws = _rows(stored, "throws")
            for i in range(1, rows + 1):
                throw = (
                    throws[i - 1] if i <= len(throws) and isinstance(throws[i - 1], dict) else {}
                )
                self.fields[f"dice_{i}"] = forms.CharField(
                    required=i == 1,
                    label=_label("throws", i, "dice"),
                    initial=dice_text(throw.get("dice")),
                    help_text=helper if i == 1 else "",
                )
                self.fields[f"set_aside_{i}"] = forms.CharField(
                    required=False,
                    label=_label("throws", i, "set_aside"),
                    initial=dice_text(throw.get("set_aside")),
                )
            self.fields["end"] = forms.ChoiceField(
                choices=[("bank", "Banked"), ("yardkle", "Yardkle")],
                label="The turn ended",
                initial=stored.get("end"),
            )
        for name, field in self.fields.items():
            if name.startswith(("dice_", "keep_", "set_aside_")):
                field.widget.attrs.update({"inputmode": "numeric", "autocomplete": "off"})

    def row_fields(self) -> list[list[forms.BoundField]]:
        """The fields of each roll or throw, in order, for the template."""
        names = ("keep", "dice") if self.game == "yardzee" else ("dice", "set_aside")
        return [
            [self[f"{name}_{i}"] for name in names if f"{name}_{i}" in self.fields]
            for i in range(1, self.rows + 1)
        ]

    def turn(self, player: int) -> dict[str, Any]:
        """The corrected turn JSON for `player` (who played it)."""
        data = self.cleaned_data
        if self.game == "yardzee":
            rolls: list[dict[str, Any]] = []
            for i in range(1, self.rows + 1):
                if not data.get(f"dice_{i}"):
                    break
                roll: dict[str, Any] = {"dice": data[f"dice_{i}"]}
                if i > 1:
                    roll = {"keep": data.get(f"keep_{i}") or [], **roll}
                rolls.append(roll)
            return {"player": player, "rolls": rolls, "category": data["category"]}
        throws = []
        for i in range(1, self.rows + 1):
            if not data.get(f"dice_{i}"):
                break
            throws.append(
                {"dice": data[f"dice_{i}"], "set_aside": data.get(f"set_aside_{i}") or []}
            )
        return {"player": player, "throws": throws, "end": data["end"]}

    def clean(self) -> dict[str, Any] | None:
        cleaned = super().clean() or {}
        for name, field in self.fields.items():
            if name.startswith(("dice_", "keep_", "set_aside_")) and name in cleaned:
                try:
                    cleaned[name] = parse_dice(cleaned[name] or "", field=str(field.label))
                except forms.ValidationError as error:
                    self.add_error(name, error)
        self._check_rows(cleaned)
        return cleaned

    def refuses(self, error: DomainError | None, sequence: int, players: Names) -> bool:
        """Whether `error` is the rulebook's refusal of the turn typed (turn `sequence` itself
        breaks a rule: bad input, not a consequence); if so it is shown on the field it is
        about, in the page's words ("Roll 1's dice showing must hold 5 dice, not 3."), else
        above the form."""
        if not isinstance(error, RuleViolation) or error.details.get("turn") != sequence:
            return False
        message = in_page_words(
            error.message.removeprefix(f"Turn {sequence}: "), with_boxes(players, error.details)
        )
        self.add_error(self._field_of(error), message)
        return True

    def _field_of(self, error: RuleViolation) -> str | None:
        details = error.details
        named = details.get("field")
        path = _PATH.match(named) if isinstance(named, str) else None
        if path is not None:
            name = f"{path[2]}_{int(path[1]) + 1}"
        elif isinstance(details.get("roll"), int):
            name = f"keep_{details['roll']}"
        elif isinstance(details.get("throw"), int):
            kind = _CODE_FIELDS.get(error.code, "set_aside")
            name = f"{kind}_{details['throw']}"
        else:
            name = _CODE_FIELDS.get(error.code, "")
        return name if name in self.fields else None

    def _check_rows(self, cleaned: dict[str, Any]) -> None:
        """The turn is its rows up to the first with no dice: a row after it that has dice,
        or dice kept or set aside typed in a row with none, would be left out of the turn
        without a word. Each is an error on the form instead."""
        rows, _ = ROW_WORDS["rolls" if self.game == "yardzee" else "throws"]
        other = "keep" if self.game == "yardzee" else "set_aside"
        empty: int | None = None
        for i in range(1, self.rows + 1):
            if f"dice_{i}" not in cleaned:
                continue  # refused above already
            if cleaned[f"dice_{i}"]:
                if empty is not None:
                    self.add_error(
                        f"dice_{empty}",
                        f"{rows} {empty} has no dice, but {rows.lower()} {i} has: type the "
                        f"{rows.lower()}s in order, with none left empty between them.",
                    )
                    return
                continue
            if cleaned.get(f"{other}_{i}"):
                self.add_error(
                    f"dice_{i}",
                    f"{rows} {i} has dice {'kept' if other == 'keep' else 'set aside'} but none "
                    f"{'showing' if other == 'keep' else 'thrown'}: type them too, or clear "
                    f"this {rows.lower()}.",
                )
                return
            empty = empty or i
