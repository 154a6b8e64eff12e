"""A stage's options, declared once: the bounds, choices and defaults `stage_create` takes
(docs/draw.md), and how the API and the organizer's page explain each. The API's serializer
and the page's form are built from these (STYLE.md, "Declare an input once"), so neither
keeps a copy of a bound or a help text."""

from dataclasses import dataclass
from typing import Any, Literal

from league.models import Seeding, StageFormat

# The most participants one stage takes (the API's limit on `participants` and `source_top`).
MAX_ENTRANTS = 512
# The most players a table sends on, Swiss rounds and round-robin groups a stage has.
MAX_ADVANCE = 4
MAX_ROUNDS = 50
MAX_GROUPS = 64
# A tiebreak order: at most this many metric keys, each at most this long.
MAX_TIEBREAK_KEYS = 20
MAX_TIEBREAK_KEY_LENGTH = 40


@dataclass(frozen=True, slots=True)
class StageOption:
    """One option of a stage's draw: a whole number from `low` to `high`, a yes or no, or one
    of `choices`. `default` is what `stage_create` takes when it is left out (None: the option
    is off, and may be sent as null). `help` explains it to an API client; `label` and
    `page_help` on the organizer's page (empty: the field's name, no hint)."""

    name: str
    kind: Literal["number", "yes_no", "choice"]
    default: Any
    low: int | None = None
    high: int | None = None
    choices: tuple[tuple[str, str], ...] = ()
    help: str = ""
    label: str = ""
    page_help: str = ""

    @property
    def nullable(self) -> bool:
        return self.default is None


TABLE_SIZE = StageOption(
    "table_size",
    "number",
    default=2,
    low=2,
    high=5,
    label="Table size",
    page_help="Players a table, 2 to 5.",
)
ADVANCE = StageOption(
    "advance",
    "number",
    default=1,
    low=1,
    high=MAX_ADVANCE,
    help="Single elimination: the top places of each table that go on (other formats: 1, or "
    "left out).",
    label="Go on",
    page_help="The top N of a table.",
)
ROUNDS = StageOption(
    "rounds",
    "number",
    default=None,
    low=1,
    high=MAX_ROUNDS,
    help="Swiss: how many rounds (default ceil(log2 N)); other formats: null, or left out.",
    page_help="Blank: as many as it takes to find a winner.",
)
GROUPS = StageOption(
    "groups",
    "number",
    default=1,
    low=1,
    high=MAX_GROUPS,
    help="Round robin: how many groups (other formats: 1, or left out).",
    page_help="1: everyone plays everyone.",
)
THIRD_PLACE = StageOption(
    "third_place",
    "yes_no",
    default=False,
    help="Single elimination: a match for third place.",
    label="Play for third place",
)
GRAND_FINAL_RESET = StageOption(
    "grand_final_reset",
    "yes_no",
    default=True,
    help="Double elimination: a second final when the losers' bracket wins the first.",
    label="Grand final reset",
    page_help="A second final when the winner of the losers bracket wins the first.",
)
SEEDING = StageOption(
    "seeding",
    "choice",
    default=Seeding.MANUAL,
    choices=tuple(Seeding.choices),
)
SOURCE_TOP = StageOption(
    "source_top",
    "number",
    default=None,
    low=2,
    high=MAX_ENTRANTS,
    help="From `source_stage`: its top N (in its final order) enter.",
    label="Take the top",
    page_help="The top N of the earlier stage's final order.",
)
SOURCE_PER_GROUP = StageOption(
    "source_per_group",
    "number",
    default=None,
    low=1,
    high=MAX_ENTRANTS,
    help="From a `source_stage` played in groups: the top N of each group enter (instead of "
    "`source_top`).",
    label="Or the top of each group",
    page_help="The top N of each group (instead of the top N overall).",
)
SOURCE_BEST_REST = StageOption(
    "source_best_rest",
    "number",
    default=0,
    low=0,
    high=MAX_ENTRANTS,
    help="With `source_per_group`: the best k of the others enter too, best by their place in "
    "their group, then by the source's tiebreak metrics (never head-to-head).",
    label="And the best of the rest",
    page_help="With the top of each group: the best N of the others too.",
)

# The options of the draw, by name, each with a default `stage_create` takes when it is left
# out (the rest of its options, `name`, `format`, the players and the source, have none).
DRAW_OPTIONS: dict[str, StageOption] = {
    option.name: option
    for option in (
        TABLE_SIZE,
        ADVANCE,
        ROUNDS,
        GROUPS,
        THIRD_PLACE,
        GRAND_FINAL_RESET,
        SEEDING,
        SOURCE_TOP,
        SOURCE_PER_GROUP,
        SOURCE_BEST_REST,
    )
}

# The options of the draw each format plays with (the organizer pages show these alone); any
# other is at its default, here as in `stage_create`, or refused: stored, it would do nothing.
FORMAT_OPTIONS: dict[str, frozenset[str]] = {
    StageFormat.ROUND_ROBIN: frozenset({"table_size", "groups"}),
    StageFormat.SWISS: frozenset({"table_size", "rounds"}),
    StageFormat.SINGLE_ELIMINATION: frozenset({"table_size", "advance", "third_place"}),
    StageFormat.DOUBLE_ELIMINATION: frozenset({"grand_final_reset"}),
}

# The options only some formats take, refused at anything but their default by the others
# (`table_size` and `groups` have rules of their own).
FORMAT_OPTION_DEFAULTS: dict[str, Any] = {
    name: DRAW_OPTIONS[name].default
    for name in ("advance", "rounds", "third_place", "grand_final_reset")
}
