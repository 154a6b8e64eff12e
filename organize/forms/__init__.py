"""Forms of the organizer pages, one module a topic. They parse what a person typed; the
services check it (the same checks as the API's) and their refusals are shown on the form."""

from django import forms


def page_status(*shown: forms.BaseForm | None) -> int:
    """The status of an organizer page that shows these forms: 400 when one of them, or the
    service behind it, refused what was sent (the page shows why), else 200
    (docs/organizing.md). A form not sent, or not shown (None), has no errors."""
    return 400 if any(form is not None and form.errors for form in shown) else 200
