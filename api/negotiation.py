"""Content negotiation: DRF's, except that

- a `?format=` no renderer of the view has is 406 `not_acceptable` (naming the formats there
  are), as an `Accept` header nothing satisfies is. DRF answers it with a 404, which says the
  resource is not there when it is. A format suffix in the path (`leagues/a.b/`) is part of the
  path: a path no route has stays a 404;
- an `Accept` header's quality values count (RFC 9110, 12.5.1), which DRF ignores: a media
  range with `q=0` is one the client does not take (`application/json;q=0` alone is 406, not
  JSON; `text/html;q=0, */*` is not the browsable page), and of the formats the client takes,
  the one it weighs highest is served (`application/json;q=0.5, text/csv` is CSV where the
  answer comes as CSV). A format's weight is that of the most specific range naming it. Equal
  weights are settled as DRF settles them (the most specific range first, then the view's
  order of renderers);
- the 406 of an `Accept` header names the formats there are, as the one of `?format=` does;
- a `?format=` the answer comes in is served whatever the `Accept` header says (the address
  is explicit: `?format=csv` downloads the CSV from a client that sends `Accept:
  application/json`)."""

from collections.abc import Iterable
from typing import Any

from rest_framework.exceptions import NotAcceptable
from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.renderers import BaseRenderer
from rest_framework.request import Request
from rest_framework.utils.mediatypes import _MediaType


def _formats(renderers: Iterable[BaseRenderer]) -> str:
    return ", ".join(dict.fromkeys(str(renderer.format) for renderer in renderers))


def _quality(media_range: _MediaType) -> float:
    """The `q` of one media range of an Accept header: 1 when absent; a value that is no
    number from 0 to 1 reads as 1, as a range without one (the range is not dropped)."""
    text = str(media_range.params.get("q", "1")).strip()
    try:
        value = float(text)
    except ValueError:
        return 1.0
    return value if 0.0 <= value <= 1.0 else 1.0


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
            raise NotAcceptable(
                f"There is no format {asked[:40]!r} here; this answer comes as: "
                f"{_formats(renderers)}."
            )
        if format_suffix or asked:
            # The address names the format: it is served whatever the Accept header says.
            # A suffix no renderer has is DRF's 404 (super()'s filter_renderers).
            chosen = [r for r in renderers if r.format == (format_suffix or asked)]
            if not chosen:
                return super().select_renderer(request, renderers, format_suffix)
            return chosen[0], chosen[0].media_type
        weights = self._weights(request, renderers)
        best = max(weights, default=0.0)
        if best <= 0.0:
            raise NotAcceptable(
                "Nothing here satisfies the Accept header "
                f"{request.headers.get('accept', '')[:80]!r}; this answer comes as: "
                f"{_formats(renderers)} ("
                + ", ".join(dict.fromkeys(str(r.media_type) for r in renderers))
                + ")."
            )
        preferred = [r for r, weight in zip(renderers, weights, strict=True) if weight == best]
        return super().select_renderer(request, preferred, format_suffix)

    def _weights(self, request: Request, renderers: list[BaseRenderer]) -> list[float]:
        """Each renderer's quality: that of the most specific Accept range it matches (of the
        equally specific ones, the first), 0 when it matches none."""
        ranges = [_MediaType(token) for token in self.get_accept_list(request)] or [
            _MediaType("*/*")
        ]
        weights = []
        for renderer in renderers:
            own = _MediaType(renderer.media_type)
            matching = [r for r in ranges if own.match(r)]
            if not matching:
                weights.append(0.0)
                continue
            most_specific = max(matching, key=lambda r: r.precedence)
            weights.append(_quality(most_specific))
        return weights
