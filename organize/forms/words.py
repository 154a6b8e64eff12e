"""A service's sentences in the words of the organizer pages. The services speak the API's
language: a sentence about a field begins with its name as the API spells it
(`display_name must not be blank.`), which reads as jargon on a page that shows that field
labelled, or in a table that says which row. The API keeps its sentences; the pages put them
this way."""

from django import forms

from scoring.errors import DomainError


def about_field(message: str, field: object, subject: str = "It") -> str:
    """`message` with the field's API name that begins it put as `subject`: "It" for a
    sentence shown on the field itself ("It must not be blank."), or what the page calls the
    field elsewhere ("The name must not be blank."). Any other sentence is kept as it is."""
    prefix = f"{field} "
    if isinstance(field, str) and field and message.startswith(prefix):
        return f"{subject} {message[len(prefix) :]}"
    return message


def refuse_on_field(form: forms.BaseForm, error: DomainError, field: object) -> None:
    """Show a service's refusal on `field` when the form has it (without the field's API name
    that begins the sentence), else above the form as the service said it."""
    if isinstance(field, str) and field in form.fields:
        form.add_error(field, about_field(error.message, field))
    else:
        form.add_error(None, error.message)
