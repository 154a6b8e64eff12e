"""Rendered tables of the pages (standings, leaderboards), kept in the cache under the stored
version of what they show.

A 1,000-row table takes longer to render than everything else on its page put together, and
it changes only when it is computed again. So each stored version of a table is rendered
once and then served from the cache (Redis in production, shared by every web process). The
key is everything the HTML depends on: the version of the data (a table's `requested`,
`computed` and `computed_at`, which every mark and every computation change), the caption and
the template's source. A new computation, a new mark (the "pending" line) or a deploy with a
changed template is a new key, so the page shows it at once; nothing is invalidated, old keys
expire. A cache that cannot be reached is skipped with a warning (as the rate limits are):
the table is then rendered for every request, as it was before.

Each web process also keeps the HTML it used last (`LOCAL_BYTES` in all, the least recently
used dropped first), so a busy page does not fetch its half-megabyte tables from Redis on every
request. The key is the same, and a key's HTML never changes, so this copy cannot be stale:
another version is another key."""

import hashlib
import logging
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from django.core.cache import cache
from django.template.loader import get_template, render_to_string
from django.utils.safestring import SafeString, mark_safe
from redis.exceptions import RedisError

from core.conditional import etag_of

logger = logging.getLogger(__name__)

# A version no longer asked for (the table was computed again) is dropped after this long.
KEEP_SECONDS = 24 * 60 * 60
# What each process keeps of the HTML it served last, in characters (a 1,000-row table is
# about 300,000).
LOCAL_BYTES = 16 * 1024 * 1024
WARN_EVERY = 60.0
_last_warning = [-WARN_EVERY]

Version = tuple[Hashable, ...]
# What `render_cached` calls on a miss: the context to render, and the version of the data in
# it (None when the data changed while it was read: rendered, but not kept).
Load = Callable[[], tuple[Version | None, dict[str, Any]]]


def _template_digest(name: str) -> str:
    """The template's own source, so that a deploy (or, in development, an edit) that changes
    it never serves old HTML. Production's cached template loader makes this a lookup."""
    source = get_template(name).template.source  # type: ignore[attr-defined]
    return hashlib.sha256(source.encode()).hexdigest()[:16]


def cache_key(template: str, version: Version) -> str:
    digest = hashlib.sha256(repr(version).encode()).hexdigest()[:32]
    return f"rendered:{template}:{_template_digest(template)}:{digest}"


def _unreachable(error: Exception) -> None:
    now = time.monotonic()
    if now - _last_warning[0] >= WARN_EVERY:
        _last_warning[0] = now
        logger.warning("Cache unreachable (%s); rendering tables without it.", error)


T = TypeVar("T")


class _Local(Generic[T]):
    """What this process used last (HTML, or a whole page), by key, within `limit` characters
    (least recently used dropped first), each until its `keep` runs out as in the shared cache.
    Thread-safe, for a threaded server."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.size = 0
        self.entries: OrderedDict[Hashable, tuple[T, float, int]] = OrderedDict()
        self.lock = threading.Lock()

    def get(self, key: Hashable) -> T | None:
        with self.lock:
            entry = self.entries.get(key)
            if entry is None:
                return None
            if entry[1] <= time.monotonic():
                self._drop(key)
                return None
            self.entries.move_to_end(key)
            return entry[0]

    def put(self, key: Hashable, value: T, keep: int, size: int | None = None) -> None:
        """Keep `value` (of `size` characters: by default its own length, for HTML)."""
        if size is None:
            size = len(str(value))
        if size > self.limit:
            return
        with self.lock:
            self._drop(key)
            self.entries[key] = (value, time.monotonic() + keep, size)
            self.size += size
            while self.size > self.limit:
                self._drop(next(iter(self.entries)))

    def _drop(self, key: Hashable) -> None:
        entry = self.entries.pop(key, None)
        if entry is not None:
            self.size -= entry[2]

    def clear(self) -> None:
        with self.lock:
            self.entries.clear()
            self.size = 0


_local: _Local[str] = _Local(LOCAL_BYTES)


def clear_local() -> None:
    """Forget this process's copies, tables and pages (tests that empty the cache call it
    too)."""
    _local.clear()
    clear_pages()


def clear_pages() -> None:
    """Forget this process's kept pages, not its tables (tests that count a page's queries
    when it is rendered)."""
    _pages.clear()


def render_cached(
    template: str, version: Version, load: Load, *, keep: int = KEEP_SECONDS
) -> SafeString:
    """`template` rendered with what `load()` returns, kept under `version`: the version of
    the data as just read, without loading the data itself. On a miss `load` reads the data
    again with its version (it may have moved on since): the HTML is kept under the version it
    was rendered from, for `keep` seconds in the shared cache."""
    key = cache_key(template, version)
    html = _local.get(key)
    if html is not None:
        return mark_safe(html)  # noqa: S308 - rendered by a template, which escapes what it shows
    try:
        shared: str | None = cache.get(key)
    except (RedisError, OSError) as error:
        _unreachable(error)
        return mark_safe(render_to_string(template, load()[1]))  # noqa: S308 - escaped by the template
    if shared is not None:
        # At most `keep` more here: the shared copy's own time left is not known.
        _local.put(key, shared, keep)
        return mark_safe(shared)  # noqa: S308 - rendered by a template, which escapes what it shows
    loaded, context = load()
    html = render_to_string(template, context)
    if loaded is not None:
        loaded_key = cache_key(template, loaded)
        try:
            cache.set(loaded_key, html, keep)
        except (RedisError, OSError) as error:
            _unreachable(error)
        else:
            _local.put(loaded_key, html, keep)
    return mark_safe(html)  # noqa: S308 - rendered by a template, which escapes what it shows


# --- Whole pages ------------------------------------------------------------------------------
#
# A page as anyone signed out sees it is the same bytes for every request until something it
# shows changes. Its view reads the version of everything it shows (the rows it prints, the
# versions of its tables, as above) in its few cheap queries; the rendered body is kept under
# that version with its ETag, so a repeat request renders nothing, hashes nothing and copies
# nothing through a template, and a conditional GET is answered 304 from the ETag alone.
# Pages are kept in this process only: a deploy is a new process, so no page outlives the
# templates and static files it was rendered with. So a page's key is its template's name and
# its version as they are, with no digest of the template's source (a process's cached template
# loader never reads a template again; in development, DEBUG, no page is kept) and no hash: a
# repeat request looks its page up with one dict lookup.

# What each process keeps of whole pages, in bytes (a 1,000-row league page is 0.67 MB).
PAGE_BYTES = 32 * 1024 * 1024


@dataclass(frozen=True, slots=True)
class Page:
    """A rendered page: its body and its strong ETag (of the body, as `core.conditional`)."""

    body: bytes
    etag: str


_pages: _Local[Page] = _Local(PAGE_BYTES)


def page_cached(
    template: str, version: Version, render: Callable[[], str], *, keep: int = KEEP_SECONDS
) -> Page:
    """`template` as `render()` renders it, kept under `version` (everything the page shows
    changes with it) for `keep` seconds: `render` runs only on a miss."""
    key = (template, version)
    page = _pages.get(key)
    if page is None:
        body = render().encode()
        page = Page(body=body, etag=etag_of(body))
        _pages.put(key, page, keep, len(body))
    return page
