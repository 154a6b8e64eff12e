"""The lists' filters (django-filter), with their query parameters held to what a list takes."""

from typing import Any

from django.db.models import QuerySet
from django_filters.rest_framework import DjangoFilterBackend  # type: ignore[import-untyped]
from rest_framework.exceptions import ValidationError
from rest_framework.request import Request

from scoring.json_input import key_name

# Every list also takes its page (`limit`, `offset`) and `format`.
ALWAYS = frozenset({"limit", "offset", "format"})


class KnownParameters(DjangoFilterBackend):
    """A list's query parameters are its filters, its page and `format`: any other is refused
    (400 `invalid`, named in `details.fields`), never ignored. `GET events/?league=x` for
    `?league__slug=x` listed every event, as if filtered."""

    def filter_queryset(self, request: Request, queryset: QuerySet[Any], view: Any) -> Any:
        if getattr(view, "action", None) == "list":
            filterset = self.get_filterset_class(view, queryset)
            known = ALWAYS | set(filterset.base_filters if filterset is not None else ())
            if unknown := [key for key in request.query_params if key not in known]:
                takes = ", ".join(sorted(known))
                raise ValidationError(
                    {
                        key_name(key): [f"No such query parameter; this list takes {takes}."]
                        for key in unknown
                    }
                )
        return super().filter_queryset(request, queryset, view)
