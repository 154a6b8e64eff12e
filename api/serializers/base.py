"""What every serializer of the API builds on: ids, a body parsed (`validated`), JSON of the wrong
type and unknown fields refused."""

import json
from collections.abc import Mapping
from typing import Any

from django.http import QueryDict
from rest_framework import serializers

# Ids are 64-bit database integers: anything larger is refused as invalid, not sent to the DB.
ID_MAX = 2**63 - 1
# Ids in URLs: at most 18 digits, so a longer one is a plain 404 rather than an overflow.
ID_IN_URL = r"[0-9]{1,18}"


def validated(
    serializer_class: type[serializers.BaseSerializer[Any]], data: Any, **kwargs: Any
) -> Any:
    """`data` as `serializer_class` reads it (its `validated_data`), or the 400
    `invalid` naming each field that is wrong."""
    parsed = serializer_class(data=data, **kwargs)
    parsed.is_valid(raise_exception=True)
    return parsed.validated_data


# The JSON type each kind of field takes. DRF reads a JSON body as leniently as a form, whose
# values are all text: 123 would be stored as the text "123", "9" or 9.0 taken as the number 9,
# "yes" or 1 as true. In a JSON body those are a client's mistakes, refused (a form's values
# are left to DRF). The first kind a field is an instance of decides (SlugField is a CharField).
_JSON_TYPES: tuple[tuple[type[serializers.Field], type, str], ...] = (  # type: ignore[type-arg]
    (serializers.BooleanField, bool, "true or false"),
    (serializers.CharField, str, "text (a JSON string)"),
    (serializers.IntegerField, int, "a whole number"),
    (serializers.PrimaryKeyRelatedField, int, "an id (a whole number)"),
    # A league named by its slug: 5 would be read as the slug "5".
    (serializers.SlugRelatedField, str, "a slug (a JSON string)"),
    (serializers.ChoiceField, str, "one of its choices, as a JSON string"),
    (serializers.DateTimeField, str, "a date and time, as an ISO 8601 JSON string"),
    (serializers.DateField, str, "a date, as a YYYY-MM-DD JSON string"),
)


def json_type_refused(field: Any, value: Any) -> str | None:
    """Why `value`, read from a JSON body, is not of the type `field` takes (each item of a
    list field by its child), or None. `null` is left to the field (`allow_null`)."""
    if value is None:
        return None
    if isinstance(field, serializers.ListField):
        items = value if isinstance(value, list) else []
        return next(
            (
                f"Item {n}: {why}"
                for n, item in enumerate(items)
                if (why := json_type_refused(field.child, item))
            ),
            None,
        )
    for kind, wanted, words in _JSON_TYPES:
        if isinstance(field, kind):
            # True is an int to Python, never a number to a client.
            if not isinstance(value, wanted) or (isinstance(value, bool) and wanted is not bool):
                return f"Must be {words}, not {json.dumps(value)[:40]}."
            return None
    return None


class RefusesUnknownFields(serializers.Serializer[Any]):
    """A request body read field by field, in which a key that is no field to set is refused
    (400 `invalid`, `details.fields` naming it), never ignored: `{"rule": {...}}` for `rules`,
    or `"organizers"` on a league, would otherwise be answered 200 with nothing of it done.
    Read-only fields are named as such. A form's CSRF token is no field, and allowed. In a JSON
    body a value of the wrong JSON type is refused too (`json_type_refused`), never converted."""

    ALLOWED_EXTRA = frozenset({"csrfmiddlewaretoken"})

    def to_internal_value(self, data: Any) -> Any:
        if isinstance(data, Mapping):
            refused = {}
            as_json = not isinstance(data, QueryDict)
            for key in data:
                field = self.fields.get(key)
                if field is None and key not in self.ALLOWED_EXTRA:
                    known = ", ".join(n for n, f in self.fields.items() if not f.read_only)
                    refused[key] = [
                        f"No such field; the fields here are {known}."
                        if known
                        else "No such field; this request takes no fields (send {} or no body)."
                    ]
                elif field is not None and field.read_only:
                    refused[key] = ["This field is read only; it is not set here."]
                elif field is not None and as_json and (why := json_type_refused(field, data[key])):
                    refused[key] = [why]
            if refused:
                raise serializers.ValidationError(refused)
        return super().to_internal_value(data)


class NoFields(RefusesUnknownFields):
    """The body of an action that takes none (start a stage, reopen an event, take a void
    back, refuse a registration, rotate a webhook's secret...): nothing, or `{}`. A key sent
    is refused (400 `invalid`, `details.fields`), never ignored: `{"seeding": "random"}` to a
    stage's start/ would otherwise draw it as it was, answered 200."""
