"""Reads of the organization worth a name.

One module a subject, each answering in frozen dataclasses:

- `events`: leagues with their events, and an event's matches outside its stages;
- `matches`: a match and its seats as a result, and the version of its line in a list;
- `stages`: a stage's matches, draw (rounds or bracket slots), summary and entries;
- `standings`: stored standings tables;
- `ratings`: a league's leaderboard and a player's rating history;
- `page_versions`: the league and event pages' versions, one query each;
- `players`: a player's matches, places, stage finishes and ratings;
- `calendar`: the matches of a calendar feed.

Callers use the names re-exported here (`from league import selectors`;
`selectors.stage_detail(...)`)."""

from league.selectors.calendar import CALENDAR_MATCHES, calendar_matches
from league.selectors.events import (
    EventLine,
    LeagueEvents,
    MatchCounts,
    event_loose_match_counts,
    event_loose_match_versions,
    event_loose_matches,
    event_loose_matches_latest,
    league_events,
    leagues_with_events,
)
from league.selectors.matches import (
    MatchResult,
    MatchVersion,
    SeatResult,
    match_result,
    seat_result,
)
from league.selectors.page_versions import event_page_version, league_page_version
from league.selectors.players import (
    EventRef,
    ForfeitVoid,
    LeagueRating,
    Opponent,
    PlayerMatch,
    StageFinish,
    forfeit_voids,
    player_matches,
    player_placement_counts,
    player_ratings,
    player_stage_finishes,
)
from league.selectors.ratings import (
    Leaderboard,
    LeaderboardRow,
    RatingPoint,
    current_ratings,
    leaderboard,
    pre_match_ratings,
    rating_history,
    ratings_state,
)
from league.selectors.stages import (
    BracketSlot,
    Bye,
    Entry,
    Forfeit,
    StageDetail,
    StagePlay,
    StageRound,
    StageSummary,
    entered_stages,
    event_stages,
    stage_detail,
    stage_entries,
    stage_matches,
    stage_play,
    stage_projection,
    stage_summary,
)
from league.selectors.standings import (
    StandingsAnswer,
    standings_answer,
    standings_table,
    stored_standings,
)

__all__ = [
    "CALENDAR_MATCHES",
    "BracketSlot",
    "Bye",
    "Entry",
    "EventLine",
    "EventRef",
    "Forfeit",
    "ForfeitVoid",
    "Leaderboard",
    "LeaderboardRow",
    "LeagueEvents",
    "LeagueRating",
    "MatchCounts",
    "MatchResult",
    "MatchVersion",
    "Opponent",
    "PlayerMatch",
    "RatingPoint",
    "SeatResult",
    "StageDetail",
    "StageFinish",
    "StagePlay",
    "StageRound",
    "StageSummary",
    "StandingsAnswer",
    "calendar_matches",
    "current_ratings",
    "entered_stages",
    "event_loose_match_counts",
    "event_loose_match_versions",
    "event_loose_matches",
    "event_loose_matches_latest",
    "event_page_version",
    "event_stages",
    "forfeit_voids",
    "leaderboard",
    "league_events",
    "league_page_version",
    "leagues_with_events",
    "match_result",
    "player_matches",
    "player_placement_counts",
    "player_ratings",
    "player_stage_finishes",
    "pre_match_ratings",
    "rating_history",
    "ratings_state",
    "seat_result",
    "stage_detail",
    "stage_entries",
    "stage_matches",
    "stage_play",
    "stage_projection",
    "stage_summary",
    "standings_answer",
    "standings_table",
    "stored_standings",
]
