"""Shapes of the API's JSON. Reads come from models and `games.selectors`; writes are parsed
here and handed to services.

One module a resource:

- `base`: what every serializer builds on: ids, a body parsed (`validated`), JSON of the wrong
  type and unknown fields refused;
- `errors`: the one error shape, as the schema documents it;
- `organization`: players, rosters, leagues and events;
- `matches`: matches, seats, turns and boards; a match seated, a result, a turn taken back, an
  undo and a correction;
- `corrections`: what an undo, a correction or a void asks of the stages after it;
- `stages`: stages, their entries, forfeits and withdrawals;
- `analysis`: a finished match's analysis;
- `standings`: standings tables, the leaderboard and a player's rating history.

Callers use the names re-exported here (`from api import serializers as s`)."""

from api.serializers.analysis import (
    AnalysisPendingSerializer,
    MatchAnalysisSerializer,
    MatchForecastSerializer,
    PlayerAnalysisSerializer,
)
from api.serializers.base import (
    ID_IN_URL,
    ID_MAX,
    NoFields,
    RefusesUnknownFields,
    json_type_refused,
    validated,
)
from api.serializers.corrections import (
    RESEED_HELP,
    ReseedQuerySerializer,
    ReseedSerializer,
    VoidSerializer,
)
from api.serializers.errors import ErrorSerializer
from api.serializers.matches import (
    BoardSerializer,
    CorrectionSerializer,
    MatchAfterTurnSerializer,
    MatchCreateSerializer,
    MatchDetailSerializer,
    MatchSerializer,
    PadSerializer,
    ResultSerializer,
    ScorecardSerializer,
    SeatSerializer,
    StoredTurnSerializer,
    TakeBackSerializer,
    TurnCreatedSerializer,
    TurnNumberField,
    TurnSerializer,
    TurnVersionSerializer,
    UndoneTurnSerializer,
    UndoSerializer,
    YardkleScoreSerializer,
)
from api.serializers.organization import (
    EventCloseSerializer,
    EventSerializer,
    LeagueSerializer,
    PlayerSerializer,
    PlayerWriteSerializer,
    RosterAddSerializer,
)
from api.serializers.projections import (
    LeagueProjectionPendingSerializer,
    LeagueProjectionSerializer,
    PlayerChancesSerializer,
    ProjectionPendingSerializer,
    StageProjectionSerializer,
)
from api.serializers.stages import (
    ForfeitSerializer,
    ReplayedSlotSerializer,
    StageCreateSerializer,
    StageDetailSerializer,
    StageEntrySerializer,
    StageSerializer,
    StageUpdateSerializer,
    WithdrawalSerializer,
    WithdrawSerializer,
    option_field,
)
from api.serializers.standings import (
    LeaderboardRowSerializer,
    LeaderboardSerializer,
    RatingHistorySerializer,
    StandingRowSerializer,
    StandingsGroupSerializer,
    StandingsSerializer,
)

__all__ = [
    "ID_IN_URL",
    "ID_MAX",
    "RESEED_HELP",
    "AnalysisPendingSerializer",
    "BoardSerializer",
    "CorrectionSerializer",
    "ErrorSerializer",
    "EventCloseSerializer",
    "EventSerializer",
    "ForfeitSerializer",
    "LeaderboardRowSerializer",
    "LeaderboardSerializer",
    "LeagueProjectionPendingSerializer",
    "LeagueProjectionSerializer",
    "LeagueSerializer",
    "MatchAfterTurnSerializer",
    "MatchAnalysisSerializer",
    "MatchCreateSerializer",
    "MatchDetailSerializer",
    "MatchForecastSerializer",
    "MatchSerializer",
    "NoFields",
    "PadSerializer",
    "PlayerAnalysisSerializer",
    "PlayerChancesSerializer",
    "PlayerSerializer",
    "PlayerWriteSerializer",
    "ProjectionPendingSerializer",
    "RatingHistorySerializer",
    "RefusesUnknownFields",
    "ReplayedSlotSerializer",
    "ReseedQuerySerializer",
    "ReseedSerializer",
    "ResultSerializer",
    "RosterAddSerializer",
    "ScorecardSerializer",
    "SeatSerializer",
    "StageCreateSerializer",
    "StageDetailSerializer",
    "StageEntrySerializer",
    "StageProjectionSerializer",
    "StageSerializer",
    "StageUpdateSerializer",
    "StandingRowSerializer",
    "StandingsGroupSerializer",
    "StandingsSerializer",
    "StoredTurnSerializer",
    "TakeBackSerializer",
    "TurnCreatedSerializer",
    "TurnNumberField",
    "TurnSerializer",
    "TurnVersionSerializer",
    "UndoSerializer",
    "UndoneTurnSerializer",
    "VoidSerializer",
    "WithdrawSerializer",
    "WithdrawalSerializer",
    "YardkleScoreSerializer",
    "json_type_refused",
    "option_field",
    "validated",
]
