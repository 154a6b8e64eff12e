"""Template filters of the pages: places as ordinals, scores with thousands separators, and a
lookup in a dict by a key the template holds."""

from django import template

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
