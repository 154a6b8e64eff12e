"""A service's sentence about a field as a page shows it on that field. The services speak the
API's language: a sentence about a field begins with its name as the API spells it
(`display_name must not be blank.`); a page shows it on the field, labelled, as "It ...".
The public pages use it, and the organizer pages' words (organize.forms.words) build on it."""


def about_field(message: str, field: object, subject: str = "It") -> str:
    """`message` with the field's API name that begins it put as `subject`: "It" for a
    sentence shown on the field itself ("It must not be blank."), or what the page calls the
    field elsewhere ("The name must not be blank."). Any other sentence is kept as it is."""
    prefix = f"{field} "
    if isinstance(field, str) and field and message.startswith(prefix):
        return f"{subject} {message[len(prefix) :]}"
    return message
