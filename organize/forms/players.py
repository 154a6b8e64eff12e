"""Forms of a league's roster pages: add one player, import a CSV of them, rename one, merge
two. The CSV form reads the file's shape (encoding, columns, header); whether each row can
be added (names, handles) is the service's to say, row by row (`players_create`)."""

import csv
from collections.abc import Iterator, Sequence
from typing import Any

from django import forms

from league.models import Player
from league.pages.words import about_field
from league.services.organization import HANDLE_LENGTH, NAME_LENGTH, NewPlayer
from organize.forms.leagues import RefusalForm

MAX_ROWS = 1000
MAX_FILE_BYTES = 256 * 1024
COLUMNS = ("name", "handle")
HANDLE_HELP = "Blank: made from the name (letters, digits and hyphens)."


# What the pages call a player's fields, where a sentence about one is not shown on it.
FIELD_NAMES = {"display_name": "The name", "handle": "The handle"}


def row_problem(problem: dict[str, Any]) -> dict[str, Any]:
    """A row `players_create` refused, its sentence in the import page's words."""
    field = problem.get("field")
    subject = FIELD_NAMES.get(field, "It") if isinstance(field, str) else "It"
    return {**problem, "message": about_field(problem["message"], field, subject)}


class PlayerRenameForm(RefusalForm):
    display_name = forms.CharField(max_length=NAME_LENGTH, label="Name")


class PlayerAddForm(PlayerRenameForm):
    """A new player: the name, as a rename takes it, and an optional handle."""

    handle = forms.CharField(
        max_length=HANDLE_LENGTH,
        required=False,
        help_text=HANDLE_HELP,
        widget=forms.TextInput(attrs={"autocapitalize": "none"}),
    )

    def new_player(self) -> NewPlayer:
        return NewPlayer(1, self.cleaned_data["display_name"], self.cleaned_data["handle"].strip())


def _delimiter(line: str) -> str:
    """Cells pasted from a spreadsheet come apart with tabs; a CSV file uses commas, or
    semicolons where the comma is the decimal mark."""
    if "\t" in line:
        return "\t"
    if ";" in line and "," not in line:
        return ";"
    return ","


def _records(reader: Any) -> Iterator[list[str]]:
    """The rows of a `csv.reader`. ValidationError, naming the row, for one it cannot read:
    a cell longer than the csv module takes (`csv.field_size_limit()`, 131,072 characters),
    as a quote opened and never closed makes of every line after it."""
    while True:
        start = reader.line_num + 1
        try:
            cells = next(reader)
        except StopIteration:
            return
        except csv.Error:
            raise forms.ValidationError(
                f"Row {start} cannot be read: a cell there is longer than "
                f"{csv.field_size_limit():,} characters (is a quote left open?). A row is a name "
                "and, if you like, a handle. Nothing was saved."
            ) from None
        yield cells


def read_rows(text: str) -> list[NewPlayer]:
    """The players of a CSV text: a name and an optional handle a line. A first line naming
    the columns (`name`, and `handle` if any, in either order) is a header; row numbers are
    the text's line numbers, as a spreadsheet shows them. ValidationError for a shape that
    is not one (a row the csv module cannot read, too many columns, too many rows,
    nothing)."""
    lines = text.splitlines()
    first = next((line for line in lines if line.strip()), "")
    reader = csv.reader(lines, delimiter=_delimiter(first))
    columns: Sequence[str] = COLUMNS
    rows: list[NewPlayer] = []
    too_wide: list[int] = []
    for cells in _records(reader):
        cells = [cell.strip() for cell in cells]
        if not any(cells):
            continue
        named = [cell.casefold() for cell in cells if cell]
        if not rows and not too_wide and "name" in named and set(named) <= set(COLUMNS):
            columns = [cell.casefold() for cell in cells]
            continue
        if any(cells[len(columns) :]):
            too_wide.append(reader.line_num)
            continue
        values = dict(zip(columns, cells, strict=False))
        rows.append(NewPlayer(reader.line_num, values.get("name", ""), values.get("handle", "")))
    if too_wide:
        listed = ", ".join(map(str, too_wide[:10]))
        raise forms.ValidationError(
            f"Row{'s' if len(too_wide) > 1 else ''} {listed} "
            f"{'have' if len(too_wide) > 1 else 'has'} more than {len(columns)} columns: a row "
            "is a name and, if you like, a handle. Nothing was saved."
        )
    if not rows:
        raise forms.ValidationError("There are no players in it: one name a line.")
    if len(rows) > MAX_ROWS:
        raise forms.ValidationError(
            f"{len(rows)} players is more than one import takes ({MAX_ROWS}): split the file."
        )
    return rows


class PlayerImportForm(RefusalForm):
    """Players pasted as text or uploaded as a file (UTF-8, comma-, semicolon- or
    tab-separated): one of the two, at most MAX_FILE_BYTES either way."""

    text = forms.CharField(
        required=False,
        label="Paste",
        widget=forms.Textarea(attrs={"rows": 8, "spellcheck": "false"}),
        help_text="One player a line: name, then a handle if you like (e.g. Ana Lima,ana). "
        "A first line name,handle is a header.",
    )
    file = forms.FileField(
        required=False,
        label="Or upload a CSV file",
        widget=forms.ClearableFileInput(attrs={"accept": ".csv,.txt,text/csv,text/plain"}),
    )

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        text, upload = data.get("text", ""), data.get("file")
        if bool(text.strip()) == bool(upload):
            raise forms.ValidationError("Paste the players or upload a file: one of the two.")
        if upload:
            if upload.size > MAX_FILE_BYTES:
                raise forms.ValidationError(
                    f"The file is larger than {MAX_FILE_BYTES // 1024} KB: split it."
                )
            try:
                text = upload.read().decode("utf-8-sig")
            except UnicodeDecodeError:
                raise forms.ValidationError(
                    "The file is not UTF-8 text: save it from the spreadsheet as "
                    "'CSV UTF-8' and upload it again."
                ) from None
            if "\x00" in text:  # Django's own check, as for the pasted text
                raise forms.ValidationError(
                    "The file holds NUL characters, so it is not a text file: save it from the "
                    "spreadsheet as 'CSV UTF-8' and upload it again."
                )
        elif len(text.encode()) > MAX_FILE_BYTES:
            raise forms.ValidationError(
                f"The text is larger than {MAX_FILE_BYTES // 1024} KB: split it."
            )
        self.rows = read_rows(text)
        return data


class PlayerMergeForm(RefusalForm):
    """Two players of the roster: the one kept and the duplicate merged into them. The page
    asks to confirm (`confirmed`) before it merges."""

    keep = forms.TypedChoiceField(coerce=int, label="Keep")
    remove = forms.TypedChoiceField(
        coerce=int,
        label="Merge into them and remove",
        help_text="Everything this player has played becomes the kept player's.",
    )
    confirmed = forms.BooleanField(required=False, widget=forms.HiddenInput)

    def __init__(self, *args: Any, roster: Sequence[Player], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        choices = [("", "Choose a player")] + [
            (player.pk, f"{player.display_name} (@{player.handle})") for player in roster
        ]
        for name in ("keep", "remove"):
            field = self.fields[name]
            assert isinstance(field, forms.TypedChoiceField)  # noqa: S101 - declared so above
            field.choices = choices

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("keep") and data.get("keep") == data.get("remove"):
            self.add_error("remove", "Choose two different players: one is kept, one removed.")
        return data
