"""The versions the league and event pages are kept rendered under, one row each
(`league.models.LeaguePage`, `EventPage`: PostgreSQL's triggers move them with every
transaction that writes what a page shows, league migration 0024), read by a statement
prepared on the server (`core.prepared.fetch_one`): a repeat request of a page reads only its
version, and the read is also the request's health check of its connection."""

from core.prepared import fetch_one
from core.replica import read_alias

# The league page's version (`league.pages.views.league_context`): its league's id and its
# page's count of changes (its row, its table's and ratings' stored versions, its analyses, its
# events' lines, its projection).
_LEAGUE_PAGE_VERSION = """
SELECT p.league_id, p.version
  FROM league_league l JOIN league_leaguepage p ON p.league_id = l.id
 WHERE l.slug = %(slug)s
"""


def league_page_version(slug: str) -> tuple[int, int] | None:
    """Everything the league page shows changes with its version (None: no such league, or no
    version kept for it)."""
    found = fetch_one(read_alias(), _LEAGUE_PAGE_VERSION, {"slug": slug})
    return None if found is None else (found[0], found[1])


# The event page's version (`league.pages.views.event_context`): its event's id, its page's
# count of changes (what its live part shows: the event's and league's rows, its matches,
# stages and their rows, its tables' and projections' stored versions, its matches' chances),
# its sign-up's count of changes and whether the sign-up's deadline has passed (the page says
# whether it takes sign-ups; its live part does not).
_EVENT_PAGE_VERSION = """
SELECT p.event_id, p.version, p.sign_up_version, p.sign_up_deadline <= now()
  FROM league_eventpage p
 WHERE p.event_id = %(event)s
"""


def event_page_version(event_id: int) -> tuple[int, int, int, bool | None] | None:
    """Everything the event page shows changes with one of these (the last two only matter to
    the page, not to its live part); None: no such event, or no version kept for it."""
    found = fetch_one(read_alias(), _EVENT_PAGE_VERSION, {"event": event_id})
    return None if found is None else (found[0], found[1], found[2], found[3])
