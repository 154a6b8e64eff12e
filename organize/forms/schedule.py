"""The form that schedules a round (docs/organizing.md, "Scheduling a round"): the arguments of
`league.services.schedule.round_schedule`, with the API's bounds. The service refuses the
rest (a start in the past, a bad label or zone), and `refuse` shows its sentence on the field
it names."""

from datetime import datetime

from django import forms
from django.conf import settings

from league.services.schedule import DEFAULT_PATTERN, MAX_INTERVAL_MINUTES, MAX_TABLES, typed_start
from organize.forms.events import ServiceForm


class RoundScheduleForm(ServiceForm):
    first_start = forms.CharField(
        label="First start",
        max_length=40,
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}),
        help_text="Wall-clock time in the zone below.",
    )
    interval_minutes = forms.IntegerField(
        label="Minutes between starts",
        min_value=0,
        max_value=MAX_INTERVAL_MINUTES,
        initial=0,
        help_text="0: every table at once. With a number of tables: between waves.",
    )
    tables = forms.IntegerField(
        label="Tables playing at once",
        min_value=1,
        max_value=MAX_TABLES,
        required=False,
        help_text="Leave empty for one table a match.",
    )
    label = forms.CharField(
        label="Table label",
        max_length=48,
        initial=DEFAULT_PATTERN,
        strip=False,
        help_text="{n} is the table's number: 'Table {n}', 'Yard {n}'.",
    )
    follow_on_minutes = forms.IntegerField(
        label="Then schedule the next rounds as they are seated, this many minutes later",
        min_value=0,
        max_value=MAX_INTERVAL_MINUTES,
        required=False,
        help_text="Each match the stage seats from now on (and a stage it feeds) gets the table "
        "its players left and a start this many minutes after it is seated. Empty: schedule "
        "each round here.",
    )
    time_zone = forms.CharField(
        label="Time zone",
        max_length=64,
        required=False,
        help_text="As 'Europe/London' or 'America/Chicago'; empty: the site's.",
    )

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.fields["time_zone"].initial = str(settings.TIME_ZONE)

    def clean_first_start(self) -> datetime:
        value = self.cleaned_data["first_start"]
        parsed = typed_start(value)
        if parsed is None:
            raise forms.ValidationError("Give a date and a time, as 2026-07-04 18:30.")
        return parsed
