"""Sign-up and check-in of an event (docs/organizing.md, "Sign-up and check-in").

An event's organizers open its sign-up (`sign_up_set`): until a deadline, with an optional cap
of places and a waiting list beyond it, and optionally check-in. Players sign up
(`registration_create`: a name, a contact email, maybe a handle) or the organizers add them;
the organizers approve (`registration_approve`: linked to an existing player it matches, or a
new player, never merged behind anyone's back) or refuse. A refusal or a withdrawal frees a
place, and the first on the waiting list moves up. With check-in, a stage started seats only
the players checked in (`absent_dropped`, called by `stages.stage_start`).

Every write locks the event's sign-up row first, so places are counted one writer at a time.
A registration received, approved, refused or moved up is sent on commit as
`league.signals.registration_changed`, and an opened check-in window as `check_in_opened` by
`check_in_sweep` (beat): the notifications and webhooks hear of them (docs/notifications.md).

One module a use case:

- `sign_up`: the event's sign-up set, the waiting list, why it is closed;
- `keys`: a registration's private link, its key derived from a stored seed;
- `create`: a registration made (a sign-up, or a player the organizers add), its link mailed;
- `candidates`: the players a registration may be linked to;
- `decisions`: a registration approved, refused or withdrawn;
- `check_in`: a player checked in, the window announced, the absent dropped from a stage;
- `_common`: what they share: the locks, the waiting list moving up, the signal on commit.

Callers use the names re-exported here (`from league.services import registration`;
`registration.sign_up_set(...)`)."""

from league.services.registration._common import CLOSED_THEN, RegistrationConflict, places_taken
from league.services.registration.candidates import (
    Candidate,
    candidates_of,
    linkable,
    registration_candidates,
)
from league.services.registration.check_in import (
    CLOSED_STATUSES,
    absent_dropped,
    check_in_sweep,
    registration_check_in,
)
from league.services.registration.create import (
    EMAIL_LENGTH,
    SignedUp,
    mail_link,
    registration_create,
)
from league.services.registration.decisions import (
    registration_approve,
    registration_refuse,
    registration_withdraw,
)
from league.services.registration.keys import KEY_SALT, key_hash, link_key, registration_by_key
from league.services.registration.sign_up import closed_because, sign_up_set, waiting_position

__all__ = [
    "CLOSED_STATUSES",
    "CLOSED_THEN",
    "EMAIL_LENGTH",
    "KEY_SALT",
    "Candidate",
    "RegistrationConflict",
    "SignedUp",
    "absent_dropped",
    "candidates_of",
    "check_in_sweep",
    "closed_because",
    "key_hash",
    "link_key",
    "linkable",
    "mail_link",
    "places_taken",
    "registration_approve",
    "registration_by_key",
    "registration_candidates",
    "registration_check_in",
    "registration_create",
    "registration_refuse",
    "registration_withdraw",
    "sign_up_set",
    "waiting_position",
]
