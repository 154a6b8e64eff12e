"""Forms of a league's webhook pages: register an endpoint (or change one). The address and the
events are checked by the service (`webhooks.services`), with the API's codes."""

from django import forms

from organize.forms.leagues import RefusalForm
from webhooks.models import SUBSCRIBABLE, EventType


class EndpointForm(RefusalForm):
    code_fields = {"url_not_allowed": "url", "invalid_url": "url", "too_many_endpoints": "url"}

    url = forms.CharField(
        max_length=2000,
        label="Address",
        help_text="https:// only, to a public address.",
        widget=forms.URLInput(attrs={"autocapitalize": "none", "placeholder": "https://"}),
    )
    events = forms.MultipleChoiceField(
        choices=[(event, EventType(event).label) for event in SUBSCRIBABLE],
        widget=forms.CheckboxSelectMultiple,
        initial=list(SUBSCRIBABLE),
        help_text="What it hears of.",
    )
    description = forms.CharField(max_length=200, required=False, label="Note")
