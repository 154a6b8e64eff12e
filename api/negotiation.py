"""Content negotiation: DRF's, except that a `?format=` no renderer of the view has is 406
`not_acceptable` (naming the formats there are), as an `Accept` header nothing satisfies is.
DRF answers it with a 404, which says the resource is not there when it is. A format suffix
in the path (`leagues/a.b/`) is part of the path: a path no route has stays a 404."""

from collections.abc import Iterable
from typing import Any

from rest_framework.exceptions import NotAcceptable
from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.renderers import BaseRenderer
from rest_framework.request import Request


class FormatNegotiation(DefaultContentNegotiation):
    def select_renderer(
        self,
        request: Request,
        renderers: Iterable[BaseRenderer],
        format_suffix: str | None = None,
    ) -> Any:
        renderers = list(renderers)
        asked = request.query_params.get(self.settings.URL_FORMAT_OVERRIDE or "format")
        if format_suffix is None and asked and all(r.format != asked for r in renderers):
            formats = ", ".join(dict.fromkeys(str(renderer.format) for renderer in renderers))
            raise NotAcceptable(
                f"There is no format {asked[:40]!r} here; this answer comes as: {formats}."
            )
        return super().select_renderer(request, renderers, format_suffix)
