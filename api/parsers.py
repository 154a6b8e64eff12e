"""Request parsing that holds up against hostile input.

Every view parses JSON with `SafeJSONParser`, and forms with `SafeFormParser` and
`SafeMultiPartParser` (the project's DEFAULT_PARSER_CLASSES; a view that sets its own parsers
takes them from there too). It refuses what Python's decoder would accept
but nothing downstream can hold: JSON nested too deeply to decode (the decoder recurses), text
that is not valid Unicode (a lone surrogate such as "\\ud800" cannot be encoded, so an error
message echoing it could not be sent), the NUL character (PostgreSQL cannot store it),
numbers too large for a float (they decode to infinity), and a key given twice in one JSON
object (Python's decoder keeps the last: a turn naming two boxes would be scored as one)."""

import codecs
import json
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
from rest_framework.utils.json import strict_constant

# DRF's check of the request's charset (a 400 for one that is unknown or not text); its stubs
# leave it out.
from rest_framework.parsers import get_encoding  # type: ignore[attr-defined]  # isort: skip
from scoring.json_input import key_name


class InvalidText(ParseError):
    """Text in the request that no database column or JSON answer can hold."""

    default_code = "invalid_text"


class DuplicateKey(ParseError):
    """A JSON object of the request that names a key twice."""

    default_code = "duplicate_key"


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A decoded JSON object; DuplicateKey when it names a key twice."""
    decoded = dict(pairs)
    if len(decoded) < len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:  # the first key given again, in one pass
            if key in seen:
                raise DuplicateKey(
                    f"The key {key_name(key)!r} appears twice in one object of the request's JSON."
                )
            seen.add(key)
    return decoded


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


# What DRF hands a parser beside the stream: the request, the view, the charset.
_Context = Mapping[str, Any] | None


class _Refusing(BaseParser):
    """A DRF parser answering 400 `invalid_text` for a body whose text `refuse` refuses."""

    def parse(
        self,
        stream: IO[Any],
        media_type: str | None = None,
        parser_context: _Context = None,
    ) -> Any:
        try:
            parsed = self.decode(stream, media_type, parser_context)
        except RecursionError:  # only JSON's decoder recurses
            raise ParseError("JSON nested too deeply.") from None
        self.refuse(parsed)
        return parsed

    def decode(self, stream: IO[Any], media_type: str | None, context: _Context) -> Any:
        """The body as the DRF parser this is mixed into reads it."""
        return super().parse(stream, media_type, context)

    def refuse(self, parsed: Any) -> None:
        """Parsed JSON, walked whole."""
        refuse_unstorable(parsed)


class SafeJSONParser(_Refusing, JSONParser):
    """DRF's JSON parser, refusing with a 400 what it would otherwise pass on to crash later
    or read in a way the client did not mean: JSON nested too deeply to decode, lone
    surrogates, NUL characters, infinite numbers, a key twice in one object (DuplicateKey)."""

    def decode(self, stream: IO[Any], media_type: str | None, context: _Context) -> Any:
        """As DRF's JSON parser reads it (its charset, its strictness about NaN and Infinity),
        but with no key twice in an object."""
        reader = codecs.getreader(get_encoding(context or {}))(stream)
        try:
            return json.load(
                reader,
                parse_constant=strict_constant if self.strict else None,
                object_pairs_hook=_object,
            )
        except ValueError as error:
            raise ParseError(f"JSON parse error - {error}") from None


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
