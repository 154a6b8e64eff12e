"""A file checked before anything is made from it: its format, version and schema, and that its
ids refer to things of the file (`check_export`)."""

from collections.abc import Callable, Mapping
from datetime import datetime
from typing import Any, Final

import jsonschema

from games.limits import turn_limit
from league.errors import LeagueError
from league.services.exports._common import FORMAT, VERSION, export_schema
from scoring.json_input import brief


def _brief_unless_number(value: object) -> object:
    """A value a refusal's details give back: a number as it is, anything else cut short
    (`brief`: a file's field may be any size)."""
    return value if isinstance(value, int | float) else brief(value)


def check_export(data: object) -> dict[str, Any]:
    """The file as a dict, once it is an event export this server reads (LeagueError, 400,
    otherwise): `not_an_event_export` (not a JSON object, or no `format` of ours),
    `unsupported_export_version`, `invalid_export` (the schema's first complaint, with where in
    the file: `details.path`), or ids that refer to nothing in the file."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise LeagueError(
            "not_an_event_export",
            f'This is not an event export: its "format" must be "{FORMAT}".',
            details={"field": "format"},
        )
    if data.get("version") != VERSION:
        raise LeagueError(
            "unsupported_export_version",
            f"This server reads version {VERSION} of event exports, not "
            f"{brief(data.get('version'))}.",
            details={"field": "version", "version": _brief_unless_number(data.get("version"))},
        )
    validator = jsonschema.Draft202012Validator(export_schema(), format_checker=FORMATS)
    error = jsonschema.exceptions.best_match(validator.iter_errors(data))
    if error is not None:
        path = "/".join(str(part) for part in error.absolute_path)
        raise LeagueError(
            "invalid_export",
            f"The file does not follow the event export schema at /{path}: {error.message}",
            details={"path": f"/{path}"},
        )
    _check_references(data)
    return data


# The schema's formats, "date-time" among them: jsonschema checks it only with an optional
# package this project does not install, so it is checked here as the replay reads it (an
# ISO 8601 time the standard library reads, with its offset: times of the file are compared).
FORMATS: Final = jsonschema.FormatChecker()


@FORMATS.checks("date-time", raises=ValueError)
def _is_date_time(value: object) -> bool:
    if not isinstance(value, str):
        return True  # the type is the schema's to check
    return datetime.fromisoformat(value).tzinfo is not None


def _check_references(data: dict[str, Any]) -> None:
    players = {player["id"] for player in data["players"]}
    stages = {stage["id"] for stage in data["stages"]}

    def refused(where: str, message: str) -> LeagueError:
        return LeagueError("invalid_export", message, details={"path": where})

    if len(players) != len(data["players"]):
        raise refused("/players", "Two players of the file have the same id.")
    if len(stages) != len(data["stages"]):
        raise refused("/stages", "Two stages of the file have the same id.")
    # Stages are made in the order of their positions: one is fed by a stage made before it.
    made: set[int] = set()
    for stage in sorted(data["stages"], key=lambda s: s["position"]):
        number = data["stages"].index(stage)
        if stage["source_stage"] is not None and stage["source_stage"] not in made:
            raise refused(
                f"/stages/{number}/source_stage",
                "It names no stage of the file before this one (by position).",
            )
        made.add(stage["id"])
    for number, stage in enumerate(data["stages"]):
        for entry in stage["entries"]:
            if entry["player"] not in players:
                raise refused(f"/stages/{number}/entries", f"Player {entry['player']} is unknown.")
    matches = {match["id"]: match for match in data["matches"]}
    for number, stage in enumerate(data["stages"]):
        for void in stage["voids"]:
            voided = matches.get(void["match"])
            if voided is None or voided["stage"] != stage["id"]:
                raise refused(f"/stages/{number}/voids", f"Match {void['match']} is unknown.")
            if any(p not in players for p in void["forfeits"]):
                raise refused(f"/stages/{number}/voids", "A forfeit names an unknown player.")
    seen: set[int] = set()
    for number, match in enumerate(data["matches"]):
        if match["id"] in seen:
            raise refused(f"/matches/{number}/id", "Two matches of the file have the same id.")
        seen.add(match["id"])
        if match["stage"] is not None and match["stage"] not in stages:
            raise refused(f"/matches/{number}/stage", "It names no stage of the file.")
        for seat in match["seats"]:
            if seat["player"] not in players:
                raise refused(f"/matches/{number}/seats", f"Player {seat['player']} is unknown.")
        if match["game"] != data["league"]["game"]:
            raise refused(f"/matches/{number}/game", "A match of another game than the league's.")
        _check_turns(match, number, refused)
        if match.get("pad") is not None and match["turns"]:
            raise refused(
                f"/matches/{number}/pad",
                "A match entered from its paper pad has no turns: the file gives both.",
            )
    # An export lists the players its matches seat and its stages enter, and no one else.
    seated = {seat["player"] for match in data["matches"] for seat in match["seats"]}
    entered = {entry["player"] for stage in data["stages"] for entry in stage["entries"]}
    unseated = sorted(players - seated - entered)
    if unseated:
        raise LeagueError(
            "invalid_export",
            f"{len(unseated)} player{'s' if len(unseated) > 1 else ''} of the file "
            f"(first: {unseated[0]}) play in no match and enter no stage of it: an export lists "
            "only the players of its event.",
            details={"path": "/players", "players": unseated[:20]},
        )


def _check_turns(
    match: Mapping[str, Any], number: int, refused: Callable[[str, str], LeagueError]
) -> None:
    """A match's turns are numbered 1, 2, 3, ... and are at most as many as its game takes
    (`games.limits`): an import's replay costs what the file's turns cost, and no more."""
    sequences = sorted(turn["sequence"] for turn in match["turns"])
    if sequences != list(range(1, len(sequences) + 1)):
        raise refused(
            f"/matches/{number}/turns",
            "The turns of a match are numbered 1, 2, 3, ..., each once.",
        )
    rules = match["rules"] if isinstance(match["rules"], dict) else {}
    limit = turn_limit(match["game"], len(match["seats"]), rules)
    if len(sequences) > limit:
        error = refused(
            f"/matches/{number}/turns",
            f"Match {match['id']} has {len(sequences)} turns; a game of {match['game']} with "
            f"{len(match['seats'])} players takes at most {limit}.",
        )
        error.details["limit"] = limit
        raise error
