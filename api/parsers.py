"""Request parsing that holds up against hostile input.

Every view parses JSON with `SafeJSONParser`, and forms with `SafeFormParser` and
`SafeMultiPartParser` (the project's DEFAULT_PARSER_CLASSES; a view that sets its own parsers
takes them from there too). It refuses what Python's decoder would accept
but nothing downstream can hold: JSON nested too deeply to decode (the decoder recurses), text
that is not valid Unicode (a lone surrogate such as "\\ud800" cannot be encoded, so an error
message echoing it could not be sent), the NUL character (PostgreSQL cannot store it) and
numbers too large for a float (they decode to infinity)."""

import math
from collections.abc import Mapping
from typing import IO, Any, cast

from django.http import QueryDict
from rest_framework.exceptions import ParseError
from rest_framework.parsers import (
    BaseParser,
    DataAndFiles,
    FormParser,
    JSONParser,
    MultiPartParser,
)


class InvalidText(ParseError):
    """Text in the request that no database column or JSON answer can hold."""

    default_code = "invalid_text"


def refuse_unstorable(data: Any) -> None:
    """Walk parsed JSON (iteratively: its depth is bounded only by the decoder) and raise
    InvalidText at the first string or key with a lone surrogate or a NUL, or a number that
    is not finite."""
    pending = [data]
    while pending:
        value = pending.pop()
        if isinstance(value, str):
            check_text(value)
        elif isinstance(value, dict):
            pending.extend(value.keys())
            pending.extend(value.values())
        elif isinstance(value, list):
            pending.extend(value)
        elif isinstance(value, float) and not math.isfinite(value):
            raise InvalidText("A number in the request is too large (or not a number).")


def check_text(value: str) -> None:
    """InvalidText if `value` holds a NUL or is not valid Unicode (a lone surrogate)."""
    if "\x00" in value:
        raise InvalidText("Text in the request contains the NUL character (\\u0000).")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise InvalidText(
            "Text in the request is not valid Unicode (a lone surrogate such as \\ud800)."
        ) from None


class _Refusing(BaseParser):
    """A DRF parser answering 400 `invalid_text` for a body whose text `refuse` refuses."""

    def parse(
        self,
        stream: IO[Any],
        media_type: str | None = None,
        parser_context: Mapping[str, Any] | None = None,
    ) -> Any:
        try:
            parsed = super().parse(stream, media_type, parser_context)
        except RecursionError:  # only JSON's decoder recurses
            raise ParseError("JSON nested too deeply.") from None
        self.refuse(parsed)
        return parsed

    def refuse(self, parsed: Any) -> None:
        """Parsed JSON, walked whole."""
        refuse_unstorable(parsed)


class SafeJSONParser(_Refusing, JSONParser):
    """DRF's JSON parser, refusing with a 400 what it would otherwise pass on to crash later:
    JSON nested too deeply to decode, lone surrogates, NUL characters, infinite numbers."""


class _FieldsChecked(_Refusing):
    """A form parser whose fields (a QueryDict: each key with its list of values) are
    checked as JSON is: NUL characters and lone surrogates in names and values refused."""

    def refuse(self, parsed: Any) -> None:
        # Both parsers' fields are a QueryDict (the multipart one's beside its files).
        fields = cast(QueryDict, parsed.data if isinstance(parsed, DataAndFiles) else parsed)
        for key, values in fields.lists():
            refuse_unstorable([key, *(v for v in values if isinstance(v, str))])


class SafeFormParser(_FieldsChecked, FormParser):
    """DRF's form parser (`application/x-www-form-urlencoded`), refusing NUL characters and
    lone surrogates in names and values as SafeJSONParser does."""


class SafeMultiPartParser(_FieldsChecked, MultiPartParser):
    """DRF's multipart parser, refusing NUL characters and lone surrogates in its fields as
    SafeJSONParser does."""
