"""Template filters of the pages: places as ordinals, scores with thousands separators, and a
lookup in a dict by a key the template holds, and a match's planned start in its zone."""

from datetime import UTC, datetime
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django import template
from django.conf import settings
from django.utils.formats import date_format
from django.utils.html import format_html

register = template.Library()


@register.filter
def ordinal(value: object) -> str:
    """1 -> "1st", 2 -> "2nd", 11 -> "11th", 23 -> "23rd"; anything else as it is."""
    if type(value) is not int:
        return "" if value is None else str(value)
    suffix = "th" if 10 <= value % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(value % 10, "th")
    return f"{value}{suffix}"


@register.filter
def thousands(value: object) -> str:
    """12345 -> "12,345"; None -> ""; anything else as it is."""
    if value is None:
        return ""
    if type(value) is int:
        return f"{value:,}"
    return str(value)


@register.filter
def lookup(mapping: object, key: object) -> object:
    """`mapping[key]`, or None when it has no such key (or is not a mapping)."""
    if isinstance(mapping, dict):
        return mapping.get(key)
    return None


def local_planned(value: datetime, zone: str) -> datetime:
    """A planned start in the zone it was scheduled in (the site's when `zone` is empty)."""
    try:
        tz = ZoneInfo(zone or str(settings.TIME_ZONE))
    except (ZoneInfoNotFoundError, ValueError):
        tz = ZoneInfo(str(settings.TIME_ZONE))
    return value.astimezone(tz)


@register.filter
def planned_time(value: object, zone: object = "") -> str:
    """A match's planned start as `<time>`: "Sat 4 Jul 2026, 18:30 CEST" in `zone` (the zone
    it was scheduled in), the instant in UTC as its `datetime`. "" without a start."""
    if not isinstance(value, datetime):
        return ""
    local = local_planned(value, zone if isinstance(zone, str) else "")
    return format_html(
        '<time class="planned" datetime="{}">{}</time>',
        value.astimezone(UTC).isoformat().replace("+00:00", "Z"),
        date_format(local, "D j M Y, H:i T", use_l10n=False),
    )
