"""Paging of list answers, with bounds: a huge `limit` or `offset` is clamped instead of
overflowing the database's 64-bit LIMIT/OFFSET (a 500), and one that is no number of its
range (`limit=abc`, `limit=0`, `offset=-5`, `limit=1.5`) is 400 `invalid`, where DRF would
quietly page by its default."""

import re
from typing import Any

from rest_framework.exceptions import ValidationError
from rest_framework.pagination import LimitOffsetPagination
from rest_framework.request import Request

_DIGITS = re.compile(
    r"[0-9]{1,30}"
)  # ASCII digits only (int() also takes "+1", " 1", Arabic-Indic digits)


class BoundedLimitOffsetPagination(LimitOffsetPagination):
    default_limit = 50
    max_limit = 500
    max_offset = 10**9

    def get_limit(self, request: Request) -> int:
        limit = _number(request, self.limit_query_param, least=1)
        return self.default_limit if limit is None else min(limit, self.max_limit)

    def get_offset(self, request: Request) -> int:
        offset = _number(request, self.offset_query_param, least=0)
        return 0 if offset is None else min(offset, self.max_offset)

    def get_schema_operation_parameters(self, view: Any) -> list[dict[str, Any]]:
        """DRF's two parameters, with the least value each takes (a larger limit than
        `max_limit` is not refused: it gives `max_limit` rows)."""
        least = {self.limit_query_param: 1, self.offset_query_param: 0}
        parameters: list[dict[str, Any]] = super().get_schema_operation_parameters(view)
        for parameter in parameters:
            parameter["schema"]["minimum"] = least[parameter["name"]]
        return parameters


def _number(request: Request, name: str, *, least: int) -> int | None:
    """The query parameter `name` as a whole number of at least `least` (None when absent or
    empty); 400 `invalid` naming it otherwise. Larger than 30 digits reads as 10**30: the
    caller clamps it anyway."""
    text = request.query_params.get(name, "")
    if text == "":
        return None
    digits = text if _DIGITS.fullmatch(text) else None
    if digits is None and re.fullmatch(r"[0-9]+", text):
        digits = "1" + "0" * 30  # too many digits to matter: clamped by the caller
    if digits is None or int(digits) < least:
        raise ValidationError({name: [f"A whole number from {least} is required."]})
    return int(digits)
