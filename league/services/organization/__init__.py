"""Writes of the organization: leagues, events (and their status), players and rosters, and
seating a match.

One module a use case:

- `names`: what a name or a handle may be (the rules every name follows, handles made and
  checked);
- `leagues`: a league made and changed (its address, settings and rules), and its organizers;
- `invitations`: an organizer's invitation to a co-organizer by email, revoked or accepted;
- `events`: an event made and changed, and its status as it is played, closed and reopened;
- `players`: players made, renamed and put on a roster, one or a file of them;
- `merges`: two players who are one person, merged;
- `matches`: a match seated at a league or at one of its events;
- `_common`: what they share: a name compared with a roster's, an update's names and fields,
  a ruleset checked, an address or a handle refused as taken.

Callers use the names re-exported here (`from league.services import organization`;
`organization.league_create(...)`)."""

from league.services.organization.events import (
    CLOSED_STATUSES,
    OPEN_MATCH_STATUSES,
    event_close,
    event_create,
    event_play_over,
    event_play_started,
    event_reopen,
    event_rules_checked,
    event_update,
    ruleset_for_event,
)
from league.services.organization.invitations import (
    InvitationAccepted,
    InvitationSent,
    ensure_invitation_usable,
    invitation_accept,
    invitation_accept_new_account,
    invitation_by_token,
    invitation_create,
    invitation_mail,
    invitation_revoke,
    time_words,
)
from league.services.organization.leagues import (
    RESERVED_SLUGS,
    check_slug,
    league_create,
    league_organizer_add,
    league_organizer_remove,
    league_update,
)
from league.services.organization.matches import match_create
from league.services.organization.merges import PlayerMerge, player_merge, player_merge_check
from league.services.organization.names import (
    HANDLE_LENGTH,
    NAME_LENGTH,
    NUMBERED_BASE,
    check_handle,
    checked_name,
    clean_name,
    folded,
    free_handle,
    handle_from_name,
    handles_in_use,
    passes,
    unshown_characters,
)
from league.services.organization.players import (
    NewPlayer,
    RowProblem,
    ensure_handle_free,
    ensure_on_roster,
    player_create,
    player_update,
    players_create,
    roster_add,
)

__all__ = [
    "CLOSED_STATUSES",
    "HANDLE_LENGTH",
    "NAME_LENGTH",
    "NUMBERED_BASE",
    "OPEN_MATCH_STATUSES",
    "RESERVED_SLUGS",
    "InvitationAccepted",
    "InvitationSent",
    "NewPlayer",
    "PlayerMerge",
    "RowProblem",
    "check_handle",
    "check_slug",
    "checked_name",
    "clean_name",
    "ensure_handle_free",
    "ensure_invitation_usable",
    "ensure_on_roster",
    "event_close",
    "event_create",
    "event_play_over",
    "event_play_started",
    "event_reopen",
    "event_rules_checked",
    "event_update",
    "folded",
    "free_handle",
    "handle_from_name",
    "handles_in_use",
    "invitation_accept",
    "invitation_accept_new_account",
    "invitation_by_token",
    "invitation_create",
    "invitation_mail",
    "invitation_revoke",
    "league_create",
    "league_organizer_add",
    "league_organizer_remove",
    "league_update",
    "match_create",
    "passes",
    "player_create",
    "player_merge",
    "player_merge_check",
    "player_update",
    "players_create",
    "roster_add",
    "ruleset_for_event",
    "time_words",
    "unshown_characters",
]
