"""The API's views: parse, check permission, call one service, answer. No rules here.

One module a resource or use case:

- `auth`: a token for a username and password;
- `advice`: the ranked options for one position;
- `players`, `leagues`, `events`, `stages`: those resources, their rosters, stages, standings and
  ratings, and an organizer's writes of them;
- `matches`: a match seated, read, and scored turn by turn or all at once, its turns taken back,
  undone and corrected, the match voided, its analysis;
- `_common`: what several of them share: whether an action reads, the schema's error answers,
  headers and examples, the table renderers and the standings answer.

`api.urls` routes to the names re-exported here."""

from api.views._common import (
    CSV_PARAMETER,
    ERRORS,
    IDEMPOTENCY_KEY,
    SCORE_KEY,
    STANDINGS_SCHEMA,
    TABLE_RENDERERS,
    YARDKLE_TURN,
    YARDZEE_TURN,
    reads,
    standings_response,
)
from api.views.advice import AdviceView
from api.views.auth import TokenLoginView
from api.views.events import EventViewSet
from api.views.leagues import LeagueViewSet
from api.views.matches import MatchViewSet
from api.views.players import PlayerFilter, PlayerViewSet
from api.views.stages import StageViewSet

__all__ = [
    "CSV_PARAMETER",
    "ERRORS",
    "IDEMPOTENCY_KEY",
    "SCORE_KEY",
    "STANDINGS_SCHEMA",
    "TABLE_RENDERERS",
    "YARDKLE_TURN",
    "YARDZEE_TURN",
    "AdviceView",
    "EventViewSet",
    "LeagueViewSet",
    "MatchViewSet",
    "PlayerFilter",
    "PlayerViewSet",
    "StageViewSet",
    "TokenLoginView",
    "reads",
    "standings_response",
]
