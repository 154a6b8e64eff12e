"""The league app's models, one module a topic (all of the `league` app label):
`organization` (players, leagues with their rosters and the invitations of their organizers,
events), `stages` (stages, entries, the matches they draw, forfeits, byes), `tables` (stored
standings), `ratings`, `projections` (a stage's chances to qualify), `registration` (an event's
sign-up and check-in), `imports` (an event import run as a job) and `pages` (the versions the
public pages are kept under)."""

from league.models.imports import EventImportJob, ImportStatus
from league.models.organization import (
    Event,
    EventStatus,
    InvitationQuerySet,
    InvitationState,
    League,
    LeagueQuerySet,
    OrganizerInvitation,
    Player,
    PlayerQuerySet,
    default_tiebreak,
)
from league.models.pages import EventPage, LeaguePage
from league.models.projections import LeagueProjection, StageProjection
from league.models.ratings import PlayerRating, RatingChange, RatingsState
from league.models.registration import Registration, RegistrationStatus, SignUp
from league.models.stages import (
    ForfeitReason,
    Seeding,
    Stage,
    StageBye,
    StageEntry,
    StageForfeit,
    StageFormat,
    StageMatch,
    StageStatus,
    StageVoid,
    VoidOutcome,
)
from league.models.tables import (
    Scope,
    ScopeKey,
    StandingsRow,
    StandingsScope,
    StandingsTable,
    StandingsTally,
    standings_rows,
    with_rows,
)

__all__ = [
    "Event",
    "EventImportJob",
    "EventPage",
    "EventStatus",
    "ForfeitReason",
    "ImportStatus",
    "InvitationQuerySet",
    "InvitationState",
    "League",
    "LeaguePage",
    "LeagueProjection",
    "LeagueQuerySet",
    "OrganizerInvitation",
    "Player",
    "PlayerQuerySet",
    "PlayerRating",
    "RatingChange",
    "RatingsState",
    "Registration",
    "RegistrationStatus",
    "Scope",
    "ScopeKey",
    "Seeding",
    "SignUp",
    "Stage",
    "StageBye",
    "StageEntry",
    "StageForfeit",
    "StageFormat",
    "StageMatch",
    "StageProjection",
    "StageStatus",
    "StageVoid",
    "StandingsRow",
    "StandingsScope",
    "StandingsTable",
    "StandingsTally",
    "VoidOutcome",
    "default_tiebreak",
    "standings_rows",
    "with_rows",
]
