"""Standings: league points, metrics and tiebreaks on plain data, apart from the database
(docs/standings.md).

A service loads the finished results (and byes) of a stage, an event or a league, calls
`compute_standings` once, and stores the table; or keeps a `Tally` as JSON and adds one result
to it. Nothing here imports Django."""

from league.standings.errors import CODES, StandingsError
from league.standings.metrics import (
    DEFAULT_TIEBREAK_ORDER,
    METRICS,
    GroupMetric,
    Metric,
    TotalMetric,
    metrics_for,
    register,
    validate_tiebreak_order,
)
from league.standings.model import (
    GAMES,
    Bye,
    FinishOrder,
    GameName,
    MatchResult,
    PlayerId,
    SeatResult,
    Standing,
    check_result,
    effective_placements,
    finish_order,
)
from league.standings.points import LeaguePoints
from league.standings.ranking import (
    compute_standings,
    merge_groups,
    rank_for_cut,
    rank_standings,
)
from league.standings.tally import PlayerTally, Tally

__all__ = [
    "CODES",
    "DEFAULT_TIEBREAK_ORDER",
    "GAMES",
    "METRICS",
    "Bye",
    "FinishOrder",
    "GameName",
    "GroupMetric",
    "LeaguePoints",
    "MatchResult",
    "Metric",
    "PlayerId",
    "PlayerTally",
    "SeatResult",
    "Standing",
    "StandingsError",
    "Tally",
    "TotalMetric",
    "check_result",
    "compute_standings",
    "effective_placements",
    "finish_order",
    "merge_groups",
    "metrics_for",
    "rank_for_cut",
    "rank_standings",
    "register",
    "validate_tiebreak_order",
]
