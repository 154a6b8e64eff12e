"""`read_only`: the decorator of a page that only shows (docs/pages.md): it takes GET and HEAD,
and answers any other method 405 with `Allow: GET, HEAD`, whoever asks.

Django's `require_safe` alone did not: the CSRF middleware looks at a POST, PUT, PATCH or
DELETE before the view does, so a client without the CSRF token (any client but the site's
own forms) got Django's 403 "CSRF verification failed" page for a method the page never
takes. A view that refuses every unsafe method has nothing for the CSRF check to guard, so
`read_only` exempts it from the check and lets `require_safe` answer."""

from collections.abc import Callable
from functools import wraps
from typing import Any, TypeVar, cast

from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_safe

from core.replica import anonymous_on_replica

V = TypeVar("V", bound=Callable[..., Any])


def read_only(view: V) -> V:
    """`view` taking GET and HEAD only (405 otherwise), answered before the CSRF check; a
    visitor not signed in reads from the read replica where there is one (`core.replica`)."""
    return cast(V, csrf_exempt(require_safe(wraps(view)(anonymous_on_replica(view)))))
