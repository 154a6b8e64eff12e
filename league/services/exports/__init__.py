"""An event as one JSON file, and that file played again into an empty league.

`event_export` writes everything an event is: the league's game and settings, its players
(names and handles, nothing private), its stages with their entries, every match with every
turn as it stands (a corrected turn as corrected), and its standings computed afresh. The file
follows `league/schemas/event-export.schema.json` (docs/api.md, "Event export and import").

`event_import` replays such a file through the services, as if the event were played again:
it creates the players (on the league's roster), the event and its stages (each seeded as the
file lists its entries; a fed stage in draft that was started once keeps the entries the file
lists for it, who withdrew too), starts each stage, plays each match at the point in time it was
played (by its times in the file), turn by turn through the rulebook, and withdraws players and
voids stage matches when they were (with the outcome chosen then; a withdrawal from a stage
that had finished marks the entry, as `event_withdraw` did), so every draw, bracket move and
table follows from play as it did the first time. Then it compares each stage and match it
made (options, result, seats, turns' points) and every table of the new event with the file's:
the import stands only if each matches, else nothing is kept. It is one transaction: a bad
file, a foreign one or a replay that does not give the file's results changes nothing.

One module a part:

- `export`: the event written as the file has it (`event_export`);
- `checks`: the file's checks, before anything is made (`check_export`);
- `importing`: the league checked and the replay run, all or nothing (`event_import`);
- `replay`: the replay itself, step by step, then compared with the file;
- `_common`: what they share: the file's format and schema, its times read back, the fields
  compared.

Callers use the names re-exported here (`from league.services import exports`;
`exports.event_export(...)`)."""

from league.services.exports._common import FORMAT, SCHEMA_PATH, VERSION, export_schema
from league.services.exports.checks import check_export
from league.services.exports.export import event_export
from league.services.exports.importing import EventImport, ensure_importable, event_import

__all__ = [
    "FORMAT",
    "SCHEMA_PATH",
    "VERSION",
    "EventImport",
    "check_export",
    "ensure_importable",
    "event_export",
    "event_import",
    "export_schema",
]
