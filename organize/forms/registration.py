"""Forms of an event's sign-up page: the sign-up's settings, and a player added by hand.

Each parses the fields into the arguments of one service (`sign_up_set`,
`registration_create`); the service refuses what contradicts the event (a cap below 1, a
check-in closing before it opens, a name or email already signed up), shown by `refuse`."""

from typing import Any

from django import forms

from league.models import SignUp
from organize.forms.events import ServiceForm

_WHEN = {"type": "datetime-local"}
_WHEN_FORMAT = "%Y-%m-%dT%H:%M"


def _when(label: str, help_text: str) -> forms.DateTimeField:
    return forms.DateTimeField(
        label=label,
        required=False,
        help_text=help_text,
        input_formats=[_WHEN_FORMAT, "%Y-%m-%dT%H:%M:%S"],
        widget=forms.DateTimeInput(attrs=_WHEN, format=_WHEN_FORMAT),
    )


class SignUpSettingsForm(ServiceForm):
    open = forms.BooleanField(label="Open to sign-ups", required=False, initial=True)
    deadline = _when("Deadline", "Sign-ups end then; empty: until you close them.")
    cap = forms.IntegerField(
        label="Places",
        required=False,
        min_value=1,
        max_value=100_000,
        help_text="Sign-ups beyond them join the waiting list; empty: no cap.",
    )
    check_in = forms.BooleanField(
        label="Use check-in",
        required=False,
        help_text="A stage started seats only the players checked in.",
    )
    check_in_opens = _when("Players check in from", "Empty: as soon as they are confirmed.")
    check_in_closes = _when("Until", "Empty: until the event closes.")

    @classmethod
    def initial_of(cls, sign_up: SignUp | None) -> dict[str, Any]:
        if sign_up is None:
            return {"open": True}
        return {name: getattr(sign_up, name) for name in cls.base_fields}


class RegistrationAddForm(ServiceForm):
    display_name = forms.CharField(label="Name", max_length=200, strip=False)
    email = forms.EmailField(label="Email", max_length=254, required=False)
    handle = forms.CharField(
        label="Handle",
        max_length=100,
        required=False,
        help_text="If they have played before: it finds their player.",
    )
