"""The versions the league and event pages are kept rendered under, one query each, prepared
on the server (`core.prepared.fetch_one`): a repeat request of a page reads only its version,
and PostgreSQL parses and plans that statement once per connection instead of every time (its
planning took twice its execution); the read is also the request's health check of its
connection."""

from core.prepared import fetch_one
from core.replica import read_alias
from league import models

# The league page's version (`league.pages.views.league_context`), in one query: the league's
# row, its table and ratings without their rows, its matches' analyses (as
# `analysis.selectors.league_analysis_version`), its events as their lines show them, and its
# projection (the chances its table shows).
_LEAGUE_PAGE_VERSION = """
SELECT to_jsonb(l)::text,
       (SELECT jsonb_build_array(t.id, t.requested, t.computed, t.computed_at, t.tiebreak)::text
          FROM league_standingstable t
         WHERE t.scope = %(league_scope)s AND t.scope_id = l.id AND t.computed_at IS NOT NULL),
       (SELECT jsonb_build_array(r.requested, r.computed, r.computed_at)::text
          FROM league_ratingsstate r WHERE r.league_id = l.id),
       (SELECT jsonb_build_array(max(a.id), count(a.id))::text
          FROM analysis_matchanalysis a JOIN games_match m ON m.id = a.match_id
         WHERE m.league_id = l.id),
       (SELECT jsonb_agg(jsonb_build_array(e.id, e.name, e.date, e.venue, e.status)
                         ORDER BY e.date DESC, e.id)::text
          FROM league_event e WHERE e.league_id = l.id),
       (SELECT jsonb_build_array(p.version, p.computed_at)::text
          FROM league_leagueprojection p WHERE p.league_id = l.id)
  FROM league_league l
 WHERE l.slug = %(slug)s
"""


def league_page_version(slug: str) -> tuple[str | None, ...] | None:
    """Everything the league page shows changes with one of these, read in one query on
    PostgreSQL (None: no such league)."""
    return fetch_one(
        read_alias(),
        _LEAGUE_PAGE_VERSION,
        {"slug": slug, "league_scope": models.StandingsScope.LEAGUE.value},
    )


# The event page's version (`league.pages.views.event_context`), in one query: the event's row
# (with its `play_version`, which PostgreSQL's triggers move with every write of its matches,
# seats and stages), its league's, its sign-up's opening and deadline (passed or not: the page
# says whether it takes sign-ups), and the stored versions of its own table and its stages'
# tables, without their rows, and of its stages' projections (the chances their tables show).
_EVENT_PAGE_VERSION = """
SELECT to_jsonb(e)::text,
       to_jsonb(l)::text,
       (SELECT jsonb_build_array(s.open, s.deadline, s.deadline <= now())::text
          FROM league_signup s WHERE s.event_id = e.id),
       (SELECT jsonb_agg(jsonb_build_array(t.scope, t.scope_id, t.id, t.requested, t.computed,
                                           t.computed_at, t.tiebreak) ORDER BY t.id)::text
          FROM league_standingstable t
         WHERE t.computed_at IS NOT NULL
           AND ((t.scope = %(event_scope)s AND t.scope_id = e.id)
                OR (t.scope = %(stage_scope)s
                    AND t.scope_id IN (SELECT st.id FROM league_stage st
                                        WHERE st.event_id = e.id)))),
       (SELECT max(f.updated_at)::text
          FROM analysis_matchforecast f JOIN games_match m ON m.id = f.match_id
         WHERE m.event_id = e.id AND m.status = 'in_progress'),
       (SELECT jsonb_agg(jsonb_build_array(p.stage_id, p.version, p.computed_at)
                         ORDER BY p.stage_id)::text
          FROM league_stageprojection p JOIN league_stage st ON st.id = p.stage_id
         WHERE st.event_id = e.id)
  FROM league_event e JOIN league_league l ON l.id = e.league_id
 WHERE e.id = %(event)s
"""


def event_page_version(event_id: int) -> tuple[str | None, ...] | None:
    """Everything the event page shows changes with one of these (the sign-up's part, third,
    only matters to the page, not to its live part; the last, when the chances of its matches
    being played last changed), read in one query on PostgreSQL (None: no such event)."""
    return fetch_one(
        read_alias(),
        _EVENT_PAGE_VERSION,
        {
            "event": event_id,
            "event_scope": models.StandingsScope.EVENT.value,
            "stage_scope": models.StandingsScope.STAGE.value,
        },
    )
