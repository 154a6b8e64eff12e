"""What a name or a handle may be: a name as stored (`clean_name`, `checked_name`) and as two
names that look alike compare (`folded`); a handle made from a name (`handle_from_name`,
`free_handle`) or checked (`check_handle`), and the handles in use."""

import unicodedata
from collections.abc import Callable, Collection

from django.core.exceptions import ValidationError
from django.core.validators import validate_slug
from django.db.models import Q
from django.db.models.functions import Lower
from django.utils.text import slugify

from league import models
from league.errors import LeagueError
from scoring.json_input import brief

# Characters no name may hold: control and format characters (bidirectional overrides and
# isolates, zero-width spaces and joiners, soft hyphens, byte order marks), line and paragraph
# separators, surrogates, private-use and unassigned code points. They make two different
# names look alike, or a name reorder the text around it.
_REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})


def unshown_characters(text: str) -> list[str]:
    """The code points (`U+XXXX`, sorted) of `text`'s characters of `_REFUSED_CATEGORIES`:
    what no name, nor any other text shown on a page (a webhook's note), may hold."""
    return sorted(
        {f"U+{ord(c):04X}" for c in text if unicodedata.category(c) in _REFUSED_CATEGORIES}
    )


def clean_name(value: str, *, field: str) -> str:
    """A name as stored: Unicode NFC, every kind of space as one plain space, trimmed. A name
    holding a character of `_REFUSED_CATEGORIES`, or nothing, is refused (`invalid_name`)."""
    text = unicodedata.normalize("NFC", value)
    refused = unshown_characters(text)
    if refused:
        raise LeagueError(
            "invalid_name",
            f"{field} holds invisible or control characters ({', '.join(refused[:5])}); "
            "names are plain text.",
            details={"field": field, "characters": refused},
        )
    text = " ".join(text.split())
    if not text:
        raise LeagueError("invalid_name", f"{field} must not be blank.", details={"field": field})
    return text


def folded(name: str) -> str:
    """The form in which two names that look alike are equal: compatibility-normalised
    (full-width letters, ligatures) and case-folded."""
    return unicodedata.normalize("NFKC", name).casefold()


HANDLE_LENGTH = 40  # Player.handle's max_length


NAME_LENGTH = 80  # Player.display_name's max_length


# A handle numbered "-2", "-3", ... (up to "-99999") keeps this much of its base, so that it
# stays within HANDLE_LENGTH; a handle made from a name is no longer, so it keeps it whole.
NUMBERED_BASE = HANDLE_LENGTH - 6


def handle_from_name(name: str) -> str:
    """The handle a name gives: its slug in ASCII letters, digits and hyphens ("Zoë Ná" ->
    "zoe-na"), or "player" when it has none to make one from."""
    return slugify(name)[:NUMBERED_BASE].strip("-") or "player"


def handles_in_use(given: Collection[str], prefixes: Collection[str] = ()) -> set[str]:
    """The stored handles, lowercased, that are one of `given` or begin with one of `prefixes`,
    in any case of their letters (`Ada` is taken by `ada`: one reads as the other), in one
    query. Compare a handle with them lowercased."""
    lowered = models.Player.objects.annotate(lowered=Lower("handle"))
    matches = Q(lowered__in=[handle.lower() for handle in given])
    for prefix in prefixes:
        matches |= Q(lowered__startswith=prefix.lower())
    return set(lowered.filter(matches).values_list("lowered", flat=True))


def free_handle(base: str, taken: set[str]) -> str:
    """`base`, or `base-2`, `base-3`, ... (`base` cut to leave room for the number): the
    first not in `taken` (lowercased handles, `handles_in_use`)."""
    handle, number = base, 1
    while handle.lower() in taken:
        number += 1
        handle = f"{base[:NUMBERED_BASE]}-{number}"
    return handle


def checked_name(value: str, *, field: str = "display_name") -> str:
    """A player's name as stored (`clean_name`), at most `NAME_LENGTH` characters
    (`invalid_name`)."""
    name = clean_name(value, field=field)
    if len(name) > NAME_LENGTH:
        raise LeagueError(
            "invalid_name",
            f"A name has at most {NAME_LENGTH} characters; this one has {len(name)}.",
            details={"field": field},
        )
    return name


def passes(value: str, validate: Callable[[str], None], *, longest: int) -> bool:
    """Whether `value` has at most `longest` characters and passes a Django validator."""
    if len(value) > longest:
        return False
    try:
        validate(value)
    except ValidationError:
        return False
    return True


def check_handle(handle: str) -> None:
    """`invalid_handle` unless the handle is a slug (ASCII letters, digits, hyphens and
    underscores) of at most `HANDLE_LENGTH` characters."""
    if not passes(handle, validate_slug, longest=HANDLE_LENGTH):
        raise LeagueError(
            "invalid_handle",
            f"A handle is letters, digits, hyphens and underscores only, at most {HANDLE_LENGTH}"
            f" of them; {brief(handle)} is not.",
            details={"field": "handle"},
        )
