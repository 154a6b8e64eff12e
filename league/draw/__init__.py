"""The draw: pure algorithms for the stages of an event, apart from the database as Tabbycat
keeps its `draw/generator/` (docs/draw.md). A service loads rows, calls these functions on plain
values, and saves what they return.

- Seeding: `random_seeding`, `rating_seeding`, `snake_groups`, `qualifiers`, `group_qualifiers`,
  `groups_apart` (group-mates meet late in the next stage).
- Round robin and groups: `round_robin`, `group_round_robin` (at tables, from the known designs
  of `designs`, the catalogue of `catalogue` searched by `make_schedules`, or the searches of
  `covering`).
- Swiss: `swiss_round` for one round from the standings (at tables, seated by `seating`),
  `swiss_rounds` for how many.
- Elimination: `single_elimination`, `double_elimination` draw a whole `Bracket`;
  `advance_bracket` says where it stands given the results; `dependent_slots` says which later
  slots a result feeds; `meeting_rounds` when two seeds can first meet; `rematches`
  measures the double-elimination drop orders.
"""

from league.draw.advancement import Tiebreak, advance_bracket, dependent_slots
from league.draw.elimination import (
    double_elimination,
    first_round,
    link_slots,
    meeting_rounds,
    single_elimination,
)
from league.draw.errors import CODES, DrawError
from league.draw.model import (
    Bracket,
    BracketName,
    BracketState,
    Exit,
    PlayerId,
    Round,
    Slot,
    SlotResult,
    SlotState,
    SlotStatus,
    Source,
    SourceKind,
    Table,
    slot_states_from_json,
    slot_states_to_json,
)
from league.draw.round_robin import group_round_robin, round_robin
from league.draw.seeding import (
    bracket_order,
    group_qualifiers,
    groups_apart,
    qualifiers,
    random_seeding,
    rating_seeding,
    snake_groups,
    table_sizes,
)
from league.draw.swiss import SwissStanding, swiss_round, swiss_rounds

__all__ = [
    "CODES",
    "Bracket",
    "BracketName",
    "BracketState",
    "DrawError",
    "Exit",
    "PlayerId",
    "Round",
    "Slot",
    "SlotResult",
    "SlotState",
    "SlotStatus",
    "Source",
    "SourceKind",
    "SwissStanding",
    "Table",
    "Tiebreak",
    "advance_bracket",
    "bracket_order",
    "dependent_slots",
    "double_elimination",
    "first_round",
    "group_qualifiers",
    "group_round_robin",
    "groups_apart",
    "link_slots",
    "meeting_rounds",
    "qualifiers",
    "random_seeding",
    "rating_seeding",
    "round_robin",
    "single_elimination",
    "slot_states_from_json",
    "slot_states_to_json",
    "snake_groups",
    "swiss_round",
    "swiss_rounds",
    "table_sizes",
]
